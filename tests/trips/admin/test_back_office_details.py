"""The back office's small things: actions on the trip page, unflag, names for audit actors, zones and currencies."""

import re

from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from tests.factories import sign_in
from trips.models import AuditEvent, Trip
from trips.services.staff import trip_flag

CHANGELIST = reverse("admin:trips_trip_changelist")


def _page(client, trip) -> str:
    return client.get(reverse("admin:trips_trip_change", args=[trip.pk])).content.decode()


def test_the_trip_page_offers_the_staff_actions_and_comes_back_to_the_trip(client, support, trip):
    sign_in(client, support)
    page = _page(client, trip)
    assert 'value="flag_for_attention"' in page and "Flag for attention…" in page
    assert 'value="clear_flag"' not in page, "nothing to clear yet"
    assert 'value="retry_failed_tool"' not in page and 'value="release_holds"' not in page, "nothing failed or held"
    here = reverse("admin:trips_trip_change", args=[trip.pk])
    ask = client.post(CHANGELIST, {"action": "flag_for_attention", ACTION_CHECKBOX_NAME: [trip.pk], "next": here})
    assert ask.status_code == 200 and 'name="reason"' in ask.content.decode()
    assert f'name="next" value="{here}"' in ask.content.decode()
    done = client.post(
        CHANGELIST,
        {"action": "flag_for_attention", ACTION_CHECKBOX_NAME: [trip.pk], "next": here, "apply": "1", "reason": "VIP"},
    )
    assert done.status_code == 302 and done["Location"] == here
    assert Trip.objects.get(pk=trip.pk).flagged
    assert 'value="clear_flag"' in _page(client, trip)


def test_an_elsewhere_link_is_not_followed(client, support, trip):
    sign_in(client, support)
    done = client.post(
        CHANGELIST,
        {
            "action": "flag_for_attention",
            ACTION_CHECKBOX_NAME: [trip.pk],
            "next": "https://evil.example/",
            "apply": "1",
            "reason": "x",
        },
    )
    assert done["Location"] == CHANGELIST


def test_unflag_needs_a_reason_and_is_audited(client, support, approver, trip):
    trip_flag(trip=trip, actor=support, reason="Traveller called")
    sign_in(client, approver)
    client.post(CHANGELIST, {"action": "clear_flag", ACTION_CHECKBOX_NAME: [trip.pk], "apply": "1", "reason": "x"})
    assert Trip.objects.get(pk=trip.pk).flagged, "approvers do not clear support's flags"
    sign_in(client, support)
    client.post(CHANGELIST, {"action": "clear_flag", ACTION_CHECKBOX_NAME: [trip.pk], "apply": "1", "reason": " "})
    assert Trip.objects.get(pk=trip.pk).flagged, "a blank reason changes nothing"
    client.post(CHANGELIST, {"action": "clear_flag", ACTION_CHECKBOX_NAME: [trip.pk], "apply": "1", "reason": "Sorted"})
    assert not Trip.objects.get(pk=trip.pk).flagged
    event = AuditEvent.objects.get(trip=trip, type="staff.unflagged")
    assert event.payload == {"reason": "Sorted"} and event.actor_user == support


def test_audit_actors_are_named_and_times_carry_their_zone(client, support, trip):
    trip_flag(trip=trip, actor=support, reason="Traveller called")
    sign_in(client, support)
    page = _page(client, trip)
    assert "sam (staff)" in page and f"staff:{support.pk}" not in page
    listing = client.get(reverse("admin:trips_auditevent_changelist")).content.decode()
    assert "sam (staff)" in listing and f"user:{support.pk}" not in listing
    # Acme's zone (America/New_York), named on every date
    assert re.search(r"\d{1,2}:\d\d [AP]M E[SD]T", listing), "admin datetimes name their zone"


def test_money_is_shown_with_its_currency(client, support, populated):
    sign_in(client, support)
    assert "$100.00" in client.get(reverse("admin:trips_hold_changelist")).content.decode()
    assert "$100.00" in client.get(reverse("admin:trips_booking_changelist")).content.decode()


def test_the_trip_list_fits_its_triage_columns_in_1280_px(client, support, trip):
    sign_in(client, support)
    page = client.get(CHANGELIST).content.decode()
    assert 'id="nav-sidebar"' not in page, "no sidebar eating the list's width"
    for column in ("phase", "expiring_holds_display", "awaiting_approval_display", "failed_tools_display"):
        assert f"column-{column}" in page
