"""Organisations (their travel policy) and memberships.

What each person may do here is their role in the organisation (``trips.access``): staff read
their organisation's members; an organisation admin edits its policy, changes members' roles and
removes members; only a superuser adds people or organisations, and a role never reaches beyond
its own organisation.
"""

from django.contrib import admin

from trips.access import MANAGE_ORGANISATION, may, staff_organisation_ids
from trips.models import Membership, Organisation

from .base import pretty_json

CHANGE_MEMBERSHIP, DELETE_MEMBERSHIP = "trips.change_membership", "trips.delete_membership"


def _may(request, power: str, organisation_id) -> bool:
    return organisation_id is not None and may(request.user, power, organisation_id=organisation_id)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]

    def get_readonly_fields(self, request, obj=None):
        return [] if request.user.is_superuser else ["user"]

    def has_add_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser or _may(request, CHANGE_MEMBERSHIP, getattr(obj, "pk", None))

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser or _may(request, DELETE_MEMBERSHIP, getattr(obj, "pk", None))


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "timezone", "locale", "created_at"]
    search_fields = ["name", "slug"]
    readonly_fields = ["policy_pretty", "created_at"]
    fields = ["name", "slug", "timezone", "locale", "policy", "policy_pretty", "created_at"]
    inlines = [MembershipInline]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(pk__in=staff_organisation_ids(request.user))

    def has_add_permission(self, request) -> bool:
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None) -> bool:
        if obj is None:
            return super().has_change_permission(request)
        return _may(request, MANAGE_ORGANISATION, obj.pk)

    @admin.display(description="policy as the core reads it")
    def policy_pretty(self, obj: Organisation) -> str:
        return pretty_json(obj.policy)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "organisation", "role", "created_at"]
    list_filter = ["role", ("organisation", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["user__username", "organisation__name"]
    list_select_related = ["user", "organisation"]
    autocomplete_fields = ["user"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(organisation_id__in=staff_organisation_ids(request.user))

    def get_readonly_fields(self, request, obj=None):
        return [] if request.user.is_superuser else ["user", "organisation"]

    def has_add_permission(self, request) -> bool:
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None) -> bool:
        if obj is None:
            return super().has_change_permission(request)
        return _may(request, CHANGE_MEMBERSHIP, obj.organisation_id)

    def has_delete_permission(self, request, obj=None) -> bool:
        if obj is None:
            return super().has_delete_permission(request)
        return _may(request, DELETE_MEMBERSHIP, obj.organisation_id)
