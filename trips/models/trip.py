"""A trip: its owner, organisation and the TripIntent document the mission core maintains."""

from datetime import datetime
from decimal import Decimal
from typing import Any, Optional

from django.conf import settings
from django.db import connections, models

from handlers.common.intent import PHASES, STATES

from .json_text import TripIntentDecoder, TripIntentEncoder
from .org import Organisation


class Phase(models.TextChoices):
    """``status.phase`` of the TripIntent (handlers.common.intent.PHASES), mirrored for indexing."""

    INTAKE = "intake"
    QUOTING = "quoting"
    PRESENTING = "presenting"
    SELECTED = "selected"
    AWAITING_HOLD_APPROVAL = "awaiting_hold_approval"
    HELD = "held"
    APPROVED = "approved"
    PURCHASED = "purchased"
    NEEDS_ATTENTION = "needs_attention"


class State(models.TextChoices):
    NEEDS_INPUT = "needs_input"
    READY = "ready"
    RUNNING = "running"
    ERROR = "error"
    DONE = "done"
    BLOCKED = "blocked"


assert tuple(Phase.values) == PHASES and tuple(State.values) == STATES, "Phase/State drifted from the core"


class TripQuerySet(models.QuerySet):
    def counter_next(self, *, trip_id: int, field: str, touch: Optional[datetime] = None, by: int = 1) -> int:
        """Add ``by`` (one) to a per-trip counter and return it, in one ``UPDATE … RETURNING``.

        The row stays locked until the caller's transaction ends, so concurrent writers take
        numbers one after another and a rolled-back write gives its number back: no gaps.
        ``touch`` also sets ``last_activity_at``. With ``by`` > 1 the caller owns the block of
        numbers ending at the one returned.
        """
        return self.counters_next(trip_id=trip_id, by={field: by}, touch=touch)[field]

    def counters_next(self, *, trip_id: int, by: dict[str, int], touch: Optional[datetime] = None) -> dict[str, int]:
        """``counter_next`` for several counters of one trip in the same statement (a turn's
        transaction numbers its audit events and chat messages with one ``UPDATE … RETURNING``)."""
        taken = self.counters_next_with(trip_id=trip_id, by=by, touch=touch)
        if taken is None:
            raise self.model.DoesNotExist(f"no trip {trip_id}")
        return taken

    def counters_next_with(
        self,
        *,
        trip_id: int,
        by: dict[str, int],
        touch: Optional[datetime] = None,
        fields: Optional[dict[str, Any]] = None,
        where: Optional[dict[str, Any]] = None,
    ) -> Optional[dict[str, int]]:
        """``counters_next`` that also sets ``fields`` of the row, only if its columns still hold
        ``where`` (``{"version": 3}``): the TripIntent's versioned save and the lease's hand-back
        take the turn's sequence numbers in their own UPDATE. None when no row matched (nothing
        changed, no number taken)."""
        connection = connections[self.db]
        quote = connection.ops.quote_name
        counters = [name for name, n in by.items() if n]
        assignments: list[str] = []
        params: list[object] = []
        for name in counters:
            column = quote(self.model._meta.get_field(name).column)
            assignments.append(f"{column} = {column} + %s")
            params.append(int(by[name]))
        values = dict(fields or {})
        if touch is not None:
            values.setdefault("last_activity_at", touch)
        for name, value in values.items():
            field = self.model._meta.get_field(name)
            assignments.append(f"{quote(field.column)} = %s")
            params.append(field.get_db_prep_save(value, connection))
        conditions = [f"{quote('id')} = %s"]
        params.append(trip_id)
        for name, value in (where or {}).items():
            field = self.model._meta.get_field(name)
            conditions.append(f"{quote(field.column)} = %s")
            params.append(field.get_db_prep_value(value, connection))
        if not assignments:
            return {}
        returned = [quote(self.model._meta.get_field(name).column) for name in counters] or [quote("id")]
        table = quote(self.model._meta.db_table)
        sql = f"UPDATE {table} SET {', '.join(assignments)} WHERE {' AND '.join(conditions)} RETURNING {', '.join(returned)}"
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        return dict(zip(counters, row[: len(counters)], strict=True))


class Trip(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="trips")
    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="trips")
    title = models.CharField(max_length=200, blank=True)
    intent = models.JSONField(
        default=dict,
        encoder=TripIntentEncoder,
        decoder=TripIntentDecoder,
        help_text="The TripIntent document (handlers.common.intent); stored with its bundles as tables (handlers.stored).",
    )
    version = models.PositiveIntegerField(default=0, help_text="Bumped by every save of the intent.")
    phase = models.CharField(max_length=32, choices=Phase.choices, default=Phase.INTAKE, db_index=True)
    state = models.CharField(max_length=16, choices=State.choices, default=State.NEEDS_INPUT, db_index=True)
    flagged = models.BooleanField(default=False, db_index=True, help_text="Flagged for staff attention.")
    llm_cost = models.DecimalField(max_digits=12, decimal_places=6, default=Decimal("0"))
    # Per-trip counters: incremented under the row lock so chat and audit sequences have no gaps.
    last_message_seq = models.PositiveIntegerField(default=0)
    last_event_seq = models.PositiveIntegerField(default=0)
    # The turn lease: one worker at a time runs a trip's turns (see trips.services.turns).
    turn_lease_until = models.DateTimeField(null=True, blank=True)
    last_activity_at = models.DateTimeField(db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TripQuerySet.as_manager()

    class Meta:
        ordering = ["-last_activity_at"]
        permissions = [
            ("flag_trip", "Can flag a trip for attention"),
            ("retry_tool", "Can retry a failed tool"),
            ("release_hold", "Can release a trip's hold"),
        ]

    def __str__(self) -> str:
        return self.title or f"Trip {self.pk}"
