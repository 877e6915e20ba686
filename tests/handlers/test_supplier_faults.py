"""Faults on demand: each kind, deterministic per seed, a retry is a new draw."""

from datetime import UTC, datetime

import pytest

from handlers.common.clock import FrozenClock
from handlers.common.stores import InMemoryKeyValueStore
from handlers.supplier import SandboxSupplier, SupplierError
from handlers.supplier.money import money

NOW = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
LEG = {"origin": "EWR", "destination": "DEN", "depart_date": "2027-01-30", "passengers": {"adults": 1}}
STAY = {"location_code": "DEN", "check_in": "2027-01-30", "check_out": "2027-02-02", "rooms": 1, "guests_per_room": 1}


def sandbox(faults, seed=7):
    return SandboxSupplier(InMemoryKeyValueStore(), seed=seed, clock=FrozenClock(NOW), faults=faults)


def outcomes(supplier, n=20):
    seen = []
    for _ in range(n):
        try:
            seen.append("empty" if not supplier.search_flights(**LEG) else "ok")
        except SupplierError as exc:
            seen.append(exc.code)
    return seen


@pytest.mark.parametrize("kind, code", [("timeout", "timeout"), ("error", "supplier_error")])
def test_timeouts_and_errors_are_retryable_failures(kind, code):
    with pytest.raises(SupplierError) as err:
        sandbox({"flight_quote_search": {kind: 1.0}}).search_flights(**LEG)
    assert err.value.code == code and err.value.retryable


def test_empty_results_on_demand():
    supplier = sandbox({"hotel_quote_search": {"empty": 1.0}})
    assert supplier.search_hotels(**STAY) == []
    assert supplier.search_flights(**LEG)  # other tools unaffected


def test_rates_mix_outcomes_deterministically_and_retries_can_recover():
    faults = {"flight_quote_search": {"timeout": 0.3, "empty": 0.2}}
    first = outcomes(sandbox(faults))
    assert first == outcomes(sandbox(faults))
    assert {"ok", "timeout", "empty"} <= set(first)
    assert first != outcomes(sandbox(faults, seed=8))
    assert outcomes(sandbox({"flight_quote_search": {"timeout": 0.0}})) == ["ok"] * 20


def holdable_offer(supplier):
    return next(o for o in supplier.search_flights(**LEG) if o["hold_policy"]["holdable"])


def test_price_jump_raises_the_purchase_price_consistently():
    supplier = sandbox({"booking_confirm_and_purchase": {"price_jump": 1.0}})
    hold = supplier.hold_create(item_type="flight", item_id=holdable_offer(supplier)["offer_id"], idempotency_key="k")
    quote = supplier.price_hold(hold["hold_id"])
    held = money(hold["held_total"]["amount"])
    assert money(quote["amount"]) >= held * money("1.15") and quote["repriced"]
    assert supplier.price_hold(hold["hold_id"]) == quote
    order = supplier.purchase(
        hold_id=hold["hold_id"], amount_due=quote["amount"], payment_method={"id": "pm"}, idempotency_key="p"
    )
    assert order["total"]["amount"] == quote["amount"]


def test_sold_out_at_purchase_and_at_hold():
    supplier = sandbox({"booking_confirm_and_purchase": {"sold_out": 1.0}})
    hold = supplier.hold_create(item_type="flight", item_id=holdable_offer(supplier)["offer_id"], idempotency_key="k")
    with pytest.raises(SupplierError) as err:
        supplier.purchase(
            hold_id=hold["hold_id"],
            amount_due=hold["held_total"]["amount"],
            payment_method={"id": "pm"},
            idempotency_key="p",
        )
    assert err.value.code == "sold_out" and supplier.charges() == []
    supplier = sandbox({"reservation_hold_create": {"sold_out": 1.0}})
    with pytest.raises(SupplierError) as err:
        supplier.hold_create(item_type="flight", item_id=holdable_offer(supplier)["offer_id"], idempotency_key="k")
    assert err.value.code == "sold_out"


def test_unknown_fault_kinds_are_a_configuration_error():
    with pytest.raises(ValueError, match="melt"):
        sandbox({"flight_quote_search": {"melt": 1.0}})
