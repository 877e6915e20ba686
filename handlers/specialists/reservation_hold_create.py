"""reservation_hold_create: hold every item of a bundle, all or nothing.

Each item's supplier idempotency key is the call's key plus the item id, so a repeated call
returns the same holds. If one item cannot be held, the ones already held are released and the
call fails: a half-held bundle would only block seats and mislead the approver.

An offer that must be paid at once comes back reserved (``instant: true``): approved like a hold,
bought with one instant order when the traveller pays (``handlers.supplier.instant``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Dict, List

from handlers.common.types import fail, ok
from handlers.supplier import SupplierError
from handlers.supplier.passengers import party_problems

from . import SELF_TEST_NOW, SpecialistTool, require, self_test_deps

MAX_REHOLDS = 5  # fresh keys tried when an earlier hold under the same key was released or lapsed


def item_ref(item: Dict[str, Any]) -> Dict[str, str]:
    item_type = item.get("item_type") or item.get("type") or ("hotel" if item.get("rate_id") else "flight")
    if item_type == "flight":
        return {
            "item_type": "flight",
            "item_id": item.get("offer_id") or "",
            "slot": "segment_id",
            "slot_id": item.get("segment_id") or "",
        }
    return {
        "item_type": "hotel",
        "item_id": item.get("rate_id") or "",
        "slot": "stay_id",
        "slot_id": item.get("stay_id") or "",
    }


class ReservationHoldCreate(SpecialistTool):
    name = "reservation_hold_create"

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        require(args, "bundle_id", "items", "idempotency_key")
        refs = [item_ref(i) for i in args["items"]]
        if any(not r["item_id"] for r in refs):
            return fail(payload, "invalid_arguments", "Every item needs an offer_id or a rate_id.")
        trip_id = str(args.get("trip_id") or payload.get("trip_id") or "")
        # Who travels, by reference only: a real supplier resolves the details through the host.
        travellers = self.deps.passengers.refs(trip_id) if self.deps.passengers is not None and trip_id else []
        # A host that keeps passengers holds nothing until one is named per seat, whichever supplier
        # is behind it: the airline and the hotel need the names before the traveller pays.
        party = args.get("travelers")
        if self.deps.passengers is not None and trip_id and isinstance(party, dict):
            problems = party_problems(travellers, party)
            if problems:
                return fail(
                    payload,
                    "passengers_missing",
                    f"Everyone travelling must be named before anything is held: {' '.join(problems)} Nothing is held.",
                )
        holds: List[Dict[str, Any]] = []
        for ref in refs:
            try:
                hold = self._hold(ref, f"{args['idempotency_key']}:{ref['item_id']}", now, travellers, trip_id)
            except SupplierError as exc:
                released = [self.deps.supplier.hold_release(h["hold_id"], now=now)["hold_id"] for h in holds]
                what = "flight" if ref["item_type"] == "flight" else "hotel room"
                return fail(
                    payload,
                    exc.code,
                    f"Could not hold the {what}: {exc.message} Nothing is held.",
                    retryable=exc.retryable,
                    released_hold_ids=released,
                    failed_item=ref["item_id"],
                )
            holds.append({**hold, ref["slot"]: ref["slot_id"]})
        deadline = min(h["payment_required_by"] for h in holds) if holds else None
        return ok(payload, {"bundle_id": args["bundle_id"], "holds": holds, "earliest_deadline": deadline})

    def _hold(self, ref: Dict[str, str], key: str, now: datetime, travellers, trip_id: str) -> Dict[str, Any]:
        """The live hold for ``key``; a hold released or lapsed earlier is replaced under a fresh key."""
        for attempt in range(MAX_REHOLDS):
            hold = self.deps.supplier.hold_create(
                item_type=ref["item_type"],
                item_id=ref["item_id"],
                idempotency_key=key if not attempt else f"{key}#{attempt}",
                passengers=travellers or None,
                trip_id=trip_id or None,
                now=now,
            )
            if hold["status"] in ("held", "purchased"):
                return hold
        raise SupplierError("hold_failed", "The supplier keeps ending holds on this item.", retryable=True)

    @classmethod
    def run_tests(cls) -> None:
        deps, now = self_test_deps(), SELF_TEST_NOW.isoformat()
        offers = deps.supplier.search_flights(
            origin="EWR", destination="DEN", depart_date="2027-01-30", passengers={"adults": 1}, now=SELF_TEST_NOW
        )
        holdable = [o for o in offers if o["hold_policy"]["holdable"]]
        instant = [o for o in offers if not o["hold_policy"]["holdable"]]
        items = [{"item_type": "flight", "offer_id": holdable[0]["offer_id"], "segment_id": "s1"}]
        args = {"trip_id": "t1", "bundle_id": "B1", "items": items, "idempotency_key": "k1"}
        first = cls(deps).run({"args": args, "now": now})["output"]
        again = cls(deps).run({"args": args, "now": now})["output"]
        assert first["holds"][0]["status"] == "held" and first["holds"][0]["segment_id"] == "s1", first
        assert again["holds"][0]["hold_id"] == first["holds"][0]["hold_id"]
        both = items + [{"item_type": "flight", "offer_id": instant[0]["offer_id"], "segment_id": "s2"}]
        out = cls(deps).run({"args": {**args, "items": both, "idempotency_key": "k2"}, "now": now})["output"]
        held, reserved = out["holds"]
        assert held["status"] == reserved["status"] == "held" and reserved["instant"] and not held.get("instant")
        assert reserved["payment_required_by"] == instant[0]["expires_at"], reserved
        gone = dict(items[0], offer_id="off_gone")
        out = cls(deps).run({"args": {**args, "items": [items[0], gone], "idempotency_key": "k3"}, "now": now})[
            "output"
        ]
        assert out["error"]["code"] == "not_found", out
        released = out["released_hold_ids"][0]
        assert deps.supplier.get_hold(released, now=SELF_TEST_NOW)["status"] == "released"
