"""Booking missions under supplier faults, through the headless harness, and what they left behind.

A mission is one traveller's whole path: a scenario message → select a bundle that passes the
policy check (the next one when an item sold out at hold time) → hold → the approver grants →
purchase, saying "try again" (or resubmitting the purchase) after a retryable failure. A price
jump ends the mission: the harness's approver grants only the held total. Every tool call goes through a
recording SHC so each failure can be matched with what the traveller was told afterwards, and
the sandbox's own records (holds, orders, the charge ledger) are read back at the end: those, not
the trip's view of itself, say whether a hold was orphaned or a card charged twice.

``tests/reliability/test_fault_missions.py`` runs a few dozen; ``scripts/reliability/fault_missions.py``
runs 200 and prints the figures.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from typing import Any, Callable, Dict, List

from handlers.common.stores import InMemoryKeyValueStore
from handlers.supplier import SupplierError
from handlers.supplier.money import money
from handlers.testing import Harness
from handlers.tools import tool_outcome

SCENARIOS = (
    "4 people going from Newark to Denver for 3 nights on January 30",
    "2 adults from Boston to Miami, out March 11 back March 16",
    "one way JFK to LAX on March 3, just me, no hotel",
    "3 of us from Chicago to Seattle on February 12 for 4 nights",
    "fly from San Francisco to New York on April 2, back April 6, 2 adults",
    "1 adult from Atlanta to Orlando on January 20 for 2 nights",
    "me and my wife from Dallas to Las Vegas on February 20, back February 23",
    "New York to London Feb 10, London to Paris Feb 14, Paris back to New York Feb 18, 2 adults, hotels in London and Paris",
)
# Which faults each tool can suffer at the sandbox (what the supplier draws for it).
FAULTABLE = {
    "flight_quote_search": ("timeout", "error", "empty"),
    "hotel_quote_search": ("timeout", "error", "empty"),
    "reservation_hold_create": ("timeout", "error", "sold_out"),
    "booking_confirm_and_purchase": ("timeout", "error", "price_jump", "sold_out"),
}
ENDED = {"purchased", "released", "expired", "failed"}  # "failed": sold out at payment, nothing charged
MAX_RETRIES = 4
# A message the traveller can read: words, not a traceback, a dict or an exception's class name.
MACHINE_TEXT = re.compile(r"Traceback|Exception|Error:|\{'|\{\"|\bNone\b|object at 0x")


def offers_retry(turn: Dict[str, Any]) -> bool:
    return any(
        (m.get("widget") or {}).get("type") == "error" and m["widget"].get("retryable")
        for m in turn.get("ui_messages") or []
    )


class KeyedStore(InMemoryKeyValueStore):
    """The in-memory store with one more question: which keys start with a prefix."""

    def keys(self, prefix: str) -> List[str]:
        with self._lock:
            return sorted(k for k in self._data if k.startswith(prefix))


class CountingFaults:
    """Wraps the sandbox's fault plan and counts the faults it actually injected, by kind.

    A keyed draw (a purchase's price jump, fixed per hold) is asked again at every quote of the
    same hold; it counts once.
    """

    def __init__(self, supplier: Any) -> None:
        self.inner, self.count, self._keyed = supplier.faults, Counter(), set()
        supplier.faults = self

    def draw(self, tool: str, **kwargs: Any):
        try:
            struck = self.inner.draw(tool, **kwargs)
        except SupplierError as exc:
            self.count["timeout" if exc.code == "timeout" else "error"] += 1
            raise
        key = kwargs.get("key")
        for kind in struck:
            if key is None or (tool, key, kind) not in self._keyed:
                self._keyed.add((tool, key, kind))
                self.count[kind] += 1
        return struck


class RecordingShc:
    """Wraps the harness's SHC: every call's outcome and where the chat stood when it returned."""

    def __init__(self, inner: Any, chat: List[Dict[str, Any]]) -> None:
        self.inner, self.chat = inner, chat
        self.calls: List[Dict[str, Any]] = []

    def handler_call(self, portfolio: str, org: Dict[str, Any], tool: str, handler: str, args: Dict[str, Any]):
        result = self.inner.handler_call(portfolio, org, tool, handler, args)
        success, output = tool_outcome(result)
        if success and output.get("count") == 0:  # an empty search: no failure, still to be explained
            success, output = False, {"error": {"code": "empty", "message": "no results"}}
        self.calls.append(
            {"tool": tool, "success": success, "error": None if success else output["error"], "chat_at": len(self.chat)}
        )
        return result


@dataclass
class Figures:
    missions: int = 0
    booked: int = 0
    tool_calls: int = 0
    faults_injected: Counter = field(default_factory=Counter)  # by kind, as the sandbox drew them
    failures: Counter = field(default_factory=Counter)  # failed tool calls by error code
    unexplained: List[str] = field(default_factory=list)
    holds: Counter = field(default_factory=Counter)  # supplier holds by final status
    orphan_holds: List[str] = field(default_factory=list)
    charges: int = 0
    double_charges: List[str] = field(default_factory=list)
    double_bookings: List[str] = field(default_factory=list)
    money_mismatches: List[str] = field(default_factory=list)  # ledger net ≠ what the bookings charged
    # Findings about the trip's own view (the supplier is safe, the traveller is misled):
    left_running: List[str] = field(default_factory=list)  # turns after which the trip still says "running"
    stale_holds: List[str] = field(default_factory=list)  # the trip shows a hold the supplier ended
    holds_lost_on_retry: List[str] = field(default_factory=list)  # "hold_expired" on a frozen clock
    crashes: List[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)


def fault_plan(rng: random.Random, *, low: float = 0.10, high: float = 0.50) -> Dict[str, Dict[str, float]]:
    """A plan whose total failure rate per tool lies between ``low`` and ``high``, split over its kinds."""
    plan = {}
    for tool, kinds in FAULTABLE.items():
        total = rng.uniform(low, high)
        weights = [rng.random() + 0.1 for _ in kinds]
        plan[tool] = {kind: round(total * w / sum(weights), 3) for kind, w in zip(kinds, weights, strict=True)}
    return plan


class Mission:
    def __init__(self, number: int, *, faults: Dict[str, Dict[str, float]], text: str) -> None:
        self.h = Harness(seed=1000 + number, faults=faults, trip_id=f"trip-{number}")
        self.h.kv = KeyedStore()
        self.h.set_faults(faults)  # the supplier now keeps its state in the keyed store
        self.struck = CountingFaults(self.h.deps.supplier)
        self.shc = RecordingShc(self.h.shc, self.h.agu.messages)
        self.h.shc = self.shc
        self.text = text
        self.left_running: List[str] = []
        self._send, self.h.send = self.h.send, self._send_and_check

    def _send_and_check(self, event_type: str, **data: Any) -> Dict[str, Any]:
        """Every turn, then a look at the trip at rest: a finished turn never leaves it "running"."""
        turn = self._send(event_type, **data)
        status = self.h.intent().get("status") or {}
        if status.get("state") == "running":
            said = [m["text"] for m in turn["ui_messages"] if m.get("kind") != "progress"]
            self.left_running.append(
                f"{self.h.trip_id}: after {event_type}, {status.get('phase')}/running; said {said}"
            )
        return turn

    # -- the traveller ------------------------------------------------------------------------------
    def wm(self) -> Dict[str, Any]:
        return self.h.intent().get("working_memory") or {}

    def until_done(self, step: Callable[[], Dict[str, Any]], done: Callable[[], bool]) -> None:
        """Run ``step``; while it is not ``done`` and the chat offers a retry, try again.

        The traveller reacts to what the chat shows (an error widget marked retryable), not to
        the trip's internals: "try again" in the chat, except for a purchase, which the chat asks
        to be submitted again with the same token.
        """
        turn = step()
        for _ in range(MAX_RETRIES):
            if done() or not offers_retry(turn):
                return
            turn = step() if turn["routed_event"]["type"] == "USER_APPROVED_PURCHASE" else self.h.say("try again")

    def run(self) -> None:
        h = self.h
        self.until_done(lambda: h.say(self.text), lambda: bool(self.wm().get("ranked_bundles")))
        for bundle in self.wm().get("ranked_bundles") or []:
            self.until_done(lambda b=bundle: h.select(b["bundle_id"]), lambda: bool(self.wm().get("risk_report")))
            if (self.wm().get("risk_report") or {}).get("ok"):
                self.until_done(h.hold, self.holding)
            if self.holding():
                break  # a sold-out item at hold time sends the traveller to the next bundle
        if not self.holding():
            return
        token = h.grant()  # the harness's approver grants the held total: a price jump ends the mission
        self.until_done(lambda: h.purchase(token), lambda: bool(self.wm().get("bookings")))

    def holding(self) -> bool:
        holds = self.wm().get("holds") or []
        return bool(holds) and all(x.get("status") == "held" for x in holds)

    # -- what it left behind ------------------------------------------------------------------------
    def audit(self) -> Figures:
        fig = Figures(missions=1, tool_calls=len(self.shc.calls))
        fig.booked = int(bool(self.wm().get("bookings")))
        fig.faults_injected = Counter(self.struck.count)
        chat = self.h.chat
        for n, call in enumerate(self.shc.calls):
            if call["success"]:
                continue
            fig.failures[call["error"].get("code", "?")] += 1
            said = next((m for m in chat[call["chat_at"] :] if m.get("kind") != "progress"), None)
            if not said or not said.get("text") or MACHINE_TEXT.search(said["text"]):
                fig.unexplained.append(f"{self.h.trip_id} call {n} {call['tool']} {call['error']} → {said}")
        fig.left_running, fig.stale_holds = (
            list(self.left_running),
            self._stale_holds(),
        )  # before _holds moves the clock
        fig.holds, fig.orphan_holds = self._holds()
        fig.charges, fig.double_charges = self._charges()
        bookings = self.wm().get("bookings") or []
        if len(bookings) > 1:
            fig.double_bookings.append(f"{self.h.trip_id}: {[b['booking_id'] for b in bookings]}")
        fig.money_mismatches = self._money(bookings)
        fig.holds_lost_on_retry = [
            f"{self.h.trip_id}: {c['error']['message']}"
            for c in self.shc.calls
            if not c["success"] and c["error"].get("code") == "hold_expired"
        ]
        return fig

    def _money(self, bookings: List[Dict[str, Any]]) -> List[str]:
        """Money moved only for what was booked: the ledger nets to the booked orders' charges."""
        supplier = self.h.deps.supplier
        net = sum((money(e["amount"]) for e in supplier.charges()), Decimal(0))
        booked = sum(
            (
                money(supplier.get_order(o["order_id"])["charged"]["amount"])
                for b in bookings
                for o in b.get("orders") or []
            ),
            Decimal(0),
        )
        return [] if net == booked else [f"{self.h.trip_id}: ledger nets {net}, bookings charged {booked}"]

    def _stale_holds(self) -> List[str]:
        """Holds the trip still shows as held although the supplier ended them."""
        supplier = self.h.deps.supplier
        return [
            f"{self.h.trip_id}: {x['hold_id']} shown held, supplier says {supplier.get_hold(x['hold_id'])['status']}"
            for x in self.wm().get("holds") or []
            if x.get("status") == "held" and supplier.get_hold(x["hold_id"])["status"] != "held"
        ]

    def _holds(self):
        """Every hold the sandbox ever placed, read after the clock passed the last deadline.

        A hold still "held" while the trip no longer lists it is orphaned (nobody will buy or
        release it); after the deadline every hold must have ended, else the sandbox leaks stock.
        """
        supplier = self.h.deps.supplier
        known = {x["hold_id"] for x in self.wm().get("holds") or []}
        ids = [k.rsplit(":", 1)[1] for k in self.h.kv.keys("sandbox:hold:")]
        orphans = [
            f"{self.h.trip_id}: {i} held but unknown to the trip"
            for i in ids
            if supplier.get_hold(i)["status"] == "held" and i not in known
        ]
        later = self.h.clock() + timedelta(days=400)
        final = Counter(supplier.get_hold(i, now=later)["status"] for i in ids)
        orphans += [
            f"{self.h.trip_id}: {n} holds {status} after every deadline"
            for status, n in final.items()
            if status not in ENDED
        ]
        return final, orphans

    def _charges(self):
        """Each order charged at most once, each hold paid by at most one order."""
        supplier = self.h.deps.supplier
        charges = [e for e in supplier.charges() if e["kind"] == "charge"]
        per_order = Counter(e["order_id"] for e in charges)
        per_hold = Counter(supplier.get_order(o)["hold_id"] for o in per_order)
        doubled = [f"{self.h.trip_id}: order {o} charged {n}×" for o, n in per_order.items() if n > 1]
        doubled += [f"{self.h.trip_id}: hold {k} paid {n}×" for k, n in per_hold.items() if n > 1]
        return len(charges), doubled


def run_missions(count: int, *, seed: int = 7, low: float = 0.10, high: float = 0.50) -> Figures:
    """Run ``count`` missions, each with its own scenario and fault plan; the summed figures."""
    rng, total = random.Random(seed), Figures()
    for number in range(count):
        mission = Mission(number, faults=fault_plan(rng, low=low, high=high), text=rng.choice(SCENARIOS))
        try:
            mission.run()
        except Exception as exc:  # noqa: BLE001 - a crash is a finding to count, not to hide
            total.crashes.append(f"trip-{number}: {type(exc).__name__}: {exc}")
        total.add(mission.audit())
    return total
