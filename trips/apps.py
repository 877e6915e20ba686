from django.apps import AppConfig


class TripsConfig(AppConfig):
    name = "trips"
    verbose_name = "TripDesk"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the system checks)
        from .hosting.embedded import start_if_wanted
        from .services.dispatch import senders_register
        from .tasks.notify import notification_send_on_commit
        from .tasks.turns import run_turn
        from .web import signals  # noqa: F401  (signing out closes the user's websockets)

        # Services queue tasks through these (they never import the tasks, which import them).
        senders_register(
            turn=lambda trip_id, message_id: run_turn.delay_on_commit(trip_id, message_id),
            notification=notification_send_on_commit,
        )
        start_if_wanted()  # runserver on the embedded default: resume turns a killed server left queued
