"""reservation_hold_release: give held space back (after an invalidating change or a staff action).

Releasing is best effort per hold: holds that already ended are reported as they are, unknown
ids are listed, and the call only fails when the supplier itself fails.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Dict

from handlers.common.types import ok
from handlers.supplier import SupplierError

from . import SELF_TEST_NOW, SpecialistTool, require, self_test_deps


class ReservationHoldRelease(SpecialistTool):
    name = "reservation_hold_release"

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        require(args, "hold_ids")
        released, unknown = [], []
        for hold_id in args["hold_ids"]:
            try:
                released.append(self.deps.supplier.hold_release(hold_id, now=now))
            except SupplierError as exc:
                if exc.code != "not_found":
                    raise
                unknown.append(hold_id)
        return ok(payload, {"released": released, "unknown_hold_ids": unknown, "reason": args.get("reason")})

    @classmethod
    def run_tests(cls) -> None:
        deps = self_test_deps()
        offer = next(
            o
            for o in deps.supplier.search_flights(
                origin="JFK", destination="LAX", depart_date="2027-03-03", passengers={"adults": 1}, now=SELF_TEST_NOW
            )
            if o["hold_policy"]["holdable"]
        )
        hold = deps.supplier.hold_create(
            item_type="flight", item_id=offer["offer_id"], idempotency_key="k", now=SELF_TEST_NOW
        )
        out = cls(deps).run({"args": {"hold_ids": [hold["hold_id"], "hld_nope"]}, "now": SELF_TEST_NOW.isoformat()})
        assert out["success"], out
        assert out["output"]["released"][0]["status"] == "released"
        assert out["output"]["unknown_hold_ids"] == ["hld_nope"]
