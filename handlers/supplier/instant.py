"""Offers that must be paid at once, approved like holds and bought with one instant order.

Some fares and rates cannot be held: the supplier wants the payment with the order
(``requires_instant_payment``, ``hold_policy.holdable: false``). TripDesk still buys nothing
without an approver's grant, and the approval and token rules are the same for every item, so
such an offer gets a *reservation* instead of a hold: a hold-shaped record of our own (``hold_id``
``ins_…``, ``instant: true``) that places nothing at the supplier. It lasts as long as the offer
(``payment_required_by`` is the offer's ``expires_at``) and carries no price guarantee.

Paying a reservation is the protocol's instant booking. The offer is refreshed right before
ordering (``refresh_offer``: gone is ``offer_expired`` or ``sold_out``; another price is
``price_changed`` and nothing is bought), then ``book_instant`` orders and pays in one step, with
the trip's passengers, under the purchase's idempotency key: a resubmission after a lost answer
replays the supplier's order and charges nothing. The order keeps the supplier's own id and
record locator (the references the booking stores) and names the reservation as its hold.

Every adapter gets this by inheriting ``InstantReservations`` ahead of its own class
(``class SandboxSupplier(InstantReservations, SandboxCore)``): each protocol method below serves
reservations and hands everything else (holds, orders, cancellations) to the adapter through
``super()``. Reservations live in the adapter's own state, under ``reservation:``.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any, Callable, Dict, Optional, Sequence

from handlers.common.clock import iso
from handlers.common.formats import money_text

from .errors import SupplierError, live_hold, passenger_refs
from .money import amount, money
from .state import SupplierState

PREFIX = "ins_"
QUOTE_PREFIX = "cqi_"
CANCEL_QUOTE_MINUTES = 15
PRIVATE = ("trip_id", "purchase_key")


def is_reservation(ref_id: str) -> bool:
    return str(ref_id).startswith(PREFIX)


def must_pay_at_once(item: Dict[str, Any]) -> bool:
    """The supplier sells ``item`` only with its payment (no hold)."""
    return bool(item.get("requires_instant_payment")) or not (item.get("hold_policy") or {}).get("holdable", True)


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


class InstantReservations:
    """Reservations for pay-at-once offers, in front of an adapter's holds (see the module)."""

    state: SupplierState  # the adapter's own records
    _now: Callable[[Optional[datetime]], datetime]  # the adapter's clock

    @property
    def _adapter(self) -> Any:
        """The adapter's own protocol methods (the class after this one)."""
        return super()

    # -- reserving ----------------------------------------------------------------------------

    def hold_create(
        self,
        *,
        item_type: str,
        item_id: str,
        idempotency_key: str,
        passengers: Optional[Sequence[Dict[str, Any]]] = None,
        trip_id: Optional[str] = None,
        now: Optional[datetime] = None,
    ) -> Dict[str, Any]:
        """A hold at the supplier; for an offer that must be paid at once, a reservation (same key,
        same reservation)."""
        now = self._now(now)
        item = self._adapter.get_item(item_type, item_id)
        if not must_pay_at_once(item):
            return self._adapter.hold_create(
                item_type=item_type,
                item_id=item_id,
                idempotency_key=idempotency_key,
                passengers=passengers,
                trip_id=trip_id,
                now=now,
            )
        hold_id = PREFIX + hashlib.sha256(idempotency_key.encode()).hexdigest()[:20]
        if self.state.get("reservation", hold_id) is None:
            if now >= _at(item["expires_at"]):
                raise SupplierError("offer_expired", "That option has expired; search again for current prices.")
            self._adapter.require_passengers(trip_id, passenger_refs(passengers))  # asked now, not at payment
            self.state.put_if_absent(
                "reservation",
                hold_id,
                {
                    "hold_id": hold_id,
                    "item_type": item_type,
                    "item_id": item_id,
                    ("offer_id" if item_type == "flight" else "rate_id"): item_id,
                    "status": "held",
                    "instant": True,
                    "quantity": len(passengers or []) or int(item.get("rooms") or 1),
                    "payment_required_by": item["expires_at"],
                    "price_guarantee_expires_at": None,
                    "held_total": {"amount": item["price"]["total_amount"], "currency": item["price"]["currency"]},
                    "idempotency_key": idempotency_key,
                    "created_at": iso(now),
                    "order_id": None,
                    "passengers": passenger_refs(passengers),
                    "trip_id": trip_id,
                },
            )
        if self._reservation(hold_id)["item_id"] != item_id:
            raise SupplierError("idempotency_conflict", f"The key {idempotency_key} was already used for another item.")
        return self.get_hold(hold_id, now=now)

    def _reservation(self, hold_id: str) -> Dict[str, Any]:
        record = self.state.get("reservation", hold_id)
        if record is None:
            raise SupplierError("not_found", f"There is no hold {hold_id}.")
        return record

    def _reservation_set(self, hold_id: str, **changes: Any) -> Dict[str, Any]:
        record = {**self._reservation(hold_id), **changes}
        self.state.put("reservation", hold_id, record)
        return record

    def get_hold(self, hold_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        if not is_reservation(hold_id):
            return self._adapter.get_hold(hold_id, now=now)
        record = self._reservation(hold_id)
        if record["status"] == "held" and self._now(now) >= _at(record["payment_required_by"]):
            record = self._reservation_set(hold_id, status="expired")  # the offer lapsed
        return {k: v for k, v in record.items() if k not in PRIVATE}

    def hold_release(self, hold_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """Nothing is placed at the supplier: releasing a reservation only ends it."""
        if not is_reservation(hold_id):
            return self._adapter.hold_release(hold_id, now=now)
        hold = self.get_hold(hold_id, now=now)
        if hold["status"] != "held":
            return hold
        self._reservation_set(hold_id, status="released")
        return {**hold, "status": "released"}

    # -- paying -------------------------------------------------------------------------------

    def price_hold(self, hold_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """A reservation costs what its offer costs now, refreshed at the supplier."""
        if not is_reservation(hold_id):
            return self._adapter.price_hold(hold_id, now=now)
        now = self._now(now)
        hold = live_hold(self, hold_id, now)
        offer = self._adapter.refresh_offer(hold["item_type"], hold["item_id"], now=now)
        current = money(offer["price"]["total_amount"])
        return {
            "hold_id": hold_id,
            "amount": amount(current),
            "currency": offer["price"]["currency"],
            "repriced": current != money(hold["held_total"]["amount"]),
        }

    def purchase(
        self,
        *,
        hold_id: str,
        amount_due: str,
        payment_method: Dict[str, Any],
        idempotency_key: str,
        now: Optional[datetime] = None,
    ) -> Dict[str, Any]:
        """Pay a hold; book a reservation instantly at ``amount_due``, its offer refreshed first."""
        if not is_reservation(hold_id):
            return self._adapter.purchase(
                hold_id=hold_id,
                amount_due=amount_due,
                payment_method=payment_method,
                idempotency_key=idempotency_key,
                now=now,
            )
        now = self._now(now)
        record = self._reservation(hold_id)
        if record["status"] == "purchased":
            if record.get("purchase_key") != idempotency_key:
                raise SupplierError("idempotency_conflict", "That option was already bought by another purchase.")
            return {**self.get_order(record["order_id"]), "replayed": True}
        quote = self.price_hold(hold_id, now=now)  # the offer as it stands right before ordering
        if money(quote["amount"]) != money(amount_due):
            raise SupplierError(
                "price_changed",
                f"The price is now {money_text(quote['amount'], quote['currency'])}, so nothing was bought at the old one.",
                current_amount=quote["amount"],
                currency=quote["currency"],
            )
        order = self._adapter.book_instant(
            item_type=record["item_type"],
            item_id=record["item_id"],
            amount_due=amount_due,
            payment_method=payment_method,
            idempotency_key=idempotency_key,
            passengers=record.get("passengers") or None,
            trip_id=record.get("trip_id"),
            now=now,
        )
        self._reservation_set(hold_id, status="purchased", order_id=order["order_id"], purchase_key=idempotency_key)
        self.state.put("reserved_order", order["order_id"], {"hold_id": hold_id})
        return _as_reserved(order, hold_id)

    def get_order(self, order_id: str) -> Dict[str, Any]:
        order = self._adapter.get_order(order_id)
        mine = self.state.get("reserved_order", order_id)
        return _as_reserved(order, mine["hold_id"]) if mine else order

    def order_void(self, order_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        return self._closed(order_id, self._adapter.order_void(order_id, now=now))

    def _closed(self, order_id: str, result: Dict[str, Any]) -> Dict[str, Any]:
        """An instant order voided or cancelled ends its reservation, as a paid hold is released."""
        mine = self.state.get("reserved_order", order_id)
        if mine is None:
            return result
        self._reservation_set(mine["hold_id"], status="released")
        return _as_reserved(result, mine["hold_id"]) if "order_id" in result else result

    # -- cancelling ---------------------------------------------------------------------------

    def cancel_quote(self, ref_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """An unpaid reservation refunds nothing; anything else is the supplier's quote."""
        if not is_reservation(ref_id):
            return self._adapter.cancel_quote(ref_id, now=now)
        now = self._now(now)
        hold = self.get_hold(ref_id, now=now)
        quote = {
            "quote_id": f"{QUOTE_PREFIX}{ref_id}_{int(now.timestamp())}",
            "ref_id": ref_id,
            "refund_amount": "0.00",
            "currency": hold["held_total"]["currency"],
            "created_at": iso(now),
            "expires_at": iso(now + timedelta(minutes=CANCEL_QUOTE_MINUTES)),
        }
        self.state.put("cancel_quote", quote["quote_id"], quote)
        return quote

    def cancel_confirm(self, quote_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        if not str(quote_id).startswith(QUOTE_PREFIX):
            done = self._adapter.cancel_confirm(quote_id, now=now)
            return self._closed(done["ref_id"], done)
        now = self._now(now)
        quote = self.state.get("cancel_quote", quote_id)
        if quote is None:
            raise SupplierError("not_found", "That cancellation quote is unknown; ask for a new one.")
        if now >= _at(quote["expires_at"]):
            raise SupplierError("quote_expired", "The cancellation quote expired; ask for a new one.", retryable=True)
        self.hold_release(quote["ref_id"], now=now)
        return {
            "ref_id": quote["ref_id"],
            "quote_id": quote_id,
            "status": "cancelled",
            "refund_amount": "0.00",
            "currency": quote["currency"],
            "cancelled_at": iso(now),
            "replayed": False,
        }


def _as_reserved(order: Dict[str, Any], hold_id: str) -> Dict[str, Any]:
    """The supplier's order naming the reservation it paid (the supplier's own hold id kept aside)."""
    supplier_hold = order.get("supplier_hold_id") or order.get("hold_id")
    return {**order, "hold_id": hold_id, "supplier_hold_id": supplier_hold, "instant": True}
