"""The Runner: one turn end to end, its limits, its saves and its host hooks."""

from __future__ import annotations

import itertools

from handlers.common.clock import iso
from handlers.common.host import bind_host
from handlers.common.stores import InMemoryToolStore, InMemoryTripStore, StaleVersion
from handlers.common.types import ok
from handlers.quotes import items as quote_items
from handlers.runner import Runner
from handlers.testing import CapturedChat, Harness

MULTI_CITY = "New York to London Feb 10, London to Paris Feb 14, Paris back to New York Feb 18, 2 adults, hotels in London and Paris"
ROUND_TRIP = "2 adults from Boston to Miami, out March 11 back March 16"
NOW = "2026-12-01T14:00:00+00:00"


def payload(text, trip_id="t1"):
    return {
        "trip_id": trip_id,
        "portfolio": "default",
        "org": {"id": "acme", "timezone": "America/New_York"},
        "event": {"type": "USER_MESSAGE", "data": {"text": text}},
        "now": NOW,
        "actor": "user:1",
    }


def test_max_tool_calls_ends_the_turn_with_a_message_and_continue_resumes():
    h = Harness(limits={"max_tool_calls": 3})
    turn = h.say(MULTI_CITY)
    assert turn["stopped_reason"] == "max_tool_calls" and len(turn["tool_calls"]) == 3
    assert turn["ui_messages"][-1]["kind"] == "status" and "continue" in turn["ui_messages"][-1]["text"]
    assert h.intent()["status"]["state"] == "needs_input", "a stopped turn waits for 'continue', it is not running"
    h.runner.limits["max_tool_calls"] = 16
    h.say("continue")
    assert "flight_quote_search" in h.tools_run() and h.widgets("bundles")


def test_max_calls_per_tool():
    h = Harness(limits={"max_calls_per_tool": 2})
    turn = h.say(MULTI_CITY)
    assert turn["stopped_reason"] == "max_calls_per_tool"
    assert [c["name"] for c in turn["tool_calls"]].count("flight_quote_search") == 2
    assert "flight_quote_search" in turn["ui_messages"][-1]["text"]


def test_wall_time_is_measured_with_the_monotonic_clock():
    h = Harness(limits={"max_wall_seconds": 30})
    ticks = itertools.count(0, 20)
    h.runner.monotonic = lambda: next(ticks)
    turn = h.say(ROUND_TRIP)
    assert turn["stopped_reason"] == "wall_time" and "30 seconds" in turn["ui_messages"][-1]["text"]


class ScriptedShc:
    """Answers the extractor with a fixed patch and records what the chat held at each call."""

    def __init__(self, chat, patch=None, fail_with=None):
        self.chat, self.patch, self.fail_with, self.calls = chat, patch or {}, fail_with, []

    def handler_call(self, portfolio, org, tool, handler, args):
        self.calls.append((tool, len(self.chat.messages)))
        if self.fail_with:
            raise self.fail_with
        return ok(args, {"tool_name": tool, "result": ok(args, {"patch": self.patch, "understood": bool(self.patch)})})


def run(store, shc, chat, text="hello", runner=None):
    runner = runner or Runner(trip_store=store, tool_store=InMemoryToolStore())
    with bind_host(agu=chat, shc=shc):
        return runner.run(payload(text))


def test_progress_is_printed_before_the_tool_runs_and_the_rest_after_the_save():
    store, chat = InMemoryTripStore(), CapturedChat()
    shc = ScriptedShc(chat)
    result = run(store, shc, chat)
    assert shc.calls == [("trip_requirements_extract", 1)], "the progress line was already on screen"
    assert [m["kind"] for m in chat.messages] == ["progress", "message"]
    assert store.get("t1")["version"] == 1 and result["output"]["trip_intent"]["version"] == 1


def test_a_new_trip_takes_the_org_policy_and_timezone():
    store, chat = InMemoryTripStore(), CapturedChat()
    runner = Runner(trip_store=store, tool_store=InMemoryToolStore())
    p = payload("hi")
    p["org"] = {
        "id": "globex",
        "timezone": "Europe/Paris",
        "policy": {"rules": {"holds_allowed_without_approval": False}},
    }
    with bind_host(agu=chat, shc=ScriptedShc(chat)):
        runner.run(p)
    trip = store.get("t1")
    assert (
        trip["request"]["timezone"] == "Europe/Paris"
        and trip["policy"]["rules"]["holds_allowed_without_approval"] is False
    )


class StaleStore(InMemoryTripStore):
    def __init__(self, stale_saves):
        super().__init__()
        self.stale_saves = stale_saves

    def save(self, trip_id, doc, expected_version=None, events=None):
        if self.stale_saves:
            self.stale_saves -= 1
            raise StaleVersion("someone else saved")
        return super().save(trip_id, doc, expected_version, events)


def test_a_stale_save_reloads_and_reruns_once():
    store, chat = StaleStore(stale_saves=1), CapturedChat()
    result = run(store, ScriptedShc(chat), chat)
    assert result["success"] and store.get("t1")["version"] == 1
    assert [m["kind"] for m in chat.messages if m["kind"] != "progress"] == ["message"], "the answer is shown once"


def test_a_second_stale_save_is_a_retryable_conflict():
    store, chat = StaleStore(stale_saves=2), CapturedChat()
    result = run(store, ScriptedShc(chat), chat)
    assert result["success"] is False and result["output"]["error"] == {
        "code": "conflict",
        "message": "The trip changed while I was working; please send that again.",
        "retryable": True,
    }


def test_a_host_that_raises_becomes_a_tool_error_not_a_crash():
    store, chat = InMemoryTripStore(), CapturedChat()
    result = run(store, ScriptedShc(chat, fail_with=RuntimeError("db down")), chat)
    assert result["success"]
    assert chat.messages[-1]["kind"] == "error" and store.get("t1")["working_memory"]["last_error"]["retryable"]


def test_without_a_bound_host_the_turn_still_answers():
    store = InMemoryTripStore()
    result = Runner(trip_store=store, tool_store=InMemoryToolStore()).run(payload("from JFK"))
    assert result["success"] and result["output"]["ui_messages"][-1]["kind"] == "error"


def test_invalid_payloads_fail_cleanly():
    runner = Runner(trip_store=InMemoryTripStore(), tool_store=InMemoryToolStore())
    assert runner.run({"trip_id": "t1"})["output"]["error"]["code"] == "invalid_payload"
    odd = runner.run({**payload("x"), "event": {"type": "NOT_A_THING"}})
    assert odd["success"] and odd["output"]["ui_messages"][0]["widget"]["code"] == "unknown_event"


class Followup:
    def __init__(self, answer=None, error=None):
        self.answer_text, self.error, self.questions = answer, error, []

    def answer(self, question, trip_intent, now):
        self.questions.append((question, len(trip_intent["working_memory"]["ranked_bundles"]), now))
        if self.error:
            raise self.error
        return {"text": self.answer_text, "accounting": [{"model": "fake", "tokens": 10}]}


def test_a_question_about_the_bundles_goes_to_the_followup_collaborator():
    followup = Followup(answer="B2 includes a checked bag.")
    h = Harness(followup=followup)
    h.say(ROUND_TRIP)
    turn = h.say("which one includes a checked bag?")
    assert followup.questions == [("which one includes a checked bag?", 5, iso(h.clock()))]
    assert turn["ui_messages"][-1]["text"] == "B2 includes a checked bag."
    assert any(e["type"] == "llm_followup" for e in h.audit_events())


def test_a_failing_followup_falls_back_to_the_plain_reply():
    h = Harness(followup=Followup(error=TimeoutError()))
    h.say(ROUND_TRIP)
    turn = h.say("which one includes a checked bag?")
    reply = turn["ui_messages"][-1]["text"]  # the options' own answer: their fares' bags
    assert reply.startswith("Bags per adult: B1") and "flying from" not in reply


def test_requirement_messages_never_reach_the_followup():
    followup = Followup(answer="nope")
    h = Harness(followup=followup)
    h.say(ROUND_TRIP)
    h.say("actually we are 3 adults")
    assert followup.questions == []


def test_holds_cleared_by_a_change_are_released_before_anything_else():
    h = Harness()
    h.say(ROUND_TRIP)
    for bundle in h.intent()["working_memory"]["ranked_bundles"]:
        h.select(bundle["bundle_id"])
        if h.intent()["working_memory"]["risk_report"]["ok"]:
            break
    h.hold()
    turn = h.say("actually we are 3 adults")
    assert h.tools_run()[:2] == ["trip_requirements_extract", "reservation_hold_release"]
    released = turn["tool_calls"][1]["arguments"]["hold_ids"]
    assert len(released) == 3 and all(
        h.deps.supplier.get_hold(x, now=h.clock())["status"] == "released" for x in released
    )


def test_the_purchase_token_never_leaves_the_tool_arguments():
    h = Harness()
    h.say(ROUND_TRIP)
    for bundle in h.intent()["working_memory"]["ranked_bundles"]:
        h.select(bundle["bundle_id"])
        if h.intent()["working_memory"]["risk_report"]["ok"]:
            break
    h.hold()
    event = {
        "type": "USER_APPROVED_PURCHASE",
        "data": {"approval_token": "tdk_apv_neverstoreme12345", "payment_method_id": "pm_visa_4242"},
    }
    with bind_host(agu=h.agu, shc=h.shc):
        result = h.runner.run({**payload("x", trip_id=h.trip_id), "event": event, "org": h.org, "now": iso(h.clock())})
    assert result["success"] and h.tools_run(turn=result["output"]) == ["booking_confirm_and_purchase"]
    assert "neverstoreme" not in str(result) + str(h.intent()) + str(h.chat)


class OddSupplierShc(ScriptedShc):
    """The extractor completes a one-way trip; the search answers for a segment nobody asked about."""

    def handler_call(self, portfolio, org, tool, handler, args):
        self.calls.append((tool, len(self.chat.messages)))
        output = (
            {"segment_id": "someone_else", "offers": [], "count": 0}
            if tool == "flight_quote_search"
            else {"patch": self.patch, "understood": True}
        )
        return ok(args, {"tool_name": tool, "result": ok(args, output)})


def test_the_same_call_is_never_run_twice_in_a_turn_and_the_turn_says_why():
    store, chat = InMemoryTripStore(), CapturedChat()
    patch = {
        "party": {"travelers": {"adults": 1}},
        "itinerary": {
            "trip_type": "one_way",
            "lodging": {"needed": False},
            "segments": [
                {
                    "segment_id": "seg_1",
                    "origin": {"code": "JFK"},
                    "destination": {"code": "LAX"},
                    "depart_date": "2027-03-03",
                }
            ],
        },
    }
    shc = OddSupplierShc(chat, patch=patch)
    result = run(store, shc, chat, text="one way JFK to LAX on March 3, just me, no hotel")
    assert [c[0] for c in shc.calls] == ["trip_requirements_extract", "flight_quote_search"]
    assert result["output"]["ui_messages"][-1]["kind"] == "status" and "kept being asked" in chat.messages[-1]["text"]
    assert any(e["type"] == "repeat_call_dropped" for e in store.events("t1"))


def test_the_audit_trail_leaves_with_the_save_and_only_the_saved_attempts():
    """The document carries no trail: a turn's events go to the store with its save, and a stale
    attempt's events are dropped with it."""
    store, chat = StaleStore(stale_saves=1), CapturedChat()
    result = run(store, ScriptedShc(chat), chat)
    trail = store.events("t1")
    assert store.get("t1")["audit"] == {"events": []}
    assert [e["type"] for e in trail].count("event_routed") == 1
    assert result["output"]["audit_events"] == trail


def recording(h: Harness) -> list:
    """The (tool, arguments) of every call ``h`` makes from now on."""
    seen = []
    inner = h.shc

    class Recording:
        def handler_call(self, portfolio, org, tool, handler, args):
            seen.append((tool, args))
            return inner.handler_call(portfolio, org, tool, handler, args)

    h.shc = Recording()
    return seen


def test_the_document_keeps_only_the_offers_on_screen_and_a_later_ranking_gets_the_rest():
    """Offers live once, in the quote store: the TripIntent keeps what its bundles name (its size
    does not grow with the supplier's answer) and a later turn ranks from every offer found."""
    h = Harness()
    h.say(ROUND_TRIP)
    wm = h.intent()["working_memory"]
    named = {f["offer_id"] for b in wm["ranked_bundles"] for f in b["flights"]}
    for quote in wm["flight_quotes"]:
        assert {o["offer_id"] for o in quote["offers"]} <= named
        assert quote["count"] > len(quote["offers"]), "the search found more than the bundles show"
    found = {q["segment_id"]: len(q["offers"]) for q in h.found()}
    assert found == {q["segment_id"]: q["count"] for q in wm["flight_quotes"]}
    seen = recording(h)
    turn = h.say("4 star hotel please")  # a new hotel search, ranked with the flights found earlier
    assert "flight_quote_search" not in h.tools_run(turn=turn) and "hotel_quote_search" in h.tools_run(turn=turn)
    (ranked,) = [args for tool, args in seen if tool == "trip_option_ranker"]
    assert {q["segment_id"]: len(q["offers"]) for q in ranked["flight_quotes"]} == found
    assert h.widgets("bundles", turn=turn)


def test_an_offer_on_screen_keeps_its_summary_once_and_every_ranking_reads_it_whole():
    """The document keeps a named offer's summary in its bundle only; readers get it back
    (``handlers.quotes.items``), and each later ranking still ranks every offer found, whole."""
    h = Harness()
    h.say(ROUND_TRIP)
    wm = h.intent()["working_memory"]
    carried = {(f["segment_id"], f["offer_id"]): f["summary"] for b in wm["ranked_bundles"] for f in b["flights"]}
    kept = [(q["segment_id"], o) for q in wm["flight_quotes"] for o in q["offers"]]
    assert kept and all("summary" not in o and (seg, o["offer_id"]) in carried for seg, o in kept)
    assert all(o["legs"] for _, o in kept), "the details the bundle tools read stay"
    whole = {(q["segment_id"], o["offer_id"]): o["summary"] for q in h.found() for o in q["offers"]}
    assert all(whole[key] == summary for key, summary in carried.items())
    assert [o["summary"] for o in quote_items(wm, "flight_quotes")] == [carried[(s, o["offer_id"])] for s, o in kept]
    seen = recording(h)
    for ask in ("4 star hotel please", "3 star hotel is fine"):  # hotel searched again, flights ranked as found
        turn = h.say(ask)
        assert "flight_quote_search" not in h.tools_run(turn=turn) and h.widgets("bundles", turn=turn)
        ranked = [args for tool, args in seen if tool == "trip_option_ranker"][-1]
        given = {
            (q["segment_id"], o["offer_id"]): o.get("summary") for q in ranked["flight_quotes"] for o in q["offers"]
        }
        assert given == whole, "every offer found, each with its summary"
