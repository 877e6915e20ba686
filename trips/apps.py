from django.apps import AppConfig


class TripsConfig(AppConfig):
    name = "trips"
    verbose_name = "TripDesk"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the system checks)
        from .hosting.embedded import start_if_wanted
        from .web import signals  # noqa: F401  (signing out closes the user's websockets)

        start_if_wanted()  # runserver on the embedded default: resume turns a killed server left queued
