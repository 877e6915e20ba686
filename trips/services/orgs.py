"""Organisations and their people (travellers, support staff, approvers)."""

from typing import Optional

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from trips.access import STAFF_ROLES
from trips.models import Membership, Organisation
from trips.models.org import default_policy


def organisation_create(
    *, name: str, slug: str, policy: Optional[dict] = None, timezone: str = "America/New_York"
) -> Organisation:
    """Create the organisation, or update the policy of the one with this slug."""
    organisation, _ = Organisation.objects.update_or_create(
        slug=slug, defaults={"name": name, "policy": policy or default_policy(), "timezone": timezone}
    )
    return organisation


def member_add(*, user: AbstractBaseUser, organisation: Organisation, role: str) -> Membership:
    """Make ``user`` a member in ``role``; a staff role (support, approver, organisation admin) opens the admin.

    The role holds in this organisation only (``trips.access``).
    """
    with transaction.atomic(durable=True):
        membership, _ = Membership.objects.update_or_create(
            user=user, organisation=organisation, defaults={"role": role}
        )
        if role in STAFF_ROLES and not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
    return membership
