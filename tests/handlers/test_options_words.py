"""Words about the options on screen do what their buttons do (issue #12, Deliver 5): "only in-policy
options" chooses what the refusal card's "Choose option … instead (within policy …)" button chooses
(static/trips/js/conversation.js, ``inPolicyOption``); "a cheaper hotel", "cheaper flights" and
"something cheaper" move to a cheaper option, each change said in one line."""

from datetime import date

import pytest

from handlers.common.defaults import DEFAULT_POLICY
from handlers.extract import extract_fields
from handlers.router import route_text
from handlers.testing import Harness

TRIP = "4 adults JFK to SFO Jan 12-15 with a hotel"
SMALL_TRIP = "2 adults Boston to Chicago Feb 3-6 with a hotel"


def _harness(cap=None):
    policy = {**DEFAULT_POLICY, "hotel_nightly_cap": cap} if cap else None
    return Harness(today="2026-12-01", tz="America/New_York", policy=policy)


def _texts(turn):
    return " ".join(m.get("text") or "" for m in turn.get("ui_messages") or [])


def _wm(h):
    return h.intent()["working_memory"]


def _selected(h):
    chosen = _wm(h)["selected"]["bundle_id"]
    return next(b for b in _wm(h)["ranked_bundles"] if b["bundle_id"] == chosen)


def _cost(bundle, part):
    return sum(float(i["summary"]["total"]) for i in bundle[part])


@pytest.mark.parametrize(
    "words",
    [
        "show me hotels within policy",
        "only in-policy options please",
        "anything allowed by our travel policy?",
        "which ones are within company policy",
    ],
)
def test_policy_words_after_a_refusal_choose_what_the_button_chooses(words):
    h = _harness(cap="100.00")
    h.say(TRIP)
    bundles = _wm(h)["ranked_bundles"]
    refused = next(b["bundle_id"] for b in bundles if b["policy"]["ok"] is False)
    h.select(refused)
    assert _wm(h)["risk_report"]["ok"] is False
    button = next(b["bundle_id"] for b in bundles if b["policy"]["ok"] is True and b["bundle_id"] != refused)
    turn = h.say(words)
    assert _wm(h)["selected"]["bundle_id"] == button
    assert f"Chose {button} instead of {refused}: the best option within policy" in _texts(turn)
    assert _wm(h)["risk_report"] == {**_wm(h)["risk_report"], "bundle_id": button, "ok": True}


def test_when_no_option_is_within_policy_the_words_say_why_and_choose_nothing():
    h = _harness(cap="20.00")
    h.say(TRIP)
    turn = h.say("only in-policy options")
    reply = _texts(turn)
    assert reply.startswith("None of the options on screen is within your company's policy (B1: ")
    assert "above your policy's cap of $20.00" in reply
    assert _wm(h)["selected"]["bundle_id"] is None


def test_a_question_about_one_option_or_the_policy_itself_chooses_nothing():
    h = _harness(cap="100.00")
    h.say(TRIP)
    for words in ("is B2 within policy?", "does this fit in policy?", "what is our hotel policy"):
        event = route_text(words, h.intent())
        assert event["type"] == "USER_MESSAGE" and "in_policy" not in event["data"], words


@pytest.mark.parametrize("words", ["a cheaper hotel please", "cheaper hotel?", "can you find me a less expensive room"])
def test_a_cheaper_hotel_moves_to_the_best_option_with_a_cheaper_hotel(words):
    h = _harness()
    h.say(SMALL_TRIP)
    dearest = max(_wm(h)["ranked_bundles"], key=lambda b: _cost(b, "hotels"))
    h.select(dearest["bundle_id"])
    turn = h.say(words)
    chosen = _selected(h)
    assert _cost(chosen, "hotels") < _cost(dearest, "hotels")
    nightly = chosen["hotels"][0]["summary"]["nightly_avg"]
    assert f"Chose {chosen['bundle_id']} instead of {dearest['bundle_id']}: its hotel is ${nightly} a night" in _texts(
        turn
    )


def test_cheaper_flights_keep_the_hotel_where_an_option_does():
    h = _harness()
    h.say(SMALL_TRIP)
    bundles = _wm(h)["ranked_bundles"]
    dearest = max(bundles, key=lambda b: _cost(b, "flights"))
    h.select(dearest["bundle_id"])
    turn = h.say("cheaper flights?")
    chosen = _selected(h)
    assert _cost(chosen, "flights") < _cost(dearest, "flights")
    assert "its flights cost" in _texts(turn)


def test_something_cheaper_before_any_choice_is_cheaper_than_the_first_option():
    h = _harness()
    h.say(SMALL_TRIP)
    first = _wm(h)["ranked_bundles"][0]
    turn = h.say("something cheaper")
    assert float(_selected(h)["total"]) < float(first["total"])
    assert f"instead of {first['bundle_id']}: $" in _texts(turn)


def test_nothing_cheaper_on_screen_is_said_and_the_options_stay():
    h = _harness()
    h.say(SMALL_TRIP)
    bundles = _wm(h)["ranked_bundles"]
    cheapest = min(bundles, key=lambda b: float(b["total"]))
    h.select(cheapest["bundle_id"])
    turn = h.say("anything cheaper?")
    assert "is already the cheapest option on screen" in _texts(turn)
    turn = h.say("a cheaper hotel")  # its hotel is the cheapest the search found, too
    assert "already has the cheapest hotel I found for these dates" in _texts(turn)
    assert _wm(h)["ranked_bundles"] == bundles and _wm(h)["selected"]["bundle_id"] == cheapest["bundle_id"]


def _rate(nightly):
    return {"summary": {"nightly_max": nightly, "nightly_avg": nightly, "total": str(float(nightly) * 3)}}


def test_a_cheaper_hotel_the_search_found_but_did_not_show_is_asked_for_under_a_lower_cap():
    hotel = {"rate_id": "r1", **_rate("120.00")}
    hotel["summary"]["currency"] = "USD"
    trip = {
        "working_memory": {
            "ranked_bundles": [{"bundle_id": "B1", "total": "900", "hotels": [hotel], "flights": []}],
            "selected": {"bundle_id": "B1"},
            "hotel_quotes": [{"stay_id": "st_1", "rates": [_rate("120.00"), _rate("95.40"), _rate("60.00")]}],
        }
    }
    event = route_text("a cheaper hotel please", trip)
    assert event["type"] == "USER_MESSAGE"
    assert event["data"]["read_as"] == "hotels under 96.00 USD a night"  # the dearest cheaper one still fits
    fields, _ = extract_fields(text=event["data"]["read_as"], today=date(2026, 12, 1))
    assert fields["hotel_max_per_night"] == 96.0


def test_cheaper_than_a_named_option_is_measured_from_it_and_does_not_choose_it():
    h = _harness()
    h.say(SMALL_TRIP)
    bundles = _wm(h)["ranked_bundles"]
    dearest = max(bundles, key=lambda b: float(b["total"]))
    turn = h.say(f"something cheaper than {dearest['bundle_id']}")
    assert float(_selected(h)["total"]) < float(dearest["total"])
    assert f"instead of {dearest['bundle_id']}" in _texts(turn)
