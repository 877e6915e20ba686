"""Builders for commerce tests: a TripIntent as the core leaves it after a hold, a supplier double."""

import copy
from datetime import UTC, datetime, timedelta

from handlers.common.clock import iso
from handlers.supplier import SupplierError
from trips.models import Trip
from trips.services.holds import holds_sync

NOW = datetime(2026, 12, 1, 14, 0, tzinfo=UTC)


def held_intent(intent: dict, *, now: datetime, suffix: str = "1", amounts=("420.00", "610.00")) -> dict:
    """``intent`` after a hold on bundle B1: one flight and one hotel, held for a day."""
    intent = copy.deepcopy(intent)
    wm = intent["working_memory"]
    flight = {"segment_id": "seg_1", "offer_id": f"off_{suffix}", "summary": {"carrier": "UA", "total": amounts[0]}}
    hotel = {"stay_id": "stay_1", "rate_id": f"rate_{suffix}", "summary": {"hotel_name": "Hotel Teatro"}}
    total = sum(float(a) for a in amounts)
    wm["ranked_bundles"] = [
        {"bundle_id": "B1", "flights": [flight], "hotels": [hotel], "total": f"{total:.2f}", "currency": "USD"}
    ]
    wm["selected"] = {"bundle_id": "B1", "flight_option_id": flight["offer_id"], "hotel_option_id": hotel["rate_id"]}
    wm["risk_report"] = {
        "bundle_id": "B1",
        "ok": True,
        "blocking": [],
        "warnings": [{"code": "nonrefundable", "message": "The hotel is non-refundable."}],
    }
    common = {
        "status": "held",
        "payment_required_by": iso(now + timedelta(hours=24)),
        "price_guarantee_expires_at": iso(now + timedelta(hours=12)),
        "created_at": iso(now),
    }
    wm["holds"] = [
        {
            **common,
            "hold_id": f"hld_f{suffix}",
            "item_type": "flight",
            "offer_id": flight["offer_id"],
            "segment_id": "seg_1",
            "held_total": {"amount": amounts[0], "currency": "USD"},
            "idempotency_key": f"hk_f{suffix}",
        },
        {
            **common,
            "hold_id": f"hld_h{suffix}",
            "item_type": "hotel",
            "rate_id": hotel["rate_id"],
            "stay_id": "stay_1",
            "held_total": {"amount": amounts[1], "currency": "USD"},
            "idempotency_key": f"hk_h{suffix}",
        },
    ]
    intent["status"]["phase"] = "held"
    return intent


def hold_for(trip: Trip, *, now: datetime, suffix: str = "1", **kwargs) -> dict:
    """Put holds into the trip's stored TripIntent and sync them, as a turn would."""
    intent = held_intent(trip.intent, now=now, suffix=suffix, **kwargs)
    Trip.objects.filter(pk=trip.pk).update(intent=intent)
    trip.intent = intent
    holds_sync(trip=trip, trip_intent=intent, now=now)
    return intent


class RecordingSupplier:
    """The one supplier method a release needs, recording what it was asked."""

    def __init__(self, error: SupplierError | None = None):
        self.released, self.error = [], error

    def hold_release(self, hold_id, *, now=None):
        if self.error:
            raise self.error
        self.released.append(hold_id)
        return {"hold_id": hold_id, "status": "released"}
