"""The append-only audit trail: a gap-free ``seq`` per trip, redacted payloads."""

from django.conf import settings
from django.db import models

from .trip import Trip


class AppendOnlyError(Exception):
    """Audit events are never changed or deleted."""


class AuditEventQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError("audit events are append-only")

    def delete(self):
        raise AppendOnlyError("audit events are append-only")


class AppendOnly(models.Model):
    """A row written once: saving it again or deleting it raises ``AppendOnlyError``."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise AppendOnlyError("audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("audit events are append-only")


class AuditEvent(AppendOnly):
    trip = models.ForeignKey(Trip, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64, db_index=True)
    actor = models.CharField(max_length=100, help_text='"user:<id>", "staff:<id>", "system" or "worker".')
    actor_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    causation_id = models.CharField(max_length=100, blank=True, help_text="What caused it: message, tool call, …")
    payload = models.JSONField(default=dict, help_text="Redacted.")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["trip", "seq"]
        constraints = [models.UniqueConstraint(fields=["trip", "seq"], name="auditevent_unique_trip_seq")]

    def __str__(self) -> str:
        return f"{self.trip_id}#{self.seq} {self.type}"


class AccountEvent(AppendOnly):
    """What happened to a person's own data outside any trip (their profile, their companions,
    an erasure): append-only like ``AuditEvent``, with field names and counts in the payload,
    never the personal values themselves."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="account_events",
        help_text="Whose data it was.",
    )
    type = models.CharField(max_length=64, db_index=True)
    actor = models.CharField(max_length=100, help_text='"user:<id>" or "system".')
    payload = models.JSONField(default=dict, help_text="Redacted; field names and counts only.")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["user", "pk"]

    def __str__(self) -> str:
        return f"user {self.user_id}: {self.type}"
