"""booking_cancel: cancellation is a quote (refund and its expiry) that the traveller then confirms."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Dict

from handlers.common.types import fail, ok

from . import SELF_TEST_NOW, SpecialistTool, require, self_test_deps


class BookingCancel(SpecialistTool):
    name = "booking_cancel"

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        require(args, "booking_id", "action")
        booking_id, supplier = args["booking_id"], self.deps.supplier
        if args["action"] == "quote":
            quote = supplier.cancel_quote(booking_id, now=now)
            return ok(
                payload,
                {
                    "booking_id": booking_id,
                    "action": "quote",
                    "quote_id": quote["quote_id"],
                    "refund_amount": quote["refund_amount"],
                    "currency": quote["currency"],
                    "expires_at": quote["expires_at"],
                    "items": quote["parts"],
                },
            )
        if args["action"] != "confirm":
            return fail(payload, "invalid_arguments", "action must be 'quote' or 'confirm'.")
        require(args, "quote_id")
        done = supplier.cancel_confirm(args["quote_id"], now=now)
        if done["ref_id"] != booking_id:
            return fail(payload, "invalid_arguments", "That quote belongs to another booking.")
        return ok(
            payload,
            {
                "booking_id": booking_id,
                "action": "confirm",
                "status": "cancelled",
                "cancelled": True,
                "refund_amount": done["refund_amount"],
                "currency": done["currency"],
                "cancelled_at": done["cancelled_at"],
                "replayed": done["replayed"],
            },
        )

    @classmethod
    def run_tests(cls) -> None:
        from .booking_confirm_and_purchase import BookingConfirmAndPurchase

        deps, now = self_test_deps(), SELF_TEST_NOW
        offer = next(
            o
            for o in deps.supplier.search_flights(
                origin="EWR", destination="DEN", depart_date="2027-01-30", passengers={"adults": 1}, now=now
            )
            if o["hold_policy"]["holdable"]
        )
        hold = deps.supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="k", now=now)
        token = deps.approvals.grant(trip_id="t1", holds=[hold], now=now)
        bought = BookingConfirmAndPurchase(deps).run(
            {
                "args": {
                    "trip_id": "t1",
                    "hold_ids": [hold["hold_id"]],
                    "approval_token": token,
                    "payment_method_id": "pm_1",
                },
                "now": now.isoformat(),
            }
        )["output"]["booking"]
        quote = cls(deps).run(
            {"args": {"booking_id": bought["booking_id"], "action": "quote"}, "now": now.isoformat()}
        )["output"]
        assert quote["quote_id"] and quote["refund_amount"] is not None, quote
        done = cls(deps).run(
            {
                "args": {"booking_id": bought["booking_id"], "action": "confirm", "quote_id": quote["quote_id"]},
                "now": now.isoformat(),
            }
        )["output"]
        assert done["status"] == "cancelled" and done["refund_amount"] == quote["refund_amount"], done
