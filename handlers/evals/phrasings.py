"""How well TripDesk understands what travellers actually type, end to end, per class of phrasing.

    python -m handlers.evals.phrasings [--cases handlers/evals/phrasings.jsonl] [--class dates] [--show-failures]

Each case (``phrasings.jsonl``) is a short conversation written the way people type: typos,
lower case, emoji, accents, run-ons, corrections after options are on screen. Every traveller
line goes through the whole mission core (the headless ``Harness``: Router, Reducer,
extractor, Patcher, the sandbox supplier's searches and the ranker), and the expectations are
read back from the TripIntent and the chat the traveller saw, so a field that the extractor
reads but the trip never holds does not count. Assistant lines (``{"assistant": "..."}``) are
another assistant's question in the conversation: they become the pending question.

A case may set ``locale`` (the organisation's: how "03/04" reads) and ``policy`` (keys that
replace the default travel policy's, such as a lower ``hotel_nightly_cap``).

Expectation keys (all must hold for the case to pass):

- ``origin`` / ``destination``: the first flight's place code (or a list of acceptable codes);
  ``depart`` / ``return``: the outbound and return dates (``null``: not set); ``trip_type``;
- ``adults``, ``children``, ``infants``, ``child_ages``; ``rooms``;
- ``flights_needed``, ``lodging_needed``, ``hotel_city`` (the first stay's place, else the
  lodging city, else the destination), ``check_in``, ``check_out``;
- ``hotel_max_per_night``, ``budget_per_person``, ``budget_total``, ``currency``;
- ``airlines`` (preferred), ``airlines_required``, ``airlines_avoid``, ``cabin``, ``max_stops``,
  ``prefer_nonstop`` (a nonstop wished, not required: ranked first, connections still shown),
  ``avoid_red_eye``, ``time_out`` / ``time_ret`` (a time of day, a clock bound such as "after 17:00", or
  "earliest" / "latest"), ``arrive_out`` / ``arrive_ret`` (a clock bound on the arrival: "before 18:00"),
  ``min_stars``, ``hotel_near``, ``hotel_board`` (the meals wished with the room: "breakfast", "half_board",
  "full_board", "all_inclusive"), ``refundable``; ``card_has``: a pattern the first option's card ("why") holds;
- ``ask``: slots the last question must ask; ``ask_not``: slots it must not ask;
- ``disclose``: ``{"slot", "patterns"}``: the slot was asked, or every pattern appears in what
  the traveller was told (assumptions and the last replies): an ambiguous name is never guessed silently;
- ``options_min``: at least this many options are on screen after the last line (a change never empties it silently);
- ``selected`` / ``selected_label``: the bundle picked by words; ``selected_is``: the pick is the
  cheapest / fastest / refundable of those on screen, or has the earliest / latest outbound or return
  departure ("earliest_out", "latest_ret"; ties count); ``held``: something is held (``true``) or
  nothing is (``null``); ``reply_any`` / ``reply_not``:
  the last turn answered, and not with the given text; ``reply_has``: a pattern the last reply holds.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

from handlers.common.defaults import DEFAULT_POLICY
from handlers.common.shape import leg_departure
from handlers.testing import Harness

CASES = Path(__file__).with_name("phrasings.jsonl")
TODAY = "2026-12-01"
TIMEZONE = "America/New_York"


def load_cases(path: Path) -> List[Dict[str, Any]]:
    """The cases in ``path``; two cases under one id are refused, since a failure is reported by id."""
    with open(path, encoding="utf-8") as handle:
        cases = [json.loads(line) for line in handle if line.strip()]
    twice = sorted(name for name, n in Counter(c["id"] for c in cases).items() if n > 1)
    if twice:
        raise ValueError(f"{path}: ids used more than once: {', '.join(twice)}")
    return cases


# -- reading the trip ------------------------------------------------------------------------
def _code(place: Any) -> Optional[str]:
    return place.get("code") if isinstance(place, dict) else None


def _place_code(value: Any) -> Optional[str]:
    return _code(value) if isinstance(value, dict) else value if isinstance(value, str) else None


def _num(value: Any) -> Optional[float]:
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


def observed(doc: Dict[str, Any], turn: Dict[str, Any]) -> Dict[str, Any]:
    """What the trip holds and what the traveller was told, under the expectation keys."""
    itinerary = doc.get("itinerary") or {}
    segments = [s for s in itinerary.get("segments") or [] if isinstance(s, dict)]
    first = segments[0] if segments else {}
    trip_type = itinerary.get("trip_type")
    back = segments[1] if len(segments) > 1 and trip_type == "round_trip" else {}
    lodging = itinerary.get("lodging") or {}
    stays = [s for s in lodging.get("stays") or [] if isinstance(s, dict)]
    stay = stays[0] if stays else {}
    party = doc.get("party") or {}
    travelers = party.get("travelers") or {}
    prefs = doc.get("preferences") or {}
    flight, hotel = prefs.get("flight") or {}, prefs.get("hotel") or {}
    time_of_day = flight.get("time_of_day") or {}
    arrival = flight.get("arrival") or {}
    constraints = doc.get("constraints") or {}
    wm = doc.get("working_memory") or {}
    selected = (wm.get("selected") or {}).get("bundle_id")
    bundles = {b.get("bundle_id"): b for b in wm.get("ranked_bundles") or [] if isinstance(b, dict)}
    messages = turn.get("ui_messages") or []
    asked = [
        q.get("slot")
        for m in messages
        if (m.get("widget") or {}).get("type") == "questions"
        for q in (m["widget"].get("questions") or [])
    ]
    told = " ".join([m.get("text") or "" for m in messages] + list((doc.get("status") or {}).get("assumptions") or []))
    return {
        "origin": _code(first.get("origin")),
        "destination": _code(first.get("destination")),
        "depart": first.get("depart_date"),
        "return": back.get("depart_date"),
        "trip_type": trip_type,
        "adults": travelers.get("adults"),
        "children": travelers.get("children"),
        "infants": travelers.get("infants"),
        "child_ages": sorted(party.get("child_ages") or []),
        "rooms": stay.get("rooms") or lodging.get("rooms"),
        "flights_needed": itinerary.get("flights_needed", True),
        "lodging_needed": lodging.get("needed"),
        "hotel_city": stay.get("location_code") or _place_code(lodging.get("city")) or _code(first.get("destination")),
        "check_in": stay.get("check_in"),
        "check_out": stay.get("check_out"),
        "hotel_max_per_night": _num(constraints.get("hotel_max_per_night")),
        "budget_per_person": _num(constraints.get("budget_per_person")),
        "budget_total": _num(constraints.get("budget_total")),
        "currency": constraints.get("currency"),
        "airlines": list(flight.get("airlines") or []),
        "airlines_required": list(flight.get("airlines_required") or []),
        "airlines_avoid": list(flight.get("airlines_avoid") or []),
        "cabin": flight.get("cabin"),
        "max_stops": flight.get("max_stops"),
        "prefer_nonstop": bool(flight.get("prefer_nonstop")),
        "avoid_red_eye": flight.get("avoid_red_eye"),
        "time_out": time_of_day.get("outbound"),
        "time_ret": time_of_day.get("return"),
        "arrive_out": arrival.get("outbound"),
        "arrive_ret": arrival.get("return"),
        "min_stars": hotel.get("min_stars"),
        "hotel_near": hotel.get("near"),
        "hotel_board": hotel.get("board"),
        "refundable": constraints.get("refundable_preference"),
        "_asked": asked,
        "_told": told,
        "_replied": bool(messages),
        "selected": selected,
        "held": bool([h for h in wm.get("holds") or [] if isinstance(h, dict) and h.get("status") == "held"]) or None,
        "selected_label": (bundles.get(selected) or {}).get("label") if selected else None,
        "_selected_is": _qualities(bundles.get(selected), list(bundles.values())) if selected else [],
        "_last_reply": " ".join(m.get("text") or "" for m in messages),
        "_first_card": " ".join((wm.get("ranked_bundles") or [{}])[0].get("why") or []),
        "_options": len(bundles),
    }


def _minutes(bundle: Dict[str, Any]) -> float:
    return sum(float((f.get("summary") or {}).get("duration_minutes") or 0) for f in bundle.get("flights") or [])


def _qualities(bundle: Any, bundles: List[Dict[str, Any]]) -> List[str]:
    """What the selected bundle is among those on screen: "cheapest", "fastest", "refundable"."""
    if not isinstance(bundle, dict) or not bundles:
        return []
    out = []
    if float(bundle.get("total") or "inf") <= min(float(b.get("total") or "inf") for b in bundles):
        out.append("cheapest")
    flying = [b for b in bundles if b.get("flights")]
    if bundle.get("flights") and _minutes(bundle) <= min(map(_minutes, flying)):
        out.append("fastest")
    if bundle.get("refundable"):
        out.append("refundable")
    for leg, short in (("outbound", "out"), ("return", "ret")):
        mine = leg_departure(bundle, leg)
        times = [t for t in (leg_departure(b, leg) for b in flying) if t]
        if mine and mine == min(times):
            out.append(f"earliest_{short}")
        if mine and mine == max(times):
            out.append(f"latest_{short}")
    return out


def _same(key: str, want: Any, got: Any) -> bool:
    if key in ("airlines", "airlines_required", "airlines_avoid", "child_ages"):
        return sorted(want or []) == sorted(got or [])
    if isinstance(want, list):
        return got in want
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        return isinstance(got, (int, float)) and not isinstance(got, bool) and abs(float(got) - float(want)) < 0.005
    return want == got


def check(expect: Dict[str, Any], seen: Dict[str, Any]) -> List[str]:
    """The expectations that do not hold, each as a short line."""
    wrong = []
    for key, want in expect.items():
        if key == "ask":
            missing = [s for s in want if s not in seen["_asked"]]
            if missing:
                wrong.append(f"ask {missing} (asked {seen['_asked']})")
        elif key == "ask_not":
            extra = [s for s in want if s in seen["_asked"]]
            if extra:
                wrong.append(f"asked {extra}")
        elif key == "disclose":
            told = seen["_told"]
            if want["slot"] not in seen["_asked"] and not all(re.search(p, told, re.I) for p in want["patterns"]):
                wrong.append(f"silent guess for {want['slot']} (told: {told[:160]!r})")
        elif key == "reply_any":
            if not seen["_replied"]:
                wrong.append("no reply")
        elif key == "selected_is":  # the pick has that quality among the options on screen (ties count)
            if want not in seen["_selected_is"]:
                wrong.append(f"selected {seen['selected']!r} is not the {want} (it is {seen['_selected_is']})")
        elif key == "reply_has":
            if not re.search(want, seen["_last_reply"], re.I):
                wrong.append(f"reply lacks {want!r}: {seen['_last_reply'][:160]!r}")
        elif key == "card_has":
            if not re.search(want, seen["_first_card"], re.I):
                wrong.append(f"first card lacks {want!r}: {seen['_first_card'][-160:]!r}")
        elif key == "options_min":
            if seen["_options"] < want:
                wrong.append(f"{seen['_options']} options on screen, want at least {want}")
        elif key == "reply_not":
            if want.lower() in seen["_told"].lower():
                wrong.append(f"replied {want!r}")
        elif not _same(key, want, seen.get(key)):
            wrong.append(f"{key}: want {want!r} got {seen.get(key)!r}")
    return wrong


# -- running ---------------------------------------------------------------------------------
def run_case(case: Dict[str, Any]) -> Tuple[bool, List[str]]:
    policy = {**DEFAULT_POLICY, **case["policy"]} if case.get("policy") else None  # the organisation's, changed
    harness = Harness(
        today=case.get("today") or TODAY, tz=case.get("timezone") or TIMEZONE, trip_id=case["id"], policy=policy
    )
    if case.get("locale"):
        harness.org["locale"] = case["locale"]
    conversation: List[Dict[str, str]] = []
    turn: Dict[str, Any] = {}
    for line in case["turns"]:
        if isinstance(line, dict):  # another assistant's question: what the traveller answers next
            if not harness.intent():
                harness.say("")  # the trip exists before anyone asks
            doc = harness.intent()
            doc["status"]["pending_question"] = {"text": line["assistant"]}
            harness.trips.save(harness.trip_id, doc, expected_version=doc.get("version"))
            conversation.append({"role": "assistant", "content": line["assistant"]})
            continue
        turn = harness.send("USER_MESSAGE", text=line, conversation=list(conversation))
        conversation.append({"role": "user", "content": line})
        conversation += [{"role": "assistant", "content": m.get("text") or ""} for m in turn.get("ui_messages") or []]
    wrong = check(case["expect"], observed(harness.intent(), turn))
    return not wrong, wrong


def evaluate(cases: Iterable[Dict[str, Any]]) -> Dict[str, Any]:
    per_class: Dict[str, List[int]] = defaultdict(lambda: [0, 0])
    failures = []
    for case in cases:
        try:
            passed, wrong = run_case(case)
        except Exception as exc:  # noqa: BLE001 - a crash is a failed case, reported
            passed, wrong = False, [f"crashed: {type(exc).__name__}: {exc}"]
        per_class[case["class"]][1] += 1
        if passed:
            per_class[case["class"]][0] += 1
        else:
            failures.append({"id": case["id"], "turns": case["turns"], "wrong": wrong})
    total = [sum(v[0] for v in per_class.values()), sum(v[1] for v in per_class.values())]
    return {"classes": dict(per_class), "overall": total, "failures": failures}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m handlers.evals.phrasings", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--class", dest="only", default=None, help="only this class")
    parser.add_argument("--id", default=None, help="only the cases whose id starts with this")
    parser.add_argument("--show-failures", action="store_true")
    parser.add_argument("--json", type=Path, default=None, help="also write the result here")
    parser.add_argument(
        "--require-all", action="store_true", help="exit 1 when any case fails, its failures shown (the test command)"
    )
    opts = parser.parse_args(argv)
    cases = [
        c
        for c in load_cases(opts.cases)
        if (not opts.only or c["class"] == opts.only) and (not opts.id or c["id"].startswith(opts.id))
    ]
    start = time.perf_counter()
    result = evaluate(cases)
    if opts.show_failures or (opts.require_all and result["failures"]):
        for f in result["failures"]:
            print(f"FAIL {f['id']}: {f['turns']}\n     " + "\n     ".join(f["wrong"]))
    print(f"{'class':14s} {'passed':>7s} {'cases':>6s} {'rate':>7s}")
    for name, (ok_, n) in sorted(result["classes"].items()):
        print(f"{name:14s} {ok_:7d} {n:6d} {ok_ / n:7.1%}")
    ok_, n = result["overall"]
    print(f"{'overall':14s} {ok_:7d} {n:6d} {ok_ / max(1, n):7.1%}   ({time.perf_counter() - start:.1f} s)")
    if opts.json:
        opts.json.write_text(json.dumps(result, indent=1, ensure_ascii=False))
    return 1 if opts.require_all and result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
