"""A fake Duffel API (``Duffel-Version: v2``) on loopback: a small ASGI app served by uvicorn.

Built from the documented request and response shapes (``{"data": …}`` bodies, ``errors`` with
type/code/title/message, ``meta.request_id``), with the flows TripDesk uses: offer requests,
orders of type hold and instant, payments, order cancellations (create + confirm), stays
search (results with the cheapest rate only), fetch_all_rates on a search result, quotes,
bookings and their cancel action. It records every request (method, path,
headers, JSON body) and honours ``Idempotency-Key`` on writes (a repeated key answers the
first response and writes nothing).

Scripted faults, matched by method and path prefix, each used once per ``times``::

    with FakeDuffel(clock=clock) as duffel:
        duffel.fault("POST", "/air/orders", Fault.rate_limited(reset_in=1))
        duffel.fault("POST", "/air/payments", Fault.error(503), after=True)  # write, then fail
        duffel.reprice_orders("+25.00")  # the airline's price moves before payment
        duffel.sell_instant_only()  # no fare can be held any more
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any, Callable, Dict, List, Optional, Tuple

import uvicorn

from handlers.common import geo

Clock = Callable[[], datetime]


@dataclass
class Recorded:
    method: str
    path: str
    headers: Dict[str, str]
    json: Any


@dataclass
class Fault:
    status: int = 500
    code: str = ""
    type: str = "api_error"
    headers: Dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds held back before answering (a slow response)
    message: str = "Something went wrong."

    @classmethod
    def rate_limited(cls, *, reset_in: float = 1.0, clock: Optional[Clock] = None) -> Fault:
        reset = (clock or (lambda: datetime.now(UTC)))() + timedelta(seconds=reset_in)
        return cls(
            429,
            "rate_limit_exceeded",
            "rate_limit_error",
            {"ratelimit-limit": "60", "ratelimit-remaining": "0", "ratelimit-reset": str(reset.timestamp())},
            message="Too many requests.",
        )

    @classmethod
    def error(cls, status: int = 500) -> Fault:
        return cls(status, "internal_server_error" if status == 500 else "service_unavailable", "api_error")

    @classmethod
    def slow(cls, seconds: float) -> Fault:
        return cls(status=0, delay=seconds)

    @classmethod
    def offer_gone(cls) -> Fault:
        return cls(422, "offer_no_longer_available", "invalid_state_error", message="The offer is no longer available.")

    @classmethod
    def price_changed(cls) -> Fault:
        return cls(422, "price_changed", "invalid_state_error", message="The price of this order has changed.")

    @classmethod
    def passenger_invalid(cls) -> Fault:
        return cls(
            422,
            "invalid_passenger_name",
            "validation_error",
            message="The passenger's given_name contains characters the airline does not accept.",
        )

    @classmethod
    def insufficient_balance(cls) -> Fault:
        return cls(422, "insufficient_balance", "invalid_state_error", message="Your balance is too low.")


def _error_body(fault: Fault, request_id: str) -> Dict[str, Any]:
    return {
        "meta": {"status": fault.status, "request_id": request_id},
        "errors": [
            {
                "type": fault.type,
                "code": fault.code,
                "title": fault.code.replace("_", " ").capitalize(),
                "message": fault.message,
                "documentation_url": "https://duffel.com/docs/api/overview/errors",
            }
        ],
    }


def _money(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01")))


class FakeDuffelApp:
    """The ASGI app. All state is in memory and guarded by one lock (uvicorn runs one loop)."""

    def __init__(self, clock: Clock, token: str) -> None:
        self.clock, self.token = clock, token
        self.requests: List[Recorded] = []
        self.offers: Dict[str, Dict[str, Any]] = {}
        self.orders: Dict[str, Dict[str, Any]] = {}
        self.payments: List[Dict[str, Any]] = []
        self.cancellations: Dict[str, Dict[str, Any]] = {}
        self.instant_only = False  # every fare wants its payment with the order (``sell_instant_only``)
        self.search_results: Dict[str, Dict[str, Any]] = {}
        self.rates: Dict[str, Dict[str, Any]] = {}
        self.quotes: Dict[str, Dict[str, Any]] = {}
        self.bookings: Dict[str, Dict[str, Any]] = {}
        self.idempotent: Dict[Tuple[str, str], Tuple[int, Any]] = {}
        self.faults: List[Tuple[str, str, Fault, bool, List[int]]] = []
        self.price_move = Decimal(0)
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def new_id(self, prefix: str) -> str:
        return f"{prefix}_0000{next(self._ids):06d}"

    # -- ASGI -----------------------------------------------------------------------------------
    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        method, path = scope["method"], scope["path"]
        payload = json.loads(body) if body else None
        status, answer, extra, delay = self.handle(method, path, headers, payload)
        if delay:
            await asyncio.sleep(delay)
        raw = json.dumps(answer).encode() if answer is not None else b""
        out = [(b"content-type", b"application/json"), (b"x-request-id", b"req_fake")]
        out += [(k.encode(), v.encode()) for k, v in extra.items()]
        await send({"type": "http.response.start", "status": status, "headers": out})
        await send({"type": "http.response.body", "body": raw})

    def handle(self, method: str, path: str, headers: Dict[str, str], payload: Any):
        with self._lock:
            self.requests.append(Recorded(method, path, headers, payload))
            request_id = f"req_{len(self.requests)}"
            if headers.get("authorization") != f"Bearer {self.token}":
                fault = Fault(401, "invalid_token", "authentication_error", message="Invalid access token.")
                return 401, _error_body(fault, request_id), {}, 0
            if headers.get("duffel-version") != "v2":
                fault = Fault(400, "unsupported_version", "invalid_request_error", message="Duffel-Version must be v2.")
                return 400, _error_body(fault, request_id), {}, 0
            fault, after = self._take_fault(method, path)
            delay = fault.delay if fault else 0
            if fault and fault.status and not after:
                return fault.status, _error_body(fault, request_id), fault.headers, delay
            key = (path, headers.get("idempotency-key", "")) if method == "POST" else None
            if key and key[1] and key in self.idempotent:
                status, answer = self.idempotent[key]
            else:
                try:
                    status, answer = self.route(method, path, (payload or {}).get("data") or {})
                except FaultRaised as raised:
                    return raised.fault.status, _error_body(raised.fault, request_id), {}, delay
                if key and key[1] and status < 400:
                    self.idempotent[key] = (status, answer)
            if fault and fault.status and after:  # the write happened; the answer is lost
                return fault.status, _error_body(fault, request_id), fault.headers, delay
            return status, answer, {}, delay

    def _take_fault(self, method: str, path: str) -> Tuple[Optional[Fault], bool]:
        for entry in self.faults:
            m, prefix, fault, after, left = entry
            if m == method and path.startswith(prefix) and left[0] > 0:
                left[0] -= 1
                return fault, after
        return None, False

    # -- routes -----------------------------------------------------------------------------------
    def route(self, method: str, path: str, data: Dict[str, Any]) -> Tuple[int, Any]:
        parts = path.strip("/").split("/")
        if method == "POST" and path == "/air/offer_requests":
            return 201, {"data": self.offer_request(data)}
        if method == "GET" and parts[:2] == ["air", "offers"] and len(parts) == 3:
            return self.found(self.offers.get(parts[2]))
        if method == "POST" and path == "/air/orders":
            return 201, {"data": self.create_order(data)}
        if method == "GET" and parts[:2] == ["air", "orders"] and len(parts) == 3:
            return self.found(self.orders.get(parts[2]))
        if method == "POST" and path == "/air/payments":
            return 201, {"data": self.pay(data)}
        if method == "POST" and path == "/air/order_cancellations":
            return 201, {"data": self.cancellation(data)}
        if method == "POST" and parts[:2] == ["air", "order_cancellations"] and parts[3:] == ["actions", "confirm"]:
            return 200, {"data": self.confirm_cancellation(parts[2])}
        if method == "POST" and path == "/stays/search":
            return 200, {"data": self.stays_search(data)}
        if (
            method == "POST"
            and parts[:2] == ["stays", "search_results"]
            and parts[3:] == ["actions", "fetch_all_rates"]
        ):
            return 200, {"data": self.stays_fetch_all_rates(parts[2])}
        if method == "POST" and path == "/stays/quotes":
            return 201, {"data": self.stays_quote(data)}
        if method == "POST" and path == "/stays/bookings":
            return 201, {"data": self.stays_book(data)}
        if method == "POST" and parts[:2] == ["stays", "bookings"] and parts[3:] == ["actions", "cancel"]:
            return 200, {"data": self.stays_cancel(parts[2])}
        raise FaultRaised(Fault(404, "not_found", "invalid_request_error", message=f"No route {method} {path}."))

    @staticmethod
    def found(thing: Optional[Dict[str, Any]]) -> Tuple[int, Any]:
        if thing is None:
            raise FaultRaised(Fault(404, "not_found", "invalid_request_error", message="Not found."))
        return 200, {"data": thing}

    # -- flights ----------------------------------------------------------------------------------
    def offer_request(self, data: Dict[str, Any]) -> Dict[str, Any]:
        now = self.clock()
        passengers = [{**p, "id": self.new_id("pas")} for p in data["passengers"]]
        for p in passengers:
            if p.get("type") is None and p.get("age") is not None:
                p["type"] = "infant_without_seat" if p["age"] < 2 else ("child" if p["age"] < 18 else "adult")
        leg = data["slices"][0]
        origin, destination = geo.airport(leg["origin"]) or {}, geo.airport(leg["destination"]) or {}
        offers = []
        for i, (hour, carrier, instant) in enumerate(((8, "ZZ", False), (13, "AA", False), (19, "ZZ", True))):
            instant = instant or self.instant_only
            departs = datetime.fromisoformat(f"{leg['departure_date']}T{hour:02d}:00:00")
            arrives = departs + timedelta(hours=3, minutes=10)
            seats = sum(1 for p in passengers if p["type"] != "infant_without_seat")
            total = Decimal(180 + 60 * i) * seats + Decimal("19.99")
            offer_id = self.new_id("off")
            offer = {
                "id": offer_id,
                "live_mode": False,
                "created_at": now.isoformat(),
                "expires_at": (now + timedelta(minutes=30)).isoformat(),
                "owner": {"iata_code": carrier, "name": "Duffel Airways" if carrier == "ZZ" else "American Airlines"},
                "total_amount": _money(total),
                "total_currency": "USD",
                "base_amount": _money(total - Decimal("19.99")),
                "tax_amount": "19.99",
                "cabin_class": data.get("cabin_class", "economy"),
                "payment_requirements": {
                    "requires_instant_payment": instant,
                    "payment_required_by": None if instant else (now + timedelta(days=2)).isoformat(),
                    "price_guarantee_expires_at": None if instant else (now + timedelta(days=1)).isoformat(),
                },
                "conditions": {
                    "refund_before_departure": {
                        "allowed": i == 1,
                        "penalty_amount": "50.00",
                        "penalty_currency": "USD",
                    },
                    "change_before_departure": {"allowed": True, "penalty_amount": "75.00", "penalty_currency": "USD"},
                },
                "passengers": [{"id": p["id"], "type": p["type"], "age": p.get("age")} for p in passengers],
                "slices": [
                    {
                        "id": self.new_id("sli"),
                        "duration": "PT3H10M",
                        "segments": [
                            {
                                "id": self.new_id("seg"),
                                "origin": {"iata_code": leg["origin"], "time_zone": origin.get("tz", "UTC")},
                                "destination": {
                                    "iata_code": leg["destination"],
                                    "time_zone": destination.get("tz", "UTC"),
                                },
                                "origin_terminal": "1",
                                "destination_terminal": "B",
                                "departing_at": departs.isoformat(),
                                "arriving_at": arrives.isoformat(),
                                "duration": "PT3H10M",
                                "marketing_carrier": {"iata_code": carrier},
                                "marketing_carrier_flight_number": str(100 + i),
                                "operating_carrier": {"iata_code": carrier},
                                "stops": [],
                                "passengers": [
                                    {
                                        "passenger_id": p["id"],
                                        "cabin_class": data.get("cabin_class", "economy"),
                                        "fare_basis_code": "Y20LGTN2",
                                        "baggages": [{"type": "checked", "quantity": 1}],
                                    }
                                    for p in passengers
                                ],
                            }
                        ],
                    }
                ],
            }
            self.offers[offer_id] = offer
            offers.append(offer)
        return {"id": self.new_id("orq"), "live_mode": False, "passengers": passengers, "offers": offers}

    def create_order(self, data: Dict[str, Any]) -> Dict[str, Any]:
        now = self.clock()
        offer = self.offers.get((data.get("selected_offers") or [""])[0])
        if offer is None or now >= datetime.fromisoformat(offer["expires_at"]):
            raise FaultRaised(Fault.offer_gone())
        expected = {p["id"] for p in offer["passengers"]}
        given = {p.get("id") for p in data.get("passengers") or []}
        if given != expected or any(not p.get("born_on") or not p.get("family_name") for p in data["passengers"]):
            raise FaultRaised(
                Fault(422, "validation_required", "validation_error", message="passengers do not match the offer.")
            )
        hold = data.get("type") == "hold"
        if hold and offer["payment_requirements"]["requires_instant_payment"]:
            raise FaultRaised(Fault(422, "unsupported_type", "validation_error", message="This offer cannot be held."))
        if not hold:
            paid = sum(Decimal(p["amount"]) for p in data.get("payments") or [])
            if paid != Decimal(offer["total_amount"]):
                raise FaultRaised(Fault.price_changed())
            self.payments.append({"order_offer": offer["id"], "amount": _money(paid)})
        order = {
            "id": self.new_id("ord"),
            "live_mode": False,
            "type": data.get("type"),
            "booking_reference": f"RZ{next(self._ids):04d}",
            "created_at": now.isoformat(),
            "cancelled_at": None,
            "total_amount": offer["total_amount"],
            "total_currency": offer["total_currency"],
            "owner": offer["owner"],
            "slices": offer["slices"],
            "passengers": data["passengers"],
            "metadata": data.get("metadata") or {},
            "payment_status": {
                "awaiting_payment": hold,
                "payment_required_by": offer["payment_requirements"]["payment_required_by"] if hold else None,
                "price_guarantee_expires_at": offer["payment_requirements"]["price_guarantee_expires_at"]
                if hold
                else None,
                "paid_at": None if hold else now.isoformat(),
            },
            "conditions": offer["conditions"],
        }
        self.orders[order["id"]] = order
        return order

    def reprice(self, move: Decimal) -> None:
        for order in self.orders.values():
            if order["payment_status"]["awaiting_payment"]:
                order["total_amount"] = _money(Decimal(order["total_amount"]) + move)

    def pay(self, data: Dict[str, Any]) -> Dict[str, Any]:
        order = self.orders.get(data.get("order_id") or "")
        if order is None:
            raise FaultRaised(Fault(404, "not_found", "invalid_request_error", message="No such order."))
        if not order["payment_status"]["awaiting_payment"]:
            raise FaultRaised(Fault(422, "already_paid", "invalid_state_error", message="Already paid."))
        if order["cancelled_at"]:
            raise FaultRaised(Fault(422, "already_cancelled", "invalid_state_error", message="Cancelled."))
        if Decimal(data["payment"]["amount"]) != Decimal(order["total_amount"]):
            raise FaultRaised(Fault.price_changed())
        payment = {"id": self.new_id("pay"), "created_at": self.clock().isoformat(), **data["payment"]}
        self.payments.append({"order_id": order["id"], **payment})
        order["payment_status"].update(awaiting_payment=False, paid_at=self.clock().isoformat())
        return payment

    def cancellation(self, data: Dict[str, Any]) -> Dict[str, Any]:
        order = self.orders.get(data.get("order_id") or "")
        if order is None:
            raise FaultRaised(Fault(404, "not_found", "invalid_request_error", message="No such order."))
        if order["cancelled_at"]:
            raise FaultRaised(Fault(422, "already_cancelled", "invalid_state_error", message="Cancelled."))
        paid = not order["payment_status"]["awaiting_payment"]
        refundable = order["conditions"]["refund_before_departure"]["allowed"]
        refund = Decimal(order["total_amount"]) - Decimal("50.00") if paid and refundable else Decimal(0)
        made = {
            "id": self.new_id("ore"),
            "order_id": order["id"],
            "refund_amount": _money(max(refund, Decimal(0))),
            "refund_currency": order["total_currency"],
            "refund_to": "balance" if paid else "awaiting_payment",
            "expires_at": (self.clock() + timedelta(minutes=10)).isoformat(),
            "confirmed_at": None,
            "created_at": self.clock().isoformat(),
            "live_mode": False,
        }
        self.cancellations[made["id"]] = made
        return made

    def confirm_cancellation(self, cancellation_id: str) -> Dict[str, Any]:
        made = self.cancellations.get(cancellation_id)
        if made is None:
            raise FaultRaised(Fault(404, "not_found", "invalid_request_error", message="No such cancellation."))
        if made["confirmed_at"] is None:
            made["confirmed_at"] = self.clock().isoformat()
            self.orders[made["order_id"]]["cancelled_at"] = made["confirmed_at"]
        return made

    # -- stays ------------------------------------------------------------------------------------
    def stays_search(self, data: Dict[str, Any]) -> Dict[str, Any]:
        now = self.clock()
        coords = data["location"]["geographic_coordinates"]
        nights = (date.fromisoformat(data["check_out_date"]) - date.fromisoformat(data["check_in_date"])).days
        results = []
        for i, (name, stars, nightly) in enumerate((("Duffel Test Hotel", 4, 140), ("Harbour Inn", 3, 95))):
            rates = []
            for refundable in (True, False):
                total = Decimal(nightly + (20 if refundable else 0)) * nights * int(data["rooms"])
                rate = {
                    "id": self.new_id("rat"),
                    "total_amount": _money(total),
                    "total_currency": "USD",
                    "base_amount": _money(total * Decimal("0.9")),
                    "tax_amount": _money(total * Decimal("0.1")),
                    "fee_amount": "0.00",
                    "due_at_accommodation_amount": "0.00",
                    "board_type": "breakfast" if refundable else "room_only",
                    "payment_type": "pay_now",
                    "cancellation_timeline": [
                        {
                            "refund_amount": _money(total),
                            "before": f"{data['check_in_date']}T12:00:00Z",
                            "currency": "USD",
                        }
                    ]
                    if refundable
                    else [],
                    "conditions": [{"title": "Policy", "description": "Photo ID needed at check-in."}],
                    "expires_at": (now + timedelta(minutes=45)).isoformat(),
                    "quantity_available": 3,
                    "available_payment_methods": ["balance"],
                    "source": "duffel_hotel_group",
                }
                self.rates[rate["id"]] = rate
                rates.append(rate)
            result = {
                "id": self.new_id("srr"),
                "check_in_date": data["check_in_date"],
                "check_out_date": data["check_out_date"],
                "rooms": data["rooms"],
                "guests": data["guests"],
                "expires_at": (now + timedelta(minutes=45)).isoformat(),
                "cheapest_rate_total_amount": min(r["total_amount"] for r in rates),
                "cheapest_rate_currency": "USD",
                "accommodation": {
                    "id": self.new_id("acc"),
                    "name": name,
                    "rating": stars,
                    "location": {
                        "address": {"city_name": "Test City", "country_code": "US", "line_one": f"{i + 1} Main St"},
                        "geographic_coordinates": {
                            "latitude": coords["latitude"] + 0.01 * i,
                            "longitude": coords["longitude"],
                        },
                    },
                    "rooms": [{"name": "Double room", "beds": [{"type": "double", "count": 1}], "rates": rates}],
                },
            }
            self.search_results[result["id"]] = result
            # As Duffel documents: a search result carries the cheapest rate's figures, and its rooms
            # are not guaranteed complete (here: none); fetch_all_rates gives every room and rate.
            results.append({**result, "accommodation": {**result["accommodation"], "rooms": []}})
        return {"results": results, "created_at": now.isoformat()}

    def stays_fetch_all_rates(self, result_id: str) -> Dict[str, Any]:
        result = self.search_results.get(result_id)
        if result is None:
            raise FaultRaised(Fault(404, "not_found", "invalid_request_error", message="No such search result."))
        if self.clock() >= datetime.fromisoformat(result["expires_at"]):
            raise FaultRaised(
                Fault(422, "search_result_expired", "invalid_state_error", message="The search result expired.")
            )
        return result

    def stays_quote(self, data: Dict[str, Any]) -> Dict[str, Any]:
        rate = self.rates.get(data.get("rate_id") or "")
        if rate is None or self.clock() >= datetime.fromisoformat(rate["expires_at"]):
            raise FaultRaised(Fault(422, "rate_unavailable", "invalid_state_error", message="Rate unavailable."))
        quote = {
            "id": self.new_id("quo"),
            "rate_id": rate["id"],
            **{k: rate[k] for k in ("total_amount", "total_currency")},
        }
        self.quotes[quote["id"]] = quote
        return quote

    def stays_book(self, data: Dict[str, Any]) -> Dict[str, Any]:
        quote = self.quotes.get(data.get("quote_id") or "")
        if quote is None:
            raise FaultRaised(Fault(422, "quote_unavailable", "invalid_state_error", message="Quote unavailable."))
        if not data.get("guests") or not data.get("email") or not data.get("phone_number"):
            raise FaultRaised(Fault(422, "validation_required", "validation_error", message="guests, email, phone."))
        booking = {
            "id": self.new_id("bok"),
            "reference": f"H{next(self._ids):05d}",
            "status": "confirmed",
            "confirmed_at": self.clock().isoformat(),
            "cancelled_at": None,
            "quote_id": quote["id"],
            "guests": data["guests"],
            "email": data["email"],
            "phone_number": data["phone_number"],
        }
        self.bookings[booking["id"]] = booking
        self.payments.append({"stay_quote": quote["id"], "amount": quote["total_amount"]})
        return booking

    def stays_cancel(self, booking_id: str) -> Dict[str, Any]:
        booking = self.bookings.get(booking_id)
        if booking is None:
            raise FaultRaised(Fault(404, "not_found", "invalid_request_error", message="No such booking."))
        booking.update(status="cancelled", cancelled_at=self.clock().isoformat())
        return booking


class FaultRaised(Exception):
    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.code)
        self.fault = fault


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FakeDuffel:
    """Serve the app on a free loopback port for the ``with`` block."""

    TOKEN = "duffel_test_fake0123456789abcdef"

    def __init__(self, *, clock: Optional[Clock] = None) -> None:
        self.app = FakeDuffelApp(clock or (lambda: datetime.now(UTC)), self.TOKEN)
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def __enter__(self) -> FakeDuffel:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the fake Duffel server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=5)

    # -- scripting --------------------------------------------------------------------------------
    def fault(self, method: str, path_prefix: str, fault: Fault, *, times: int = 1, after: bool = False) -> None:
        """The next ``times`` matching requests fail with ``fault`` (``after``: once the write is done)."""
        self.app.faults.append((method, path_prefix, fault, after, [times]))

    def reprice_orders(self, move: str) -> None:
        self.app.reprice(Decimal(move))

    def sell_instant_only(self) -> None:
        """From now on every fare must be paid at once (``requires_instant_payment``): none can be held."""
        self.app.instant_only = True

    def expire_offers(self) -> None:
        for offer in self.app.offers.values():
            offer["expires_at"] = self.app.clock().isoformat()

    @property
    def requests(self) -> List[Recorded]:
        return list(self.app.requests)

    def writes(self, path: str) -> List[Recorded]:
        return [r for r in self.app.requests if r.method == "POST" and r.path == path]
