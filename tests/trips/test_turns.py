"""Turns through Django: submit → run_turn (eager) → Runner → ChatMessage/ToolRun/AuditEvent rows."""

import asyncio
from datetime import datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.management import CommandError, call_command

from handlers.common.clock import FrozenClock
from handlers.tools import returned_result, tool_outcome
from tests.factories import passengers_name
from trips.hosting.replay import trip_replay
from trips.models import AuditEvent, ChatMessage, SupplierState, ToolRun, Trip
from trips.services.chat import trip_group
from trips.services.turns import turn_submit
from trips.tasks.turns import run_turn

pytestmark = pytest.mark.django_db(transaction=True)  # tools run in the core's worker threads


@pytest.fixture
def frozen(monkeypatch):
    """Django's clock (``timezone.now``, so every turn's ``now``) reads 2026-12-01 09:00 New York (SCENARIOS.md)."""
    clock = FrozenClock(datetime(2026, 12, 1, 9, 0, tzinfo=ZoneInfo("America/New_York")))
    monkeypatch.setattr("trips.hosting.turns.timezone.now", clock)
    return clock


# Scenario 1 runs 5 tools, prints 7 messages and records its audit events: 28 statements on the
# host's connection when measured, 8 of them BEGIN/COMMIT: four transactions (the message; the
# claim, which reads the queued messages with their trip in one statement; the TripIntent's save with every tool run, the searches' offers and the rows it implies;
# the turn's end). The save's UPDATE also numbers the turn's events and messages; the tool runs go
# in one INSERT; a TripIntent with no holds, bookings or approvals replacing another reads no hold
# or approval rows, and the turn's end hands the lease back in the UPDATE that numbers its events
# (it reads the queued messages only when its read of the locked row found some).
# The sandbox's searches run in-process on the turn's thread (``LocalShc``'s ``inline``), so their
# three supplier reads are on this connection too; their writes wait for the TripIntent's save.
SCENARIO_1_MAX_QUERIES = 28
SCENARIO_1_MAX_COMMITS = 4


def test_scenario_1_one_message_to_bundles(trip, traveller, frozen, django_assert_max_num_queries):
    with django_assert_max_num_queries(SCENARIO_1_MAX_QUERIES) as statements:
        message = turn_submit(
            trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30"
        )
    commits = [q for q in statements.captured_queries if q["sql"] == "COMMIT"]
    assert len(commits) <= SCENARIO_1_MAX_COMMITS
    assert SupplierState.objects.filter(counter__isnull=True).exists(), "the searches' offers are stored"
    trip.refresh_from_db()
    intent = trip.intent
    segments = intent["itinerary"]["segments"]
    assert [(s["origin"]["code"], s["destination"]["code"], s["depart_date"]) for s in segments] == [
        ("EWR", "DEN", "2027-01-30"),
        ("DEN", "EWR", "2027-02-02"),
    ]
    assert intent["party"]["travelers"]["adults"] == 4
    assert len(intent["working_memory"]["ranked_bundles"]) >= 3
    assert trip.phase == "presenting" and trip.version == intent["version"] == 1
    assert ChatMessage.objects.get(pk=message.pk).turn_status == ChatMessage.TurnStatus.DONE
    tools = list(ToolRun.objects.filter(trip=trip).order_by("pk").values_list("tool", flat=True))
    assert tools.count("flight_quote_search") == 2 and tools.count("hotel_quote_search") == 1
    assert "trip_option_ranker" in tools and "reservation_hold_create" not in tools
    widgets = [m.widget["type"] for m in ChatMessage.objects.filter(trip=trip, role="assistant") if m.widget]
    assert "bundles" in widgets and "trip_summary" in widgets
    seqs = list(AuditEvent.objects.filter(trip=trip).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    types = set(AuditEvent.objects.filter(trip=trip).values_list("type", flat=True))
    assert {"message.received", "turn.started", "tool.called", "tool.returned", "turn.completed"} <= types
    # The core's own events (routing, the patch it applied) are in the trail, not in the document.
    assert {"core.event_routed", "core.patch_applied"} <= types and intent["audit"] == {"events": []}
    assert trip.turn_lease_until is None, "the lease is given back with the last look for queued messages"


def test_a_repeated_client_id_is_one_message_and_one_turn(trip, traveller, frozen):
    first = turn_submit(trip=trip, user=traveller, text="I'm going to San Francisco", client_id="c-1")
    again = turn_submit(trip=trip, user=traveller, text="I'm going to San Francisco", client_id="c-1")
    assert first.pk == again.pk
    assert ChatMessage.objects.filter(trip=trip, role="user").count() == 1
    assert AuditEvent.objects.filter(trip=trip, type="turn.started").count() == 1


def test_a_resent_message_whose_task_was_lost_runs_its_turn(trip, traveller, frozen, monkeypatch):
    """The broker was down when the message committed, so its turn task never left; the browser
    sends it again with the same client_id and the turn runs (once)."""
    from trips.services import dispatch

    deliver = dispatch._senders["turn"]
    monkeypatch.setitem(dispatch._senders, "turn", lambda trip_id, message_id: None)  # lost on the way
    first = turn_submit(trip=trip, user=traveller, text="I'm going to San Francisco", client_id="c-lost")
    assert ChatMessage.objects.get(pk=first.pk).turn_status == ChatMessage.TurnStatus.QUEUED
    monkeypatch.setitem(dispatch._senders, "turn", deliver)  # the broker is back
    again = turn_submit(trip=trip, user=traveller, text="I'm going to San Francisco", client_id="c-lost")
    assert again.pk == first.pk
    assert ChatMessage.objects.get(pk=first.pk).turn_status == ChatMessage.TurnStatus.DONE
    assert ChatMessage.objects.filter(trip=trip, role="user").count() == 1
    assert AuditEvent.objects.filter(trip=trip, type="turn.started").count() == 1


def test_a_resent_message_on_a_trip_a_worker_holds_is_not_sent_again(trip, traveller, frozen, monkeypatch):
    from trips.services import dispatch

    sent: list[int] = []
    monkeypatch.setitem(dispatch._senders, "turn", lambda trip_id, message_id: sent.append(message_id))
    first = turn_submit(trip=trip, user=traveller, text="I'm going to San Francisco", client_id="c-held")
    Trip.objects.filter(pk=trip.pk).update(turn_lease_until=frozen().replace(year=2030))  # a worker runs it
    turn_submit(trip=trip, user=traveller, text="I'm going to San Francisco", client_id="c-held")
    assert sent == [first.pk], "the worker holding the trip takes the message; nothing is sent twice"


def test_running_the_task_again_changes_nothing(trip, traveller, frozen):
    message = turn_submit(trip=trip, user=traveller, text="I'm going to San Francisco")
    version = Trip.objects.get(pk=trip.pk).version
    events = AuditEvent.objects.filter(trip=trip).count()
    assert run_turn.apply(args=[trip.pk, message.pk]).get() == 0
    assert Trip.objects.get(pk=trip.pk).version == version
    assert AuditEvent.objects.filter(trip=trip).count() == events


def test_replay_trip_reproduces_scenario_1(trip, traveller, frozen):
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    frozen.advance(minutes=2)
    turn_submit(trip=trip, user=traveller, text="the second one")
    out = StringIO()
    call_command("replay_trip", trip.pk, stdout=out)
    assert "2 turns" in out.getvalue() and "matches" in out.getvalue()
    assert ToolRun.objects.filter(trip=trip).count() >= 5


def test_offers_live_once_in_the_search_run_and_a_later_ranking_reads_them_back(trip, traveller, frozen):
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    wm = Trip.objects.get(pk=trip.pk).intent["working_memory"]
    counts = {q["segment_id"]: q["count"] for q in wm["flight_quotes"]}
    named = {f["offer_id"] for b in wm["ranked_bundles"] for f in b["flights"]}
    assert all({o["offer_id"] for o in q["offers"]} <= named for q in wm["flight_quotes"])
    assert sum(len(q["offers"]) for q in wm["flight_quotes"]) < sum(counts.values())
    frozen.advance(minutes=2)
    turn_submit(trip=trip, user=traveller, text="4 star hotel please")  # hotels again, flights from turn 1
    tools = list(ToolRun.objects.filter(trip=trip).order_by("pk").values_list("tool", flat=True))
    assert tools.count("flight_quote_search") == 2 and tools.count("trip_option_ranker") == 2
    ranked = ToolRun.objects.filter(trip=trip, tool="trip_option_ranker").order_by("pk").last()
    assert {q["segment_id"]: q["offers"] for q in ranked.arguments["flight_quotes"]} == counts, (
        "the second ranking saw every flight offer found in the first turn"
    )
    out = StringIO()
    call_command("replay_trip", trip.pk, stdout=out)
    assert "2 turns" in out.getvalue() and "matches" in out.getvalue()


def test_a_search_run_keeps_its_offers_as_one_table_that_reads_back_whole(trip, traveller, frozen):
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    for run in ToolRun.objects.filter(trip=trip, tool__in=["flight_quote_search", "hotel_quote_search"]):
        kept = run.result["output"]["result"]["output"]
        items = "offers" if run.tool == "flight_quote_search" else "rates"
        assert items not in kept and len(kept[f"{items}_table"]["rows"]) == kept["count"] > 5
        returned = tool_outcome(returned_result(run.result))[1][items]
        assert len(returned) == kept["count"] and all(item["summary"]["total"] for item in returned)


def test_search_runs_stored_as_lists_of_offers_still_rank_again_and_replay(trip, traveller, frozen):
    """Tool runs stored before searches kept their offers as tables: a later ranking reads the
    flights back from them, and the trip replays."""
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    searches = ToolRun.objects.filter(trip=trip, tool__in=["flight_quote_search", "hotel_quote_search"])
    for run in searches:
        run.result = returned_result(run.result)  # the old shape: every offer a document of its own
        run.save(update_fields=["result"])
    assert all("offers" in r.result["output"]["result"]["output"] for r in searches.filter(tool="flight_quote_search"))
    frozen.advance(minutes=2)
    turn_submit(trip=trip, user=traveller, text="4 star hotel please")  # hotels again, flights from turn 1
    ranked = ToolRun.objects.filter(trip=trip, tool="trip_option_ranker").order_by("pk").last()
    assert ranked.status == ToolRun.Status.SUCCEEDED and all(q["offers"] > 5 for q in ranked.arguments["flight_quotes"])
    assert trip_replay(trip=trip).matches


def test_a_large_suppliers_searches_rank_from_their_tables_trim_hold_and_replay(
    trip, traveller, frozen, large_supplier
):
    """A search of many offers stores the table it made; its turn ranks from it and keeps in the
    TripIntent only the offers on screen; a later ranking reads every offer back; the trip replays."""
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    searches = ToolRun.objects.filter(trip=trip, tool="flight_quote_search")
    counts = {}
    for run in searches:
        kept = run.result["output"]["result"]["output"]
        assert "offers" not in kept and len(kept["offers_table"]["rows"]) == kept["count"] >= 40
        counts[run.arguments["segment_id"]] = kept["count"]
    wm = Trip.objects.get(pk=trip.pk).intent["working_memory"]
    named = {f["offer_id"] for b in wm["ranked_bundles"] for f in b["flights"]}
    assert len(wm["ranked_bundles"]) == 5 and all("offers_table" not in q for q in wm["flight_quotes"])
    assert all({o["offer_id"] for o in q["offers"]} <= named for q in wm["flight_quotes"])
    assert {q["segment_id"]: q["count"] for q in wm["flight_quotes"]} == counts
    frozen.advance(minutes=2)
    turn_submit(trip=trip, user=traveller, text="4 star hotel please")  # hotels again, flights from turn 1
    ranked = ToolRun.objects.filter(trip=trip, tool="trip_option_ranker").order_by("pk").last()
    assert {q["segment_id"]: q["offers"] for q in ranked.arguments["flight_quotes"]} == counts
    turn_submit(trip=trip, user=traveller, action={"type": "select", "bundle_id": "B1"})
    passengers_name(trip)
    turn_submit(trip=trip, user=traveller, action={"type": "hold"})
    assert trip.holds.filter(status="held").exists()
    assert trip_replay(trip=trip).matches


def test_replay_covers_select_and_hold(trip, traveller, frozen):
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    turn_submit(trip=trip, user=traveller, action={"type": "select", "bundle_id": "B1"})
    passengers_name(trip)
    turn_submit(trip=trip, user=traveller, action={"type": "hold"})
    assert trip.holds.filter(status="held").exists()
    tools = set(ToolRun.objects.filter(trip=trip).values_list("tool", flat=True))
    assert {"policy_and_risk_check", "reservation_hold_create"} <= tools
    out = StringIO()
    call_command("replay_trip", trip.pk, stdout=out)
    assert "3 turns" in out.getvalue() and "matches" in out.getvalue()


def test_the_traveller_reads_held_before_the_approval_card(trip, traveller, frozen):
    """Issue 12: the core's "Held…" answer comes first, then the host's approval request it led to,
    in the stored order and in the order the frames are pushed."""
    layer = get_channel_layer()
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    turn_submit(trip=trip, user=traveller, action={"type": "select", "bundle_id": "B1"})
    passengers_name(trip)
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(trip_group(trip.pk), channel)
    turn_submit(trip=trip, user=traveller, action={"type": "hold"})
    frames = async_to_sync(_frames_until_status)(layer, channel)
    said = [(f["text"], (f.get("widget") or {}).get("type")) for f in frames if f.get("role") == "assistant"]
    held = next(i for i, (text, _) in enumerate(said) if text.startswith("Held"))
    approval = next(i for i, (_, widget) in enumerate(said) if widget == "approval")
    assert held < approval, said
    stored = list(ChatMessage.objects.filter(trip=trip).order_by("seq").values_list("text", "widget__type"))
    assert [t for t, w in stored if t.startswith("Held") or w == "approval"][0].startswith("Held"), stored


def test_replay_rebuilds_a_trip_saved_with_summaries_twice(trip, traveller, frozen):
    """A TripIntent saved before each summary was kept once (named offers with their summaries,
    bundles with the ranker's score_breakdown) still replays; a tampered one still does not."""
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    stored = Trip.objects.get(pk=trip.pk)
    wm = stored.intent["working_memory"]
    carried = {f["offer_id"]: f["summary"] for b in wm["ranked_bundles"] for f in b["flights"]}
    for quote in wm["flight_quotes"]:
        quote["offers"] = [{**o, "summary": carried[o["offer_id"]]} for o in quote["offers"]]
    for bundle in wm["ranked_bundles"]:
        bundle["score_breakdown"] = {"price": 0.5}
    stored.save(update_fields=["intent"])
    assert trip_replay(trip=trip).matches
    next(iter(carried.values()))["total"] = "1.00"  # the summary a bundle shows, changed
    stored.save(update_fields=["intent"])
    assert not trip_replay(trip=trip).matches


def test_replay_trip_reports_a_tampered_intent(trip, traveller, frozen):
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    stored = Trip.objects.get(pk=trip.pk)
    stored.intent["party"]["travelers"]["adults"] = 5
    stored.save(update_fields=["intent"])
    out = StringIO()
    with pytest.raises(CommandError, match="does not reproduce"):
        call_command("replay_trip", trip.pk, stdout=out)
    assert "party.travelers.adults" in out.getvalue()


def test_scenario_12_a_failed_search_is_told_audited_and_retryable(trip, traveller, frozen, settings):
    settings.TRIPDESK = {**settings.TRIPDESK, "SUPPLIER_FAULTS": {"flight_quote_search": {"timeout": 1.0}}}
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    assert ToolRun.objects.filter(trip=trip, tool="flight_quote_search", status="failed").exists()
    assert AuditEvent.objects.filter(trip=trip, type="tool.failed").exists()
    told = ChatMessage.objects.filter(trip=trip, role="assistant").exclude(kind="progress").order_by("seq").last()
    assert told.kind == "error" or (told.widget or {}).get("type") == "error"
    assert not Trip.objects.get(pk=trip.pk).intent["working_memory"]["ranked_bundles"]

    settings.TRIPDESK = {**settings.TRIPDESK, "SUPPLIER_FAULTS": None}
    turn_submit(trip=trip, user=traveller, action={"type": "retry"})
    assert len(Trip.objects.get(pk=trip.pk).intent["working_memory"]["ranked_bundles"]) >= 3


async def _frames_until_status(layer, channel) -> list:
    frames = []
    while not frames or frames[-1]["type"] != "status":
        event = await asyncio.wait_for(layer.receive(channel), timeout=5)
        frames.extend(event["frames"] if event["type"] == "trip.frames" else [event["frame"]])  # a commit's, together
    return frames


def test_a_turn_pushes_every_message_then_the_status(trip, traveller, frozen):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(trip_group(trip.pk), channel)
    turn_submit(trip=trip, user=traveller, text="I'm going to San Francisco")
    frames = async_to_sync(_frames_until_status)(layer, channel)
    messages = [f for f in frames if f["type"] == "message"]
    assert [m["seq"] for m in messages] == list(range(1, len(messages) + 1))
    assert messages[0]["role"] == "user" and messages[-1]["role"] == "assistant"
    assert frames[-1] == {
        "type": "status",
        "trip_id": trip.pk,
        "phase": "intake",
        "state": "needs_input",
        "version": 1,
        "purchase": None,  # nothing granted to pay for
    }


def test_a_hold_sent_again_after_the_choice_changed_returns_what_the_first_saved(trip, traveller):
    """A frame sent again after a reconnect (same ``client_id``) is the same press, not a new one:
    it returns the message the first saved, even when its card's option is no longer selected."""
    intent = {**trip.intent, "working_memory": {**trip.intent["working_memory"], "selected": {"bundle_id": "B1"}}}
    Trip.objects.filter(pk=trip.pk).update(intent=intent)
    first = turn_submit(trip=trip, user=traveller, action={"type": "hold", "bundle_id": "B1"}, client_id="card-1")
    intent["working_memory"]["selected"] = {"bundle_id": "B2"}
    Trip.objects.filter(pk=trip.pk).update(intent=intent)
    again = turn_submit(trip=trip, user=traveller, action={"type": "hold", "bundle_id": "B1"}, client_id="card-1")
    assert again.pk == first.pk
    assert ChatMessage.objects.filter(trip=trip, role="user").count() == 1


def test_a_hold_pressed_on_an_older_options_card_holds_nothing(trip, traveller):
    """Issue 12: "Hold these" acts on its own card's option or not at all (never on the newer choice)."""
    from django.core.exceptions import ValidationError

    intent = {**trip.intent, "working_memory": {**trip.intent["working_memory"], "selected": {"bundle_id": "B2"}}}
    Trip.objects.filter(pk=trip.pk).update(intent=intent)
    with pytest.raises(ValidationError, match="no longer the one selected"):
        turn_submit(trip=trip, user=traveller, action={"type": "hold", "bundle_id": "B1"}, client_id="old-card")
    assert not ChatMessage.objects.filter(trip=trip).exists()
    held = turn_submit(trip=trip, user=traveller, action={"type": "hold", "bundle_id": "B2"}, client_id="new-card")
    assert held.event["type"] == "USER_REQUEST_HOLD"


def test_the_turns_end_runs_what_was_queued_meanwhile_under_the_same_lease(trip, traveller, frozen, monkeypatch):
    """The last turn of a lease looks for messages queued while it ran, with the trip's row
    locked: found, they come back under a renewed lease; none, the lease is given back."""
    from datetime import timedelta

    from trips.services import dispatch
    from trips.services.turns import turn_complete

    monkeypatch.setitem(dispatch._senders, "turn", lambda trip_id, message_id: None)  # nothing runs by itself
    running = turn_submit(trip=trip, user=traveller, text="I'm going to San Francisco")
    later = turn_submit(trip=trip, user=traveller, text="for 2 people")
    lease = frozen() + timedelta(seconds=30)
    Trip.objects.filter(pk=trip.pk).update(turn_lease_until=lease)
    result = {"success": True, "output": {}}
    claim = turn_complete(trip_id=trip.pk, message_id=running.pk, result=result, lease_until=lease, now=frozen())
    assert [m.pk for m in claim.messages] == [later.pk]
    renewed = Trip.objects.get(pk=trip.pk).turn_lease_until
    assert claim.lease_until == renewed and renewed > lease
    claim = turn_complete(trip_id=trip.pk, message_id=later.pk, result=result, lease_until=renewed, now=frozen())
    assert claim.messages == [] and claim.lease_until is None
    assert Trip.objects.get(pk=trip.pk).turn_lease_until is None
    assert set(ChatMessage.objects.filter(role="user").values_list("turn_status", flat=True)) == {"done"}
