"""The tool registry and the tool runs of each trip."""

from django.contrib import admin

from handlers.tools import returned_result
from trips.models import ToolDefinition, ToolRun

from .base import SlimListMixin, TripScopedAdmin, pretty_json


@admin.register(ToolDefinition)
class ToolDefinitionAdmin(admin.ModelAdmin):
    """Superusers may switch a tool off or change its timeout; the handler path is the code's business."""

    list_display = ["name", "registry_key", "handler", "timeout_s", "side_effects", "internal", "enabled", "version"]
    list_filter = ["registry_key", "enabled", "side_effects"]
    search_fields = ["name", "handler"]
    readonly_fields = ["name", "registry_key", "handler", "schema_pretty", "updated_at"]
    fields = [
        "name",
        "registry_key",
        "handler",
        "description",
        "timeout_s",
        "side_effects",
        "read_only",
        "internal",
        "enabled",
        "version",
        "schema_pretty",
        "updated_at",
    ]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="schema")
    def schema_pretty(self, obj: ToolDefinition) -> str:
        return pretty_json(obj.schema)


@admin.register(ToolRun)
class ToolRunAdmin(SlimListMixin, TripScopedAdmin):
    list_display = ["call_id", "trip", "tool", "status", "attempt", "latency_ms", "created_at"]
    list_filter = ["status", "tool"]
    search_fields = ["call_id", "trip__id", "tool"]
    list_select_related = ["trip"]
    ordering = ["-created_at"]
    fields = [
        "trip",
        "message",
        "call_id",
        "tool",
        "status",
        "attempt",
        "latency_ms",
        "created_at",
        "error_pretty",
        "arguments_pretty",
        "result_pretty",
    ]
    readonly_fields = fields

    def list_queryset(self, queryset):
        return queryset.defer("arguments", "result")  # the list never shows them

    @admin.display(description="error")
    def error_pretty(self, obj: ToolRun) -> str:
        return pretty_json(obj.error)

    @admin.display(description="arguments (redacted)")
    def arguments_pretty(self, obj: ToolRun) -> str:
        return pretty_json(obj.arguments)

    @admin.display(description="result (redacted)")
    def result_pretty(self, obj: ToolRun) -> str:
        """As the tool returned it: a search's offers, stored as one table, one by one again."""
        return pretty_json(returned_result(obj.result))
