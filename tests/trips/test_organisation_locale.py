"""An organisation's locale decides how its travellers' numeric dates read: "03/04" is 3 April in en-GB."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from handlers.common.clock import FrozenClock
from handlers.trip_read import segments_of
from tests.factories import sign_in
from trips.models import Organisation
from trips.services.turns import turn_submit

MESSAGE = "2 adults from Boston to Chicago on 03/04 returning 07/04, no hotel"


@pytest.fixture
def frozen(monkeypatch):
    clock = FrozenClock(datetime(2026, 12, 1, 9, 0, tzinfo=ZoneInfo("America/New_York")))
    monkeypatch.setattr("trips.hosting.turns.timezone.now", clock)
    return clock


def _dates(trip) -> list[str]:
    trip.refresh_from_db()
    return [s.get("depart_date") for s in segments_of(trip.intent)]


@pytest.mark.django_db(transaction=True)  # tools run in the core's worker threads
def test_a_day_first_organisation_reads_03_04_as_3_april(trip, traveller, frozen):
    Organisation.objects.filter(pk=trip.organisation_id).update(locale=Organisation.Locale.EN_GB)
    trip.refresh_from_db()
    turn_submit(trip=trip, user=traveller, text=MESSAGE)
    assert _dates(trip) == ["2027-04-03", "2027-04-07"]


@pytest.mark.django_db(transaction=True)
def test_a_month_first_organisation_reads_03_04_as_march_4(trip, traveller, frozen):
    assert trip.organisation.locale == "en-US"  # the default
    turn_submit(trip=trip, user=traveller, text=MESSAGE)
    assert _dates(trip)[0] == "2027-03-04"
    # read month first, "07/04" would make a 122-night trip (3 April to 7 April day first): asked, not taken
    asked = trip.intent["status"]["pending_question"]
    assert asked["slots"] == ["return_date"]
    assert asked["text"].startswith('Do you mean Sun Jul 4 by "07/04"? That is 122 nights after Thu Mar 4.')


@pytest.mark.django_db
def test_the_locale_is_set_on_the_organisation_page(client, superuser, acme):
    sign_in(client, superuser)
    url = reverse("admin:trips_organisation_change", args=[acme.pk])
    page = client.get(url).content.decode()
    assert "English (United Kingdom): 03/04 is 3 April" in page
    assert acme.as_core_org()["locale"] == "en-US"
