"""booking_confirm_and_purchase: buy held items with an approver's token and a payment method.

Order of checks, each refusing with its own code before any money moves: the approval token
(``approval_invalid`` / ``approval_expired`` / ``approval_used``; a used one for this trip
replays the booking), every hold live (``hold_expired``), the payment method
(``payment_invalid``), the current price within the approved ceiling plus the policy's
tolerance (``price_changed``, ``needs_new_approval``). Each purchase carries the key
``<approval_id>:<hold_id>``, so a retry never charges twice; a failure half way voids what was
bought (or, if that fails, reports ``partial_failure`` for staff).
"""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any, Dict, List

from handlers.common.clock import iso
from handlers.common.defaults import DEFAULT_POLICY
from handlers.common.types import fail, ok
from handlers.supplier import SupplierError
from handlers.supplier.money import amount, money
from handlers.supplier.seeded import short_id

from . import SELF_TEST_NOW, SpecialistTool, require, self_test_deps


class PurchaseAborted(Exception):
    """A purchase stopped half way, after undoing what it could; carries the failure to report."""

    def __init__(self, code: str, message: str, *, retryable: bool = False, **details: Any) -> None:
        super().__init__(code)
        self.code, self.message, self.retryable, self.details = code, message, retryable, details


class BookingConfirmAndPurchase(SpecialistTool):
    name = "booking_confirm_and_purchase"

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        require(args, "trip_id", "hold_ids", "approval_token", "payment_method_id")
        supplier, trip_id, hold_ids = self.deps.supplier, args["trip_id"], list(args["hold_ids"])
        if self.deps.approvals is None or self.deps.payments is None:
            return fail(payload, "approval_invalid", "Purchases are not enabled here.")
        verdict = self.deps.approvals.verify(trip_id=trip_id, token=args["approval_token"], hold_ids=hold_ids, now=now)
        if not verdict.get("ok"):
            if verdict.get("code") == "approval_used" and verdict.get("existing_booking"):
                return ok(payload, {"booking": verdict["existing_booking"], "replayed": True})
            return fail(payload, verdict.get("code") or "approval_invalid",
                        verdict.get("message") or "The approval was refused.")
        holds = [supplier.get_hold(h, now=now) for h in hold_ids]
        ended = [h for h in holds if h["status"] not in ("held", "purchased")]
        if ended:
            return fail(payload, "hold_expired", f"{len(ended)} of the holds ended ({ended[0]['status']}); "
                                                 "place a new hold and ask for a new approval.")
        payment = self.deps.payments.get(trip_id=trip_id, payment_method_id=args["payment_method_id"])
        if not payment:
            return fail(payload, "payment_invalid", "That payment method is not available for this trip.")
        due = {h["hold_id"]: self._price(h, now) for h in holds}
        new_total = sum((money(v) for v in due.values()), Decimal(0))
        policy = {**DEFAULT_POLICY, **((payload.get("org") or {}).get("policy") or {})}
        limit = money(verdict["ceiling"]) * (1 + Decimal(str(policy.get("price_tolerance_pct") or 0)) / 100)
        if new_total > limit:
            return fail(payload, "price_changed", f"The price rose to {amount(new_total)} {verdict.get('currency')}, "
                                                  f"above the approved {verdict['ceiling']}; a new approval is needed.",
                        new_total=amount(new_total), currency=verdict.get("currency"), needs_new_approval=True)
        try:
            orders = self._buy(holds, due, payment, verdict["approval_id"], now)
        except PurchaseAborted as exc:
            return fail(payload, exc.code, exc.message, retryable=exc.retryable, **exc.details)
        booking = supplier.booking_save({
            "booking_id": short_id("bkg", verdict["approval_id"], trip_id),
            "trip_id": trip_id,
            "approval_id": verdict["approval_id"],
            "status": "confirmed",
            "orders": [{k: o[k] for k in ("order_id", "hold_id", "item_type", "item_id", "record_locator", "total",
                                           "status")} for o in orders],
            "record_locators": [o["record_locator"] for o in orders],
            "total": amount(sum((money(o["total"]["amount"]) for o in orders), Decimal(0))),
            "currency": orders[0]["total"]["currency"],
            "payment_method": {k: payment.get(k) for k in ("id", "brand", "last4")},
            "created_at": iso(now),
        })
        self.deps.approvals.consume(approval_id=verdict["approval_id"], booking=booking, now=now)
        return ok(payload, {"booking": booking, "replayed": all(o["replayed"] for o in orders)})

    def _price(self, hold: Dict[str, Any], now: datetime) -> str:
        if hold["status"] == "purchased":  # bought by an earlier try of this approval: replayed below
            return self.deps.supplier.get_order(hold["order_id"])["total"]["amount"]
        return self.deps.supplier.price_hold(hold["hold_id"], now=now)["amount"]

    def _buy(self, holds, due, payment, approval_id: str, now: datetime) -> List[Dict[str, Any]]:
        bought: List[Dict[str, Any]] = []
        for hold in holds:
            try:
                bought.append(self.deps.supplier.purchase(
                    hold_id=hold["hold_id"], amount_due=due[hold["hold_id"]], payment_method=payment,
                    idempotency_key=f"{approval_id}:{hold['hold_id']}", now=now))
            except SupplierError as exc:
                self._unwind(bought, exc, hold, now)
        return bought

    def _unwind(self, bought, exc: SupplierError, hold, now: datetime) -> None:
        """Void what this attempt bought, then raise what to tell the traveller."""
        voided, stuck = [], []
        for order in bought:
            try:
                voided.append(self.deps.supplier.order_void(order["order_id"], now=now)["order_id"])
            except SupplierError:
                stuck.append(order["order_id"])
        what = "flight" if hold["item_type"] == "flight" else "hotel room"
        if stuck:
            raise PurchaseAborted("partial_failure", f"The {what} could not be bought ({exc.message}) and "
                                                 f"{len(stuck)} item(s) already bought could not be undone; "
                                                 "our staff will sort it out.",
                              needs_attention=True, orders=stuck, voided_orders=voided, cause=exc.code)
        raise PurchaseAborted(exc.code, f"The {what} could not be bought: {exc.message} Nothing was charged.",
                              retryable=exc.retryable, voided_orders=voided)

    @classmethod
    def run_tests(cls) -> None:
        deps, now = self_test_deps(), SELF_TEST_NOW
        offer = next(o for o in deps.supplier.search_flights(origin="EWR", destination="DEN", depart_date="2027-01-30",
                                                             passengers={"adults": 1}, now=now)
                     if o["hold_policy"]["holdable"])
        hold = deps.supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="k", now=now)
        token = deps.approvals.grant(trip_id="t1", holds=[hold], now=now)
        args = {"trip_id": "t1", "hold_ids": [hold["hold_id"]], "approval_token": token, "payment_method_id": "pm_1"}
        first = cls(deps).run({"args": args, "now": now.isoformat()})
        assert first["success"] and first["output"]["replayed"] is False, first
        again = cls(deps).run({"args": args, "now": now.isoformat()})["output"]
        assert again["replayed"] and again["booking"]["booking_id"] == first["output"]["booking"]["booking_id"]
        assert len([c for c in deps.supplier.charges() if c["kind"] == "charge"]) == 1
        forged = cls(deps).run({"args": {**args, "approval_token": "abc"}, "now": now.isoformat()})["output"]
        assert forged["error"]["code"] == "approval_invalid"
