"""The trip page support staff read: short, one line per event, the glance first, the document in order."""

import re
from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from handlers.common.clock import FrozenClock
from handlers.common.intent import new_trip_intent
from tests.factories import sign_in, trip_make
from trips.admin.audit import SUMMARY_CHARS, event_summary
from trips.admin.trip_page import intent_html
from trips.admin.trips import TIMELINE_EVENTS
from trips.models import AuditEvent, ToolRun, Trip
from trips.services.audit import audit_event_create
from trips.services.toolruns import toolrun_record
from trips.services.turns import turn_submit

# Measured: 54-58 kB after scenario 1 (search, then select B1), 4,500 px tall in Chromium; the
# TripIntent alone is 190 kB as pretty JSON, the ranker's tool.called payload 92 kB.
TRIP_PAGE_MAX_BYTES = 120_000


def _trip_page(client, trip) -> str:
    response = client.get(reverse("admin:trips_trip_change", args=[trip.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def frozen(monkeypatch):
    """Every turn's ``now`` is 2026-12-01 09:00 New York (SCENARIOS.md)."""
    clock = FrozenClock(datetime(2026, 12, 1, 9, 0, tzinfo=ZoneInfo("America/New_York")))
    monkeypatch.setattr("trips.hosting.turns.timezone.now", clock)
    return clock


@pytest.mark.django_db(transaction=True)  # tools run in the core's worker threads
def test_the_trip_page_after_scenario_1_is_short_and_summarised(client, trip, traveller, support, frozen):
    Trip.objects.filter(pk=trip.pk).update(title="")
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    assert ToolRun.objects.filter(trip=trip, tool="flight_quote_search").count() == 2
    sign_in(client, support)
    body = _trip_page(client, trip)
    assert len(body.encode()) < TRIP_PAGE_MAX_BYTES
    text = _text(body)
    assert text.index("At a glance") < text.index("TripIntent")
    assert "EWR → DEN · Sat Jan 30; DEN → EWR · Tue Feb 2" in text and "4 adults" in text
    assert "EWR → DEN · Jan 30" in text  # the trip's name when it has no title
    assert re.search(r"flight_quote_search · ok · \d+ ms", text)
    assert "iata_code" not in body and "slices" not in body  # whole offers stay on the tool runs' pages
    events = AuditEvent.objects.filter(trip=trip).count()
    assert f"all {events} events" in text


@pytest.mark.django_db
def test_the_timeline_shows_the_latest_events_and_links_to_all(client, support, trip):
    for n in range(TIMELINE_EVENTS + 10):
        audit_event_create(trip_id=trip.pk, type="note.added", actor="system", payload={"n": n})
    sign_in(client, support)
    body = _trip_page(client, trip)
    total = TIMELINE_EVENTS + 11  # and trip.created
    rows = re.findall(r'<td class="field-seq"><p>(\d+)</p>', body)
    assert [int(seq) for seq in rows] == list(range(total, total - TIMELINE_EVENTS, -1))
    changelist = reverse("admin:trips_auditevent_changelist") + f"?trip__id__exact={trip.pk}"
    assert f'<a href="{changelist}">all {total} events</a>' in body
    assert client.get(changelist).context["cl"].result_count == total
    latest = AuditEvent.objects.get(trip=trip, seq=total)
    assert reverse("admin:trips_auditevent_change", args=[latest.pk]) in body


@pytest.mark.django_db(transaction=True)  # tools run in the core's worker threads
def test_a_search_runs_page_shows_each_offer_as_the_search_returned_it(client, trip, traveller, support, frozen):
    """A search's run stores its offers as one table; its page reads them one by one, with names."""
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    run = ToolRun.objects.filter(trip=trip, tool="flight_quote_search").first()
    assert "offers_table" in run.result["output"]["result"]["output"]
    sign_in(client, support)
    page = client.get(reverse("admin:trips_toolrun_change", args=[run.pk])).content.decode()
    assert "offers_table" not in page
    offers = re.findall(r"&quot;offer_id&quot;: &quot;(off_\w+)&quot;", page)
    assert len(offers) == run.result["output"]["result"]["output"]["count"]
    assert page.count("&quot;carrier_name&quot;") == len(offers) and "&quot;legs&quot;" in page


@pytest.mark.django_db(transaction=True)
def test_a_large_suppliers_search_run_page_shows_every_offer(client, trip, traveller, support, frozen, large_supplier):
    """A search of many offers stores the table it made a column at a time; the page reads it the same way."""
    turn_submit(trip=trip, user=traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    run = ToolRun.objects.filter(trip=trip, tool="flight_quote_search").first()
    kept = run.result["output"]["result"]["output"]
    assert len(kept["offers_table"]["rows"]) == kept["count"] >= 40
    sign_in(client, support)
    url = reverse("admin:trips_toolrun_change", args=[run.pk])
    pages = [client.get(url, {"offers_page": n}).content.decode() for n in (1, 2)]
    offers = [o for page in pages for o in re.findall(r"&quot;offer_id&quot;: &quot;(off_\w+)&quot;", page)]
    assert len(offers) == len(set(offers)) == kept["count"] and f"{kept['count']:,} offers returned" in pages[0]
    assert all("offers_table" not in page and "&quot;legs&quot;" in page for page in pages)


def _run(trip, **fields) -> ToolRun:
    """A tool run recorded on ``trip``: a succeeded one unless ``fields`` say otherwise."""
    defaults = {"arguments": {"segment_id": "seg_1"}, "success": True, "error": None, "latency_ms": 900}
    return toolrun_record(trip_id=trip.pk, message_id=None, attempt=1, accounting=[], **{**defaults, **fields})


def _search_of(n: int) -> dict:
    """A flight search's handler result with ``n`` offers (what the sandbox's offers carry, in short)."""
    offers = [
        {
            "offer_id": f"off_{i:05d}",
            "summary": {
                "carrier": ["UA", "AA", "DL"][i % 3],
                "carrier_name": ["United Airlines", "American Airlines", "Delta Air Lines"][i % 3],
                "flight_numbers": [f"UA{100 + i}"],
                "origin": "EWR",
                "destination": "DEN",
                "depart_at": "2027-01-30T08:00:00-05:00",
                "stops": i % 2,
                "total": f"{200 + i}.00",
                "currency": "USD",
                "refundable": i % 4 == 0,
                "holdable": i % 5 != 0,
            },
            "legs": [{"flight_number": f"UA{100 + i}", "origin": "EWR", "destination": "DEN"}],
        }
        for i in range(n)
    ]
    found = {"segment_id": "seg_1", "offers": offers, "count": n, "found": n}
    return {
        "success": True,
        "output": {"tool_name": "flight_quote_search", "result": {"success": True, "output": found}},
    }


@pytest.mark.django_db
def test_a_search_of_a_thousand_offers_reads_as_a_summary_and_pages_of_fifty(client, trip, support):
    """Support opens a 1,000-offer search: a summary first, then 50 one-line offers a page, each opening to the whole offer."""
    run = _run(trip, call_id="call_wide", tool="flight_quote_search", result=_search_of(1000))
    sign_in(client, support)
    url = reverse("admin:trips_toolrun_change", args=[run.pk])
    page = client.get(url).content.decode()
    assert len(page) < 150_000, len(page)  # every offer as pretty JSON was about 1.5 MB
    text = _text(page)
    assert (
        "1,000 offers returned of 1,000 found · $200.00 to $1,199.00 · 3 airline(s) · 500 nonstop · 800 holdable"
        in text
    )
    assert "1,000 offers: summarised and listed one per line below" in text
    assert "Offers 1–50 of 1000" in text
    assert page.count('class="search-offer"') == 50
    assert "off_00000 · United Airlines UA100 · EWR → DEN" in text and "off_00050" not in text
    assert page.count("&quot;legs&quot;") == 50  # each line opens to its whole offer
    last = _text(client.get(url + "?offers_page=20").content.decode())
    assert "Offers 951–1000 of 1000" in last and "off_00999" in last and "off_00949" not in last
    assert "Offers 1–50 of 1000" in _text(client.get(url + "?offers_page=nonsense").content.decode())


@pytest.mark.django_db
def test_inline_rows_have_no_original_header(client, support, populated):
    sign_in(client, support)
    body = _trip_page(client, populated)
    assert 'class="original"' not in body
    assert "js-inline-admin-formset" not in body  # inlines.js would add a delete button to each row
    assert f"{populated.pk}#1 trip.created" not in body  # an AuditEvent's __str__
    assert "flight_quote_search [succeeded]" not in body  # a ToolRun's __str__


@pytest.mark.django_db
def test_tool_arguments_and_results_only_on_the_runs_own_page(client, support, trip):
    run = _run(
        trip,
        call_id="call_big",
        tool="hotel_quote_search",
        arguments={"marker": "argument-marker"},
        result={"success": False, "output": {"rates": ["result-marker"]}},
        success=False,
        error={"code": "timeout", "message": "The supplier did not answer.", "retryable": True},
        latency_ms=15000,
    )
    sign_in(client, support)
    text = _text(_trip_page(client, trip))
    assert "argument-marker" not in text and "result-marker" not in text
    assert "hotel_quote_search · failed: timeout · 15000 ms" in text
    assert "timeout · The supplier did not answer." in text
    page = client.get(reverse("admin:trips_toolrun_change", args=[run.pk])).content.decode()
    assert "argument-marker" in page and "result-marker" in page


@pytest.mark.django_db
def test_the_event_page_pretty_prints_the_whole_payload(client, support, trip):
    event = AuditEvent.objects.get(trip=trip, seq=1)
    sign_in(client, support)
    body = client.get(reverse("admin:trips_auditevent_change", args=[event.pk])).content.decode()
    assert '<pre class="tripdesk-json"' in body and "&quot;schema&quot;: &quot;renglo.trip_intent.v1&quot;" in body


@pytest.mark.django_db
def test_title_and_llm_cost_read_well(client, support, trip):
    intent = {
        **trip.intent,
        "itinerary": {
            **trip.intent["itinerary"],
            "segments": [
                {
                    "segment_id": "seg_1",
                    "origin": {"code": "EWR"},
                    "destination": {"code": "DEN"},
                    "depart_date": "2027-01-30",
                }
            ],
        },
    }
    Trip.objects.filter(pk=trip.pk).update(title="", intent=intent, llm_cost=Decimal("0.126500"))
    sign_in(client, support)
    text = _text(_trip_page(client, trip))
    assert "Trip: EWR → DEN · Jan 30" in text
    assert "LLM cost (USD): 0.13" in text and "Llm cost" not in text
    assert "EWR → DEN · Jan 30" in _text(client.get(reverse("admin:trips_trip_changelist")).content.decode())


@pytest.mark.django_db
def test_the_glance_lists_holds_approval_and_bookings_in_the_trips_timezone(client, support, populated):
    sign_in(client, support)
    text = _text(_trip_page(client, populated))
    glance = text[text.index("At a glance") : text.index("TripIntent")]
    assert "Times in America/New_York" in glance
    assert "flight hld_smoke · Purchased · $100.00 · pay by Mon Dec 31, 7:00 PM EST" in glance
    assert (
        "Approval Purchase approval #" in glance
        and "· Used · up to $100.00 · expires Mon Dec 31, 7:00 PM EST" in glance
    )
    assert "bk_1 · Confirmed · $100.00 · record locators ABC123" in glance


def test_the_trip_intent_keeps_its_order_and_folds_working_memory():
    intent = new_trip_intent("t1", datetime(2026, 12, 1, tzinfo=UTC))
    intent["request"]["user_message"] = "<script>alert(1)</script>"
    intent["working_memory"]["flight_quotes"] = [
        {
            "segment_id": "seg_1",
            "searched_at": "2026-12-01T14:00:00+00:00",
            "offers": [
                {
                    "offer_id": "off_1",
                    "slices": ["raw"],
                    "summary": {
                        "carrier_name": "United",
                        "flight_numbers": ["UA1"],
                        "origin": "EWR",
                        "destination": "DEN",
                        "depart_at": "2027-01-30T08:00:00-05:00",
                        "stops": 0,
                        "total": "400.00",
                        "currency": "USD",
                    },
                }
            ],
        }
    ]
    html = str(intent_html(dict(sorted(intent.items()))))  # stored key order is not to be trusted (jsonb sorts)
    keys = re.findall(r"<strong>(\w+)</strong>", html)
    top = [key for key in keys if key in intent]
    assert top[:3] == ["schema", "trip_id", "version"] and top.index("request") < top.index("working_memory")
    assert top.index("working_memory") < top.index("audit") == len(intent) - 1 + top.count("flight_quotes")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert re.search(r'<details class="tripdesk-section"><summary><strong>working_memory</strong>', html)
    assert "off_1 · United UA1 · EWR → DEN Sat Jan 30 8:00 AM EST · nonstop · $400.00" in html
    assert "slices" not in html
    assert "1 search(es), 1 offers found" in html


def test_a_search_says_how_many_offers_it_found_not_how_many_the_trip_kept():
    intent = new_trip_intent("t1", datetime(2026, 12, 1, tzinfo=UTC))
    kept = {"offer_id": "off_7", "summary": {"origin": "EWR", "destination": "DEN", "total": "400.00"}}
    intent["working_memory"]["flight_quotes"] = [
        {"segment_id": "seg_1", "searched_at": "2026-12-01T14:00:00+00:00", "count": 42, "offers": [kept]}
    ]
    text = _text(str(intent_html(intent)))
    assert "1 search(es), 42 offers found" in text
    assert "seg_1 · 42 offers found, 1 kept in the trip" in text


@pytest.mark.parametrize(
    "type_, payload, expected",
    [
        (
            "tool.failed",
            {"tool": "flight_quote_search", "latency_ms": 15000, "error": {"code": "timeout"}},
            "flight_quote_search · failed: timeout · 15000 ms",
        ),
        (
            "message.received",
            {"event": {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": "B2"}}},
            "USER_SELECTED_BUNDLE bundle_id=B2",
        ),
        (
            "approval.requested",
            {"approval_id": 3, "kind": "purchase", "total": "100.00", "hold_ids": ["a", "b"]},
            "approval_id: 3 · kind: purchase · total: 100.00 · hold_ids: 2 item(s)",
        ),
        ("turn.failed", {"message_id": 4, "reason": "worker lost"}, "failed: worker lost"),
    ],
)
def test_event_summaries(type_, payload, expected):
    assert event_summary(AuditEvent(type=type_, payload=payload)) == expected


@pytest.mark.django_db
def test_a_routed_event_names_the_traveller_not_a_user_id(trip, traveller, other_traveller):
    """Issue 12: audit lines read "USER_REQUEST_HOLD from alice (traveller)", never "actor: user:1" or an ISO time."""
    routed = {"event": "USER_REQUEST_HOLD", "actor": f"user:{traveller.pk}", "at": "2026-11-26T20:10:21+00:00"}
    assert event_summary(AuditEvent(trip=trip, type="core.event_routed", payload=routed)) == (
        "USER_REQUEST_HOLD from alice (traveller)"
    )
    other = {"note": f"seen by user:{other_traveller.pk} and user:999999"}
    assert event_summary(AuditEvent(trip=trip, type="staff.noted", payload=other)) == (
        "note: seen by bob and a former user"
    )


def test_a_summary_is_one_short_line():
    text = "word " * 200
    summary = event_summary(AuditEvent(type="trip.created", payload={"organisation": "acme", "title": text * 3}))
    assert len(summary) <= SUMMARY_CHARS and "\n" not in summary
    many = {f"key_{n}": "value " * 10 for n in range(20)}
    assert len(event_summary(AuditEvent(type="staff.flagged", payload=many))) <= SUMMARY_CHARS


@pytest.mark.django_db
def test_the_trip_list_names_untitled_trips_without_loading_their_documents(client, superuser, acme):
    for n in range(8):
        trip = trip_make(organisation=acme)
        leg = {"origin": {"code": "EWR"}, "destination": {"code": "DEN"}, "depart_date": f"2027-01-{10 + n}"}
        Trip.objects.filter(pk=trip.pk).update(intent={**trip.intent, "itinerary": {"segments": [leg]}})
    sign_in(client, superuser)
    with CaptureQueriesContext(connection) as queries:
        text = _text(client.get(reverse("admin:trips_trip_changelist")).content.decode())
    assert len(queries) <= 12
    assert all(f"EWR → DEN · Jan {10 + n}" in text for n in range(8))
    listed = [q["sql"] for q in queries if 'FROM "trips_trip"' in q["sql"] and "LIMIT" in q["sql"]]
    # Trip's columns in field order; the whole document would sit between title and version.
    assert listed and all('"trips_trip"."title", "trips_trip"."version"' in sql for sql in listed)


@pytest.mark.django_db
def test_the_glance_shows_a_hotel_only_trip_and_every_preference(client, support, trip):
    intent = new_trip_intent(str(trip.pk), datetime(2026, 12, 1, tzinfo=UTC))
    intent["party"]["travelers"]["adults"] = 2
    intent["itinerary"]["flights_needed"] = False
    intent["itinerary"]["lodging"].update(
        city={"type": "city", "code": "AUS", "name": "Austin"}, check_in="2026-12-10", check_out="2026-12-12", rooms=2
    )
    intent["constraints"].update(hotel_max_per_night="250.00", budget_per_person="900.00")
    Trip.objects.filter(pk=trip.pk).update(intent=intent)
    sign_in(client, support)
    text = _text(_trip_page(client, trip))
    glance = text[text.index("At a glance") : text.index("Times in")]
    assert "Route none: hotel only" in glance and "Hotel Austin · Thu Dec 10 → Sat Dec 12" in glance
    assert "Hotel price up to $250.00 a night" in glance and "Budget $900.00 per person" in glance
    assert "Rooms 2 rooms" in glance
