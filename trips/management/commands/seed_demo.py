"""``manage.py seed_demo``: demo organisations and people, and how to sign in as each."""

import copy
import os

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from handlers.common.defaults import DEFAULT_POLICY
from trips.models import Membership
from trips.services.orgs import member_add, organisation_create
from trips.services.payment_methods import payment_method_create

Role = Membership.Role
# (username, organisation slug or None, role, superuser)
PEOPLE = [
    ("alice", "acme", Role.TRAVELLER, False),
    ("bob", "acme", Role.TRAVELLER, False),
    ("gina", "globex", Role.TRAVELLER, False),
    ("sam", "acme", Role.SUPPORT, False),
    ("ann", "acme", Role.APPROVER, False),
    ("greg", "globex", Role.APPROVER, False),
    ("admin", None, None, True),
]


def globex_policy() -> dict:
    """Globex: holds wait for an approver's yes."""
    policy = copy.deepcopy(DEFAULT_POLICY)
    policy["rules"]["holds_allowed_without_approval"] = False
    return policy


def demo_password(username: str) -> str:
    return f"{username}-demo"


class Command(BaseCommand):
    help = "Create the demo organisations (Acme Travel, Globex) and users; safe to run again."

    def handle(self, *args, **options):
        organisations = {
            "acme": organisation_create(name="Acme Travel", slug="acme"),
            "globex": organisation_create(name="Globex", slug="globex", policy=globex_policy()),
        }
        User = get_user_model()
        rows = []
        for username, org_slug, role, superuser in PEOPLE:
            user, created = User.objects.get_or_create(username=username, defaults={"email": f"{username}@example.com"})
            if created:
                user.set_password(demo_password(username))
                user.is_staff = user.is_superuser = superuser
                user.save()
            if org_slug:
                member_add(user=user, organisation=organisations[org_slug], role=role)
                if role == Role.TRAVELLER:
                    self._payment_method(user)
            rows.append((username, demo_password(username), org_slug or "all", "superuser" if superuser else role))
        address = os.environ.get("TRIPDESK_ADDR") or "127.0.0.1:8000"  # what ./scripts/run serves on
        self.stdout.write(self.style.SUCCESS(f"Demo users (sign in at http://{address}/ ; staff use /admin/):"))
        for username, password, org, role in rows:
            self.stdout.write(f"  {username:<6} password {password:<12} {org:<7} {role}")

    def _payment_method(self, user) -> None:
        """A sandbox card for each traveller."""
        if not user.payment_methods.exists():
            payment_method_create(owner=user, brand="visa", last4="4242", label="Sandbox Visa")
