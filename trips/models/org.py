"""Organisations own a travel policy; members are travellers, support staff, approvers or organisation admins.

A membership's role decides what its holder may do with that organisation's trips, and nothing
else (``trips.access``)."""

import copy

from django.conf import settings
from django.db import models

from handlers.common.defaults import DEFAULT_POLICY


def default_policy() -> dict:
    return copy.deepcopy(DEFAULT_POLICY)


class Organisation(models.Model):
    class Locale(models.TextChoices):
        """How the organisation's travellers write numbers and dates: "03/04" is March 4 in the
        United States, 3 April almost everywhere else (the extractor reads it so, and asks only
        where the locale leaves it open)."""

        EN_US = "en-US", "English (United States): 03/04 is March 4"
        EN_CA = "en-CA", "English (Canada): 03/04 is 3 April"
        EN_GB = "en-GB", "English (United Kingdom): 03/04 is 3 April"
        EN_IE = "en-IE", "English (Ireland): 03/04 is 3 April"
        EN_AU = "en-AU", "English (Australia): 03/04 is 3 April"
        EN_NZ = "en-NZ", "English (New Zealand): 03/04 is 3 April"
        EN_IN = "en-IN", "English (India): 03/04 is 3 April"
        EN_ZA = "en-ZA", "English (South Africa): 03/04 is 3 April"
        EN_SG = "en-SG", "English (Singapore): 03/04 is 3 April"

    name = models.CharField(max_length=200)
    slug = models.SlugField(unique=True)
    policy = models.JSONField(default=default_policy, help_text="The travel policy the mission core enforces.")
    timezone = models.CharField(max_length=64, default="America/New_York")
    locale = models.CharField(
        max_length=16,
        choices=Locale.choices,
        default=Locale.EN_US,
        help_text="How travellers write dates: a numeric date such as 03/04 is read day-first or month-first by it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def as_core_org(self) -> dict:
        """The ``org`` the handlers receive in every payload and ``handler_call``."""
        return {
            "id": self.slug,
            "name": self.name,
            "policy": copy.deepcopy(self.policy),
            "timezone": self.timezone,
            "locale": self.locale,
        }


class Membership(models.Model):
    class Role(models.TextChoices):
        TRAVELLER = "traveller", "Traveller"
        SUPPORT = "support", "Support staff"
        APPROVER = "approver", "Approver"
        ORG_ADMIN = "org_admin", "Organisation admin"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.TRAVELLER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "organisation"], name="membership_unique_user_org")]

    def __str__(self) -> str:
        return f"{self.user} @ {self.organisation} ({self.role})"
