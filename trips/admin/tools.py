"""The tool registry and the tool runs of each trip."""

from django.contrib import admin
from django.contrib.admin.utils import unquote

from handlers.tools import returned_result
from trips.models import ToolDefinition, ToolRun

from .base import SlimListMixin, TripScopedAdmin, pretty_json
from .search_listing import PAGE_PARAM, result_folded, search_listing


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
    change_form_template = "admin/trips/toolrun/change_form.html"
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

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """A search's page lists its offers a page at a time below the result (``search_listing``)."""
        run = self.get_object(request, unquote(object_id))
        listing = search_listing(returned_result(run.result), request.GET.get(PAGE_PARAM)) if run else None
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), "search_listing": listing})

    @admin.display(description="error")
    def error_pretty(self, obj: ToolRun) -> str:
        return pretty_json(obj.error)

    @admin.display(description="arguments (redacted)")
    def arguments_pretty(self, obj: ToolRun) -> str:
        return pretty_json(obj.arguments)

    @admin.display(description="result (redacted)")
    def result_pretty(self, obj: ToolRun) -> str:
        """As the tool returned it, but a search's offers: those are listed below, a page at a time."""
        return pretty_json(result_folded(returned_result(obj.result)))
