"""When the embedded server's turn sweeper starts, and what one round does."""

from datetime import timedelta

import pytest
from django.utils import timezone

from trips.hosting.embedded import sweep_once, wanted
from trips.models import AuditEvent, ChatMessage, Trip
from trips.services.turns import turn_leases_reclaim


def test_only_runserver_s_serving_process_on_eager_celery_sweeps(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert wanted(["manage.py", "runserver", "--noreload"], {})
    assert wanted(["manage.py", "runserver"], {"RUN_MAIN": "true"})
    assert not wanted(["manage.py", "runserver"], {}), "the autoreloader's parent serves nothing"
    assert not wanted(["manage.py", "migrate"], {})
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert not wanted(["manage.py", "runserver", "--noreload"], {}), "workers and beat do it there"


@pytest.mark.django_db
def test_a_dead_process_s_lease_is_reclaimed_and_its_queued_turn_runs(
    trip, traveller, monkeypatch, django_capture_on_commit_callbacks
):
    ran = []
    monkeypatch.setattr("trips.tasks.turns.run_turn.delay", lambda trip_id, message_id: ran.append(trip_id))
    Trip.objects.filter(pk=trip.pk).update(turn_lease_until=timezone.now() + timedelta(seconds=120))
    ChatMessage.objects.create(trip=trip, seq=1, role="user", text="hi", turn_status=ChatMessage.TurnStatus.QUEUED)
    assert sweep_once(after=timedelta(0)) == 0, "a live lease is respected"
    assert turn_leases_reclaim() == 1
    assert AuditEvent.objects.filter(trip=trip, type="turn.lease_reclaimed").count() == 1
    with django_capture_on_commit_callbacks(execute=True):  # the sweeper runs outside any transaction
        assert sweep_once(after=timedelta(0)) == 1
    assert ran == [trip.pk]
