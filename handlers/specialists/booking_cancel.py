"""booking_cancel: cancellation is a quote (refund and its expiry) that the traveller then confirms.

A booking is the host's record (``ToolDeps.bookings``) of the orders one purchase bought; it is
cancelled order by order at the supplier. The booking's quote id joins its orders' quote ids, so
confirming needs nothing stored beyond what the supplier keeps.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any, Dict, List

from handlers.common.types import fail, ok
from handlers.supplier import SupplierError
from handlers.supplier.money import amount, money

from . import SELF_TEST_NOW, SpecialistTool, require, self_test_deps

JOIN = "+"


class BookingCancel(SpecialistTool):
    name = "booking_cancel"

    def _orders(self, booking_id: str) -> List[Dict[str, Any]]:
        booking = self.deps.bookings.get(booking_id) if self.deps.bookings is not None else None
        if booking is None:
            raise SupplierError("not_found", f"There is no booking {booking_id}.")
        return [o for o in booking.get("orders") or [] if o.get("order_id")]

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        require(args, "booking_id", "action")
        booking_id, supplier = args["booking_id"], self.deps.supplier
        if args["action"] not in ("quote", "confirm"):
            return fail(payload, "invalid_arguments", "action must be 'quote' or 'confirm'.")
        if args["action"] == "quote":
            orders = self._orders(booking_id)
            parts = [supplier.cancel_quote(o["order_id"], now=now) for o in orders]
            if not parts:
                return fail(payload, "not_found", f"The booking {booking_id} has no order left to cancel.")
            paid = {o["order_id"]: money((o.get("total") or {}).get("amount") or 0) for o in orders}
            refund = sum((money(p["refund_amount"]) for p in parts), Decimal(0))
            total_paid = sum(paid.values(), Decimal(0))
            return ok(
                payload,
                {
                    "booking_id": booking_id,
                    "action": "quote",
                    "quote_id": JOIN.join(p["quote_id"] for p in parts),
                    "refund_amount": amount(refund),
                    # What cancelling loses: the paid amount the supplier keeps (non-refundable fares, fees).
                    "paid_amount": amount(total_paid),
                    "lost_amount": amount(max(total_paid - refund, Decimal(0))),
                    "currency": parts[0]["currency"],
                    "expires_at": min(p["expires_at"] for p in parts),
                    "items": [
                        {
                            "ref_id": p["ref_id"],
                            "item_type": o.get("item_type") or "",
                            "quote_id": p["quote_id"],
                            "refund_amount": p["refund_amount"],
                            "paid_amount": amount(paid[o["order_id"]]),
                            "lost_amount": amount(max(paid[o["order_id"]] - money(p["refund_amount"]), Decimal(0))),
                        }
                        for o, p in zip(orders, parts, strict=True)
                    ],
                },
            )
        require(args, "quote_id")
        orders = {o["order_id"] for o in self._orders(booking_id)}
        done = [supplier.cancel_confirm(q, now=now) for q in str(args["quote_id"]).split(JOIN) if q]
        if not done or any(d["ref_id"] not in orders for d in done):
            return fail(payload, "invalid_arguments", "That quote belongs to another booking.")
        return ok(
            payload,
            {
                "booking_id": booking_id,
                "action": "confirm",
                "status": "cancelled",
                "cancelled": True,
                "refund_amount": amount(sum((money(d["refund_amount"]) for d in done), Decimal(0))),
                "currency": done[0]["currency"],
                "cancelled_at": max(d["cancelled_at"] for d in done),
                "replayed": all(d["replayed"] for d in done),
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
        assert money(quote["paid_amount"]) == money(bought["total"]), quote
        assert money(quote["refund_amount"]) + money(quote["lost_amount"]) == money(quote["paid_amount"]), quote
        done = cls(deps).run(
            {
                "args": {"booking_id": bought["booking_id"], "action": "confirm", "quote_id": quote["quote_id"]},
                "now": now.isoformat(),
            }
        )["output"]
        assert done["status"] == "cancelled" and done["refund_amount"] == quote["refund_amount"], done
