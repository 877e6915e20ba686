"""Holds: offer expiry, holdability, idempotent replays, deadlines enforced on every read."""

from datetime import UTC, datetime, timedelta

import pytest

from handlers.common.clock import FrozenClock
from handlers.common.stores import InMemoryKeyValueStore
from handlers.supplier import SandboxSupplier, SupplierError
from handlers.supplier.sandbox import SandboxCore

NOW = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
LEG = {"origin": "EWR", "destination": "DEN", "depart_date": "2027-01-30", "passengers": {"adults": 2}}


@pytest.fixture
def clock():
    return FrozenClock(NOW)


@pytest.fixture
def supplier(clock):
    return SandboxSupplier(InMemoryKeyValueStore(), seed=7, clock=clock)


def holdable(supplier):
    return next(o for o in supplier.search_flights(**LEG) if o["hold_policy"]["holdable"])


def test_a_hold_copies_the_price_and_sets_both_deadlines(supplier):
    offer = holdable(supplier)
    hold = supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="k1")
    assert hold["status"] == "held" and hold["offer_id"] == offer["offer_id"]
    assert hold["held_total"] == {"amount": offer["price"]["total_amount"], "currency": "USD"}
    limit = NOW + timedelta(minutes=offer["hold_policy"]["max_hold_minutes"])
    assert datetime.fromisoformat(hold["payment_required_by"]) == limit
    assert datetime.fromisoformat(hold["price_guarantee_expires_at"]) <= limit
    assert hold["quantity"] == 2


def test_the_same_key_returns_the_original_hold(supplier, clock):
    offer = holdable(supplier)
    first = supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="k1")
    clock.advance(minutes=5)
    again = supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="k1")
    assert again == first


def test_a_key_reused_for_another_item_is_refused(supplier):
    offers = [o for o in supplier.search_flights(**LEG) if o["hold_policy"]["holdable"]]
    supplier.hold_create(item_type="flight", item_id=offers[0]["offer_id"], idempotency_key="k1")
    with pytest.raises(SupplierError) as err:
        supplier.hold_create(item_type="flight", item_id=offers[1]["offer_id"], idempotency_key="k1")
    assert err.value.code == "idempotency_conflict"


def test_an_offer_cannot_be_held_after_it_expires(supplier, clock):
    offer = holdable(supplier)
    clock.set(datetime.fromisoformat(offer["expires_at"]))
    with pytest.raises(SupplierError) as err:
        supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="late")
    assert err.value.code == "offer_expired"


def test_instant_payment_offers_are_reserved_not_held(supplier, clock):
    offer = next(o for o in supplier.search_flights(**LEG) if o["requires_instant_payment"])
    hold = supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="k")
    assert hold["hold_id"].startswith("ins_") and hold["instant"] is True and hold["status"] == "held"
    assert hold["payment_required_by"] == offer["expires_at"] and hold["price_guarantee_expires_at"] is None
    again = supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="k")
    assert again["hold_id"] == hold["hold_id"]
    assert supplier.refresh_offer("flight", offer["offer_id"])["seats_remaining"] == offer["seats_remaining"]
    with pytest.raises(SupplierError) as err:  # the sandbox itself still never holds such a fare
        SandboxCore.hold_create(supplier, item_type="flight", item_id=offer["offer_id"], idempotency_key="k2")
    assert err.value.code == "not_holdable"
    clock.set(datetime.fromisoformat(offer["expires_at"]))
    assert supplier.get_hold(hold["hold_id"])["status"] == "expired"


def test_unknown_items_are_not_found(supplier):
    with pytest.raises(SupplierError) as err:
        supplier.hold_create(item_type="hotel", item_id="rate_nope", idempotency_key="k")
    assert err.value.code == "not_found"


def test_a_hold_expires_at_its_deadline_on_the_next_read(supplier, clock):
    hold = supplier.hold_create(item_type="flight", item_id=holdable(supplier)["offer_id"], idempotency_key="k")
    deadline = datetime.fromisoformat(hold["payment_required_by"])
    clock.set(deadline - timedelta(seconds=1))
    assert supplier.get_hold(hold["hold_id"])["status"] == "held"
    clock.set(deadline)
    assert supplier.get_hold(hold["hold_id"])["status"] == "expired"
    with pytest.raises(SupplierError) as err:
        supplier.price_hold(hold["hold_id"])
    assert err.value.code == "hold_expired"


def test_flight_holds_end_three_hours_before_departure(supplier, clock):
    clock.set(datetime(2027, 1, 29, 18, 0, tzinfo=UTC))
    offer = holdable(supplier)
    hold = supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="k")
    departs = datetime.fromisoformat(offer["slices"][0]["segments"][0]["depart_at"])
    assert datetime.fromisoformat(hold["payment_required_by"]) <= departs - timedelta(hours=3)


def test_hotel_holds_follow_the_rate(supplier):
    rate = next(
        r
        for r in supplier.search_hotels(
            location_code="DEN", check_in="2027-01-30", check_out="2027-02-02", rooms=1, guests_per_room=2
        )
        if r["hold_policy"]["holdable"]
    )
    hold = supplier.hold_create(item_type="hotel", item_id=rate["rate_id"], idempotency_key="h")
    assert hold["rate_id"] == rate["rate_id"] and hold["quantity"] == 1


def test_release_is_final_and_repeatable(supplier):
    hold = supplier.hold_create(item_type="flight", item_id=holdable(supplier)["offer_id"], idempotency_key="k")
    assert supplier.hold_release(hold["hold_id"])["status"] == "released"
    assert supplier.hold_release(hold["hold_id"])["status"] == "released"
    with pytest.raises(SupplierError) as err:
        supplier.purchase(
            hold_id=hold["hold_id"],
            amount_due=hold["held_total"]["amount"],
            payment_method={"id": "pm"},
            idempotency_key="p",
        )
    assert err.value.code == "hold_not_active"


class CountingStore(InMemoryKeyValueStore):
    def __init__(self):
        super().__init__()
        self.reads = []

    def get(self, key):
        self.reads.append(key)
        return super().get(key)


def test_a_hold_finds_its_offer_once_and_hands_out_copies(clock):
    store = CountingStore()
    supplier = SandboxSupplier(store, seed=7, clock=clock)
    offer = holdable(supplier)
    store.reads.clear()
    supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="k1")
    searches = [key for key in store.reads if ":search:" in key]
    assert len(searches) == 1, store.reads  # the reservation check and the hold share one lookup
    item = supplier.get_item("flight", offer["offer_id"])
    item["price"]["total_amount"] = "0.01"
    assert supplier.get_item("flight", offer["offer_id"])["price"] == offer["price"]
