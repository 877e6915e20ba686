"""Organisations (their travel policy) and memberships."""

from django.contrib import admin

from trips.access import staff_organisation_ids
from trips.models import Membership, Organisation

from .base import pretty_json


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "timezone", "created_at"]
    search_fields = ["name", "slug"]
    readonly_fields = ["policy_pretty", "created_at"]
    fields = ["name", "slug", "timezone", "policy", "policy_pretty", "created_at"]
    inlines = [MembershipInline]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(pk__in=staff_organisation_ids(request.user))

    @admin.display(description="policy as the core reads it")
    def policy_pretty(self, obj: Organisation) -> str:
        return pretty_json(obj.policy)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "organisation", "role", "created_at"]
    list_filter = ["role", "organisation"]
    search_fields = ["user__username", "organisation__name"]
    list_select_related = ["user", "organisation"]
    autocomplete_fields = ["user"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(organisation_id__in=staff_organisation_ids(request.user))
