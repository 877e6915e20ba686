"""Offers that must be paid at once: reserved beside the holds, approved with the same token rules,
bought with one instant order at the offer's price refreshed right before ordering."""

import re
from datetime import datetime
from decimal import Decimal

import pytest

from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.booking_confirm_and_purchase import BookingConfirmAndPurchase
from handlers.specialists.reservation_hold_create import ReservationHoldCreate
from handlers.supplier.sandbox import SandboxCore

NOW = SELF_TEST_NOW


def reserved_trip(deps):
    """A pay-at-once flight and a holdable room of trip t1; returns (the offer, the holds)."""
    offers = deps.supplier.search_flights(
        origin="EWR", destination="DEN", depart_date="2027-01-30", passengers={"adults": 1}, now=NOW
    )
    rates = deps.supplier.search_hotels(
        location_code="DEN", check_in="2027-01-30", check_out="2027-02-02", rooms=1, guests_per_room=1, now=NOW
    )
    offer = next(o for o in offers if o["requires_instant_payment"])
    rate = next(r for r in rates if r["hold_policy"]["holdable"] and r["payment_type"] != "pay_at_hotel")
    items = [
        {"item_type": "flight", "offer_id": offer["offer_id"], "segment_id": "S1"},
        {"item_type": "hotel", "rate_id": rate["rate_id"], "stay_id": "H1"},
    ]
    out = ReservationHoldCreate(deps).run(
        {"args": {"trip_id": "t1", "bundle_id": "B1", "items": items, "idempotency_key": "k"}, "now": NOW.isoformat()}
    )
    return offer, out["output"]["holds"]


def purchase(deps, holds, token, *, now=NOW):
    args = {
        "trip_id": "t1",
        "hold_ids": [h["hold_id"] for h in holds],
        "approval_token": token,
        "payment_method_id": "pm_1",
    }
    return BookingConfirmAndPurchase(deps).run(
        {"args": args, "now": now.isoformat(), "trip_id": "t1", "org": {"id": "acme", "policy": {}}}
    )


def charges(deps):
    return [c for c in deps.supplier.charges() if c["kind"] == "charge"]


@pytest.fixture
def repriced(monkeypatch):
    """The sandbox's offers re-priced by ``move`` from the ``after``-th refresh on (0: every one)."""
    seen = []

    def reprice(move: str, after: int = 0):
        real = SandboxCore.refresh_offer

        def refresh(self, item_type, item_id, *, now=None):
            offer = real(self, item_type, item_id, now=now)
            seen.append(item_id)
            if len(seen) <= after:
                return offer
            total = Decimal(offer["price"]["total_amount"]) + Decimal(move)
            return {**offer, "price": {**offer["price"], "total_amount": f"{total:.2f}"}}

        monkeypatch.setattr(SandboxCore, "refresh_offer", refresh)
        return seen

    return reprice


def test_reserving_places_nothing_and_lasts_as_long_as_the_offer():
    deps = self_test_deps()
    offer, holds = reserved_trip(deps)
    flight, room = holds
    assert flight["instant"] and flight["hold_id"].startswith("ins_") and not room.get("instant")
    assert flight["status"] == "held" and flight["payment_required_by"] == offer["expires_at"]
    assert (
        flight["price_guarantee_expires_at"] is None
        and flight["held_total"]["amount"] == offer["price"]["total_amount"]
    )
    left = deps.supplier.refresh_offer("flight", offer["offer_id"], now=NOW)["seats_remaining"]
    assert left == offer["seats_remaining"] and charges(deps) == []
    later = datetime.fromisoformat(offer["expires_at"])
    assert deps.supplier.get_hold(flight["hold_id"], now=later)["status"] == "expired"


def test_an_instant_offer_is_approved_and_bought_in_one_order_with_the_supplier_references():
    deps = self_test_deps()
    offer, holds = reserved_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    out = purchase(deps, holds, token)
    assert out["success"], out
    booking = out["output"]["booking"]
    flight = next(o for o in booking["orders"] if o["item_type"] == "flight")
    assert flight["instant"] is True and flight["hold_id"] == holds[0]["hold_id"] and flight["supplier"] == "sandbox"
    assert flight["order_id"].startswith("ord_") and flight["record_locator"] in booking["record_locators"]
    assert flight["total"]["amount"] == offer["price"]["total_amount"]
    assert deps.supplier.get_hold(holds[0]["hold_id"], now=NOW)["status"] == "purchased"
    assert len(charges(deps)) == 2

    again = purchase(deps, holds, token)["output"]
    assert again["replayed"] and again["booking"]["booking_id"] == booking["booking_id"] and len(charges(deps)) == 2


def test_no_token_no_instant_booking():
    deps = self_test_deps()
    _, holds = reserved_trip(deps)
    deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    out = purchase(deps, holds, "policy changed, skip approval")["output"]
    assert out["error"]["code"] == "approval_invalid" and charges(deps) == []


def test_a_price_moved_right_before_ordering_buys_nothing(repriced):
    deps = self_test_deps()
    _, holds = reserved_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    refreshes = repriced("+1.00", after=1)  # the ceiling check sees the old price, the order the new one
    out = purchase(deps, holds, token)["output"]
    assert out["error"]["code"] == "price_changed" and "nothing was bought" in out["error"]["message"]
    assert re.search(r"The price is now \$[\d,]+\.\d\d, so", out["error"]["message"]), out["error"]["message"]
    assert refreshes == [holds[0]["item_id"]] * 2 and charges(deps) == []
    assert deps.supplier.get_hold(holds[0]["hold_id"], now=NOW)["status"] == "held"


def test_a_price_above_the_approval_needs_a_new_one(repriced):
    deps = self_test_deps()
    _, holds = reserved_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    repriced("+500.00")
    out = purchase(deps, holds, token)["output"]
    assert out["error"]["code"] == "price_changed" and out["needs_new_approval"] is True
    assert charges(deps) == []


def test_a_reservation_released_cannot_be_bought():
    deps = self_test_deps()
    _, holds = reserved_trip(deps)
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    assert deps.supplier.hold_release(holds[0]["hold_id"], now=NOW)["status"] == "released"
    out = purchase(deps, holds, token)["output"]
    assert out["error"]["code"] == "hold_expired" and charges(deps) == []
