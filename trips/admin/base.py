"""What every back-office page shares: organisation scoping and read-only, pretty JSON."""

import json
from typing import Any

from django.contrib import admin
from django.utils.html import format_html

from trips.access import trips_visible_to


def pretty_json(value: Any) -> str:
    """JSON as an indented, escaped ``<pre>`` block."""
    return format_html(
        '<pre class="tripdesk-json" style="white-space: pre-wrap; max-height: 40em; overflow: auto">{}</pre>',
        json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str),
    )


class ReadOnlyAdminMixin:
    """Records written only by services: shown, never added, edited or deleted in the admin."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class TripScopedAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Rows that belong to a trip: staff see only their organisation's (``trips_visible_to``)."""

    trip_field = "trip"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{f"{self.trip_field}__in": trips_visible_to(request.user)})


class TripScopedInline(admin.TabularInline):
    """A read-only table of a trip's rows on the trip page."""

    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def get_readonly_fields(self, request, obj=None):
        return self.fields
