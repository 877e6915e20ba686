"""``DuffelSupplier``: the supplier protocol on Duffel Flights and Stays.

Flights: an offer request returns offers; a hold is an order of type ``hold`` (its
``payment_status`` gives the payment deadline and the price guarantee); paying a hold is a
payment of type ``balance`` at the order's current total; an instant booking is an order of type
``instant`` with its payment; cancelling (and releasing a hold, and voiding) is an order
cancellation, quoted then confirmed.

Stays: a search by coordinates returns accommodations with their cheapest rate; the cheapest
results are then priced in full (``fetch_all_rates``: every room and rate); a hold is a quote on a rate
(it lives until the rate expires, with nothing to release at Duffel); paying is the booking
with the lead guest; cancelling is the booking's cancel action, at the refund its rate's
cancellation timeline gives.

What the adapter must remember (which order a key created, which payment it made) sits in the
host's KeyValueStore under ``duffel:``, so a retried tool call never writes twice: every write
first looks for its key's record, and goes out with the same ``Idempotency-Key``.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any, Callable, Dict, List, Optional, Sequence

from handlers.common import geo
from handlers.common.clock import iso
from handlers.common.formats import money_text

from ..errors import SupplierError, live_hold, passenger_refs
from ..instant import InstantReservations
from ..money import amount, money
from ..state import SupplierState
from .client import DuffelClient
from .errors import as_supplier_error
from .translate import flight_offer, hotel_rates, order_passengers, refund_now

CABINS = {"economy", "premium_economy", "business", "first"}
STAY_RADIUS_KM = 10
STAY_RESULTS_PRICED = 10  # the cheapest search results whose rooms and rates are fetched in full
STAY_HOLD_FALLBACK = timedelta(minutes=30)


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _key(*parts: str) -> str:
    """A stable Idempotency-Key from our own key (Duffel keys stay short and opaque)."""
    return "td-" + hashlib.sha256("|".join(parts).encode()).hexdigest()[:40]


class DuffelCore:
    """Duffel's orders, payments, stays and cancellations (``DuffelSupplier`` adds reservations)."""

    name = "duffel"

    def __init__(
        self,
        client: DuffelClient,
        store: Any,
        *,
        clock: Callable[[], datetime],
        passengers: Any = None,
        prefix: str = "duffel:",
    ) -> None:
        self.client, self.clock, self.directory = client, clock, passengers
        self.state = SupplierState(store, prefix)

    def _now(self, now: Optional[datetime]) -> datetime:
        return now if now is not None else self.clock()

    def _call(self, doing: str, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - every client failure becomes a SupplierError
            raise as_supplier_error(exc, doing=doing) from exc

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
        ages = list(passengers.get("child_ages") or [])
        party: List[Dict[str, Any]] = [{"type": "adult"} for _ in range(int(passengers.get("adults") or 1))]
        for _ in range(int(passengers.get("children") or 0)):
            party.append({"age": int(ages.pop(0)) if ages else 8})
        party += [{"type": "infant_without_seat"} for _ in range(int(passengers.get("infants") or 0))]
        body = {
            "slices": [{"origin": origin, "destination": destination, "departure_date": str(depart_date)}],
            "passengers": party,
            "cabin_class": cabin if cabin in CABINS else "economy",
        }
        request = self._call(
            "flight search",
            lambda: self.client.post(
                "/air/offer_requests",
                body,
                params={"return_offers": "true", "supplier_timeout": 20000},
                idempotency_key=_key("search", origin, destination, str(depart_date), repr(party), cabin, iso(now)),
            ),
        )
        offers = [flight_offer(o, now=now) for o in (request or {}).get("offers") or []]
        offers = [o for o in offers if now < _at(o["expires_at"])]
        offers.sort(key=lambda o: (money(o["price"]["total_amount"]), o["offer_id"]))
        self.state.put_many("offer", {o["offer_id"]: o for o in offers})
        return offers

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
        place = geo.place(location_code)
        if place is None:
            return []
        body = {
            "rooms": int(rooms),
            "guests": [{"type": "adult"} for _ in range(max(1, int(rooms) * int(guests_per_room)))],
            "check_in_date": str(check_in),
            "check_out_date": str(check_out),
            "location": {
                "radius": STAY_RADIUS_KM,
                "geographic_coordinates": {"latitude": place["lat"], "longitude": place["lon"]},
            },
        }
        found = self._call(
            "hotel search",
            lambda: self.client.post(
                "/stays/search",
                body,
                idempotency_key=_key("stays", location_code, str(check_in), str(check_out), str(rooms), iso(now)),
            ),
        )
        results = sorted(
            (found or {}).get("results") or [],
            key=lambda r: (money(r.get("cheapest_rate_total_amount") or 0), r["id"]),
        )[:STAY_RESULTS_PRICED]
        rates = [
            rate
            for result in results
            for rate in hotel_rates(self._all_rates(result["id"]), guests_per_room=int(guests_per_room))
            if rate["expires_at"] and now < _at(rate["expires_at"])
        ]
        rates.sort(key=lambda r: (money(r["price"]["total_amount"]), r["rate_id"]))
        self.state.put_many("rate", {r["rate_id"]: r for r in rates})
        return rates

    def _all_rates(self, result_id: str) -> Dict[str, Any]:
        """A search result with every room and rate: the search itself promises only the cheapest
        rate's figures, so each result we show is priced in full by ``fetch_all_rates``."""
        return self._call(
            "hotel search",
            lambda: self.client.post(
                f"/stays/search_results/{result_id}/actions/fetch_all_rates",
                idempotency_key=_key("rates", result_id),
            ),
        )

    def get_item(self, item_type: str, item_id: str) -> Dict[str, Any]:
        item = self.state.get("offer" if item_type == "flight" else "rate", item_id)
        if item is None:
            raise SupplierError("not_found", f"That {item_type} option is no longer offered; search again.")
        return item

    def refresh_offer(self, item_type: str, item_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        now = self._now(now)
        item = self.get_item(item_type, item_id)
        if item_type != "flight":
            if now >= _at(item["expires_at"]):
                raise SupplierError("offer_expired", "That room rate has expired; search again for current prices.")
            return item
        fresh = self._call("offer", lambda: self.client.get(f"/air/offers/{item_id}"))
        offer = flight_offer(fresh, now=now)
        self.state.put("offer", item_id, offer)
        return offer

    # -- passengers ---------------------------------------------------------------------------

    def _people(self, trip_id: Optional[str], refs: Optional[Sequence[Dict[str, Any]]]) -> List[Dict[str, Any]]:
        if not refs or self.directory is None or not trip_id:
            raise SupplierError(
                "passengers_missing",
                "Before anything can be held with the airline or hotel, everyone travelling must be named "
                "exactly as on their passport or ID.",
            )
        return list(self.directory.resolve(trip_id, refs))

    def require_passengers(self, trip_id: Optional[str], refs: Sequence[Dict[str, Any]]) -> None:
        """Everyone named before anything is held or reserved: Duffel's order needs them all."""
        self._people(trip_id, refs)

    def _order_create(
        self,
        kind: str,
        item: Dict[str, Any],
        refs: List[Dict[str, Any]],
        trip_id: Optional[str],
        key: str,
        payments: Optional[List[Dict[str, str]]] = None,
    ) -> Dict[str, Any]:
        """POST an order of type ``hold`` or ``instant`` for the offer, its passengers resolved now."""
        body: Dict[str, Any] = {
            "type": kind,
            "selected_offers": [item["offer_id"]],
            "passengers": order_passengers(item["passengers"], self._people(trip_id, refs)),
        }
        if payments:
            body["payments"] = payments
        body["metadata"] = {"tripdesk_key": _key(key)}
        return self._call("order", lambda: self.client.post("/air/orders", body, idempotency_key=_key(kind, key)))

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
        now = self._now(now)
        known = self.state.get("holdkey", idempotency_key)
        if known is not None:
            if known["item_id"] != item_id:
                raise SupplierError(
                    "idempotency_conflict", f"The key {idempotency_key} was already used for another item."
                )
            return self.get_hold(known["hold_id"], now=now)
        item = self.get_item(item_type, item_id)
        if now >= _at(item["expires_at"]):
            raise SupplierError("offer_expired", "That option has expired; search again for current prices.")
        refs = passenger_refs(passengers)
        if item_type == "flight":
            if not item["hold_policy"]["holdable"]:
                raise SupplierError("not_holdable", "The airline wants this fare paid at once; it cannot be held.")
            order = self._order_create("hold", item, refs, trip_id, idempotency_key)
            status = order.get("payment_status") or {}
            hold = {
                "hold_id": order["id"],
                "supplier_order_id": order["id"],
                "record_locator": order.get("booking_reference"),
                "payment_required_by": status.get("payment_required_by") or item["expires_at"],
                "price_guarantee_expires_at": status.get("price_guarantee_expires_at"),
                "held_total": {"amount": amount(money(order["total_amount"])), "currency": order["total_currency"]},
            }
        else:
            self._people(trip_id, refs)  # the booking needs the guests: named before the room is held
            quote = self._call(
                "room quote",
                lambda: self.client.post(
                    "/stays/quotes", {"rate_id": item_id}, idempotency_key=_key("quote", idempotency_key)
                ),
            )
            deadline = item.get("expires_at") or iso(now + STAY_HOLD_FALLBACK)
            hold = {
                "hold_id": quote["id"],
                "supplier_quote_id": quote["id"],
                "payment_required_by": deadline,
                "price_guarantee_expires_at": deadline,
                "held_total": {"amount": amount(money(quote["total_amount"])), "currency": quote["total_currency"]},
            }
        hold.update(
            {
                "item_type": item_type,
                "item_id": item_id,
                ("offer_id" if item_type == "flight" else "rate_id"): item_id,
                "status": "held",
                "quantity": len(refs) or int(item.get("rooms") or 1),
                "idempotency_key": idempotency_key,
                "created_at": iso(now),
                "order_id": None,
                "passengers": refs,
                "trip_id": trip_id,
            }
        )
        self.state.put("hold", hold["hold_id"], hold)
        self.state.put("holdkey", idempotency_key, {"hold_id": hold["hold_id"], "item_id": item_id})
        return self._public(hold)

    @staticmethod
    def _public(hold: Dict[str, Any]) -> Dict[str, Any]:
        return {k: v for k, v in hold.items() if k not in ("trip_id", "supplier_order_id", "supplier_quote_id")}

    def _hold(self, hold_id: str) -> Dict[str, Any]:
        hold = self.state.get("hold", hold_id)
        if hold is None:
            raise SupplierError("not_found", f"There is no hold {hold_id}.")
        return hold

    def get_hold(self, hold_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """The hold as Duffel sees it now (flights read the order back; stays lapse at the deadline)."""
        now = self._now(now)
        hold = self._hold(hold_id)
        if hold["status"] == "held" and hold["item_type"] == "flight":
            order = self._call("booking", lambda: self.client.get(f"/air/orders/{hold['supplier_order_id']}"))
            hold = self._synced(hold, order)
        if hold["status"] == "held" and now >= _at(hold["payment_required_by"]):
            hold = {**hold, "status": "expired"}
            self.state.put("hold", hold_id, hold)
        return self._public(hold)

    def _synced(self, hold: Dict[str, Any], order: Dict[str, Any]) -> Dict[str, Any]:
        status = order.get("payment_status") or {}
        new = dict(hold)
        if order.get("cancelled_at"):
            new["status"] = "released"
        elif status.get("paid_at") or status.get("awaiting_payment") is False:
            new["status"], new["order_id"] = "purchased", order["id"]
        if status.get("payment_required_by"):
            new["payment_required_by"] = status["payment_required_by"]
        new["price_guarantee_expires_at"] = status.get("price_guarantee_expires_at", hold["price_guarantee_expires_at"])
        if new != hold:
            self.state.put("hold", hold["hold_id"], new)
        return new

    def hold_release(self, hold_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        now = self._now(now)
        hold = self.get_hold(hold_id, now=now)
        if hold["status"] != "held":
            return hold
        if hold["item_type"] == "flight":
            self._cancel_order(hold_id, key=_key("release", hold_id))
        record = {**self._hold(hold_id), "status": "released"}
        self.state.put("hold", hold_id, record)
        return self._public(record)

    def _cancel_order(self, order_id: str, *, key: str) -> Dict[str, Any]:
        quote = self._call(
            "cancellation",
            lambda: self.client.post("/air/order_cancellations", {"order_id": order_id}, idempotency_key=key),
        )
        return self._call(
            "cancellation",
            lambda: self.client.post(
                f"/air/order_cancellations/{quote['id']}/actions/confirm", idempotency_key=key + "-confirm"
            ),
        )

    # -- paying -------------------------------------------------------------------------------

    def price_hold(self, hold_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """What paying costs now: a flight order's current total (Duffel re-prices it once the
        guarantee is over); a stay's quoted total."""
        now = self._now(now)
        hold = live_hold(self, hold_id, now)
        held = money(hold["held_total"]["amount"])
        current, currency = held, hold["held_total"]["currency"]
        if hold["item_type"] == "flight":
            order = self._call("booking", lambda: self.client.get(f"/air/orders/{hold_id}"))
            current, currency = money(order["total_amount"]), order["total_currency"]
        return {"hold_id": hold_id, "amount": amount(current), "currency": currency, "repriced": current != held}

    def purchase(
        self,
        *,
        hold_id: str,
        amount_due: str,
        payment_method: Dict[str, Any],
        idempotency_key: str,
        now: Optional[datetime] = None,
    ) -> Dict[str, Any]:
        now = self._now(now)
        done = self.state.get("paykey", idempotency_key)
        if done is not None:
            if done["hold_id"] != hold_id:
                raise SupplierError(
                    "idempotency_conflict", f"The key {idempotency_key} was already used for another hold."
                )
            return {**self.get_order(done["order_id"]), "replayed": True}
        hold = self._hold(hold_id)
        if hold["item_type"] == "flight":
            order = self._pay_flight(hold, amount_due, idempotency_key, now)
        else:
            order = self._book_stay(hold, amount_due, idempotency_key, now)
        return self._record_order(hold, order, payment_method, idempotency_key, now)

    def _pay_flight(self, hold: Dict[str, Any], amount_due: str, key: str, now: datetime) -> Dict[str, Any]:
        order = self._call("booking", lambda: self.client.get(f"/air/orders/{hold['hold_id']}"))
        hold = self._synced(hold, order)
        if hold["status"] == "purchased":  # paid by an earlier try whose answer was lost: never pay twice
            return {**order, "_replayed": True}
        if hold["status"] != "held" or now >= _at(hold["payment_required_by"]):
            raise SupplierError("hold_expired", "The hold has expired and its space was released.")
        if money(order["total_amount"]) != money(amount_due):
            raise SupplierError(
                "price_changed",
                f"The airline's price is now {money_text(order['total_amount'], order['total_currency'])}.",
                current_amount=order["total_amount"],
                currency=order["total_currency"],
            )
        payment = {"type": "balance", "amount": amount(money(amount_due)), "currency": order["total_currency"]}
        try:
            self.client.post(
                "/air/payments", {"order_id": hold["hold_id"], "payment": payment}, idempotency_key=_key("pay", key)
            )
        except Exception as exc:  # noqa: BLE001
            error = as_supplier_error(exc, doing="payment")
            if error.code == "price_changed":
                fresh = self._call("booking", lambda: self.client.get(f"/air/orders/{hold['hold_id']}"))
                error.details.update(current_amount=fresh["total_amount"], currency=fresh["total_currency"])
                error.message = (
                    f"The airline's price is now {money_text(fresh['total_amount'], fresh['total_currency'])}."
                )
            if error.code != "already_paid":
                raise error from exc
        return self._call("booking", lambda: self.client.get(f"/air/orders/{hold['hold_id']}"))

    def _book_stay(self, hold: Dict[str, Any], amount_due: str, key: str, now: datetime) -> Dict[str, Any]:
        if now >= _at(hold["payment_required_by"]):
            raise SupplierError("hold_expired", "The room quote has expired; search again.")
        if money(hold["held_total"]["amount"]) != money(amount_due):
            raise SupplierError(
                "price_changed",
                f"The hotel's price is now {money_text(hold['held_total']['amount'], hold['held_total']['currency'])}.",
                current_amount=hold["held_total"]["amount"],
                currency=hold["held_total"]["currency"],
            )
        people = self._people(hold.get("trip_id"), hold.get("passengers"))
        lead = next((p for p in people if p.get("type") == "adult"), people[0])
        booking = self._call(
            "hotel booking",
            lambda: self.client.post(
                "/stays/bookings",
                {
                    "quote_id": hold["supplier_quote_id"],
                    "guests": [
                        {"given_name": p["given_name"], "family_name": p["family_name"]}
                        for p in people
                        if p.get("type") == "adult"
                    ],
                    "email": lead.get("email"),
                    "phone_number": lead.get("phone_number"),
                },
                idempotency_key=_key("stay", key),
            ),
        )
        return {
            "id": booking["id"],
            "booking_reference": booking.get("reference"),
            "total_amount": hold["held_total"]["amount"],
            "total_currency": hold["held_total"]["currency"],
        }

    def _order_view(
        self,
        hold: Dict[str, Any],
        paid: Dict[str, Any],
        payment_method: Dict[str, Any],
        key: Optional[str],
        now: datetime,
    ) -> Dict[str, Any]:
        item = self.state.get("offer" if hold["item_type"] == "flight" else "rate", hold["item_id"]) or {}
        total = money(paid["total_amount"])
        due_later = money((item.get("price") or {}).get("due_at_property_amount") or 0)
        return {
            "order_id": paid["id"],
            "hold_id": hold["hold_id"],
            "item_type": hold["item_type"],
            "item_id": hold["item_id"],
            "status": "confirmed",
            "record_locator": paid.get("booking_reference") or hold.get("record_locator"),
            "total": {"amount": amount(total), "currency": paid["total_currency"]},
            "charged": {"amount": amount(max(money(0), total - due_later)), "currency": paid["total_currency"]},
            "payment_method": {k: payment_method.get(k) for k in ("id", "brand", "last4")},
            "idempotency_key": key,
            "created_at": iso(now),
            "refund_rules": item.get("cancellation_timeline") or [],
        }

    def _record_order(
        self, hold: Dict[str, Any], paid: Dict[str, Any], payment_method: Dict[str, Any], key: str, now: datetime
    ) -> Dict[str, Any]:
        order = self._order_view(hold, paid, payment_method, key, now)
        self.state.put("order", order["order_id"], order)
        self.state.put("paykey", key, {"hold_id": hold["hold_id"], "order_id": order["order_id"]})
        self.state.put(
            "hold",
            hold["hold_id"],
            {**self._hold(hold["hold_id"]), "status": "purchased", "order_id": order["order_id"]},
        )
        return {**order, "replayed": bool(paid.get("_replayed"))}

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
        """An ``instant`` order with its payment in one request (flights); a stay quotes then books."""
        now = self._now(now)
        done = self.state.get("paykey", idempotency_key)
        if done is not None:
            return {**self.get_order(done["order_id"]), "replayed": True}
        if item_type != "flight":
            hold = self.hold_create(
                item_type=item_type,
                item_id=item_id,
                idempotency_key=f"instant:{idempotency_key}",
                passengers=passengers,
                trip_id=trip_id,
                now=now,
            )
            return self.purchase(
                hold_id=hold["hold_id"],
                amount_due=amount_due,
                payment_method=payment_method,
                idempotency_key=idempotency_key,
                now=now,
            )
        item = self.get_item(item_type, item_id)
        if now >= _at(item["expires_at"]):
            raise SupplierError("offer_expired", "That option has expired; search again for current prices.")
        refs = passenger_refs(passengers)
        payment = {"type": "balance", "amount": amount(money(amount_due)), "currency": item["price"]["currency"]}
        order = self._order_create("instant", item, refs, trip_id, idempotency_key, payments=[payment])
        hold = {
            "hold_id": order["id"],
            "supplier_order_id": order["id"],
            "item_type": item_type,
            "item_id": item_id,
            "status": "purchased",
            "payment_required_by": iso(now),
            "price_guarantee_expires_at": None,
            "held_total": {"amount": amount(money(order["total_amount"])), "currency": order["total_currency"]},
            "idempotency_key": idempotency_key,
            "created_at": iso(now),
            "order_id": order["id"],
            "passengers": refs,
            "trip_id": trip_id,
        }
        self.state.put("hold", hold["hold_id"], hold)
        return self._record_order(hold, order, payment_method, idempotency_key, now)

    def get_order(self, order_id: str) -> Dict[str, Any]:
        """Our record of a paid order; one paid at Duffel whose answer we lost is read back from
        Duffel (without a key, so the purchase that paid it claims it by replaying its key)."""
        order = self.state.get("order", order_id)
        if order is not None:
            return order
        hold = self.state.get("hold", order_id)
        if hold is not None and hold["item_type"] == "flight":
            remote = self._call("booking", lambda: self.client.get(f"/air/orders/{order_id}"))
            if (remote.get("payment_status") or {}).get("awaiting_payment") is False:
                return self._order_view(hold, remote, {}, None, self.clock())
        raise SupplierError("not_found", f"There is no order {order_id}.")

    # -- cancelling ---------------------------------------------------------------------------

    def cancel_quote(self, ref_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        now = self._now(now)
        order = self.state.get("order", ref_id)
        if order is None:  # an unpaid hold: releasing it refunds nothing
            hold = self._hold(ref_id)
            quote = {
                "quote_id": f"cq_{ref_id}",
                "ref_id": ref_id,
                "refund_amount": "0.00",
                "currency": hold["held_total"]["currency"],
                "created_at": iso(now),
                "expires_at": iso(now + timedelta(minutes=15)),
                "kind": "hold",
            }
        elif order["item_type"] == "flight":
            made = self._call(
                "cancellation",
                lambda: self.client.post(
                    "/air/order_cancellations", {"order_id": ref_id}, idempotency_key=_key("cq", ref_id, iso(now))
                ),
            )
            quote = {
                "quote_id": made["id"],
                "ref_id": ref_id,
                "refund_amount": amount(money(made.get("refund_amount") or 0)),
                "currency": made.get("refund_currency") or order["total"]["currency"],
                "created_at": iso(now),
                "expires_at": made.get("expires_at") or iso(now + timedelta(minutes=15)),
                "kind": "flight",
            }
        else:
            quote = {
                "quote_id": f"cq_{ref_id}_{int(now.timestamp())}",
                "ref_id": ref_id,
                "refund_amount": amount(min(refund_now(order["refund_rules"], now), money(order["charged"]["amount"]))),
                "currency": order["total"]["currency"],
                "created_at": iso(now),
                "expires_at": iso(now + timedelta(minutes=15)),
                "kind": "stay",
            }
        self.state.put("cancel_quote", quote["quote_id"], quote)
        return {k: v for k, v in quote.items() if k != "kind"}

    def cancel_confirm(self, quote_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        now = self._now(now)
        quote = self.state.get("cancel_quote", quote_id)
        if quote is None:
            raise SupplierError("not_found", "That cancellation quote is unknown; ask for a new one.")
        done = self.state.get("cancellation", quote["ref_id"])
        if done is not None:
            return {**done, "replayed": True}
        if now >= _at(quote["expires_at"]):
            raise SupplierError("quote_expired", "The cancellation quote expired; ask for a new one.", retryable=True)
        ref = quote["ref_id"]
        if quote["kind"] == "hold":
            self.hold_release(ref, now=now)
        elif quote["kind"] == "flight":
            self._call(
                "cancellation",
                lambda: self.client.post(
                    f"/air/order_cancellations/{quote_id}/actions/confirm", idempotency_key=_key("cc", quote_id)
                ),
            )
        else:
            self._call(
                "hotel cancellation",
                lambda: self.client.post(f"/stays/bookings/{ref}/actions/cancel", idempotency_key=_key("cc", quote_id)),
            )
        if quote["kind"] != "hold":
            self.state.put(
                "order",
                ref,
                {
                    **self.get_order(ref),
                    "status": "cancelled",
                    "closed_at": iso(now),
                    "refund": {"amount": quote["refund_amount"]},
                },
            )
        cancellation = {
            "ref_id": ref,
            "quote_id": quote_id,
            "status": "cancelled",
            "refund_amount": quote["refund_amount"],
            "currency": quote["currency"],
            "cancelled_at": iso(now),
        }
        self.state.put("cancellation", ref, cancellation)
        return {**cancellation, "replayed": False}

    def order_void(self, order_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """Undo a purchase (how a half-failed multi-item purchase is unwound): a cancellation at
        whatever Duffel refunds; refused when the refund is not the full amount."""
        now = self._now(now)
        order = self.get_order(order_id)
        if order["status"] in ("voided", "cancelled"):
            return order
        quote = self.cancel_quote(order_id, now=now)
        if money(quote["refund_amount"]) < money(order["charged"]["amount"]):
            raise SupplierError("void_window_closed", "The order can no longer be undone in full; cancel it instead.")
        self.cancel_confirm(quote["quote_id"], now=now)
        voided = {**self.get_order(order_id), "status": "voided"}
        self.state.put("order", order_id, voided)
        return voided


class DuffelSupplier(InstantReservations, DuffelCore):
    """Implements ``handlers.supplier.protocol.Supplier`` on Duffel: holds (orders of type ``hold``,
    stay quotes), and reservations of pay-at-once fares bought as orders of type ``instant``."""
