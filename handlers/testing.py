"""The headless harness: one trip, the whole mission core, no host.

In-memory stores, a frozen clock, the sandbox supplier, an in-memory approver and payment
methods, and the chat captured in a list. Tests, evaluations, benchmarks and
``python -m handlers.chat_cli`` drive it::

    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("4 people going from Newark to Denver for 3 nights on January 30")
    h.select("B1"); h.hold(); h.purchase(h.grant(), "pm_visa_4242")
"""

from __future__ import annotations

import copy
import hashlib
import secrets
from datetime import date, datetime, time
from typing import Any, Dict, List, Optional, Sequence
from zoneinfo import ZoneInfo

from .common.clock import FrozenClock, iso, parse_now
from .common.defaults import DEFAULT_POLICY
from .common.host import ToolDeps, bind_host
from .common.stores import InMemoryKeyValueStore, InMemoryQuoteStore, InMemoryToolStore, InMemoryTripStore
from .local_shc import LocalShc
from .quotes import with_stored_offers
from .runner import Runner

DEFAULT_PAYMENT_METHOD = "pm_visa_4242"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class InMemoryApprovals:
    """The approver's side of ``ApprovalVerifier``: tokens kept only as hashes, single use.

    A grant binds the trip's live holds, their total as a ceiling, the currency and an
    expiry no later than the earliest hold deadline.
    """

    def __init__(self) -> None:
        self._by_hash: Dict[str, Dict[str, Any]] = {}

    def grant(self, *, trip_id: str, holds: List[Dict[str, Any]], now: datetime) -> str:
        live = [h for h in holds if h.get("status") == "held"]
        if not live:
            raise ValueError("nothing on hold to approve")
        token = "tdk_apv_" + secrets.token_urlsafe(32)
        deadlines = [h["payment_required_by"] for h in live if h.get("payment_required_by")]
        self._by_hash[_digest(token)] = {
            "approval_id": f"apr_{len(self._by_hash) + 1}",
            "trip_id": trip_id,
            "hold_ids": sorted(h["hold_id"] for h in live),
            "ceiling": f"{sum(float(h['held_total']['amount']) for h in live):.2f}",
            "currency": live[0]["held_total"]["currency"],
            "expires_at": min(deadlines, key=parse_now) if deadlines else None,
            "booking": None,
            "granted_at": iso(now),
        }
        return token

    def verify(self, *, trip_id: str, token: str, hold_ids: list, now: Any) -> Dict[str, Any]:
        grant = self._by_hash.get(_digest(token or ""))
        base = {"ok": False, "approval_id": None, "ceiling": None, "currency": None, "existing_booking": None}
        if grant is None or grant["trip_id"] != trip_id:
            return {**base, "code": "approval_invalid", "message": "This approval token was not granted for this trip."}
        found = {
            **base,
            "approval_id": grant["approval_id"],
            "ceiling": grant["ceiling"],
            "currency": grant["currency"],
        }
        if sorted(hold_ids or []) != grant["hold_ids"]:
            return {**found, "code": "approval_invalid", "message": "This approval covers other holds."}
        if grant["booking"] is not None:  # the same purchase again: the tool replays this booking
            return {
                **found,
                "code": "approval_used",
                "message": "This approval was already used.",
                "existing_booking": grant["booking"],
            }
        when = now if isinstance(now, datetime) else parse_now(str(now))
        if grant["expires_at"] and when >= parse_now(grant["expires_at"]):
            return {**found, "code": "approval_expired", "message": "This approval has expired."}
        return {**found, "ok": True, "code": "ok", "message": ""}

    def consume(self, *, approval_id: str, booking: Dict[str, Any], now: Any) -> None:
        for grant in self._by_hash.values():
            if grant["approval_id"] == approval_id and grant["booking"] is None:
                grant["booking"] = copy.deepcopy(booking)


class InMemoryBookings:
    """``BookingRecords`` over the bookings ``InMemoryApprovals.consume`` kept (the host's side)."""

    def __init__(self, approvals: InMemoryApprovals) -> None:
        self._approvals = approvals

    def get(self, booking_id: str) -> Optional[Dict[str, Any]]:
        for grant in self._approvals._by_hash.values():
            if grant["booking"] is not None and grant["booking"]["booking_id"] == booking_id:
                return copy.deepcopy(grant["booking"])
        return None


class InMemoryPassengers:
    """``PassengerDirectory`` over a dict ``{trip_id: [passenger details]}`` (tests and the harness)."""

    def __init__(self, by_trip: Optional[Dict[str, List[Dict[str, Any]]]] = None) -> None:
        self.by_trip = by_trip or {}
        self.resolved: List[str] = []  # the trips whose details were handed to a supplier

    def refs(self, trip_id: str) -> List[Dict[str, Any]]:
        keep = ("passenger_id", "type", "age", "infant_of")
        return [{k: p[k] for k in keep if p.get(k) is not None} for p in self.by_trip.get(trip_id, [])]

    def resolve(self, trip_id: str, refs: Sequence[Dict[str, Any]]) -> List[Dict[str, Any]]:
        from .supplier import SupplierError

        people = {p["passenger_id"]: p for p in self.by_trip.get(trip_id, [])}
        if not refs or any(r["passenger_id"] not in people for r in refs):
            raise SupplierError("passengers_missing", "Some travellers are not named yet.")
        self.resolved.append(trip_id)
        return [copy.deepcopy(people[r["passenger_id"]]) for r in refs]


class InMemoryPaymentMethods:
    def __init__(self, methods: Optional[Dict[str, List[Dict[str, Any]]]] = None) -> None:
        self._methods = methods or {}

    def add(self, trip_id: str, method: Dict[str, Any]) -> None:
        self._methods.setdefault(trip_id, []).append(method)

    def get(self, *, trip_id: str, payment_method_id: str) -> Optional[Dict[str, Any]]:
        return next((m for m in self._methods.get(trip_id, []) if m["id"] == payment_method_id), None)


class CapturedChat:
    """The AGU: every message the Runner prints, in order."""

    def __init__(self) -> None:
        self.messages: List[Dict[str, Any]] = []

    def print_chat(self, trip_id: str, message: Dict[str, Any]) -> None:
        self.messages.append(copy.deepcopy(message))


class Harness:
    def __init__(
        self,
        today: str = "2026-12-01",
        tz: str = "America/New_York",
        seed: int = 7,
        policy: Optional[Dict[str, Any]] = None,
        faults: Optional[Dict[str, Dict[str, float]]] = None,
        llm_extractor: Any = None,
        followup: Any = None,
        *,
        trip_id: str = "trip-1",
        limits: Optional[Dict[str, float]] = None,
    ):
        self.trip_id, self.seed, self.tz = trip_id, seed, tz
        start = datetime.combine(date.fromisoformat(today), time(9, 0), tzinfo=ZoneInfo(tz))
        self.clock = FrozenClock(start)
        self.org = {
            "id": "acme",
            "policy": copy.deepcopy(policy if policy is not None else DEFAULT_POLICY),
            "timezone": tz,
        }
        self.trips, self.tool_store, self.kv = InMemoryTripStore(), InMemoryToolStore(), InMemoryKeyValueStore()
        self.quotes = InMemoryQuoteStore()
        self.approvals, self.payments = InMemoryApprovals(), InMemoryPaymentMethods()
        self.payments.add(trip_id, {"id": DEFAULT_PAYMENT_METHOD, "brand": "visa", "last4": "4242"})
        self.deps = ToolDeps(
            clock=self.clock,
            approvals=self.approvals,
            payments=self.payments,
            llm_extractor=llm_extractor,
            bookings=InMemoryBookings(self.approvals),
        )
        self.set_faults(faults)
        self.shc = LocalShc(self.deps, tools=self.tool_store.get_tools(), trip_id=trip_id, clock=self.clock)
        self.agu = CapturedChat()
        self.runner = Runner(
            trip_store=self.trips,
            tool_store=self.tool_store,
            limits=limits,
            followup=followup,
            quote_store=self.quotes,
        )
        self.last: Dict[str, Any] = {}

    def set_faults(self, faults: Optional[Dict[str, Dict[str, float]]]) -> None:
        """Swap the supplier's fault plan; its state (offers, holds, orders) lives on in the store."""
        from .supplier import SandboxSupplier  # lazily: the harness is importable without it

        self.deps.supplier = SandboxSupplier(self.kv, seed=self.seed, clock=self.clock, faults=faults)

    # -- driving -------------------------------------------------------------------------------
    def send(self, event_type: str, **data: Any) -> Dict[str, Any]:
        """One turn; returns the Runner's output (and keeps it in ``self.last``)."""
        payload = {
            "trip_id": self.trip_id,
            "portfolio": "default",
            "org": self.org,
            "event": {"type": event_type, "data": data},
            "now": iso(self.clock()),
            "actor": "user:harness",
        }
        with bind_host(agu=self.agu, shc=self.shc):
            result = self.runner.run(payload)
        if not result["success"]:
            raise AssertionError(f"the runner failed: {result['output']}")
        self.last = result["output"]
        return self.last

    def say(self, text: Any) -> Dict[str, Any]:
        return self.send("USER_MESSAGE", text=text)

    def select(self, bundle_id: str) -> Dict[str, Any]:
        return self.send("USER_SELECTED_BUNDLE", bundle_id=bundle_id)

    def hold(self) -> Dict[str, Any]:
        return self.send("USER_REQUEST_HOLD")

    def decide_hold(self, approved: bool, reason: str = "") -> Dict[str, Any]:
        return self.send("HOLD_APPROVAL_DECIDED", approved=approved, reason=reason)

    def purchase(self, token: str, pm: str = DEFAULT_PAYMENT_METHOD) -> Dict[str, Any]:
        return self.send("USER_APPROVED_PURCHASE", approval_token=token, payment_method_id=pm)

    def retry(self) -> Dict[str, Any]:
        return self.send("USER_RETRY")

    def cancel(self, booking_id: str, quote_id: Optional[str] = None) -> Dict[str, Any]:
        return self.send("USER_CANCEL_BOOKING", booking_id=booking_id, **({"quote_id": quote_id} if quote_id else {}))

    def grant(self) -> str:
        """The approver grants the trip's current holds; returns the token (shown once)."""
        holds = (self.intent().get("working_memory") or {}).get("holds") or []
        return self.approvals.grant(trip_id=self.trip_id, holds=holds, now=self.clock())

    # -- reading -------------------------------------------------------------------------------
    def intent(self) -> Dict[str, Any]:
        return self.trips.get(self.trip_id) or {}

    def found(self, kind: str = "flight_quotes") -> List[Dict[str, Any]]:
        """The trip's current quotes of ``kind`` with every offer the searches found (the document
        keeps only those on screen; the rest are in the quote store)."""
        wm = self.intent().get("working_memory") or {}
        return with_stored_offers({kind: wm.get(kind) or []}, self.quotes, self.trip_id)[kind]

    def audit_events(self) -> List[Dict[str, Any]]:
        """The trip's audit trail as the core recorded it (the store's, not the document's)."""
        return self.trips.events(self.trip_id)

    @property
    def chat(self) -> List[Dict[str, Any]]:
        return self.agu.messages

    def widgets(self, kind: str, *, turn: Optional[Dict[str, Any]] = None) -> List[Dict[str, Any]]:
        """The widgets of ``kind`` shown in the last turn (or in ``turn``)."""
        messages = (turn or self.last).get("ui_messages") or []
        return [m["widget"] for m in messages if m.get("widget") and m["widget"].get("type") == kind]

    def tools_run(self, *, turn: Optional[Dict[str, Any]] = None) -> List[str]:
        return [c["name"] for c in (turn or self.last).get("tool_calls") or []]
