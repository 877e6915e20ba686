"""Bad input never breaks a turn: a helpful reply, no exception, nothing changed that was not understood."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlers.testing import Harness

REQUIREMENTS = ("party", "itinerary", "preferences", "constraints")


def requirements(h):
    return {k: h.intent().get(k) for k in REQUIREMENTS}


def replied(turn):
    said = [m for m in turn["ui_messages"] if m["kind"] != "progress"]
    return bool(said) and all(m["text"].strip() for m in said)


@pytest.fixture(scope="module")
def fresh_requirements():
    h = Harness()
    h.say("hello")
    return requirements(h)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\t ",
        "\x00\x01\x02\x1b[2J\x7f",
        "asdf qwer zxcv",
        "🙂🙂🙂",
        "来週東京に行きたいです",
        "'; DROP TABLE trips; --",
        "<script>alert(1)</script>",
        None,
        42,
        ["from", "JFK"],
        {"text": "x"},
    ],
)
def test_odd_messages_get_a_reply_and_change_nothing(text, fresh_requirements):
    h = Harness()
    turn = h.say(text)
    assert replied(turn)
    assert requirements(h) == fresh_requirements
    assert h.intent()["working_memory"]["last_error"] is None


def test_a_megabyte_of_text_is_declined_without_running_a_tool(fresh_requirements):
    h = Harness()
    turn = h.say("fly me to the moon " * 55_000)
    assert turn["tool_calls"] == [] and "too long" in turn["ui_messages"][-1]["text"]
    assert requirements(h) == fresh_requirements
    assert len(h.intent()["request"]["user_message"]) <= 2000


def test_nonsense_after_bundles_keeps_them():
    h = Harness()
    h.say("2 adults from Boston to Miami, out March 11 back March 16")
    before = h.intent()["working_memory"]
    turn = h.say("blorp glarb?")
    assert replied(turn) and h.intent()["working_memory"] == before


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(text=st.text(max_size=300))
def test_any_text_gets_a_reply(text):
    turn = Harness().say(text)
    assert replied(turn) and turn["stopped_reason"] is None
