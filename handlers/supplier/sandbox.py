"""The sandbox supplier: searches, holds, orders and cancellations behind a KeyValueStore.

It behaves like a public flight/hotel API (SUPPLIER.md): offers expire, holds lapse at their
payment deadline, purchases re-price once the price guarantee is over, inventory is finite,
idempotency keys make every write safe to repeat, and faults come on demand. Refusals raise
``SupplierError``; the tool handlers turn them into failed results.
"""

from __future__ import annotations

import copy
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, Callable, Dict, List, Optional, Sequence
from zoneinfo import ZoneInfo

from handlers.common.clock import iso
from handlers.common.crash import crash_point
from handlers.common.formats import money_text

from .errors import SupplierError, live_hold, passenger_refs
from .faults import FaultPlan
from .flights import build_flight_offers, passenger_list
from .hotels import build_hotel_rates
from .instant import InstantReservations
from .money import amount, money
from .refunds import refund_due, refund_rules
from .seeded import record_locator, search_of, short_id, unit
from .state import SupplierState

HOLD_TOOL, PURCHASE_TOOL = "reservation_hold_create", "booking_confirm_and_purchase"
FLIGHT_TICKETING_CUTOFF = timedelta(hours=3)  # a flight hold must be paid this long before departure
CANCEL_QUOTE_MINUTES = 15
VOID_WINDOW = timedelta(hours=24)
ITEM_FIELDS = {"offer": ("offer_id", "seats_remaining"), "rate": ("rate_id", "quantity_available")}  # id, stock


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


def _day(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))


class SandboxCore:
    """The sandbox's own holds, orders and cancellations; passengers are kept as references only.

    ``SandboxSupplier`` (below) is what the tools use: this, with reservations for offers that
    must be paid at once (``handlers.supplier.instant``).
    """

    name = "sandbox"

    def __init__(
        self,
        store: Any,
        *,
        seed: int,
        clock: Callable[[], datetime],
        faults: Optional[Dict[str, Dict[str, float]]] = None,
        offer_ttl_minutes: int = 45,
        rate_ttl_minutes: int = 60,
        prefix: str = "sandbox:",
    ) -> None:
        self.seed, self.clock = seed, clock
        self.state = SupplierState(store, prefix)
        self.faults = FaultPlan(store=store, seed=seed, rates=faults, prefix=prefix)
        self.offer_ttl_minutes, self.rate_ttl_minutes = offer_ttl_minutes, rate_ttl_minutes
        # Items found again (``get_item``), by kind and id: as offered they never change, and a
        # hold asks for its item twice (the reservation check, then the hold).
        self._items: Dict[tuple[str, str], Dict[str, Any]] = {}

    def _now(self, now: Optional[datetime]) -> datetime:
        return now if now is not None else self.clock()

    # -- searches -----------------------------------------------------------------------------

    def search_flights(
        self,
        *,
        origin: str,
        destination: str,
        depart_date: Any,
        passengers: Dict[str, Any],
        cabin: str = "economy",
        now: Optional[datetime] = None,
    ) -> List[Dict[str, Any]]:
        now = self._now(now)
        if "empty" in self.faults.draw("flight_quote_search"):
            return []
        search = {
            "origin": origin,
            "destination": destination,
            "depart_date": _day(depart_date).isoformat(),
            "passengers": passengers,
            "cabin": cabin,
            "now": now.isoformat(),  # with its offset: the day a search runs on is the caller's
        }
        published = self._publish("offer", search, self._offers("offer", search))
        seats = _quantity("flight", {"passengers": passenger_list(passengers)})  # the party every offer is for
        return [o for o in published if o["seats_remaining"] >= seats]

    def search_hotels(
        self,
        *,
        location_code: str,
        check_in: Any,
        check_out: Any,
        rooms: int,
        guests_per_room: int,
        now: Optional[datetime] = None,
    ) -> List[Dict[str, Any]]:
        now = self._now(now)
        if "empty" in self.faults.draw("hotel_quote_search"):
            return []
        search = {
            "location_code": location_code,
            "check_in": _day(check_in).isoformat(),
            "check_out": _day(check_out).isoformat(),
            "rooms": rooms,
            "guests_per_room": guests_per_room,
            "now": now.isoformat(),  # with its offset: the day a search runs on is the caller's
        }
        return [
            r
            for r in self._publish("rate", search, self._offers("rate", search))
            if r["quantity_available"] >= r["rooms"]
        ]

    def _offers(self, kind: str, search: Dict[str, Any]) -> List[Dict[str, Any]]:
        """The offers (``kind`` "offer") or rates ("rate") a search finds: a pure function of the
        seed and the search, so the same search always finds the same items."""
        if kind == "offer":
            return build_flight_offers(
                seed=self.seed,
                origin=search["origin"],
                destination=search["destination"],
                depart_date=_day(search["depart_date"]),
                passengers=search["passengers"],
                cabin=search["cabin"],
                now=_at(search["now"]),
                ttl_minutes=self.offer_ttl_minutes,
            )
        return build_hotel_rates(
            seed=self.seed,
            location_code=search["location_code"],
            check_in=_day(search["check_in"]),
            check_out=_day(search["check_out"]),
            rooms=search["rooms"],
            guests_per_room=search["guests_per_room"],
            now=_at(search["now"]),
            ttl_minutes=self.rate_ttl_minutes,
        )

    def _publish(self, kind: str, search: Dict[str, Any], items: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Keep the search (not its items: ``get_item`` finds them again from it) and the items'
        stock counters together, and show the stock actually left (purchases consume it)."""
        id_field, stock_field = ITEM_FIELDS[kind]
        offered = {item[id_field]: item[stock_field] for item in items}
        refs = set(map(search_of, offered))  # (from the ids already read: no second pass over the items)
        left = self.state.stock_many(offered, refs)
        if left != offered:  # (a search nobody held from shows its items as offered: nothing to change)
            for item in items:
                item[stock_field] = min(item[stock_field], left[item[id_field]])
        self.state.put_many("search", {ref: {"kind": kind, "search": search} for ref in refs})
        return items

    def get_item(self, item_type: str, item_id: str) -> Dict[str, Any]:
        """The offer or rate as its search published it: found again from that search, exactly
        as offered (price, expiry, hold policy), so a hold checks what the traveller saw."""
        kind = "offer" if item_type == "flight" else "rate"
        item = self._items.get((kind, item_id))
        if item is None:
            ref = search_of(item_id)  # the item kept whole (as once) or its search: one read for both
            found = self.state.get_many([(kind, item_id), ("search", ref)])
            item = found[(kind, item_id)] or self._searched(kind, item_id, found[("search", ref)])
            if item is None:
                raise SupplierError("not_found", f"The {item_type} option {item_id} is unknown; search again.")
            self._items[(kind, item_id)] = item
        return copy.deepcopy(item)

    def _searched(self, kind: str, item_id: str, record: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
        """The item found again in its search ``record`` (as ``_publish`` kept it)."""
        if record is None or record.get("kind") != kind:
            return None
        id_field = ITEM_FIELDS[kind][0]
        return next((item for item in self._offers(kind, record["search"]) if item[id_field] == item_id), None)

    def refresh_offer(self, item_type: str, item_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """The offer or rate as it stands now: refused once expired or sold out (prices are fixed
        until expiry in the sandbox; the re-price happens when a hold's guarantee runs out)."""
        now = self._now(now)
        item = self.get_item(item_type, item_id)
        if now >= _at(item["expires_at"]):
            raise SupplierError("offer_expired", "That option has expired; search again for current prices.")
        stock = "seats_remaining" if item_type == "flight" else "quantity_available"
        left = self.state.stock(item_id, _offered(item_type, item))
        if left < _quantity(item_type, item):
            raise SupplierError("sold_out", "Not enough seats or rooms are left for that option.")
        return {**item, stock: left}

    def require_passengers(self, trip_id: Optional[str], refs: Sequence[Dict[str, Any]]) -> None:
        """The sandbox books by reference: nobody has to be named first."""

    # -- holds --------------------------------------------------------------------------------

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
        """Hold one offer or rate; the same key returns the original hold (never a second one)."""
        now = self._now(now)
        hold_id = short_id("hld", self.seed, idempotency_key)
        existing = self.state.get("hold", hold_id)
        if existing is not None:
            return self._replayed(existing, item_id, idempotency_key, now)
        if "sold_out" in self.faults.draw(HOLD_TOOL):
            raise SupplierError("sold_out", "That option sold out before it could be held.")
        item = self.get_item(item_type, item_id)
        if now >= _at(item["expires_at"]):
            raise SupplierError("offer_expired", "That option has expired; search again for current prices.")
        if not item["hold_policy"]["holdable"] or item.get("requires_instant_payment"):
            raise SupplierError("not_holdable", "That option must be paid at once and cannot be held.")
        quantity = _quantity(item_type, item)
        if self.state.stock(item_id, _offered(item_type, item)) < quantity:
            raise SupplierError("sold_out", "Not enough seats or rooms are left for that option.")
        guarantee = item["hold_policy"].get("price_guarantee_minutes")
        hold = {
            "hold_id": hold_id,
            "item_type": item_type,
            ("offer_id" if item_type == "flight" else "rate_id"): item_id,
            "item_id": item_id,
            "status": "held",
            "quantity": quantity,
            "payment_required_by": iso(self._hold_deadline(item_type, item, now)),
            "price_guarantee_expires_at": iso(now + timedelta(minutes=guarantee)) if guarantee else None,
            "held_total": {"amount": item["price"]["total_amount"], "currency": item["price"]["currency"]},
            "idempotency_key": idempotency_key,
            "created_at": iso(now),
            "order_id": None,
        }
        if passengers:  # references only (id, type, age): the sandbox never sees a name
            hold["passengers"] = passenger_refs(passengers)
        if not self.state.put_if_absent("hold", hold_id, hold):  # a concurrent twin won the race
            return self._replayed(self.state.get("hold", hold_id), item_id, idempotency_key, now)
        return hold

    def _replayed(self, hold: Dict[str, Any], item_id: str, key: str, now: datetime) -> Dict[str, Any]:
        if hold["item_id"] != item_id:
            raise SupplierError("idempotency_conflict", f"The key {key} was already used for another item.")
        return self._enforce_deadline(hold, now)

    def _hold_deadline(self, item_type: str, item: Dict[str, Any], now: datetime) -> datetime:
        deadline = now + timedelta(minutes=item["hold_policy"]["max_hold_minutes"])
        if item_type == "flight":
            starts = _at(item["slices"][0]["segments"][0]["depart_at"]) - FLIGHT_TICKETING_CUTOFF
        else:
            tz = ZoneInfo(item["hotel"]["time_zone"])
            starts = datetime.combine(_day(item["check_in"]), time(12, 0), tzinfo=tz)
        return max(now, min(deadline, starts))

    def _enforce_deadline(self, hold: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        """Holds lapse at ``payment_required_by``; checked on every read, so no sweeper is needed."""
        if hold["status"] == "held" and now >= _at(hold["payment_required_by"]):
            hold = {**hold, "status": "expired"}
            self.state.put("hold", hold["hold_id"], hold)
        return hold

    def get_hold(self, hold_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        hold = self.state.get("hold", hold_id)
        if hold is None:
            raise SupplierError("not_found", f"There is no hold {hold_id}.")
        return self._enforce_deadline(hold, self._now(now))

    def hold_release(self, hold_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """Release a live hold; releasing one that already ended returns it unchanged."""
        hold = self.get_hold(hold_id, now=now)
        if hold["status"] == "held":
            hold = {**hold, "status": "released"}
            self.state.put("hold", hold_id, hold)
        return hold

    # -- purchase -----------------------------------------------------------------------------

    def price_hold(self, hold_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """What paying for a live hold costs now: the held price while it is guaranteed, else a
        seeded move (−3 % … +6 %), or a 15–25 % jump when that fault is configured."""
        now = self._now(now)
        hold = live_hold(self, hold_id, now)
        held = money(hold["held_total"]["amount"])
        guarantee = hold["price_guarantee_expires_at"]
        move = Decimal(0)
        if guarantee is None or now >= _at(guarantee):
            move = Decimal(f"{unit(self.seed, 'reprice', hold_id) * 0.09 - 0.03:.4f}")
            move = move if abs(move) >= Decimal("0.005") else Decimal("0.01")  # a re-price visibly moves
        if "price_jump" in self.faults.draw(PURCHASE_TOOL, kinds=("price_jump",), key=hold_id):
            move = Decimal(f"{0.15 + unit(self.seed, 'jump', hold_id) * 0.10:.4f}")
        current = money(held * (1 + move)) if move else held
        return {
            "hold_id": hold_id,
            "amount": amount(current),
            "currency": hold["held_total"]["currency"],
            "repriced": current != held,
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
        """Pay for a held item at ``amount_due`` (what ``price_hold`` said); a replay of the key
        returns the original order and charges nothing. The result carries ``replayed``."""
        now = self._now(now)
        order_id = short_id("ord", self.seed, idempotency_key)
        existing = self.state.get("order", order_id)
        if existing is not None:
            return self._order_replay(existing, hold_id, idempotency_key)
        self.faults.draw(PURCHASE_TOOL, kinds=("timeout", "error"))
        quote = self.price_hold(hold_id, now=now)
        if money(quote["amount"]) != money(amount_due):
            raise SupplierError(
                "price_changed",
                f"The price is now {money_text(quote['amount'], quote['currency'])}.",
                current_amount=quote["amount"],
                currency=quote["currency"],
            )
        hold = live_hold(self, hold_id, now)
        # The order, its charge and the hold's change land together or not at all, as at a real
        # supplier: a crash half way leaves no "pending" order that every retry would wait on.
        with self.state.atomic():
            if not self.state.put_if_absent(
                "order", order_id, {"order_id": order_id, "hold_id": hold_id, "status": "pending"}
            ):
                return self._order_replay(self.state.get("order", order_id), hold_id, idempotency_key)
            crash_point("supplier.order_pending")
            order = self._order_fill(order_id, hold, quote, payment_method, idempotency_key, now)
        if order is None:
            raise SupplierError("sold_out", "The last seats or rooms were sold before payment.")
        crash_point("supplier.order_confirmed")
        return {**order, "replayed": False}

    def _order_fill(
        self,
        order_id: str,
        hold: Dict[str, Any],
        quote: Dict[str, Any],
        payment_method: Dict[str, Any],
        idempotency_key: str,
        now: datetime,
    ) -> Optional[Dict[str, Any]]:
        """Take the stock and charge the card for a pending order; ``None`` (order failed) when sold out."""
        hold_id = hold["hold_id"]
        sold_out = "sold_out" in self.faults.draw(PURCHASE_TOOL, kinds=("sold_out",), key=hold_id)
        if sold_out or not self.state.take_stock(hold["item_id"], hold["quantity"]):
            failed = {"order_id": order_id, "hold_id": hold_id, "status": "failed", "error": "sold_out"}
            self.state.put("order", order_id, failed)
            self.state.put("hold", hold_id, {**hold, "status": "failed"})
            return None
        item = self.get_item(hold["item_type"], hold["item_id"])
        total = money(quote["amount"])
        due_later = money(item["price"].get("due_at_property_amount") or 0) if hold["item_type"] == "hotel" else 0
        charged = max(money(0), total - due_later)
        order = {
            "order_id": order_id,
            "hold_id": hold_id,
            "item_type": hold["item_type"],
            "item_id": hold["item_id"],
            "status": "confirmed",
            "record_locator": record_locator(self.seed, order_id),
            "total": {"amount": amount(total), "currency": quote["currency"]},
            "charged": {"amount": amount(charged), "currency": quote["currency"]},
            "payment_method": {k: payment_method.get(k) for k in ("id", "brand", "last4")},
            "idempotency_key": idempotency_key,
            "created_at": iso(now),
            "refund_rules": refund_rules(hold["item_type"], item, charged),
        }
        self.state.record_money(
            {
                "kind": "charge",
                "order_id": order_id,
                "amount": amount(charged),
                "currency": quote["currency"],
                "payment_method_id": payment_method.get("id"),
                "at": iso(now),
            }
        )
        crash_point("supplier.charged")
        self.state.put("order", order_id, order)
        self.state.put("hold", hold_id, {**hold, "status": "purchased", "order_id": order_id})
        return order

    def _order_replay(self, order: Dict[str, Any], hold_id: str, key: str) -> Dict[str, Any]:
        if order["hold_id"] != hold_id:
            raise SupplierError("idempotency_conflict", f"The key {key} was already used for another hold.")
        if order["status"] == "pending":
            raise SupplierError("in_progress", "That purchase is still being processed.", retryable=True)
        if order["status"] == "failed":
            raise SupplierError(order["error"], "That purchase failed earlier: the option sold out.")
        if order["status"] in ("voided", "cancelled"):
            raise SupplierError("order_closed", f"That purchase was {order['status']}; hold the item again.")
        return {**order, "replayed": True}

    def book_instant(
        self,
        *,
        item_type: str,
        item_id: str,
        amount_due: str,
        payment_method: Dict[str, Any],
        idempotency_key: str,
        passengers: Optional[Sequence[Dict[str, Any]]] = None,
        trip_id: Optional[str] = None,
        now: Optional[datetime] = None,
    ) -> Dict[str, Any]:
        """Buy an offer in one step: a hold that lives only for this purchase, paid at once, both
        under ``idempotency_key`` (a replay returns the first order)."""
        now = self._now(now)
        item = self.get_item(item_type, item_id)
        if now >= _at(item["expires_at"]):
            raise SupplierError("offer_expired", "That option has expired; search again for current prices.")
        hold_id = short_id("hld", self.seed, f"instant:{idempotency_key}")
        if self.state.get("hold", hold_id) is None:
            quantity = _quantity(item_type, item)
            if self.state.stock(item_id, _offered(item_type, item)) < quantity:
                raise SupplierError("sold_out", "Not enough seats or rooms are left for that option.")
            hold = {
                "hold_id": hold_id,
                "item_type": item_type,
                "item_id": item_id,
                "status": "held",
                "quantity": quantity,
                "payment_required_by": iso(now + timedelta(minutes=5)),
                "price_guarantee_expires_at": iso(now + timedelta(minutes=5)),
                "held_total": {"amount": item["price"]["total_amount"], "currency": item["price"]["currency"]},
                "idempotency_key": f"instant:{idempotency_key}",
                "created_at": iso(now),
                "order_id": None,
            }
            self.state.put_if_absent("hold", hold_id, hold)
        return self.purchase(
            hold_id=hold_id,
            amount_due=amount_due,
            payment_method=payment_method,
            idempotency_key=idempotency_key,
            now=now,
        )

    def get_order(self, order_id: str) -> Dict[str, Any]:
        order = self.state.get("order", order_id)
        if order is None or order["status"] in ("pending", "failed"):
            raise SupplierError("not_found", f"There is no order {order_id}.")
        return order

    def charges(self) -> List[Dict[str, Any]]:
        """The money ledger: charges (positive) and refunds (negative), in order."""
        return self.state.ledger()

    # -- cancellation -------------------------------------------------------------------------

    def cancel_quote(self, ref_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """What cancelling would refund now: an order, or an unpaid hold (0.00). The quote is valid
        for 15 minutes. (A booking groups orders on the host's side; it is cancelled order by order.)"""
        now = self._now(now)
        if ref_id.startswith("hld_"):
            hold = self.get_hold(ref_id, now=now)
            refund, currency = money(0), hold["held_total"]["currency"]
        else:
            order = self.get_order(ref_id)
            refund, currency = refund_due(order, now), order["total"]["currency"]
        quote = {
            "quote_id": short_id("cq", self.seed, ref_id, iso(now)),
            "ref_id": ref_id,
            "refund_amount": amount(refund),
            "currency": currency,
            "created_at": iso(now),
            "expires_at": iso(now + timedelta(minutes=CANCEL_QUOTE_MINUTES)),
        }
        self.state.put("cancel_quote", quote["quote_id"], quote)
        return quote

    def cancel_confirm(self, quote_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """Cancel at the quoted refund; confirming twice returns the first cancellation."""
        now = self._now(now)
        quote = self.state.get("cancel_quote", quote_id)
        if quote is None:
            raise SupplierError("not_found", "That cancellation quote is unknown; ask for a new one.")
        done = self.state.get("cancellation", quote["ref_id"])
        if done is not None:
            return {**done, "replayed": True}
        if now >= _at(quote["expires_at"]):
            raise SupplierError("quote_expired", "The cancellation quote expired; ask for a new one.", retryable=True)
        cancellation = {
            "ref_id": quote["ref_id"],
            "quote_id": quote_id,
            "status": "cancelled",
            "refund_amount": quote["refund_amount"],
            "currency": quote["currency"],
            "cancelled_at": iso(now),
        }
        if not self.state.put_if_absent("cancellation", quote["ref_id"], cancellation):
            return {**self.state.get("cancellation", quote["ref_id"]), "replayed": True}
        ref = quote["ref_id"]
        if ref.startswith("hld_"):
            self.hold_release(ref, now=now)
        else:
            self._close_order(ref, "cancelled", money(quote["refund_amount"]), now)
        return {**cancellation, "replayed": False}

    def order_void(self, order_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """Undo a purchase in full within 24 hours (how a half-failed multi-item purchase is unwound)."""
        now = self._now(now)
        order = self.get_order(order_id)
        if order["status"] == "voided":
            return order
        if order["status"] != "confirmed" or now >= _at(order["created_at"]) + VOID_WINDOW:
            raise SupplierError("void_window_closed", "The order can no longer be voided; cancel it instead.")
        return self._close_order(order_id, "voided", money(order["charged"]["amount"]), now)

    def _close_order(self, order_id: str, status: str, refund, now: datetime) -> Dict[str, Any]:
        order = {
            **self.get_order(order_id),
            "status": status,
            "refund": {"amount": amount(refund)},
            "closed_at": iso(now),
        }
        self.state.put("order", order_id, order)
        hold = self.state.get("hold", order["hold_id"])
        self.state.put("hold", hold["hold_id"], {**hold, "status": "released"})
        self.state.return_stock(order["item_id"], hold["quantity"])
        if refund:
            self.state.record_money(
                {
                    "kind": "refund",
                    "order_id": order_id,
                    "amount": amount(-refund),
                    "currency": order["total"]["currency"],
                    "at": iso(now),
                }
            )
        return order


class SandboxSupplier(InstantReservations, SandboxCore):
    """Implements ``handlers.supplier.protocol.Supplier``: holds, and reservations bought instantly."""


def _offered(item_type: str, item: Dict[str, Any]) -> int:
    """The seats or rooms an item was offered with: its stock counter's start (created on first use)."""
    return int(item[ITEM_FIELDS["offer" if item_type == "flight" else "rate"][1]])


def _quantity(item_type: str, item: Dict[str, Any]) -> int:
    """Seats for everyone but lap infants, or rooms."""
    if item_type == "flight":
        return max(1, sum(1 for p in item["passengers"] if p["type"] != "infant"))
    return int(item["rooms"])
