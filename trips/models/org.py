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
    name = models.CharField(max_length=200)
    slug = models.SlugField(unique=True)
    policy = models.JSONField(default=default_policy, help_text="The travel policy the mission core enforces.")
    timezone = models.CharField(max_length=64, default="America/New_York")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def as_core_org(self) -> dict:
        """The ``org`` the handlers receive in every payload and ``handler_call``."""
        return {"id": self.slug, "name": self.name, "policy": copy.deepcopy(self.policy), "timezone": self.timezone}


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
