"""A trip's TripIntent and its bundles card are stored with their bundles as tables
(``handlers.stored``) and read as documents everywhere: the ORM, the API, the chat history, the
replay; rows stored before tables read the same."""

import json

import pytest
from django.db import connection
from rest_framework.test import APIClient

from trips.hosting.replay import trip_replay
from trips.models import ChatMessage, Trip
from trips.services.turns import turn_submit

pytestmark = pytest.mark.django_db(transaction=True)  # tools run in the core's worker threads

SCENARIO_1 = "4 people going from Newark to Denver for 3 nights on January 30"


def _raw(sql, params):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0]


def _text(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _bundles_message(trip):
    return next(
        m for m in ChatMessage.objects.filter(trip=trip).order_by("seq") if (m.widget or {}).get("type") == "bundles"
    )


def test_a_search_turn_stores_its_bundles_as_tables_and_every_reader_reads_bundles(trip, traveller, frozen):
    turn_submit(trip=trip, user=traveller, text=SCENARIO_1)
    intent = Trip.objects.get(pk=trip.pk).intent
    bundles = intent["working_memory"]["ranked_bundles"]
    assert len(bundles) == 5 and all(f["summary"]["carrier"] for b in bundles for f in b["flights"])
    stored = _raw("SELECT intent FROM trips_trip WHERE id = %s", [trip.pk])
    assert '"ranked_bundles_table"' in stored and '"ranked_bundles"' not in stored
    assert len(stored) < 0.8 * len(_text(intent))

    message = _bundles_message(trip)
    stored_widget = _raw("SELECT widget FROM trips_chatmessage WHERE id = %s", [message.pk])
    assert '"bundles_table"' in stored_widget and len(stored_widget) < 0.8 * len(_text(message.widget))
    assert [b["bundle_id"] for b in message.widget["bundles"]] == [b["bundle_id"] for b in bundles]

    api = APIClient()
    api.force_authenticate(traveller)
    assert api.get(f"/api/trips/{trip.pk}/").json()["intent"]["working_memory"]["ranked_bundles"] == bundles
    shown = [m["widget"] for m in api.get(f"/api/trips/{trip.pk}/messages/").json()["results"]]
    assert message.widget in shown, "the chat history reads the card as it was shown"


def test_rows_stored_before_tables_read_the_same_turn_on_and_replay(trip, traveller, frozen):
    turn_submit(trip=trip, user=traveller, text=SCENARIO_1)
    intent = Trip.objects.get(pk=trip.pk).intent
    message = _bundles_message(trip)
    with connection.cursor() as cursor:  # as written before: the documents' own JSON
        cursor.execute("UPDATE trips_trip SET intent = %s WHERE id = %s", [_text(intent), trip.pk])
        cursor.execute("UPDATE trips_chatmessage SET widget = %s WHERE id = %s", [_text(message.widget), message.pk])
    assert '"ranked_bundles":' in _raw("SELECT intent FROM trips_trip WHERE id = %s", [trip.pk])
    assert Trip.objects.get(pk=trip.pk).intent == intent
    assert ChatMessage.objects.get(pk=message.pk).widget == message.widget
    assert trip_replay(trip=trip).matches
    turn_submit(trip=trip, user=traveller, action={"type": "select", "bundle_id": "B2"})
    assert Trip.objects.get(pk=trip.pk).intent["working_memory"]["selected"]["bundle_id"] == "B2"
    assert trip_replay(trip=trip).matches
