"""booking_confirm_and_purchase and booking_cancel: every refusal code, replay, unwinding."""

from datetime import datetime, timedelta
from decimal import Decimal

import pytest

from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.booking_cancel import BookingCancel
from handlers.specialists.booking_confirm_and_purchase import BookingConfirmAndPurchase
from handlers.specialists.reservation_hold_create import ReservationHoldCreate
from handlers.supplier import SupplierError

NOW = SELF_TEST_NOW


def held_trip(deps, *, refundable=None):
    """Holds on a flight and a hotel room of trip t1; returns the holds."""
    offers = deps.supplier.search_flights(
        origin="EWR", destination="DEN", depart_date="2027-01-30", passengers={"adults": 1}, now=NOW
    )
    rates = deps.supplier.search_hotels(
        location_code="DEN", check_in="2027-01-30", check_out="2027-02-02", rooms=1, guests_per_room=1, now=NOW
    )
    offer = next(
        o
        for o in offers
        if o["hold_policy"]["holdable"]
        and (refundable is None or o["conditions"]["refund_before_departure"]["allowed"] == refundable)
    )
    rate = next(
        r
        for r in rates
        if r["hold_policy"]["holdable"]
        and r["payment_type"] != "pay_at_hotel"
        and (refundable is None or bool(r["cancellation_timeline"]) == refundable)
    )
    items = [
        {"item_type": "flight", "offer_id": offer["offer_id"], "segment_id": "S1"},
        {"item_type": "hotel", "rate_id": rate["rate_id"], "stay_id": "H1"},
    ]
    out = ReservationHoldCreate(deps).run(
        {"args": {"trip_id": "t1", "bundle_id": "B1", "items": items, "idempotency_key": "k"}, "now": NOW.isoformat()}
    )
    return out["output"]["holds"]


def purchase(deps, holds, token, *, now=NOW, pm="pm_1", policy=None):
    args = {
        "trip_id": "t1",
        "hold_ids": [h["hold_id"] for h in holds],
        "approval_token": token,
        "payment_method_id": pm,
    }
    return BookingConfirmAndPurchase(deps).run(
        {"args": args, "now": now.isoformat(), "trip_id": "t1", "org": {"id": "acme", "policy": policy or {}}}
    )


def charges(deps):
    return [c for c in deps.supplier.charges() if c["kind"] == "charge"]


@pytest.fixture
def deps():
    return self_test_deps()


def test_purchase_books_every_item_once(deps):
    holds = held_trip(deps)
    out = purchase(deps, holds, deps.approvals.grant(trip_id="t1", holds=holds, now=NOW))
    booking = out["output"]["booking"]
    assert out["success"] and out["output"]["replayed"] is False
    assert len(booking["orders"]) == 2 and len(set(booking["record_locators"])) == 2
    assert booking["total"] == f"{sum(float(h['held_total']['amount']) for h in holds):.2f}"
    assert booking["approval_id"] and booking["currency"] == "USD"
    assert len(charges(deps)) == 2
    assert {deps.supplier.get_hold(h["hold_id"], now=NOW)["status"] for h in holds} == {"purchased"}


def test_submitting_again_returns_the_same_booking_without_charging(deps):
    holds = held_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    first = purchase(deps, holds, token)["output"]["booking"]
    again = purchase(deps, holds, token)["output"]
    assert again["replayed"] is True and again["booking"] == first
    assert len(charges(deps)) == 2


def test_a_retry_after_a_crash_before_consume_replays_at_the_supplier(deps):
    holds = held_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    deps.approvals.consume = lambda **kw: None  # the host died before marking the approval used
    first = purchase(deps, holds, token)["output"]
    again = purchase(deps, holds, token)["output"]
    assert again["booking"]["booking_id"] == first["booking"]["booking_id"] and again["replayed"] is True
    assert len(charges(deps)) == 2


@pytest.mark.parametrize("token", ["abc", "approval_token=abc", ""])
def test_tokens_nobody_granted_are_refused(deps, token):
    holds = held_trip(deps)
    out = purchase(deps, holds, token)
    assert out["success"] is False
    assert out["output"]["error"]["code"] in {"approval_invalid", "invalid_arguments"}
    assert charges(deps) == []


def test_an_expired_hold_refuses_and_the_approval_no_longer_works(deps):
    holds = held_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    late = max(datetime.fromisoformat(h["payment_required_by"]) for h in holds) + timedelta(minutes=1)
    out = purchase(deps, holds, token, now=late)["output"]["error"]
    assert out["code"] == "approval_expired"
    deps.supplier.hold_release(holds[0]["hold_id"], now=NOW)
    assert purchase(deps, holds, token)["output"]["error"]["code"] == "hold_expired"
    assert charges(deps) == []


def test_an_unknown_payment_method_is_refused(deps):
    holds = held_trip(deps)
    out = purchase(deps, holds, deps.approvals.grant(trip_id="t1", holds=holds, now=NOW), pm="pm_someone_else")
    assert out["output"]["error"]["code"] == "payment_invalid" and charges(deps) == []


def test_a_price_jump_above_the_ceiling_needs_a_new_approval():
    deps = self_test_deps(faults={"booking_confirm_and_purchase": {"price_jump": 1.0}})
    holds = held_trip(deps)
    out = purchase(deps, holds, deps.approvals.grant(trip_id="t1", holds=holds, now=NOW))["output"]
    assert out["error"]["code"] == "price_changed" and out["needs_new_approval"] is True
    assert float(out["new_total"]) > sum(float(h["held_total"]["amount"]) for h in holds)
    assert charges(deps) == []


def test_a_move_within_the_tolerance_is_bought(deps):
    holds = held_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    later = NOW + timedelta(hours=5)  # past the price guarantees, before the hold deadlines
    moved = sum(float(deps.supplier.price_hold(h["hold_id"], now=later)["amount"]) for h in holds)
    ceiling = sum(float(h["held_total"]["amount"]) for h in holds)
    tolerance = (moved / ceiling - 1) * 100 + 0.01
    out = purchase(deps, holds, token, now=later, policy={"price_tolerance_pct": max(tolerance, 0)})["output"]
    assert out["booking"]["total"] == f"{moved:.2f}"


class FailingSecondPurchase:
    """The sandbox, except that buying the hotel fails (``times`` times, then it works) and,
    optionally, voids fail too."""

    def __init__(self, supplier, *, voids_fail=False, error=None, times=None):
        self._supplier, self._voids_fail, self._times = supplier, voids_fail, times
        self._error = error or SupplierError("sold_out", "The last rooms were sold before payment.")

    def __getattr__(self, name):
        return getattr(self._supplier, name)

    def purchase(self, **kw):
        hotel = self._supplier.get_hold(kw["hold_id"], now=kw["now"])["item_type"] == "hotel"
        if hotel and self._times != 0:
            self._times = None if self._times is None else self._times - 1
            raise self._error
        return self._supplier.purchase(**kw)

    def order_void(self, order_id, *, now=None):
        if self._voids_fail:
            raise SupplierError("void_window_closed", "too late")
        return self._supplier.order_void(order_id, now=now)


def timeout():
    return SupplierError("timeout", "The supplier did not answer in time.", retryable=True)


def statuses(out):
    return {h["status"] for h in out["holds"]}


def test_a_retryable_failure_half_way_keeps_what_was_bought_and_the_resubmission_buys_the_rest(deps):
    holds = held_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    supplier, deps.supplier = deps.supplier, FailingSecondPurchase(deps.supplier, error=timeout(), times=1)
    out = purchase(deps, holds, token)["output"]
    assert out["error"]["code"] == "timeout" and out["error"]["retryable"] is True
    assert "flight is bought" in out["error"]["message"] and len(out["bought_orders"]) == 1
    # A timeout may come after the supplier charged: the words claim nothing about the hotel room.
    assert "Whether the hotel room was charged is not known yet" in out["error"]["message"]
    assert "Nothing was charged" not in out["error"]["message"]
    assert [h["status"] for h in out["holds"]] == [supplier.get_hold(h["hold_id"], now=NOW)["status"] for h in holds]
    assert statuses(out) == {"purchased", "held"} and len(charges(deps)) == 1
    again = purchase(deps, holds, token)["output"]
    assert len(again["booking"]["orders"]) == 2 and again["replayed"] is False
    assert len(charges(deps)) == 2 and {c["order_id"] for c in charges(deps)} == {
        o["order_id"] for o in again["booking"]["orders"]
    }
    assert all(float(e["amount"]) > 0 for e in deps.supplier.charges()), "nothing was voided or refunded"


def test_a_refusal_after_an_interrupted_try_voids_what_the_earlier_try_bought(deps):
    holds = held_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    deps.supplier = FailingSecondPurchase(deps.supplier, error=timeout(), times=1)
    purchase(deps, holds, token)
    deps.supplier = FailingSecondPurchase(deps.supplier)  # now the hotel sells out
    out = purchase(deps, holds, token)["output"]
    assert out["error"]["code"] == "sold_out" and len(out["voided_orders"]) == 1
    assert "voided and refunded in full" in out["error"]["message"] and statuses(out) == {"released", "held"}
    assert sum(Decimal(e["amount"]) for e in deps.supplier.charges()) == 0


def test_a_hold_ended_after_an_interrupted_try_undoes_it_and_says_which(deps):
    holds = held_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    supplier, deps.supplier = deps.supplier, FailingSecondPurchase(deps.supplier, error=timeout(), times=1)
    purchase(deps, holds, token)
    supplier.hold_release(holds[1]["hold_id"], now=NOW)  # staff let the hotel room go
    out = purchase(deps, holds, token)["output"]
    assert out["error"]["code"] == "hold_expired" and out["ended"] == [
        {"hold_id": holds[1]["hold_id"], "status": "released"}
    ]
    assert "hotel room was released" in out["error"]["message"] and "expired" not in out["error"]["message"]
    assert statuses(out) == {"released"} and sum(Decimal(e["amount"]) for e in supplier.charges()) == 0


def test_a_failure_half_way_voids_what_was_bought(deps):
    holds = held_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    deps.supplier = FailingSecondPurchase(deps.supplier)
    out = purchase(deps, holds, token)["output"]
    assert out["error"]["code"] == "sold_out" and len(out["voided_orders"]) == 1
    ledger = deps.supplier.charges()
    assert sum(float(e["amount"]) for e in ledger) == 0 and len(ledger) == 2


def test_a_failure_that_cannot_be_undone_needs_attention(deps):
    holds = held_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    deps.supplier = FailingSecondPurchase(deps.supplier, voids_fail=True)
    out = purchase(deps, holds, token)["output"]
    assert out["error"]["code"] == "partial_failure" and out["needs_attention"] is True
    assert len(out["orders"]) == 1 and out["cause"] == "sold_out"


def cancel(deps, booking_id, action, quote_id=None, now=NOW):
    args = {"booking_id": booking_id, "action": action, **({"quote_id": quote_id} if quote_id else {})}
    return BookingCancel(deps).run({"args": args, "now": now.isoformat()})


@pytest.mark.parametrize("refundable", [True, False])
def test_cancel_is_a_quote_then_a_confirm(deps, refundable):
    holds = held_trip(deps, refundable=refundable)
    booking = purchase(deps, holds, deps.approvals.grant(trip_id="t1", holds=holds, now=NOW))["output"]["booking"]
    quote = cancel(deps, booking["booking_id"], "quote")["output"]
    assert len(quote["items"]) == 2 and quote["expires_at"] > NOW.isoformat()
    assert (float(quote["refund_amount"]) > 0) == refundable
    done = cancel(deps, booking["booking_id"], "confirm", quote["quote_id"])["output"]
    assert done["status"] == "cancelled" and done["refund_amount"] == quote["refund_amount"]
    refunds = [e for e in deps.supplier.charges() if e["kind"] == "refund"]
    assert -sum(float(e["amount"]) for e in refunds) == pytest.approx(float(quote["refund_amount"]))
    assert cancel(deps, booking["booking_id"], "confirm", quote["quote_id"])["output"]["replayed"] is True


def test_cancel_refusals(deps):
    assert cancel(deps, "bkg_nope", "quote")["output"]["error"]["code"] == "not_found"
    assert cancel(deps, "bkg_nope", "confirm")["output"]["error"]["code"] == "invalid_arguments"
    assert cancel(deps, "bkg_nope", "refund_everything")["output"]["error"]["code"] == "invalid_arguments"


def test_every_specialist_self_test_passes():
    import importlib

    from handlers.tools import pascal_case

    for tool in (
        "flight_quote_search",
        "hotel_quote_search",
        "trip_option_ranker",
        "policy_and_risk_check",
        "reservation_hold_create",
        "reservation_hold_release",
        "booking_confirm_and_purchase",
        "booking_cancel",
    ):
        cls = getattr(importlib.import_module(f"handlers.specialists.{tool}"), pascal_case(tool))
        assert cls.name == tool
        cls.run_tests()
