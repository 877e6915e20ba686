"""Who travels: naming a trip's passengers, the directory the supplier reads, export and erasure."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import sign_in
from trips.hosting.passengers import DjangoPassengerDirectory
from trips.models import AuditEvent, Booking, ChatMessage, Companion, TravellerProfile, TripPassenger
from trips.services.travellers import (
    companion_save,
    profile_save,
    traveller_erase,
    traveller_export,
    trip_passengers_set,
)

pytestmark = pytest.mark.django_db

LEAD = {
    "title": "ms",
    "gender": "f",
    "given_name": "Ada",
    "family_name": "Lovelace",
    "born_on": "1985-12-10",
    "email": "ada@example.com",
    "phone_number": "+44 20 8016 0508",
}
BABY = {"given_name": "Teo", "family_name": "Lovelace", "born_on": "2026-03-01", "gender": "m"}


@pytest.fixture
def family_trip(trip):
    intent = dict(trip.intent)
    intent["party"] = {
        **intent.get("party", {}),
        "travelers": {"adults": 1, "children": 0, "infants": 1},
        "child_ages": [],
    }
    intent["itinerary"] = {**intent.get("itinerary", {}), "segments": [{"depart_date": "2027-01-30"}]}
    trip.intent = intent
    trip.save(update_fields=["intent"])
    return trip


def name_family(trip, traveller):
    return trip_passengers_set(
        trip=trip, actor=traveller, passengers=[{"type": "adult", **LEAD}, {"type": "infant", "infant_of": "0", **BABY}]
    )


def test_naming_the_party_stores_details_and_tells_only_counts(family_trip, traveller):
    rows = name_family(family_trip, traveller)
    assert [r.passenger_type for r in rows] == ["adult", "infant"] and rows[1].infant_of == rows[0].ref
    assert rows[0].phone_number == "+442080160508"
    event = AuditEvent.objects.get(trip=family_trip, type="passengers.named")
    assert event.payload == {"count": 2, "types": {"adult": 1, "child": 0, "infant": 1}}
    said = ChatMessage.objects.filter(trip=family_trip).last().text
    assert "1 adult, 1 lap infant" in said and "Lovelace" not in said


def test_a_wrong_party_is_refused_and_changes_nothing(family_trip, traveller):
    with pytest.raises(ValidationError) as caught:
        trip_passengers_set(
            trip=family_trip, actor=traveller, passengers=[{"type": "adult", **LEAD}, {"type": "adult", **LEAD}]
        )
    assert "infants" in str(caught.value.message_dict["__all__"])
    with pytest.raises(ValidationError) as caught:  # the baby is 10 months old: a lap infant, not an adult
        trip_passengers_set(
            trip=family_trip,
            actor=traveller,
            passengers=[
                {"type": "adult", **LEAD},
                {"type": "infant", "infant_of": "0", **BABY, "born_on": "2020-01-01"},
            ],
        )
    assert "p1-born_on" in caught.value.message_dict
    assert not TripPassenger.objects.exists() and not AuditEvent.objects.filter(type="passengers.named").exists()


def test_the_core_sees_references_and_the_supplier_gets_details(family_trip, traveller):
    name_family(family_trip, traveller)
    directory = DjangoPassengerDirectory()
    refs = directory.refs(str(family_trip.pk))
    assert [set(r) for r in refs] == [{"passenger_id", "type"}, {"passenger_id", "type", "infant_of"}]
    assert "Lovelace" not in json.dumps(refs) and "1985" not in json.dumps(refs)
    people = directory.resolve(str(family_trip.pk), refs)
    assert people[0]["born_on"] == "1985-12-10" and people[1]["email"] == "ada@example.com"  # the lead's contact


def test_a_childs_age_counts_on_the_day_of_travel_and_only_a_child_reads_the_trip(
    family_trip, traveller, django_assert_num_queries
):
    name_family(family_trip, traveller)
    directory = DjangoPassengerDirectory()
    with django_assert_num_queries(1):  # the passengers only: no child, no TripIntent read
        assert "age" not in json.dumps(directory.refs(str(family_trip.pk)))
    family_trip.intent["party"]["travelers"] = {"adults": 1, "children": 1, "infants": 0}
    family_trip.save(update_fields=["intent"])
    child = {"given_name": "Mia", "family_name": "Lovelace", "born_on": "2016-02-01", "gender": "f"}
    trip_passengers_set(
        trip=family_trip, actor=traveller, passengers=[{"type": "adult", **LEAD}, {"type": "child", **child}]
    )
    refs = directory.refs(str(family_trip.pk))
    assert refs[1]["type"] == "child" and refs[1]["age"] == 10  # 10 on 2027-01-30, the first flight's day


def test_export_lists_everything_and_erase_keeps_booked_trips(family_trip, traveller, trip_factory=None):
    profile_save(user=traveller, data=LEAD)
    companion_save(user=traveller, data={**BABY, "label": "my son"})
    name_family(family_trip, traveller)
    from tests.factories import trip_make

    booked = trip_make(owner=traveller, organisation=family_trip.organisation)
    booked.intent = family_trip.intent
    booked.save(update_fields=["intent"])
    name_family(booked, traveller)
    from django.utils import timezone

    from trips.models import ApprovalRequest

    approval = ApprovalRequest.objects.create(
        trip=booked, organisation=booked.organisation, snapshot={}, created_at=timezone.now()
    )
    Booking.objects.create(
        trip=booked, approval=approval, booking_id="bkg_x", total="10.00", currency="USD", created_at=timezone.now()
    )

    exported = traveller_export(user=traveller)
    assert exported["profile"]["family_name"] == "Lovelace" and exported["companions"][0]["label"] == "my son"
    assert len(exported["trips"]) == 2 and exported["trips"][1]["bookings"][0]["booking_id"] == "bkg_x"

    done = traveller_erase(user=traveller)
    assert done["profile"] and done["companions"] == 1 and done["trip_passengers"] == 2
    assert [k["trip_id"] for k in done["kept"]] == [booked.pk] and "law" in done["kept"][0]["why"]
    assert not TravellerProfile.objects.filter(user=traveller).exists() and not Companion.objects.exists()
    assert not TripPassenger.objects.filter(trip=family_trip).exists()
    assert TripPassenger.objects.filter(trip=booked).count() == 2
    assert AuditEvent.objects.get(trip=booked, type="traveller.data_erased").payload["outcome"] == "kept_for_booking"


def test_the_chat_card_prefills_from_the_profile_and_saves(client, family_trip, traveller):
    profile_save(user=traveller, data=LEAD)
    companion_save(user=traveller, data=BABY)
    sign_in(client, traveller)
    page = client.get(reverse("web:trip", args=[family_trip.pk])).content.decode()
    assert "Who&#x27;s travelling" in page or "Who's travelling" in page
    assert (
        'value="Lovelace"' in page
        and 'value="Teo"' in page
        and "<script>" not in page.split("travellers-card")[1].split("</details>")[0]
    )
    form = {f"p0-{k}": v for k, v in LEAD.items()} | {f"p1-{k}": v for k, v in BABY.items()} | {"p1-infant_of": "0"}
    response = client.post(reverse("web:trip-travellers", args=[family_trip.pk]), form)
    assert response.status_code == 302 and TripPassenger.objects.filter(trip=family_trip).count() == 2


def test_a_bad_form_says_why_in_words(client, family_trip, traveller):
    sign_in(client, traveller)
    form = {f"p0-{k}": v for k, v in LEAD.items()} | {"p0-given_name": "Zoë"} | {f"p1-{k}": v for k, v in BABY.items()}
    response = client.post(reverse("web:trip-travellers", args=[family_trip.pk]), form)
    assert response.status_code == 400 and "write accents without them" in response.content.decode()
    assert not TripPassenger.objects.exists()


def test_only_the_owner_names_travellers(client, family_trip, other_traveller, support):
    for user in (other_traveller, support):
        sign_in(client, user)
        assert client.get(reverse("web:trip-travellers", args=[family_trip.pk])).status_code == 404


def test_my_data_page_downloads_and_erases(client, traveller):
    sign_in(client, traveller)
    client.post(reverse("web:my-data"), {"action": "profile", **LEAD})
    page = client.get(reverse("web:my-data")).content.decode()
    assert 'value="Lovelace"' in page and "Erase my travel data" in page
    refused = client.post(reverse("web:my-data"), {"action": "profile", **LEAD, "phone_number": "12"})
    assert refused.status_code == 400 and "international form" in refused.content.decode()
    assert TravellerProfile.objects.get(user=traveller).phone_number == "+442080160508"
    download = client.get(reverse("web:my-data-export"))
    assert (
        download["Content-Disposition"].startswith("attachment")
        and json.loads(download.content)["profile"]["given_name"] == "Ada"
    )
    client.post(reverse("web:my-data-erase"), {})
    assert TravellerProfile.objects.filter(user=traveller).exists()  # not confirmed: nothing erased
    client.post(reverse("web:my-data-erase"), {"confirm": "erase"})
    assert not TravellerProfile.objects.filter(user=traveller).exists()


def test_staff_see_only_their_organisations_passengers(client, family_trip, traveller, support, globex_support):
    name_family(family_trip, traveller)
    profile_save(user=traveller, data=LEAD)
    url = reverse("admin:trips_trippassenger_changelist")
    sign_in(client, support)
    assert "Lovelace" in client.get(url).content.decode()
    assert "Lovelace" in client.get(reverse("admin:trips_travellerprofile_changelist")).content.decode()
    sign_in(client, globex_support)
    assert "Lovelace" not in client.get(url).content.decode()
    assert "Lovelace" not in client.get(reverse("admin:trips_travellerprofile_changelist")).content.decode()


def test_profile_and_companion_edits_are_audited_without_their_values(traveller):
    from trips.models import AccountEvent

    profile_save(user=traveller, data=LEAD)
    profile_save(user=traveller, data={**LEAD, "phone_number": "+1 212 555 0100"})
    son = companion_save(user=traveller, data={**BABY, "label": "my son"})
    companion_save(user=traveller, data={**BABY, "given_name": "Leo", "label": "my son"}, companion=son)
    from trips.services.travellers import companion_delete

    companion_delete(user=traveller, companion_id=son.pk)
    traveller_erase(user=traveller)

    events = list(AccountEvent.objects.filter(user=traveller).order_by("pk"))
    assert [(e.type, e.actor) for e in events] == [
        ("profile.saved", f"user:{traveller.pk}"),
        ("profile.saved", f"user:{traveller.pk}"),
        ("companion.saved", f"user:{traveller.pk}"),
        ("companion.saved", f"user:{traveller.pk}"),
        ("companion.deleted", f"user:{traveller.pk}"),
        ("traveller.data_erased", f"user:{traveller.pk}"),
    ]
    assert events[0].payload["created"] is True and "born_on" in events[0].payload["fields_changed"]
    assert events[1].payload == {"created": False, "fields_changed": ["phone_number"]}
    assert events[3].payload == {"companion_id": son.pk, "created": False, "fields_changed": ["given_name"]}
    assert events[5].payload == {"profile": True, "companions": 0}
    from trips.models import AppendOnlyError

    for change in (events[0].save, events[0].delete, AccountEvent.objects.all().delete):
        with pytest.raises(AppendOnlyError):
            change()
    stored = json.dumps([e.payload for e in events])
    for secret in ("Lovelace", "1985-12-10", "2026-03-01", "2080160508", "5550100", "Leo", "ada@example.com"):
        assert secret not in stored


def test_a_refused_profile_edit_records_nothing(traveller):
    from trips.models import AccountEvent

    with pytest.raises(ValidationError):
        profile_save(user=traveller, data={**LEAD, "given_name": "Zoë"})
    assert not AccountEvent.objects.exists() and not TravellerProfile.objects.exists()


def test_a_companion_remembered_from_the_trip_card_is_audited(family_trip, traveller):
    from trips.models import AccountEvent

    trip_passengers_set(
        trip=family_trip,
        actor=traveller,
        passengers=[{"type": "adult", **LEAD}, {"type": "infant", "infant_of": "0", "remember": True, **BABY}],
    )
    event = AccountEvent.objects.get(user=traveller, type="companion.saved")
    assert event.payload["created"] is True and "Teo" not in json.dumps(event.payload)


def test_the_chat_live_card_loads_and_saves_as_json(client, family_trip, traveller, other_traveller):
    profile_save(user=traveller, data=LEAD)
    url, as_json = reverse("web:trip-travellers", args=[family_trip.pk]), {"HTTP_ACCEPT": "application/json"}
    sign_in(client, traveller)
    card = client.get(url, **as_json)
    assert card.status_code == 200 and card["Cache-Control"] == "no-store"
    data = card.json()
    assert (data["named"], data["wanted"]) == (0, 2) and [s["type"] for s in data["seats"]] == ["adult", "infant"]
    lead = {f["name"]: f for f in data["seats"][0]["fields"]}
    assert lead["p0-family_name"]["value"] == "Lovelace" and lead["p0-family_name"]["label"].startswith("Last name")
    assert data["seats"][0]["source"] == "profile" and data["seats"][1]["fields"][5]["label"] == "Email (optional)"

    form = {f"p0-{k}": v for k, v in LEAD.items()} | {f"p1-{k}": v for k, v in BABY.items()} | {"p1-infant_of": "0"}
    refused = client.post(url, {**form, "p1-born_on": "2010-01-01"}, **as_json)
    assert refused.status_code == 400 and not TripPassenger.objects.exists()
    infant = {f["name"]: f for f in refused.json()["seats"][1]["fields"]}
    assert infant["p1-born_on"]["errors"] and infant["p1-born_on"]["value"] == "2010-01-01"

    saved = client.post(url, form, **as_json)
    assert saved.status_code == 200 and saved.json()["saved"] is True
    assert (saved.json()["named"], saved.json()["wanted"]) == (2, 2)
    assert TripPassenger.objects.filter(trip=family_trip).count() == 2
    # The answer to the save is the card as read back from the database, from what was just saved.
    again = client.get(url, **as_json).json()
    assert saved.json()["seats"] == again["seats"] and again["named"] == 2
    assert {f["name"]: f["value"] for f in again["seats"][1]["fields"]}["p1-born_on"] == "2026-03-01"

    sign_in(client, other_traveller)
    assert client.get(url, **as_json).status_code == 404 and client.post(url, form, **as_json).status_code == 404


def test_the_chat_page_tells_the_live_card_where_the_form_is_for_the_owner_only(
    client, family_trip, traveller, support
):
    sign_in(client, traveller)
    page = client.get(reverse("web:trip", args=[family_trip.pk])).content.decode()
    assert '"travellers_url": ' + json.dumps(reverse("web:trip-travellers", args=[family_trip.pk])) in page
    sign_in(client, support)
    watched = client.get(reverse("web:trip", args=[family_trip.pk]))
    assert watched.status_code == 200 and '"travellers_url": null' in watched.content.decode()


@pytest.mark.parametrize(
    ("phase", "asks"), [("presenting", True), ("selected", True), ("held", False), ("purchased", False)]
)
def test_the_page_card_asks_for_names_only_before_anything_is_held(client, family_trip, traveller, phase, asks):
    """Once something is held or booked (the sandbox needs no names) the card stays folded and says
    only how many are named: it no longer opens over the chat asking for names "before anything is held"."""
    family_trip.phase = phase
    family_trip.save(update_fields=["phase"])
    sign_in(client, traveller)
    page = client.get(reverse("web:trip", args=[family_trip.pk])).content.decode()
    card = page.split('<details class="card travellers-card"')[1].split(">", 1)
    assert (" open" in card[0]) is asks
    assert ("name everyone before anything is held" in card[1].split("</summary>")[0]) is asks
    assert "0 of 2 named" in card[1].split("</summary>")[0]


def test_erase_keeps_the_names_of_a_trip_on_hold_until_the_holds_end(family_trip, traveller):
    """Paying for a hold needs its names: erasing them while it is held would let a purchase go ahead with nobody named."""
    from django.utils import timezone

    from tests.trips.commerce.helpers import hold_for
    from trips.models import Hold

    name_family(family_trip, traveller)
    hold_for(family_trip, now=timezone.now())
    done = traveller_erase(user=traveller)
    assert done["trip_passengers"] == 0 and [k["trip_id"] for k in done["kept"]] == [family_trip.pk]
    assert "on hold" in done["kept"][0]["why"] and TripPassenger.objects.filter(trip=family_trip).count() == 2
    assert (
        AuditEvent.objects.get(trip=family_trip, type="traveller.data_erased").payload["outcome"] == "kept_while_held"
    )

    Hold.objects.filter(trip=family_trip).update(status=Hold.Status.RELEASED)
    assert traveller_erase(user=traveller)["trip_passengers"] == 2  # the holds ended: erased
    assert not TripPassenger.objects.filter(trip=family_trip).exists()
