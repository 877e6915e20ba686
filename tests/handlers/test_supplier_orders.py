"""Purchases, re-pricing, inventory, the charge ledger, cancellation and voids."""

import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from handlers.common.clock import FrozenClock
from handlers.common.formats import money_text
from handlers.common.stores import InMemoryKeyValueStore
from handlers.supplier import SandboxSupplier, SupplierError
from handlers.supplier.money import money

NOW = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
LEG = {"origin": "EWR", "destination": "DEN", "depart_date": "2027-01-30", "passengers": {"adults": 1}}
CARD = {"id": "pm_1", "brand": "visa", "last4": "4242"}


@pytest.fixture
def clock():
    return FrozenClock(NOW)


@pytest.fixture
def supplier(clock):
    return SandboxSupplier(InMemoryKeyValueStore(), seed=7, clock=clock)


def offer_where(supplier, test, **leg):
    return next(o for o in supplier.search_flights(**{**LEG, **leg}) if o["hold_policy"]["holdable"] and test(o))


def hold_on(supplier, offer, key="h1"):
    return supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key=key)


def buy(supplier, hold, key="p1"):
    amount = supplier.price_hold(hold["hold_id"])["amount"]
    return supplier.purchase(hold_id=hold["hold_id"], amount_due=amount, payment_method=CARD, idempotency_key=key)


def charges(supplier):
    return [c for c in supplier.charges() if c["kind"] == "charge"]


def test_purchase_confirms_with_a_record_locator_and_one_charge(supplier):
    hold = hold_on(supplier, offer_where(supplier, lambda o: True))
    order = buy(supplier, hold)
    assert order["status"] == "confirmed" and len(order["record_locator"]) == 6 and order["replayed"] is False
    assert supplier.get_hold(hold["hold_id"])["status"] == "purchased"
    assert [c["amount"] for c in charges(supplier)] == [hold["held_total"]["amount"]]


def test_a_replayed_purchase_returns_the_same_order_and_charges_once(supplier, clock):
    hold = hold_on(supplier, offer_where(supplier, lambda o: True))
    first = buy(supplier, hold)
    clock.advance(minutes=3)
    again = supplier.purchase(hold_id=hold["hold_id"], amount_due="1.00", payment_method=CARD, idempotency_key="p1")
    assert again["replayed"] is True and again["order_id"] == first["order_id"]
    assert again["record_locator"] == first["record_locator"]
    assert len(charges(supplier)) == 1


def test_within_the_guarantee_the_held_price_stands(supplier, clock):
    hold = hold_on(supplier, offer_where(supplier, lambda o: True))
    clock.advance(minutes=30)
    quote = supplier.price_hold(hold["hold_id"])
    assert quote["amount"] == hold["held_total"]["amount"] and quote["repriced"] is False


def test_after_the_guarantee_the_price_moves_by_a_seeded_amount(supplier, clock):
    hold = hold_on(supplier, offer_where(supplier, lambda o: True))
    clock.set(datetime.fromisoformat(hold["price_guarantee_expires_at"]))
    quote = supplier.price_hold(hold["hold_id"])
    held = money(hold["held_total"]["amount"])
    assert quote["repriced"] and abs(money(quote["amount"]) - held) <= held * Decimal("0.061")
    assert supplier.price_hold(hold["hold_id"]) == quote  # the same move every time it is asked


def test_paying_a_stale_price_is_refused_with_the_current_one(supplier, clock):
    hold = hold_on(supplier, offer_where(supplier, lambda o: True))
    clock.set(datetime.fromisoformat(hold["price_guarantee_expires_at"]))
    current = supplier.price_hold(hold["hold_id"])["amount"]
    with pytest.raises(SupplierError) as err:
        supplier.purchase(
            hold_id=hold["hold_id"], amount_due=hold["held_total"]["amount"], payment_method=CARD, idempotency_key="p"
        )
    assert err.value.code == "price_changed" and err.value.details["current_amount"] == current
    assert err.value.message == f"The price is now {money_text(current, 'USD')}.", "read as the chat reads money"
    assert charges(supplier) == []


def test_inventory_runs_out_and_the_last_buyer_is_refused(supplier):
    offer = offer_where(supplier, lambda o: o["seats_remaining"] <= 3)
    holds = [hold_on(supplier, offer, key=f"h{i}") for i in range(offer["seats_remaining"] + 1)]
    for i, hold in enumerate(holds[:-1]):
        buy(supplier, hold, key=f"p{i}")
    with pytest.raises(SupplierError) as err:
        buy(supplier, holds[-1], key="last")
    assert err.value.code == "sold_out"
    assert supplier.get_hold(holds[-1]["hold_id"])["status"] == "failed"
    assert len(charges(supplier)) == offer["seats_remaining"]
    assert offer["offer_id"] not in {o["offer_id"] for o in supplier.search_flights(**LEG)}  # sold out: not offered
    with pytest.raises(SupplierError) as err:
        hold_on(supplier, offer, key="after")
    assert err.value.code == "sold_out"


def test_refundable_fare_cancellation_quote_then_confirm(supplier, clock):
    offer = offer_where(supplier, lambda o: o["conditions"]["refund_before_departure"]["allowed"])
    order = buy(supplier, hold_on(supplier, offer))
    quote = supplier.cancel_quote(order["order_id"])
    assert money(quote["refund_amount"]) == money(order["charged"]["amount"]) - money(
        offer["conditions"]["refund_before_departure"]["penalty_amount"]
    )
    clock.advance(minutes=5)
    done = supplier.cancel_confirm(quote["quote_id"])
    assert done["status"] == "cancelled" and done["refund_amount"] == quote["refund_amount"]
    assert supplier.get_order(order["order_id"])["status"] == "cancelled"
    assert supplier.cancel_confirm(quote["quote_id"])["replayed"] is True
    refunds = [c for c in supplier.charges() if c["kind"] == "refund"]
    assert [money(r["amount"]) for r in refunds] == [-money(quote["refund_amount"])]


def test_nonrefundable_fare_refunds_nothing(supplier):
    offer = offer_where(supplier, lambda o: not o["conditions"]["refund_before_departure"]["allowed"])
    order = buy(supplier, hold_on(supplier, offer))
    assert supplier.cancel_quote(order["order_id"])["refund_amount"] == "0.00"


def test_an_unpaid_hold_cancels_for_zero_and_is_released(supplier):
    hold = hold_on(supplier, offer_where(supplier, lambda o: True))
    quote = supplier.cancel_quote(hold["hold_id"])
    assert quote["refund_amount"] == "0.00"
    supplier.cancel_confirm(quote["quote_id"])
    assert supplier.get_hold(hold["hold_id"])["status"] == "released"


def test_an_expired_cancellation_quote_cannot_be_confirmed(supplier, clock):
    order = buy(supplier, hold_on(supplier, offer_where(supplier, lambda o: True)))
    quote = supplier.cancel_quote(order["order_id"])
    clock.set(datetime.fromisoformat(quote["expires_at"]))
    with pytest.raises(SupplierError) as err:
        supplier.cancel_confirm(quote["quote_id"])
    assert err.value.code == "quote_expired" and err.value.retryable


def test_hotel_refund_follows_the_timeline(supplier, clock):
    rate = next(
        r
        for r in supplier.search_hotels(
            location_code="DEN", check_in="2027-01-30", check_out="2027-02-02", rooms=1, guests_per_room=2
        )
        if r["cancellation_timeline"] and r["hold_policy"]["holdable"] and r["payment_type"] != "pay_at_hotel"
    )
    hold = supplier.hold_create(item_type="hotel", item_id=rate["rate_id"], idempotency_key="h")
    order = buy(supplier, hold)
    assert supplier.cancel_quote(order["order_id"])["refund_amount"] == order["charged"]["amount"]
    clock.set(datetime.fromisoformat(rate["cancellation_timeline"][-1]["before"]))
    assert supplier.cancel_quote(order["order_id"])["refund_amount"] == "0.00"


def test_void_refunds_in_full_within_a_day_then_closes(supplier, clock):
    offer = offer_where(supplier, lambda o: not o["conditions"]["refund_before_departure"]["allowed"])
    hold = hold_on(supplier, offer)
    order = buy(supplier, hold)
    voided = supplier.order_void(order["order_id"])
    assert voided["status"] == "voided" and voided["refund"]["amount"] == order["charged"]["amount"]
    assert supplier.get_hold(hold["hold_id"])["status"] == "released"
    later = buy(supplier, hold_on(supplier, offer, key="h2"), key="p2")
    clock.advance(hours=25)
    with pytest.raises(SupplierError) as err:
        supplier.order_void(later["order_id"])
    assert err.value.code == "void_window_closed"


def test_a_replay_of_a_voided_purchase_is_refused(supplier):
    hold = hold_on(supplier, offer_where(supplier, lambda o: True))
    order = buy(supplier, hold)
    supplier.order_void(order["order_id"])
    with pytest.raises(SupplierError) as err:
        supplier.purchase(hold_id=hold["hold_id"], amount_due="0", payment_method=CARD, idempotency_key="p1")
    assert err.value.code == "order_closed"


def test_concurrent_replays_of_one_purchase_charge_once(supplier):
    from concurrent.futures import ThreadPoolExecutor

    hold = hold_on(supplier, offer_where(supplier, lambda o: True))
    amount = supplier.price_hold(hold["hold_id"])["amount"]

    def attempt(_):
        try:
            return supplier.purchase(
                hold_id=hold["hold_id"], amount_due=amount, payment_method=CARD, idempotency_key="same"
            )["order_id"]
        except SupplierError as exc:
            return exc.code

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(attempt, range(16)))
    assert len(charges(supplier)) == 1
    assert set(results) <= {supplier.get_hold(hold["hold_id"])["order_id"], "in_progress"}


def test_concurrent_buyers_never_oversell(supplier):
    from concurrent.futures import ThreadPoolExecutor

    offer = offer_where(supplier, lambda o: o["seats_remaining"] <= 4)
    holds = [hold_on(supplier, offer, key=f"h{i}") for i in range(offer["seats_remaining"] + 3)]

    def attempt(hold):
        try:
            return buy(supplier, hold, key=hold["hold_id"])["status"]
        except SupplierError as exc:
            return exc.code

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(attempt, holds))
    assert results.count("confirmed") == offer["seats_remaining"] and results.count("sold_out") == 3


class JsonOnlyStore(InMemoryKeyValueStore):
    """Stores what a database column would: JSON text, read back as new objects."""

    def put(self, key, value):
        super().put(key, json.loads(json.dumps(value)))

    def put_if_absent(self, key, value):
        return super().put_if_absent(key, json.loads(json.dumps(value)))


def test_every_record_survives_a_json_round_trip(clock):
    supplier = SandboxSupplier(JsonOnlyStore(), seed=7, clock=clock)
    offer = offer_where(supplier, lambda o: o["conditions"]["refund_before_departure"]["allowed"])
    order = buy(supplier, hold_on(supplier, offer))
    quote = supplier.cancel_quote(order["order_id"])
    assert supplier.cancel_confirm(quote["quote_id"])["status"] == "cancelled"
    assert supplier.get_order(order["order_id"])["status"] == "cancelled"
