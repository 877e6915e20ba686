"""Reducer: the deterministic decision of what happens next (SPEC §E.7, DESIGN "Conversation rules").

Given the TripIntent and one event it returns the tool calls to run and the chat messages
to show; it never runs a tool itself. Intake: missing requirements become at most three
questions and no tools. Quoting: one search per segment and per stay that lacks current
quotes, then the ranker, then the understood trip and the bundles in the same turn. Direct
events (select, hold, purchase, retry, cancel) each have one guarded path. A call whose
arguments match the last failed call is not repeated until the traveller says "try again".
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from datetime import datetime
from typing import Any, Dict, List, Optional, Tuple

from .common import geo
from .common.clock import local_time_text, local_today, parse_now
from .common.types import fail, guarded, ok
from .patcher import EMPTY_SELECTION, working_copy
from .router import is_question
from .tools import args_hash

MAX_QUESTIONS = 3
MAX_TEXT_CHARS = 20000  # the extractor's schema limit
SEARCH_TOOLS = ("flight_quote_search", "hotel_quote_search", "trip_option_ranker")
QUESTIONS: Dict[str, str] = {
    "origin": "Where are you flying from?",
    "destination": "Where are you going?",
    "depart_date": "When do you leave?",
    "adults": "How many people are travelling?",
    "return_date": "When do you come back? (Say 'one way' if you don't.)",
    "check_out": "Until when do you need the hotel?",
}
PURCHASE_REFUSAL = (
    "I can't buy anything from a chat message. Purchases need your approver's token, entered in the purchase form."
)


# -- the trip, read ----------------------------------------------------------------------------
def _code(place: Any) -> Optional[str]:
    return place.get("code") if isinstance(place, dict) and place.get("code") else None


def place_label(place: Any, *, compact: bool = False) -> str:
    """How a place reads in chat: "Newark (EWR)", or "EWR" when compact; a metro is its name ("San Francisco", not "QSF")."""
    if not isinstance(place, dict):
        return str(place or "?")
    code, name = place.get("code"), place.get("name")
    if code and name and (geo.place(str(code)) or {}).get("type") == "city":  # a metro code, not an airport
        return str(name)
    if compact or not name or name == code:
        return str(code or name or "?")
    return f"{name} ({code})"


def segments_of(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The itinerary's segments, each with a ``segment_id`` (``S1``, ``S2``… when absent)."""
    segs = (doc.get("itinerary") or {}).get("segments") or []
    return [{**s, "segment_id": s.get("segment_id") or f"S{i + 1}"} for i, s in enumerate(segs) if isinstance(s, dict)]


def travellers(doc: Dict[str, Any]) -> Dict[str, int]:
    t = (doc.get("party") or {}).get("travelers") or {}
    return {k: int(t.get(k) or 0) for k in ("adults", "children", "infants")}


def stays_of(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The hotel stays to quote, each with a ``stay_id`` and rooms that fit the party.

    Explicit ``lodging.stays`` win; else one stay from ``lodging.check_in/check_out`` at the
    first destination; else one stay at each destination between consecutive flights (a round
    trip gives one, a three-leg multi-city two). No lodging → none.
    """
    lodging = (doc.get("itinerary") or {}).get("lodging") or {}
    if lodging.get("needed") is False:
        return []
    segs = segments_of(doc)
    if lodging.get("stays"):
        stays = [dict(s) for s in lodging["stays"] if isinstance(s, dict)]
    elif lodging.get("check_in") or lodging.get("check_out"):
        dest = _code(segs[0].get("destination")) if segs else None
        stays = [{"location_code": dest, "check_in": lodging.get("check_in"), "check_out": lodging.get("check_out")}]
    else:
        stays = [
            {
                "location_code": _code(a.get("destination")),
                "check_in": a.get("depart_date"),
                "check_out": b.get("depart_date"),
            }
            for a, b in zip(segs, segs[1:], strict=False)
            if _code(a.get("destination")) and _code(a.get("destination")) != _code(segs[0].get("origin"))
        ]
    per_room = max(1, int(lodging.get("guests_per_room") or 2))
    people = max(1, travellers(doc)["adults"] + travellers(doc)["children"])
    out = []
    for i, stay in enumerate(stays):
        location = stay.get("location") if isinstance(stay.get("location"), dict) else {}
        guests = max(1, int(stay.get("guests_per_room") or per_room))
        rooms = max(int(stay.get("rooms") or lodging.get("rooms") or 1), math.ceil(people / guests))
        out.append(
            {
                "stay_id": stay.get("stay_id") or f"H{i + 1}",
                "location_code": stay.get("location_code") or _code(location),
                "location_hint": stay.get("location_hint") or lodging.get("location_hint"),
                "check_in": stay.get("check_in"),
                "check_out": stay.get("check_out"),
                "rooms": rooms,
                "guests_per_room": guests,
            }
        )
    return out


def missing_slots(doc: Dict[str, Any]) -> List[str]:
    """Requirements still unknown for quoting, in the order we ask for them."""
    segs = segments_of(doc)
    missing: List[str] = []
    for seg in segs or [{}]:
        for slot, ok_ in (
            ("origin", _code(seg.get("origin"))),
            ("destination", _code(seg.get("destination"))),
            ("depart_date", seg.get("depart_date")),
        ):
            if not ok_ and slot not in missing:
                missing.append(slot)
    if travellers(doc)["adults"] < 1:
        missing.append("adults")
    trip_type = (doc.get("itinerary") or {}).get("trip_type")
    if trip_type not in ("one_way", "multi_city") and len(segs) <= 1:
        missing.append("return_date")
    elif any(not s["check_in"] or not s["check_out"] or not s["location_code"] for s in stays_of(doc)):
        missing.append("check_out")
    elif trip_type == "one_way" and (doc.get("itinerary") or {}).get("lodging", {}).get("needed") and not stays_of(doc):
        missing.append("check_out")
    order = list(QUESTIONS)
    return sorted(missing, key=order.index)


# -- tool calls ----------------------------------------------------------------------------
def tool_call(name: str, arguments: Dict[str, Any]) -> Dict[str, Any]:
    return {"name": name, "arguments": arguments, "call_id": f"{name}:{args_hash(arguments)}"}


def flight_args(doc: Dict[str, Any], seg: Dict[str, Any]) -> Dict[str, Any]:
    pref = (doc.get("preferences") or {}).get("flight") or {}
    args = {
        "segment_id": seg["segment_id"],
        "origin": seg["origin"],
        "destination": seg["destination"],
        "depart_date": seg["depart_date"],
        "passengers": travellers(doc),
        "cabin": pref.get("cabin") or "economy",
        "max_stops": pref.get("max_stops"),
        "airlines": list(pref.get("airlines") or []),
    }
    if seg.get("depart_time_window"):
        args["depart_time_window"] = seg["depart_time_window"]
    return args


def hotel_args(doc: Dict[str, Any], stay: Dict[str, Any]) -> Dict[str, Any]:
    pref = (doc.get("preferences") or {}).get("hotel") or {}
    refundable = (doc.get("constraints") or {}).get("refundable_preference") in ("hotel", "all")
    return {
        **{
            k: stay[k]
            for k in ("stay_id", "location_code", "location_hint", "check_in", "check_out", "rooms", "guests_per_room")
        },
        "min_stars": pref.get("min_stars"),
        "refundable_only": bool(pref.get("refundable_only") or refundable),
        "near": pref.get("near"),
    }


def _current_quotes(doc: Dict[str, Any]) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
    """The stored quotes of today's segments and stays, in itinerary order."""
    wm = doc["working_memory"]
    seg_ids = [s["segment_id"] for s in segments_of(doc)]
    stay_ids = [s["stay_id"] for s in stays_of(doc)]
    flights = sorted(
        (q for q in wm["flight_quotes"] if q.get("segment_id") in seg_ids), key=lambda q: seg_ids.index(q["segment_id"])
    )
    hotels = sorted(
        (q for q in wm["hotel_quotes"] if q.get("stay_id") in stay_ids), key=lambda q: stay_ids.index(q["stay_id"])
    )
    return flights, hotels


def ranker_args(doc: Dict[str, Any]) -> Dict[str, Any]:
    flights, hotels = _current_quotes(doc)
    return {
        "flight_quotes": flights,
        "hotel_quotes": hotels,
        "preferences": copy.deepcopy(doc.get("preferences") or {}),
        "constraints": copy.deepcopy(doc.get("constraints") or {}),
        "top_k": 5,
    }


def ranking_key(doc: Dict[str, Any]) -> str:
    """What a ranking was computed from: each quote by its search and time, plus preferences and
    constraints. Cheap to compare, unlike hashing every offer."""
    flights, hotels = _current_quotes(doc)
    fingerprint = lambda quotes, key: [(q.get(key), q.get("args_hash"), q.get("searched_at")) for q in quotes]  # noqa: E731
    return args_hash(
        {
            "flights": fingerprint(flights, "segment_id"),
            "hotels": fingerprint(hotels, "stay_id"),
            "preferences": doc.get("preferences"),
            "constraints": doc.get("constraints"),
        }
    )


def bundle_items(bundle: Dict[str, Any]) -> List[Dict[str, Any]]:
    """What holding ``bundle`` means at the supplier: one item per flight and per hotel stay."""
    items = [
        {"item_type": "flight", "offer_id": f.get("offer_id"), "segment_id": f.get("segment_id")}
        for f in bundle.get("flights") or []
    ]
    return items + [
        {"item_type": "hotel", "rate_id": h.get("rate_id"), "stay_id": h.get("stay_id")}
        for h in bundle.get("hotels") or []
    ]


def hold_args(
    doc: Dict[str, Any], bundle: Dict[str, Any], items: Optional[List[Dict[str, Any]]] = None
) -> Dict[str, Any]:
    """Arguments to hold ``items`` (default: the whole bundle) under a key stable for that set."""
    items = bundle_items(bundle) if items is None else items
    key = args_hash({"trip": doc.get("trip_id"), "bundle": bundle.get("bundle_id"), "items": items})
    return {
        "trip_id": doc.get("trip_id"),
        "bundle_id": bundle.get("bundle_id"),
        "items": items,
        "idempotency_key": f"hold_{key}",
    }


def _failed_before(doc: Dict[str, Any], call: Dict[str, Any]) -> bool:
    err = doc["working_memory"].get("last_error") or {}
    failed = err.get("call") or {}
    return failed.get("name") == call["name"] and args_hash(failed.get("arguments") or {}) == args_hash(
        call["arguments"]
    )


def pending_searches(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """A search for each segment and stay whose stored quotes do not match today's arguments."""
    wm = doc["working_memory"]
    flights = {q.get("segment_id"): q.get("args_hash") for q in wm["flight_quotes"]}
    hotels = {q.get("stay_id"): q.get("args_hash") for q in wm["hotel_quotes"]}
    calls = [tool_call("flight_quote_search", flight_args(doc, s)) for s in segments_of(doc)]
    calls = [c for c in calls if flights.get(c["arguments"]["segment_id"]) != args_hash(c["arguments"])]
    hotel_calls = [tool_call("hotel_quote_search", hotel_args(doc, s)) for s in stays_of(doc)]
    return calls + [c for c in hotel_calls if hotels.get(c["arguments"]["stay_id"]) != args_hash(c["arguments"])]


def work_pending(doc: Dict[str, Any]) -> bool:
    """Nothing is missing, yet a search or the ranking is not current (e.g. a turn hit its limit)."""
    if missing_slots(doc):
        return False
    ranking = (doc["working_memory"].get("ranking") or {}).get("key")
    return bool(pending_searches(doc)) or ranking != ranking_key(doc)


def live_holds(doc: Dict[str, Any], now: datetime) -> List[Dict[str, Any]]:
    def alive(hold: Dict[str, Any]) -> bool:
        deadline = hold.get("payment_required_by")
        return hold.get("status") == "held" and (not deadline or parse_now(deadline) > now)

    return [h for h in doc["working_memory"]["holds"] if alive(h)]


def unbooked_purchases(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Holds a purchase paid for that no booking lists: a retryable failure stopped it half way, and
    submitting it again replays these (nothing charged twice) and buys the rest."""
    wm = doc["working_memory"]
    booked = {o.get("hold_id") for b in wm["bookings"] for o in b.get("orders") or []}
    return [h for h in wm["holds"] if h.get("status") == "purchased" and h.get("hold_id") not in booked]


def earliest_deadline(holds: List[Dict[str, Any]]) -> Optional[str]:
    """The first payment deadline among ``holds`` (ISO, UTC), None without any: what an approval can last."""
    deadlines = [h["payment_required_by"] for h in holds if h.get("payment_required_by")]
    return min(deadlines, key=parse_now) if deadlines else None


def unheld_items(bundle: Dict[str, Any], held: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The items of ``bundle`` that no live hold covers (all of them before the first hold)."""
    covered = {(h.get("item_type"), h.get("offer_id") or h.get("rate_id")) for h in held}
    return [i for i in bundle_items(bundle) if (i["item_type"], i.get("offer_id") or i.get("rate_id")) not in covered]


def expire_lapsed(doc: Dict[str, Any], now: datetime) -> List[Dict[str, Any]]:
    """Write down holds still marked held whose deadline has passed; returns them."""
    lapsed = [h for h in doc["working_memory"]["holds"] if h.get("status") == "held" and h not in live_holds(doc, now)]
    for hold in lapsed:
        hold["status"] = "expired"
    return lapsed


def offers_lapsed(bundle: Dict[str, Any], items: List[Dict[str, Any]], now: datetime) -> bool:
    """Whether the supplier's offer behind any of ``items`` has expired (it can no longer be held)."""
    wanted = {i.get("offer_id") or i.get("rate_id") for i in items}
    parts = [(f.get("offer_id"), f.get("summary") or {}) for f in bundle.get("flights") or []]
    parts += [(h.get("rate_id"), h.get("summary") or {}) for h in bundle.get("hotels") or []]
    return any(
        ref in wanted and summary.get("expires_at") and parse_now(summary["expires_at"]) <= now
        for ref, summary in parts
    )


def describe_items(items: List[Dict[str, Any]]) -> str:
    """ "the 2 flights and the hotel": what a set of holds or items is, in words."""
    counts = Counter(i.get("item_type") or "item" for i in items)
    words = {"flight": ("flight", "flights"), "hotel": ("hotel", "hotel stays")}
    parts = []
    for kind, n in counts.items():
        one, many = words.get(kind, (kind, f"{kind}s"))
        parts.append(f"the {one}" if n == 1 else f"the {n} {many}")
    return " and ".join(parts) or "nothing"


# -- chat messages -------------------------------------------------------------------------
def message(text: str, widget: Optional[Dict[str, Any]] = None, kind: str = "message") -> Dict[str, Any]:
    return {"role": "assistant", "kind": kind, "text": text, "widget": widget}


def error_message(code: str, text: str, retryable: bool = False) -> Dict[str, Any]:
    return message(text, {"type": "error", "code": code, "message": text, "retryable": retryable}, kind="error")


def _route(seg: Dict[str, Any]) -> str:
    return f"{place_label(seg.get('origin'))} → {place_label(seg.get('destination'))} on {seg.get('depart_date')}"


def describe_trip(widget: Dict[str, Any]) -> str:
    """A ``trip_summary`` widget as one plain sentence (for text-only clients such as the terminal chat)."""
    party = widget.get("travelers") or {}
    people = ", ".join(
        f"{n} {k if n != 1 else k.rstrip('s').replace('children', 'child')}" for k, n in party.items() if n
    )
    stays = widget.get("stays") or []
    parts = [people] + [_route(s) for s in widget.get("segments") or []]
    parts += [
        f"hotel in {s.get('location_hint') or s['location_code']} {s['check_in']} to {s['check_out']}" for s in stays
    ] or ["no hotel"]
    text = "Your trip: " + "; ".join(p for p in parts if p) + "."
    if widget.get("assumptions"):
        text += " Assumptions: " + "; ".join(widget["assumptions"]) + "."
    return text


def trip_summary(doc: Dict[str, Any], options: int) -> Dict[str, Any]:
    """The understood trip, shown before the bundles: a short lead-in, the card carries the details."""
    widget = {
        "type": "trip_summary",
        "segments": segments_of(doc),
        "stays": stays_of(doc),
        "travelers": travellers(doc),
        "assumptions": list(doc["status"].get("assumptions") or []),
    }
    return message(f"Here's what I understood — {options} option{'s' if options != 1 else ''} below.", widget)


def route_label(doc: Dict[str, Any]) -> str:
    """ "EWR ⇄ DEN" for a round trip, "BOS → MIA → ORD" for one way or multi-city."""
    segs = segments_of(doc)
    codes = (
        [place_label(segs[0].get("origin"), compact=True)]
        + [place_label(s.get("destination"), compact=True) for s in segs]
        if segs
        else []
    )
    if len(codes) == 3 and codes[0] == codes[2]:
        return f"{codes[0]} ⇄ {codes[1]}"
    return " → ".join(str(c) for c in codes)


CURRENCY_SIGNS = {"USD": "$", "EUR": "€", "GBP": "£"}


def money(amount: Any, currency: Optional[str]) -> str:
    """ "$1,234.56 USD": an amount as the traveller reads it (the code stays, signs are ambiguous)."""
    try:
        figure = f"{float(amount):,.2f}"
    except (TypeError, ValueError):
        figure = str(amount)
    return f"{CURRENCY_SIGNS.get(currency or '', '')}{figure} {currency or ''}".strip()


def bundles_line(doc: Dict[str, Any], bundles: List[Dict[str, Any]]) -> str:
    cheapest = min(bundles, key=lambda b: float(b.get("total") or "inf"))
    n = len(bundles)
    return f"Here {'are' if n != 1 else 'is'} {n} option{'s' if n != 1 else ''} for {route_label(doc)}, cheapest {money(cheapest.get('total'), cheapest.get('currency'))}."


def findings(items: Any) -> str:
    """Policy findings as one sentence ("a; b")."""
    return "; ".join(str(i.get("message", "")).rstrip(".") for i in items or [] if isinstance(i, dict))


def _bundle_line(b: Dict[str, Any]) -> str:
    return f"{b['bundle_id']}: {b.get('total')} {b.get('currency') or ''}".strip()


# -- the reducer -----------------------------------------------------------------------------
class Reducer:
    """``run({"trip_intent", "event", "now"})`` → ``{"tool_calls", "ui_messages", "trip_intent"}``.

    Extra output keys: ``audit`` (events the host should record, e.g. a refused purchase text)
    and ``followup`` (``{"question"}``: a question about the bundles the extractor did not read as
    requirements; the Runner hands it to its optional follow-up collaborator).
    """

    name = "reducer"

    def run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        return guarded(self.name, payload, lambda: self._run(payload))

    def _run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        doc, event = payload.get("trip_intent"), payload.get("event") or {}
        if not isinstance(doc, dict) or not event.get("type") or not payload.get("now"):
            return fail(payload, "invalid_payload", "The reducer needs a trip_intent, an event and now.")
        doc = working_copy(doc)
        decision = Decision(doc)
        handle = getattr(decision, f"on_{str(event['type']).lower()}", None)
        if handle is None:
            decision.say(f"I can't handle {event['type']} here.")
        else:
            handle(doc, dict(event.get("data") or {}), parse_now(payload["now"]))
        return ok(payload, decision.out)

    @classmethod
    def run_tests(cls) -> None:
        from .common.intent import new_trip_intent

        now = "2026-12-01T14:00:00+00:00"
        doc = new_trip_intent("t", parse_now(now))
        out = cls().run({"trip_intent": doc, "event": {"type": "INTENT_READY"}, "now": now})["output"]
        assert out["tool_calls"] == [] and len(out["ui_messages"][0]["widget"]["questions"]) == MAX_QUESTIONS
        doc["party"]["travelers"]["adults"] = 2
        doc["itinerary"].update(
            trip_type="one_way",
            segments=[{"origin": {"code": "JFK"}, "destination": {"code": "LAX"}, "depart_date": "2027-03-03"}],
        )
        doc["itinerary"]["lodging"]["needed"] = False
        out = cls().run({"trip_intent": doc, "event": {"type": "INTENT_READY"}, "now": now})["output"]
        assert [c["name"] for c in out["tool_calls"]] == ["flight_quote_search"], out["tool_calls"]
        refused = cls().run(
            {"trip_intent": doc, "event": {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": "B9"}}, "now": now}
        )["output"]
        assert refused["tool_calls"] == [] and refused["trip_intent"]["working_memory"] == doc["working_memory"]


class Decision:
    """One Reducer pass: the event handlers, collecting calls and messages in ``out``."""

    def __init__(self, doc: Dict[str, Any]):
        self.out: Dict[str, Any] = {
            "tool_calls": [],
            "ui_messages": [],
            "trip_intent": doc,
            "audit": [],
            "followup": None,
        }

    def say(self, text: str, widget: Optional[Dict[str, Any]] = None, kind: str = "message") -> None:
        self.out["ui_messages"].append(message(text, widget, kind))

    def call(self, name: str, arguments: Dict[str, Any]) -> None:
        self.out["tool_calls"].append(tool_call(name, arguments))

    @staticmethod
    def local(doc: Dict[str, Any], value: Optional[str]) -> str:
        """A stored UTC instant as chat text, in the trip's timezone."""
        return local_time_text(value, doc["request"].get("timezone") or "UTC")

    # -- intake and quoting -------------------------------------------------------------------
    def on_user_message(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        text = data.get("text") or ""
        if data.get("purchase_text_refused"):
            self.out["ui_messages"].append(error_message("purchase_text_refused", PURCHASE_REFUSAL))
            self.out["audit"].append({"type": "purchase_text_refused", "text": text[:500]})
            return
        if data.get("unknown_bundle_id"):
            on_screen = ", ".join(b["bundle_id"] for b in doc["working_memory"]["ranked_bundles"])
            self.say(f"{data['unknown_bundle_id']} isn't one of the bundles on screen ({on_screen}). Nothing changed.")
            return
        if not text.strip():
            self.say(
                "I didn't get any text. Tell me where you're flying from and to, when, and how many of you are going."
            )
            return
        if len(text) > MAX_TEXT_CHARS:
            self.say(
                f"That message is too long for me ({len(text):,} characters). Please describe the trip in a few sentences."
            )
            return
        self.call(
            "trip_requirements_extract",
            {
                "text": text,
                "pending_question": doc["status"].get("pending_question"),
                "today": local_today(now, doc["request"].get("timezone") or "UTC").isoformat(),
                "timezone": doc["request"].get("timezone") or "UTC",
                "current": {
                    k: copy.deepcopy(doc.get(k)) for k in ("party", "itinerary", "preferences", "constraints", "status")
                },
                # Recent turns the host passes along (already redacted); the model path reads them.
                "conversation": list(data.get("conversation") or [])[-12:],
            },
        )

    def on_intent_ready(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        self.plan(doc, now, user_asked=True)

    def plan(self, doc: Dict[str, Any], now: datetime, *, user_asked: bool, just_ranked: bool = False) -> None:
        """Ask what is missing, else run the next searches, else rank, else present."""
        status, wm = doc["status"], doc["working_memory"]
        missing = missing_slots(doc)
        status["missing_required"] = missing
        if missing:
            asked = missing[:MAX_QUESTIONS]
            status.update(
                phase="intake",
                state="needs_input",
                pending_question={"slots": asked, "text": " ".join(QUESTIONS[s] for s in asked)},
            )
            questions = [{"slot": s, "text": QUESTIONS[s]} for s in asked]
            self.say(status["pending_question"]["text"], {"type": "questions", "questions": questions})
            return
        status["pending_question"] = None
        searches = pending_searches(doc)
        blocked = [c for c in searches if _failed_before(doc, c)]
        if searches:
            for c in searches:
                if c not in blocked:
                    self.out["tool_calls"].append(c)
            if blocked and user_asked and len(blocked) == len(searches):
                self.say(f"The {blocked[0]['name'].replace('_', ' ')} failed earlier. Say 'try again' to retry it.")
            if not blocked:
                status.update(phase="quoting", state="running")
            return
        empty = [q for q in wm["flight_quotes"] if not q.get("offers")] + [
            q for q in wm["hotel_quotes"] if not q.get("rates")
        ]
        if empty:
            self._no_results(doc, empty)
            return
        if (wm.get("ranking") or {}).get("key") != ranking_key(doc):
            call = tool_call("trip_option_ranker", ranker_args(doc))
            if not _failed_before(doc, call):
                self.out["tool_calls"].append(call)
            elif user_asked:
                self.say("Ranking the options failed earlier. Say 'try again' to retry it.")
            return
        bundles = wm["ranked_bundles"]
        if not bundles:
            status.update(phase="intake", state="needs_input")
            self.say(
                "I couldn't put together any flight and hotel combination for this trip. Try other dates or drop a preference."
            )
        elif just_ranked:
            self.out["ui_messages"].append(trip_summary(doc, len(bundles)))
            self.say(bundles_line(doc, bundles), {"type": "bundles", "bundles": bundles})
        elif user_asked:
            self.say(
                "Nothing changed. Your options are on screen: "
                + ", ".join(map(_bundle_line, bundles))
                + ". Pick one, or tell me what to change."
            )

    def _no_results(self, doc: Dict[str, Any], empty: List[Dict[str, Any]]) -> None:
        doc["status"].update(phase="intake", state="needs_input")
        segs = {s["segment_id"]: s for s in segments_of(doc)}
        stays = {s["stay_id"]: s for s in stays_of(doc)}
        lines = []
        for q in empty:
            if "segment_id" in q and q["segment_id"] in segs:
                lines.append(f"no flights {_route(segs[q['segment_id']])}")
            elif q.get("stay_id") in stays:
                s = stays[q["stay_id"]]
                lines.append(f"no hotels in {s['location_code']} from {s['check_in']} to {s['check_out']}")
        self.say(
            "I found " + "; ".join(lines or ["nothing"]) + ". Try other dates, another airport or fewer preferences."
        )

    # -- results ------------------------------------------------------------------------------
    def on_tool_result(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        tool, output, applied = data.get("tool_name"), data.get("output") or {}, data.get("applied") or {}
        if tool == "trip_requirements_extract":
            self._after_extract(doc, data, applied, now)
        elif tool in SEARCH_TOOLS:
            self.plan(doc, now, user_asked=False, just_ranked=tool == "trip_option_ranker")
        elif tool == "policy_and_risk_check":
            self._show_risk(doc["working_memory"]["risk_report"] or output)
        elif tool == "reservation_hold_create":
            held = live_holds(doc, now)
            deadline = earliest_deadline(held)
            lines = "; ".join(
                f"{h.get('item_type')} held until {self.local(doc, h.get('payment_required_by'))}" for h in held
            )
            self.say(
                f"Held: {lines}. I've asked your approver to approve the purchase; once they do, buy with their token "
                f"in the purchase form before {self.local(doc, deadline)}.",
                {"type": "holds", "holds": held, "earliest_deadline": deadline},
            )
        elif tool == "reservation_hold_release":
            n = len((data.get("call") or {}).get("arguments", {}).get("hold_ids") or [])
            self.say(f"Released {n} hold{'s' if n != 1 else ''} at the supplier.", kind="status")
        elif tool == "booking_confirm_and_purchase":
            booking = output.get("booking") or {}
            locators = ", ".join(map(str, booking.get("record_locators") or []))
            again = " (this purchase was already done; nothing was charged twice)" if output.get("replayed") else ""
            self.say(
                f"Booked{again}: booking {booking.get('booking_id')}, record locators {locators}, total {booking.get('total')} {booking.get('currency')}.",
                {"type": "booking", "booking": booking},
            )
        elif tool == "booking_cancel":
            self.say(self._cancel_text(doc, output), {"type": "cancellation", **output})

    def _after_extract(self, doc: Dict[str, Any], data: Dict[str, Any], applied: Dict[str, Any], now: datetime) -> None:
        if applied.get("change_after_purchase"):
            self._booked_change(doc)
            return
        changed = [p for p in applied.get("changed_paths") or [] if not p.startswith(("request.", "status."))]
        if changed:
            self.plan(doc, now, user_asked=True)
            return
        if work_pending(doc):
            self.plan(doc, now, user_asked=True)
            return
        text = ((data.get("call") or {}).get("arguments") or {}).get("text") or ""
        if applied.get("understood") is False:
            if doc["working_memory"]["ranked_bundles"] and is_question(text):
                self.out["followup"] = {"question": text}
            pending = doc["status"].get("pending_question")
            again = (
                f" {pending['text']}"
                if pending
                else " Tell me where you're flying from and to, when, and how many of you are going."
            )
            self.say("Sorry, I didn't understand that as trip details, so nothing changed." + again)
            return
        self.plan(doc, now, user_asked=True)

    def _booked_change(self, doc: Dict[str, Any]) -> None:
        active = [b for b in doc["working_memory"]["bookings"] if b.get("status") != "cancelled"]
        booking = active[-1] if active else {}
        self.say(
            f"This trip is already booked (booking {booking.get('booking_id')}), so I left it unchanged. "
            "To change it, cancel the booking first: I'll show the refund before anything is cancelled.",
            {"type": "cancellation", "booking_id": booking.get("booking_id"), "action": "quote"},
        )

    def _show_risk(self, report: Dict[str, Any]) -> None:
        widget = {"type": "risk", **{k: report.get(k) for k in ("bundle_id", "ok", "blocking", "warnings")}}
        warnings = findings(report.get("warnings"))
        if report.get("ok"):
            text = (
                f"{report.get('bundle_id')} is within policy."
                + (f" Note: {warnings}." if warnings else "")
                + " Say 'hold' to hold it."
            )
        else:
            blocking = findings(report.get("blocking"))
            text = f"{report.get('bundle_id')} can't be held: {blocking}. Pick another bundle or change the trip."
        self.say(text, widget)

    def _cancel_text(self, doc: Dict[str, Any], output: Dict[str, Any]) -> str:
        if output.get("status") == "cancelled" or output.get("cancelled"):
            return f"Cancelled. Refund: {output.get('refund_amount')} {output.get('currency') or ''}".strip() + "."
        return f"Cancelling would refund {output.get('refund_amount')} {output.get('currency') or ''}".strip() + (
            f", offer valid until {self.local(doc, output['expires_at'])}. Confirm to cancel."
            if output.get("expires_at")
            else ". Confirm to cancel."
        )

    # -- failures -----------------------------------------------------------------------------
    def on_tool_error(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        tool, error = data.get("tool_name") or "tool", data.get("error") or {}
        code, retryable = error.get("code", "tool_failed"), bool(error.get("retryable"))
        if tool == "booking_confirm_and_purchase":
            self._purchase_error(doc, code, error)
            return
        if tool == "reservation_hold_create" and code == "offer_expired":
            self._requote(doc, now)
            return
        what = tool.replace("_", " ")
        text = f"The {what} didn't work: {str(error.get('message') or code).rstrip('.')}."
        text += " Say 'try again' to retry." if retryable else " I can't retry that one; tell me what to change."
        self.out["ui_messages"].append(error_message(code, text, retryable))

    def _requote(self, doc: Dict[str, Any], now: datetime) -> None:
        """Offers live minutes, holds hours: an offer that lapsed can't be held again, so search again.

        The fresh bundles replace the old ones, so a hold still live from the old bundle belongs
        to nothing on screen any more: it is released rather than left to block space.
        """
        wm = doc["working_memory"]
        stale = live_holds(doc, now)
        if stale:
            wm["holds"] = [h for h in wm["holds"] if h not in stale]
            self.call(
                "reservation_hold_release", {"hold_ids": [h["hold_id"] for h in stale], "reason": "offers_expired"}
            )
        wm.update(
            flight_quotes=[],
            hotel_quotes=[],
            ranked_bundles=[],
            ranking=None,
            risk_report=None,
            selected=dict(EMPTY_SELECTION),
            last_error=None,
        )
        released = f", so I released {describe_items(stale)} hold and" if stale else ", so"
        self.say(
            f"The prices I had for this trip have expired at the supplier{released} I'm searching again for current prices.",
            kind="status",
        )
        self.plan(doc, now, user_asked=False)

    def _purchase_error(self, doc: Dict[str, Any], code: str, error: Dict[str, Any]) -> None:
        """Say what the purchase left behind. The tool's own words when it bought, voided or found a
        hold ended (they name the items and what happened to each); short fixed words otherwise."""
        texts = {
            "price_changed": "The price went up above what your approver approved, so nothing was bought. A new approval is needed for the new total.",
            "approval_invalid": "That approval token isn't valid for these holds, so nothing was bought.",
            "approval_expired": "That approval has expired, so nothing was bought. Ask your approver for a new one.",
            "approval_used": "That approval token has already been used, so nothing was bought.",
            "payment_invalid": "That payment method can't be used for this trip, so nothing was bought.",
            "partial_failure": "Part of the purchase failed. Support staff have been alerted and will sort it out; you won't be left with half a trip.",
        }
        retryable = bool(error.get("retryable"))
        told = code != "partial_failure" and any(error.get(k) for k in ("voided_orders", "bought_orders", "ended"))
        text = (
            error.get("message") if told else texts.get(code)
        ) or f"The purchase didn't go through: {error.get('message') or code}."
        if error.get("voided_orders") and code not in ("partial_failure", "hold_expired"):
            text += " Pick an option and say 'hold' to start again."
        self.out["ui_messages"].append(error_message(code, text, retryable))
        if code == "price_changed":
            self.out["audit"].append({"type": "approval_needs_renewal", "new_total": error.get("new_total")})

    def on_user_retry(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        err = doc["working_memory"].get("last_error")
        if not err:
            if work_pending(doc):
                self.plan(doc, now, user_asked=True)
            else:
                self.say("There's nothing to retry right now.")
            return
        if not err.get("retryable"):
            self.say(f"The last problem ({err.get('message') or err.get('code')}) isn't fixed by retrying.")
            return
        doc["working_memory"]["last_error"] = None
        if err["tool"] in SEARCH_TOOLS:
            self.plan(doc, now, user_asked=True)
        elif err["tool"] == "booking_confirm_and_purchase":
            self.say("Please submit the purchase form again with your approver's token.")
        elif err["tool"] == "booking_cancel":  # a lapsed refund quote is asked for afresh
            booking_id = ((err.get("call") or {}).get("arguments") or {}).get("booking_id")
            self.call("booking_cancel", {"booking_id": booking_id, "action": "quote"})
        else:
            call = err.get("call") or {}
            self.call(err["tool"], call.get("arguments") or {})

    # -- select, hold, buy, cancel ------------------------------------------------------------
    def _bundle(self, doc: Dict[str, Any], bundle_id: Any) -> Optional[Dict[str, Any]]:
        return next((b for b in doc["working_memory"]["ranked_bundles"] if b.get("bundle_id") == bundle_id), None)

    def on_user_selected_bundle(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        if self._purchase_unfinished(doc):
            return
        bundle_id = data.get("bundle_id")
        bundle = self._bundle(doc, bundle_id)
        if bundle is None:
            self.say(f"{bundle_id} isn't one of the bundles on screen, so nothing changed.")
            return
        wm = doc["working_memory"]
        report = wm.get("risk_report") or {}
        if wm["selected"].get("bundle_id") == bundle_id and report.get("bundle_id") == bundle_id:
            self._show_risk(report)
            return
        stale = [h for h in wm["holds"] if h.get("status") == "held"]
        if stale and wm["selected"].get("bundle_id") != bundle_id:
            wm["holds"] = [h for h in wm["holds"] if h not in stale]
            wm["approval"] = None
            self.call(
                "reservation_hold_release", {"hold_ids": [h["hold_id"] for h in stale], "reason": "selection_changed"}
            )
        wm["selected"] = {
            "bundle_id": bundle_id,
            "flight_option_id": [f.get("offer_id") for f in bundle.get("flights") or []] or None,
            "hotel_option_id": [h.get("rate_id") for h in bundle.get("hotels") or []] or None,
        }
        wm["risk_report"] = None
        doc["status"].update(phase="selected", state="running")
        self.call(
            "policy_and_risk_check",
            {
                "bundle": bundle,
                "policy": copy.deepcopy(doc.get("policy") or {}),
                "constraints": copy.deepcopy(doc.get("constraints") or {}),
                "party": copy.deepcopy(doc.get("party") or {}),
            },
        )

    def _hold_blocker(self, doc: Dict[str, Any], now: datetime) -> Tuple[Optional[str], Optional[Dict[str, Any]]]:
        """Why a hold can't be placed now (None if it can), and the selected bundle."""
        wm = doc["working_memory"]
        if wm["bookings"] and any(b.get("status") != "cancelled" for b in wm["bookings"]):
            return "This trip is already booked.", None
        bundle = self._bundle(doc, wm["selected"].get("bundle_id"))
        if bundle is None:
            return "Pick a bundle first (say 'B1' or tap one), then say 'hold'.", None
        report = wm.get("risk_report") or {}
        if report.get("bundle_id") != bundle["bundle_id"]:
            return f"The policy check for {bundle['bundle_id']} isn't current; select it again to re-check it.", bundle
        if not report.get("ok"):
            blocking = findings(report.get("blocking"))
            return f"{bundle['bundle_id']} can't be held: {blocking or 'it failed the policy check'}.", bundle
        return None, bundle

    def _purchase_unfinished(self, doc: Dict[str, Any]) -> bool:
        """Items an interrupted purchase bought pin the trip to that purchase until it is submitted again."""
        paid = unbooked_purchases(doc)
        if paid:
            self.say(
                f"A purchase is half done: {describe_items(paid)} {'is' if len(paid) == 1 else 'are'} already bought. "
                "Submit the purchase form again with the same token to finish it; nothing is charged twice."
            )
        return bool(paid)

    def on_user_request_hold(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        if self._purchase_unfinished(doc):
            return
        reason, bundle = self._hold_blocker(doc, now)
        if reason:
            self.say(reason)
            return
        wm = doc["working_memory"]
        held = live_holds(doc, now)
        items = unheld_items(bundle, held)
        if not items:
            deadline = earliest_deadline(held)
            self.say(
                f"{bundle['bundle_id']} is already on hold, until {self.local(doc, deadline)}.",
                {"type": "holds", "holds": held, "earliest_deadline": deadline},
            )
            return
        expire_lapsed(doc, now)
        if offers_lapsed(bundle, items, now):
            if held:
                wm["approval"] = {**(wm.get("approval") or {}), "status": "void"}
            self._requote(doc, now)
            return
        if held:
            self._rehold_note(doc, bundle, held, items)
        rules = (doc.get("policy") or {}).get("rules") or {}
        if rules.get("holds_allowed_without_approval") is False:
            wm["hold_request"] = {"bundle_id": bundle["bundle_id"], "status": "pending"}
            doc["status"].update(phase="awaiting_hold_approval", state="blocked")
            self.say(
                f"Your organisation needs an approver's yes before holds. I've sent {bundle['bundle_id']} ({bundle.get('total')} {bundle.get('currency')}) to the approver queue.",
                {
                    "type": "hold_request",
                    "bundle_id": bundle["bundle_id"],
                    "total": bundle.get("total"),
                    "currency": bundle.get("currency"),
                    "items": items,
                },
            )
            self.out["audit"].append({"type": "hold_approval_requested", "bundle_id": bundle["bundle_id"]})
            return
        self.call("reservation_hold_create", hold_args(doc, bundle, items))

    def _rehold_note(
        self, doc: Dict[str, Any], bundle: Dict[str, Any], held: List[Dict[str, Any]], items: List[Dict[str, Any]]
    ) -> None:
        """Part of the bundle is still held: keep it (never give up space we have) and hold the rest again.

        The approval covered the old set of holds, so it is void: the new set needs a new yes.
        """
        doc["working_memory"]["approval"] = {**(doc["working_memory"].get("approval") or {}), "status": "void"}
        kept, gone = describe_items(held), describe_items(items)
        self.say(
            f"{gone[0].upper() + gone[1:]} in {bundle['bundle_id']} {'is' if len(items) == 1 else 'are'} no longer held, but "
            f"{kept} {'is' if len(held) == 1 else 'are'} still held until {self.local(doc, earliest_deadline(held))}, so I'm keeping "
            f"{'it' if len(held) == 1 else 'them'} and holding {gone} again. The approval for the old holds no longer works; "
            "the new set needs your approver's yes.",
            kind="status",
        )

    def on_hold_approval_decided(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        wm = doc["working_memory"]
        request = wm.get("hold_request") or {}
        if request.get("status") != "pending":
            self.say("There is no hold request waiting for a decision.")
            return
        if not data.get("approved"):
            wm["hold_request"] = {**request, "status": "denied", "reason": data.get("reason")}
            doc["status"].update(phase="selected", state="needs_input")
            self.say(
                f"Your approver declined the hold{': ' + data['reason'] if data.get('reason') else ''}. Pick another bundle or change the trip."
            )
            return
        reason, bundle = self._hold_blocker(doc, now)
        if reason or bundle["bundle_id"] != request.get("bundle_id"):
            wm["hold_request"] = {**request, "status": "stale"}
            self.say(
                f"Your approver said yes, but the trip changed since the request, so no hold was placed. {reason or ''}".strip()
            )
            return
        wm["hold_request"] = {**request, "status": "approved"}
        self.call("reservation_hold_create", hold_args(doc, bundle, unheld_items(bundle, live_holds(doc, now))))

    def on_holds_changed(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        """The host released or expired holds outside a turn (staff, the deadline task): write it down and say so.

        Holds past their deadline are written down in the same pass, so the events for a
        trip's other lapsed holds find nothing left to change and stay quiet.
        """
        wm = doc["working_memory"]
        status = data.get("status") if data.get("status") in ("released", "expired") else "released"
        named = set(data.get("hold_ids") or [])
        changed = [h for h in wm["holds"] if h.get("hold_id") in named and h.get("status") == "held"]
        for hold in changed:
            hold["status"] = status
        changed += expire_lapsed(doc, now)
        if not changed:
            return
        if (wm.get("approval") or {}).get("status") not in (None, "used"):
            wm["approval"] = {**wm["approval"], "status": "void"}
        if doc["status"].get("phase") in ("held", "approved"):
            doc["status"].update(phase="selected", state="needs_input")
        what = describe_items(changed)
        verb = "is" if len(changed) == 1 else "are"
        why = (
            f"support released {'it' if len(changed) == 1 else 'them'}"
            if status == "released"
            else "the hold deadline passed"
        )
        reason = str(data.get("reason") or "").strip()
        text = f"{what[0].upper() + what[1:]} {verb} no longer on hold: {why}{' (' + reason + ')' if reason and status == 'released' else ''}."
        text += " Nothing was bought, and the approval for these holds no longer works."
        bundle_id = wm["selected"].get("bundle_id")
        if bundle_id and self._bundle(doc, bundle_id):
            text += f" Say 'hold' to hold {bundle_id} again."
        self.say(
            text,
            {"type": "holds", "holds": changed, "earliest_deadline": earliest_deadline(live_holds(doc, now))},
            kind="status",
        )

    def on_user_approved_purchase(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        wm = doc["working_memory"]
        lapsed = expire_lapsed(doc, now)
        paid = unbooked_purchases(doc)
        if paid:  # an interrupted purchase: only the tool can finish it (or, if a hold lapsed, undo it)
            self._purchase(doc, data, [h for h in wm["holds"] if h in paid or h in lapsed or h in live_holds(doc, now)])
            return
        held = live_holds(doc, now) or self._bought_holds(doc)
        bundle = self._bundle(doc, wm["selected"].get("bundle_id"))
        if held and not self._bought_holds(doc) and (bundle is None or unheld_items(bundle, held)):
            wm["approval"] = {**(wm.get("approval") or {}), "status": "void"}
            doc["status"].update(phase="selected", state="needs_input")
            text = (
                f"Only part of {bundle['bundle_id']} is on hold ({describe_items(held)}), so nothing was bought: I never buy half "
                f"a trip. Say 'hold' to hold {describe_items(unheld_items(bundle, held))} again."
                if bundle
                else "What's on hold no longer matches an option on screen, so nothing was bought. Pick an option and say 'hold'."
            )
            self.out["ui_messages"].append(error_message("hold_incomplete", text))
            return
        if lapsed or not held:
            if lapsed or any(h.get("status") == "expired" for h in wm["holds"]):
                wm["approval"] = {**(wm.get("approval") or {}), "status": "void"}
                doc["status"].update(phase="selected", state="needs_input")
                gone = f"Your hold on {describe_items(lapsed)} has" if held else "Your holds have"
                self.out["ui_messages"].append(
                    error_message(
                        "hold_expired",
                        f"{gone} expired, so nothing was bought and that approval no longer works. Say 'hold' to hold again.",
                    )
                )
            else:
                self.say("There's nothing on hold to buy. Pick a bundle and say 'hold' first.")
            return
        self._purchase(doc, data, held)

    def _purchase(self, doc: Dict[str, Any], data: Dict[str, Any], holds: List[Dict[str, Any]]) -> None:
        if not data.get("approval_token") or not data.get("payment_method_id"):
            self.say("To buy, enter your approver's token and choose a payment method in the purchase form.")
            return
        total = sum(float((h.get("held_total") or {}).get("amount") or 0) for h in holds)
        self.call(
            "booking_confirm_and_purchase",
            {
                "trip_id": doc.get("trip_id"),
                "hold_ids": [h["hold_id"] for h in holds],
                "approval_token": data["approval_token"],
                "payment_method_id": data["payment_method_id"],
                "expected_total": f"{total:.2f}",
                "currency": next(((h.get("held_total") or {}).get("currency") for h in holds), None)
                or doc["constraints"].get("currency"),
            },
        )

    @staticmethod
    def _bought_holds(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
        """The holds of an active booking: submitting its purchase again replays the same booking."""
        if not any(b.get("status") != "cancelled" for b in doc["working_memory"]["bookings"]):
            return []
        return [h for h in doc["working_memory"]["holds"] if h.get("status") == "purchased"]

    def on_user_cancel_booking(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        booking_id = data.get("booking_id")
        if not any(
            b.get("booking_id") == booking_id and b.get("status") != "cancelled"
            for b in doc["working_memory"]["bookings"]
        ):
            self.say(f"There's no active booking {booking_id} on this trip.")
            return
        args = {"booking_id": booking_id, "action": "confirm" if data.get("quote_id") else "quote"}
        if data.get("quote_id"):
            args["quote_id"] = data["quote_id"]
        self.call("booking_cancel", args)
