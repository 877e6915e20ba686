"""booking_confirm_and_purchase: buy held items with an approver's token and a payment method.

Order of checks, each refusing with its own code before any money moves: the approval token
(``approval_invalid`` / ``approval_expired`` / ``approval_used``; a used one for this trip
replays the booking), every hold live (``hold_expired``), the payment method
(``payment_invalid``), the current price within the approved ceiling plus the policy's
tolerance (``price_changed``, ``needs_new_approval``).

Each purchase carries the key ``<approval_id>:<hold_id>``, so an item is charged at most once
per approval. That key decides what a failure half way does:

* a retryable one (a supplier timeout or error) keeps what was bought: the resubmission the
  chat asks for replays those items under their keys, charging nothing, and buys the rest;
* any other (an item sold out, a hold ended, the price rose past the approval) ends this
  approval's purchase, so what it bought, on this try or an earlier one, is voided and refunded
  in full: the traveller never keeps half a trip. A void that fails reports
  ``partial_failure`` for staff.

Every failure carries ``holds`` (``[{hold_id, status}]``, read back from the supplier), so the
trip shows what the supplier holds, whatever the outcome.

An item reserved because it must be paid at once (``instant``) goes through the same checks
and the same token; its price is its offer refreshed now, refreshed once more right before
ordering, and it is bought with one instant order (``handlers.supplier.instant``). Every order in
the booking names its supplier, the supplier's order id and record locator, and whether it was
an instant booking.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any, Dict, List

from handlers.common.clock import iso
from handlers.common.defaults import DEFAULT_POLICY
from handlers.common.formats import money_text
from handlers.common.types import fail, ok
from handlers.supplier import SupplierError
from handlers.supplier.money import amount, money
from handlers.supplier.seeded import short_id

from . import SELF_TEST_NOW, SpecialistTool, require, self_test_deps

ENDED_WORDS = {"expired": "expired", "released": "was released", "failed": "sold out", "not_found": "is unknown"}


class PurchaseAborted(Exception):
    """A purchase stopped, after undoing what it had to; carries the failure to report."""

    def __init__(self, code: str, message: str, *, retryable: bool = False, **details: Any) -> None:
        super().__init__(code)
        self.code, self.message, self.retryable, self.details = code, message, retryable, details


def purchase_key(approval_id: str, hold_id: str) -> str:
    return f"{approval_id}:{hold_id}"


def things(items: List[Dict[str, Any]]) -> str:
    """``[{item_type}, ...]`` in words: "the flight", "2 flights and the hotel room"."""
    flights = sum(1 for i in items if i.get("item_type") == "flight")
    rooms = len(items) - flights
    parts = [
        ("the flight" if n == 1 else f"{n} flights")
        if kind == "flight"
        else ("the hotel room" if n == 1 else f"{n} hotel rooms")
        for kind, n in (("flight", flights), ("hotel", rooms))
        if n
    ]
    return " and ".join(parts) or "nothing"


class BookingConfirmAndPurchase(SpecialistTool):
    name = "booking_confirm_and_purchase"

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        require(args, "trip_id", "hold_ids", "approval_token", "payment_method_id")
        trip_id, hold_ids = args["trip_id"], list(args["hold_ids"])
        if self.deps.approvals is None or self.deps.payments is None:
            return fail(payload, "approval_invalid", "Purchases are not enabled here.")
        verdict = self.deps.approvals.verify(trip_id=trip_id, token=args["approval_token"], hold_ids=hold_ids, now=now)
        if not verdict.get("ok"):
            if verdict.get("code") == "approval_used" and verdict.get("existing_booking"):
                return ok(payload, {"booking": verdict["existing_booking"], "replayed": True})
            return fail(
                payload,
                verdict.get("code") or "approval_invalid",
                verdict.get("message") or "The approval was refused.",
            )
        try:
            orders = self._purchase(payload, args, verdict, now)
        except PurchaseAborted as exc:
            return fail(
                payload,
                exc.code,
                exc.message,
                retryable=exc.retryable,
                holds=self._holds_now(hold_ids, now),
                **exc.details,
            )
        # The host keeps the booking (``approvals.consume``): bookings never live at a supplier.
        booking = {
            "booking_id": short_id("bkg", verdict["approval_id"], trip_id),
            "trip_id": trip_id,
            "approval_id": verdict["approval_id"],
            "status": "confirmed",
            "orders": [
                {
                    **{
                        k: o[k]
                        for k in ("order_id", "hold_id", "item_type", "item_id", "record_locator", "total", "status")
                    },
                    "supplier": self.deps.supplier.name,
                    "instant": bool(o.get("instant")),
                }
                for o in orders
            ],
            "record_locators": [o["record_locator"] for o in orders],
            "total": amount(sum((money(o["total"]["amount"]) for o in orders), Decimal(0))),
            "currency": orders[0]["total"]["currency"],
            "payment_method": {k: orders[0]["payment_method"].get(k) for k in ("id", "brand", "last4")},
            "created_at": iso(now),
        }
        self.deps.approvals.consume(approval_id=verdict["approval_id"], booking=booking, now=now)
        return ok(payload, {"booking": booking, "replayed": all(o["replayed"] for o in orders)})

    def _purchase(self, payload, args, verdict, now: datetime) -> List[Dict[str, Any]]:
        """The checks, then the purchases; raises ``PurchaseAborted`` with what to tell the traveller."""
        supplier, approval_id = self.deps.supplier, verdict["approval_id"]
        holds = [supplier.get_hold(h, now=now) for h in args["hold_ids"]]
        earlier = self._bought_earlier(holds, approval_id)
        ended = [h for h in holds if h["status"] not in ("held", "purchased")]
        if ended:
            gone = "; ".join(f"{things([h])} {ENDED_WORDS.get(h['status'], h['status'])}" for h in ended)
            raise self._unwind(
                earlier,
                "hold_expired",
                f"Not everything is on hold any more ({gone}), so nothing "
                "more can be bought with this approval. Place a new hold and ask for a new approval.",
                now,
                ended=[{"hold_id": h["hold_id"], "status": h["status"]} for h in ended],
            )
        payment = self.deps.payments.get(trip_id=args["trip_id"], payment_method_id=args["payment_method_id"])
        if not payment:
            kept = f" {things(earlier).capitalize()} bought on the earlier try stays bought." if earlier else ""
            raise PurchaseAborted(
                "payment_invalid",
                f"That payment method is not available for this trip, so nothing was bought this time.{kept}",
                bought_orders=[o["order_id"] for o in earlier],
            )
        due = {h["hold_id"]: self._price(h, now) for h in holds}
        new_total = sum((money(v) for v in due.values()), Decimal(0))
        policy = {**DEFAULT_POLICY, **((payload.get("org") or {}).get("policy") or {})}
        limit = money(verdict["ceiling"]) * (1 + Decimal(str(policy.get("price_tolerance_pct") or 0)) / 100)
        if new_total > limit:
            raise self._unwind(
                earlier,
                "price_changed",
                f"The price rose to {money_text(new_total, verdict.get('currency'))}, above the approved "
                f"{money_text(verdict['ceiling'], verdict.get('currency'))}; a new approval is needed.",
                now,
                new_total=amount(new_total),
                currency=verdict.get("currency"),
                needs_new_approval=True,
            )
        return self._buy(holds, due, payment, approval_id, earlier, now)

    def _bought_earlier(self, holds: List[Dict[str, Any]], approval_id: str) -> List[Dict[str, Any]]:
        """The orders an earlier, interrupted try of this approval paid for (their keys are this approval's)."""
        orders = [self.deps.supplier.get_order(h["order_id"]) for h in holds if h["status"] == "purchased"]
        return [o for o in orders if o.get("idempotency_key") == purchase_key(approval_id, o["hold_id"])]

    def _holds_now(self, hold_ids: List[str], now: datetime) -> List[Dict[str, str]]:
        """Each hold's status at the supplier after the failure: the truth the trip must show."""
        statuses = []
        for hold_id in hold_ids:
            try:
                statuses.append({"hold_id": hold_id, "status": self.deps.supplier.get_hold(hold_id, now=now)["status"]})
            except SupplierError:
                statuses.append({"hold_id": hold_id, "status": "not_found"})
        return statuses

    def _price(self, hold: Dict[str, Any], now: datetime) -> str:
        if hold["status"] == "purchased":  # bought by an earlier try of this approval: replayed below
            return self.deps.supplier.get_order(hold["order_id"])["total"]["amount"]
        return self.deps.supplier.price_hold(hold["hold_id"], now=now)["amount"]

    def _buy(self, holds, due, payment, approval_id: str, earlier, now: datetime) -> List[Dict[str, Any]]:
        bought: List[Dict[str, Any]] = []
        for hold in holds:
            try:
                bought.append(
                    self.deps.supplier.purchase(
                        hold_id=hold["hold_id"],
                        amount_due=due[hold["hold_id"]],
                        payment_method=payment,
                        idempotency_key=purchase_key(approval_id, hold["hold_id"]),
                        now=now,
                    )
                )
            except SupplierError as exc:
                failed = f"{things([hold]).capitalize()} could not be bought: {exc.message}"
                if exc.retryable:
                    raise self._paused(bought, hold, failed, exc) from exc
                replayed = {o["order_id"] for o in bought}
                raise self._unwind(
                    bought + [o for o in earlier if o["order_id"] not in replayed], exc.code, failed, now
                ) from exc
        return bought

    @staticmethod
    def _paused(bought: List[Dict[str, Any]], hold: Dict[str, Any], failed: str, exc: SupplierError) -> PurchaseAborted:
        """A retryable failure: what was bought stays bought, and paying again finishes the trip.

        The failed item's outcome is unknown (a timeout may come after the supplier charged), so
        the words promise nothing about it; paying again asks the supplier under the same key,
        which sells it once at most.
        """
        kept = (
            f" {things(bought).capitalize()} {'is' if len(bought) == 1 else 'are'} bought and "
            f"{'stays' if len(bought) == 1 else 'stay'} bought."
            if bought
            else ""
        )
        unknown = (
            f" Whether {things([hold])} was charged is not known yet. Pay again to finish: it uses the same "
            "approval, and nothing is bought or charged twice."
        )
        return PurchaseAborted(
            exc.code, failed + kept + unknown, retryable=True, bought_orders=[o["order_id"] for o in bought]
        )

    def _unwind(
        self, orders: List[Dict[str, Any]], code: str, reason: str, now: datetime, **details: Any
    ) -> PurchaseAborted:
        """This approval's purchase cannot complete: void what it bought, so no half trip is left."""
        voided, stuck = [], []
        for order in orders:
            try:
                voided.append(self.deps.supplier.order_void(order["order_id"], now=now))
            except SupplierError:
                stuck.append(order)
        if stuck:
            return PurchaseAborted(
                "partial_failure",
                f"{reason} {things(stuck).capitalize()} already bought could "
                "not be undone; our staff will sort it out.",
                needs_attention=True,
                orders=[o["order_id"] for o in stuck],
                voided_orders=[o["order_id"] for o in voided],
                cause=code,
            )
        if voided:
            one = len(voided) == 1
            undone = (
                f" {things(voided).capitalize()} already bought {'was' if one else 'were'} voided and refunded "
                f"in full, and {'its hold' if one else 'their holds'} released, so nothing is charged."
            )
        else:
            undone = " Nothing was charged."
        return PurchaseAborted(code, reason.rstrip() + undone, voided_orders=[o["order_id"] for o in voided], **details)

    @classmethod
    def run_tests(cls) -> None:
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
        args = {"trip_id": "t1", "hold_ids": [hold["hold_id"]], "approval_token": token, "payment_method_id": "pm_1"}
        first = cls(deps).run({"args": args, "now": now.isoformat()})
        assert first["success"] and first["output"]["replayed"] is False, first
        again = cls(deps).run({"args": args, "now": now.isoformat()})["output"]
        assert again["replayed"] and again["booking"]["booking_id"] == first["output"]["booking"]["booking_id"]
        assert len([c for c in deps.supplier.charges() if c["kind"] == "charge"]) == 1
        forged = cls(deps).run({"args": {**args, "approval_token": "abc"}, "now": now.isoformat()})["output"]
        assert forged["error"]["code"] == "approval_invalid"
