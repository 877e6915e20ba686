"""What every back-office page shares: organisation scoping and read-only, pretty JSON."""

import json
from typing import Any

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.utils.html import format_html

from trips.access import trips_visible_to


def pretty_json(value: Any, *, sort_keys: bool = True) -> str:
    """JSON as an indented, escaped ``<pre>`` block (``sort_keys=False`` keeps a document's own order)."""
    return format_html(
        '<pre class="tripdesk-json" style="white-space: pre-wrap; max-height: 40em; overflow: auto">{}</pre>',
        json.dumps(value, indent=2, sort_keys=sort_keys, ensure_ascii=False, default=str),
    )


class SlimChangeList(ChangeList):
    """A changelist whose rows pass through the model admin's ``list_queryset()``."""

    def get_queryset(self, request, exclude_parameters=None):
        return self.model_admin.list_queryset(super().get_queryset(request, exclude_parameters))


class SlimListMixin:
    """Lists load only what they show: ``list_queryset()`` defers the large JSON of the rows.

    (Replacing ``changelist.queryset`` after ``get_changelist_instance()`` is too late: the
    page's rows were already taken from it.)
    """

    def get_changelist(self, request, **kwargs):
        return SlimChangeList

    def list_queryset(self, queryset):
        return queryset


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
    """A read-only table of a trip's rows on the trip page.

    Its template leaves out the "original" line Django prints above each row (the row's
    ``__str__``, which only repeats its columns); a column links to the row's own page instead.
    """

    template = "admin/trips/edit_inline/readonly_tabular.html"
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
