"""SCENARIOS.md 1–3 in model mode: the LLM extractor, through the real SDK, against scripted answers.

Each scenario runs twice on the harness, offline and in model mode, and must reach the same
TripIntent outcome; model mode must make exactly one LLM request per free-text message and
none for buttons.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List

import pytest

from handlers.common.openai_adapter import OpenAIClientWrapper
from handlers.extract import empty_fields
from handlers.llm.accounting import usage_totals
from handlers.llm.config import ModelTarget
from handlers.llm.extractor import LLMExtractor
from handlers.llm.loop import AgentLoop
from handlers.testing import Harness
from tests.fakes.openai_server import RecordedRequest, Reply


def _place(kind: str, code: str, name: str) -> Dict[str, str]:
    return {"type": kind, "code": code, "name": name}


# What a model answers for each message: the requirements fields it read (the rest null).
MODEL_ANSWERS: Dict[str, Dict[str, Any]] = {
    "4 people going from Newark to Denver for 3 nights on January 30": {
        "origin": _place("airport", "EWR", "Newark"),
        "destination": _place("airport", "DEN", "Denver"),
        "depart_date": "2027-01-30",
        "nights": 3,
        "adults": 4,
    },
    "I'm going to San Francisco": {"destination": _place("city", "QSF", "San Francisco")},
    "from JFK": {"origin": _place("airport", "JFK", "New York")},
    "2 adults, out March 11 back March 16": {"adults": 2, "depart_date": "2027-03-11", "return_date": "2027-03-16"},
    "Los Angeles": {"origin": _place("city", "QLA", "Los Angeles")},
    "the 11th": {"depart_date": "2026-12-11"},
}
LATEST = re.compile(r"The traveller's latest message: (.*)\Z", re.S)


def scripted_model(request: RecordedRequest) -> Reply:
    """Answer a structured-output request from MODEL_ANSWERS; anything unscripted is a server error."""
    body = request.json
    match = LATEST.search(body["input"][-1]["content"])
    answer = MODEL_ANSWERS.get(match.group(1).strip()) if match else None
    if answer is None or body.get("text", {}).get("format", {}).get("name") != "trip_requirements":
        return Reply.server_error()
    fields = {**empty_fields(), **answer}
    # Usage as a real server would roughly count it (about 4 bytes per token), so totals mean something.
    return Reply.json_output(fields, input_tokens=len(request.raw) // 4, output_tokens=len(str(fields)) // 4)


class RecordingExtractor:
    """The LLMExtractor, keeping every answer so a test can prove the model (not the fallback) was used."""

    def __init__(self, inner: LLMExtractor):
        self.inner, self.answers = inner, []

    def extract(self, **kwargs: Any) -> Dict[str, Any]:
        answer = self.inner.extract(**kwargs)
        self.answers.append(answer)
        return answer


def model_mode_harness(server, **harness_options: Any) -> Harness:
    server.respond_with(scripted_model)
    loop = AgentLoop(
        client=OpenAIClientWrapper(api_key="sk-test-key", base_url=server.base_url, timeout=5.0),
        targets=[ModelTarget("gpt-4.1-mini")],
        purpose="extract",
        sleep=lambda seconds: None,
    )
    extractor = RecordingExtractor(LLMExtractor(loop=loop))
    return Harness(trip_id="trip-model", llm_extractor=extractor, **harness_options)


@pytest.fixture
def model_harness(server) -> Harness:
    return model_mode_harness(server)


def outcome(h: Harness) -> Dict[str, Any]:
    """What a scenario checks about the stored trip and the last turn."""
    doc = h.intent()
    itinerary, status = doc["itinerary"], doc["status"]
    return {
        "travelers": doc["party"]["travelers"],
        "trip_type": itinerary["trip_type"],
        "segments": [
            ((s.get("origin") or {}).get("code"), (s.get("destination") or {}).get("code"), s.get("depart_date"))
            for s in itinerary["segments"]
        ],
        "stays": [
            (s.get("location_code"), s.get("check_in"), s.get("check_out"), s.get("rooms"))
            for s in itinerary["lodging"]["stays"]
        ],
        "phase": status["phase"],
        "pending_slots": (status.get("pending_question") or {}).get("slots"),
        "tools_run": h.tools_run(),
        "bundles_on_screen": len(doc["working_memory"]["ranked_bundles"]),
        "holds": len(doc["working_memory"]["holds"]),
        "bookings": len(doc["working_memory"]["bookings"]),
    }


def run_messages(h: Harness, server, messages: List[str]) -> List[Dict[str, Any]]:
    """Say each message; the outcome after each, with the LLM requests it caused."""
    results = []
    for text in messages:
        before = len(server.requests)
        h.say(text)
        results.append({**outcome(h), "llm_requests": len(server.requests) - before})
    return results


def offline_outcomes(messages: List[str]) -> List[Dict[str, Any]]:
    h = Harness(trip_id="trip-offline")
    return [(h.say(text), outcome(h))[1] for text in messages]


SCENARIOS = {
    "1 one message to bundles": ["4 people going from Newark to Denver for 3 nights on January 30"],
    "2 incremental intake": ["I'm going to San Francisco", "from JFK", "2 adults, out March 11 back March 16"],
    "3 bare answers": ["I'm going to San Francisco", "Los Angeles", "the 11th"],
}


@pytest.mark.parametrize("messages", SCENARIOS.values(), ids=SCENARIOS.keys())
def test_model_mode_reaches_the_offline_outcome_with_one_call_per_message(model_harness, server, messages):
    model = run_messages(model_harness, server, messages)
    offline = offline_outcomes(messages)

    assert [m["llm_requests"] for m in model] == [1] * len(messages)
    assert [{k: v for k, v in m.items() if k != "llm_requests"} for m in model] == offline
    answers = model_harness.deps.llm_extractor.answers
    assert len(answers) == len(messages) and all(a["ok"] for a in answers)
    assert all(e["status"] == "ok" and e["model"] == "gpt-4.1-mini" for a in answers for e in a["accounting"])


def test_scenario_1_in_model_mode_shows_bundles_and_holds_nothing(model_harness, server):
    (result,) = run_messages(model_harness, server, SCENARIOS["1 one message to bundles"])

    assert result["travelers"]["adults"] == 4
    assert result["segments"] == [("EWR", "DEN", "2027-01-30"), ("DEN", "EWR", "2027-02-02")]
    assert [(s[1], s[2]) for s in result["stays"]] == [("2027-01-30", "2027-02-02")]
    assert result["tools_run"].count("flight_quote_search") == 2 and "trip_option_ranker" in result["tools_run"]
    assert result["bundles_on_screen"] >= 3 and result["holds"] == 0 and result["bookings"] == 0
    (bundles,) = model_harness.widgets("bundles")
    assert all(b["total"] and b["currency"] and b["flights"] and b["hotels"] for b in bundles["bundles"])


def test_scenario_2_sends_the_pending_question_and_conversation_state(model_harness, server):
    run_messages(model_harness, server, SCENARIOS["2 incremental intake"])

    second = server.sent_bodies[1]["input"][-1]["content"]
    assert "We just asked: Where are you flying from?" in second
    assert "origin" in second and '"code": "QSF"' in second  # the trip so far: San Francisco


def test_scenario_3_bare_date_is_the_next_11th(model_harness, server):
    results = run_messages(model_harness, server, SCENARIOS["3 bare answers"])

    assert results[1]["segments"][0][0] == "QLA"
    assert results[2]["segments"][0][2] == "2026-12-11"
    assert "Today is 2026-12-01 in America/New_York." in server.sent_bodies[2]["input"][-1]["content"]


def test_scenarios_1_to_6_one_llm_call_per_booking_and_none_for_buttons(server):
    # Seed 2: a sandbox day on which a bundle of scenario 1 can be held (with the default seed
    # every bundle on screen contains an offer that must be paid at once).
    h = model_mode_harness(server, seed=2)
    run_messages(h, server, SCENARIOS["1 one message to bundles"])
    after_text = len(server.requests)

    for bundle in h.intent()["working_memory"]["ranked_bundles"]:
        h.select(bundle["bundle_id"])
        h.hold()
        if h.intent()["working_memory"]["holds"]:
            break
    h.purchase(h.grant())

    assert len(h.intent()["working_memory"]["bookings"]) == 1
    assert after_text == 1 and len(server.requests) == after_text
    totals = usage_totals(e for a in h.deps.llm_extractor.answers for e in a["accounting"])
    assert totals["llm_calls"] == 1 and totals["input_tokens"] > 0 and totals["cost_usd"] is not None
