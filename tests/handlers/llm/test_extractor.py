"""LLMExtractor: structured output request, canonical fields, failure results, redaction."""

from __future__ import annotations

import pytest

from handlers.extract import REQUIREMENTS_SCHEMA, empty_fields
from handlers.llm.extractor import LLMExtractor, is_strict_compatible
from handlers.llm.followup import FollowupAgent
from tests.fakes.openai_server import Reply

PENDING = {"slots": ["origin"], "text": "Where are you flying from?"}
CONVERSATION = [
    {"role": "user", "text": "I'm going to San Francisco"},
    {"role": "assistant", "text": "Where are you flying from?"},
]


def _extract(extractor: LLMExtractor, text: str = "Los Angeles", **kwargs):
    args = {
        "pending_question": PENDING,
        "today": "2026-12-01",
        "timezone": "America/New_York",
        "current": {},
        "conversation": CONVERSATION,
        **kwargs,
    }
    return extractor.extract(text=text, **args)


def test_request_asks_for_the_requirements_schema_with_the_context(server, make_loop):
    server.script(
        Reply.json_output({**empty_fields(), "origin": {"type": "city", "code": "QLA", "name": "Los Angeles"}})
    )

    result = _extract(LLMExtractor(loop=make_loop()))

    (body,) = server.sent_bodies
    assert body["text"]["format"] == {
        "type": "json_schema",
        "name": "trip_requirements",
        "schema": REQUIREMENTS_SCHEMA,
        "strict": True,
    }
    assert body["model"] == "gpt-4.1-mini" and "tools" not in body
    assert [(i["role"], i["content"]) for i in body["input"][:2]] == [
        ("user", "I'm going to San Francisco"),
        ("assistant", "Where are you flying from?"),
    ]
    latest = body["input"][-1]["content"]
    assert "We just asked: Where are you flying from? (slots: origin)" in latest
    assert "Today is 2026-12-01 in America/New_York." in latest
    assert latest.endswith("The traveller's latest message: Los Angeles")
    assert "TripDesk" in body["instructions"]
    assert result["ok"] and result["error"] is None
    assert result["fields"]["origin"] == {"type": "city", "code": "QLA", "name": "Los Angeles"}
    assert [e["purpose"] for e in result["accounting"]] == ["test"]


def test_the_answer_is_cleaned_like_the_offline_fields(server, make_loop):
    answer = {
        **empty_fields(),
        "origin": {"type": "city", "code": "ewr", "name": "Newark"},  # lower case, wrong type
        "destination": {"type": "airport", "code": "ZZZ", "name": "Atlantis"},  # invented place
        "depart_date": "2027-02-30",  # no such day
        "adults": 4,
        "surprise": "kept nowhere",
    }
    server.script(Reply.json_output(answer))

    fields = _extract(LLMExtractor(loop=make_loop()))["fields"]

    assert set(fields) == set(empty_fields())
    assert fields["origin"] == {"type": "airport", "code": "EWR", "name": "Newark"}
    assert fields["destination"] is None and fields["depart_date"] is None and fields["adults"] == 4


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        (Reply.unauthorized(), "llm_auth"),
        (Reply.ok(refusal="No."), "llm_refused"),
        (Reply.json_output([1, 2]), "llm_bad_output"),
    ],
    ids=["auth", "refusal", "not-an-object"],
)
def test_failures_are_results_with_accounting_never_exceptions(server, make_loop, reply, code):
    server.respond_with(lambda request: reply)

    result = _extract(LLMExtractor(loop=make_loop(max_retries=2)))

    assert result["ok"] is False and result["fields"] is None
    assert result["error"]["code"] == code
    assert len(result["accounting"]) == len(server.requests) >= 1


def test_the_schema_of_the_extract_package_suits_strict_mode():
    assert is_strict_compatible(REQUIREMENTS_SCHEMA)
    assert not is_strict_compatible({"type": "object", "properties": {"a": {"type": "string"}}, "required": []})


# --- redaction ---------------------------------------------------------------------------------

TOKEN = "tdk_apv_Zk3v9QmT2xLp0aBcD4eFgH5iJ6kL7mN8oP9qR0sT1uV"
CARD = "4111 1111 1111 1111"
API_KEY = "sk-proj-Q2x7Hh8Jk4Lm9Nn0Pp1Rr2Ss3Tt4Uu5"


def test_tokens_cards_and_keys_never_reach_the_model(server, make_loop):
    server.respond_with(lambda request: Reply.json_output(empty_fields()))
    conversation = CONVERSATION + [
        {"role": "user", "text": f"approval_token={TOKEN} please"},
        {"role": "user", "text": f"charge my card {CARD}, and here is our key {API_KEY}"},
    ]
    current = {"party": {"contact": {"email": None}}, "approval": {"token": TOKEN}, "notes": f"api_key: {API_KEY}"}

    result = _extract(
        LLMExtractor(loop=make_loop()), text=f"use {TOKEN} and card {CARD}", conversation=conversation, current=current
    )
    FollowupAgent(loop=make_loop()).answer(
        f"buy it with {TOKEN} on {CARD} ({API_KEY})", {"working_memory": {}}, "2026-12-01"
    )

    sent = server.all_sent_text()
    assert len(server.requests) == 2 and "[REDACTED]" in sent
    for secret in (TOKEN, "tdk_apv_", CARD, CARD.replace(" ", ""), API_KEY):
        assert secret not in sent
    assert TOKEN not in repr(result["accounting"])


def test_the_models_new_trip_fields_reach_the_patch_through_the_same_cleaner(server, make_loop):
    """Issue 11 item 4: the LLM path fills the new fields (money per night and per person, airlines by
    stance, time of day, hotel-only, separate rooms) through the shared schema, cleaner and patch."""
    from handlers.common.host import ToolDeps
    from handlers.specialists.trip_requirements_extract import TripRequirementsExtract

    assert {"hotel_max_per_night", "budget_per_person", "airlines_avoid", "time_out", "flights_needed"} <= set(
        REQUIREMENTS_SCHEMA["properties"]
    )
    answer = {
        **empty_fields(),
        "hotel_max_per_night": 250,
        "budget_per_person": 900,
        "airlines_avoid": ["ua", "XX"],  # lower case, and a carrier that does not exist
        "airlines_required": ["DL"],
        "time_out": "morning",
        "time_return": "teatime",  # not a window
        "flights_needed": False,
        "separate_rooms": True,
        "adults": 2,
    }
    server.script(Reply.json_output(answer))
    tool = TripRequirementsExtract(ToolDeps(llm_extractor=LLMExtractor(loop=make_loop())))
    out = tool.run(
        {
            "args": {"text": "hotel only, 2 of us in separate rooms", "today": "2026-12-01", "timezone": "UTC"},
            "now": "2026-12-01T12:00:00+00:00",
            "trip_id": "t1",
        }
    )["output"]

    assert out["source"] == "llm"
    assert out["fields"]["airlines_avoid"] == ["UA"] and out["fields"]["time_return"] is None
    patch = out["patch"]
    assert patch["constraints"]["hotel_max_per_night"] == "250.00"
    assert patch["constraints"]["budget_per_person"] == "900.00"
    assert patch["preferences"]["flight"]["airlines_avoid"] == ["UA"]
    assert patch["preferences"]["flight"]["airlines_required"] == ["DL"]
    assert patch["preferences"]["flight"]["time_of_day"] == {"outbound": "morning"}
    assert patch["itinerary"]["flights_needed"] is False
    assert patch["itinerary"]["lodging"]["rooms"] == 2
