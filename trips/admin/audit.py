"""The audit trail in the back office: readable by staff, never added, changed or deleted by anyone."""

from django.contrib import admin

from trips.models import AuditEvent

from .base import TripScopedAdmin, pretty_json


@admin.register(AuditEvent)
class AuditEventAdmin(TripScopedAdmin):
    list_display = ["trip", "seq", "type", "actor", "causation_id", "created_at"]
    list_filter = ["type", "created_at"]
    search_fields = ["trip__id", "type", "actor", "causation_id"]
    list_select_related = ["trip"]
    ordering = ["-created_at"]
    fields = ["trip", "seq", "type", "actor", "actor_user", "causation_id", "created_at", "payload_pretty"]
    readonly_fields = fields
    actions = None

    @admin.display(description="payload")
    def payload_pretty(self, obj: AuditEvent) -> str:
        return pretty_json(obj.payload)
