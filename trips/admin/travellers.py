"""Travellers' personal data in the back office: read-only, and only for the organisation's staff.

Support staff and approvers see the passengers of their organisation's trips and the profiles
and companions of its members; nobody edits them here (travellers do, from their own pages).
"""

from django.contrib import admin

from trips.access import staff_organisation_ids
from trips.models import Companion, TravellerProfile, TripPassenger

from .base import ReadOnlyAdminMixin, TripScopedAdmin

PERSON = ["title", "given_name", "family_name", "born_on", "gender", "email", "phone_number"]


@admin.register(TripPassenger)
class TripPassengerAdmin(TripScopedAdmin):
    list_display = ["trip", "position", "passenger_type", "given_name", "family_name", "ref"]
    list_filter = ["passenger_type"]
    search_fields = ["trip__id", "family_name", "ref"]
    fields = [
        "trip",
        "ref",
        "passenger_type",
        "infant_of",
        "position",
        "source",
        *PERSON,
        "known_traveller_number",
        "loyalty_programmes",
        "created_at",
    ]


class MembersOnlyAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Rows of a person: staff see those of their organisations' members; superusers all."""

    user_field = "user"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        orgs = staff_organisation_ids(request.user)
        return queryset.filter(**{f"{self.user_field}__memberships__organisation_id__in": orgs}).distinct()


@admin.register(TravellerProfile)
class TravellerProfileAdmin(MembersOnlyAdmin):
    list_display = ["user", "given_name", "family_name", "updated_at"]
    search_fields = ["user__username", "family_name"]
    fields = ["user", *PERSON, "known_traveller_number", "loyalty_programmes", "updated_at"]


@admin.register(Companion)
class CompanionAdmin(MembersOnlyAdmin):
    user_field = "owner"
    list_display = ["owner", "label", "given_name", "family_name", "created_at"]
    search_fields = ["owner__username", "family_name"]
    fields = ["owner", "label", *PERSON, "known_traveller_number", "loyalty_programmes", "created_at"]
