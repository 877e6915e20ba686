"""``manage.py replay_trip <trip_id>``: prove a trip's recorded turns rebuild its stored TripIntent."""

from django.core.management.base import BaseCommand, CommandError

from trips.hosting.replay import trip_replay
from trips.models import Trip


class Command(BaseCommand):
    help = "Replay a trip's recorded turns (events, times, tool results) and compare with the stored TripIntent."

    def add_arguments(self, parser):
        parser.add_argument("trip_id", type=int)

    def handle(self, *args, trip_id: int, **options):
        try:
            trip = Trip.objects.get(pk=trip_id)
        except Trip.DoesNotExist:
            raise CommandError(f"no trip {trip_id}") from None
        result = trip_replay(trip=trip)
        summary = f"trip {trip_id}: {result.turns} turns, {result.tool_calls} recorded tool results replayed"
        if result.matches:
            self.stdout.write(
                self.style.SUCCESS(f"{summary}; the TripIntent matches (version {result.stored.get('version')}).")
            )
            return
        self.stdout.write(f"{summary}; {len(result.differences)} differences:")
        for line in result.differences:
            self.stdout.write(f"  {line}")
        raise CommandError("the replay does not reproduce the stored TripIntent")
