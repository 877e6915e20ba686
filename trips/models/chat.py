"""The chat of a trip: what the traveller said and what TripDesk answered, in ``seq`` order."""

from django.db import models

from .json_text import ChatWidgetDecoder, ChatWidgetEncoder
from .trip import Trip


class ChatMessage(models.Model):
    class Role(models.TextChoices):
        USER = "user"
        ASSISTANT = "assistant"
        SYSTEM = "system"

    class Kind(models.TextChoices):
        MESSAGE = "message"
        ACTION = "action"  # a button press (select, hold, purchase …) shown as the user's message
        PROGRESS = "progress"
        ERROR = "error"
        STATUS = "status"

    class TurnStatus(models.TextChoices):
        """Only user messages start turns; everything else stays ``NONE``."""

        NONE = "", "—"
        QUEUED = "queued"
        DONE = "done"
        FAILED = "failed"

    trip = models.ForeignKey(Trip, on_delete=models.CASCADE, related_name="messages")
    seq = models.PositiveIntegerField()
    role = models.CharField(max_length=16, choices=Role.choices)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.MESSAGE)
    text = models.TextField(blank=True)
    widget = models.JSONField(
        null=True,
        blank=True,
        encoder=ChatWidgetEncoder,
        decoder=ChatWidgetDecoder,
        help_text="What the message shows; a bundles widget is stored with its bundles as tables (handlers.stored).",
    )
    # The turn's input event (never a purchase token: those are never stored).
    event = models.JSONField(null=True, blank=True)
    client_id = models.CharField(max_length=64, blank=True, help_text="The browser's id, for idempotent sends.")
    turn_status = models.CharField(max_length=8, choices=TurnStatus.choices, default=TurnStatus.NONE, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["trip", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["trip", "seq"], name="chatmessage_unique_trip_seq"),
            models.UniqueConstraint(
                fields=["trip", "client_id"], condition=~models.Q(client_id=""), name="chatmessage_unique_client_id"
            ),
        ]
        indexes = [models.Index(fields=["trip", "turn_status"], name="chatmessage_pending_turns")]

    def __str__(self) -> str:
        return f"{self.trip_id}#{self.seq} {self.role}: {self.text[:40]}"
