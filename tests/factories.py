"""Model factories for the Django tests: small functions, explicit arguments, sensible defaults."""

from itertools import count
from typing import Optional

from django.contrib.auth.models import User

from trips.models import Membership, Organisation, Trip
from trips.services.trips import trip_create

_n = count(1)


def organisation_make(*, name: Optional[str] = None, policy: Optional[dict] = None) -> Organisation:
    n = next(_n)
    name = name or f"Org {n}"
    org = Organisation(name=name, slug=f"{name.lower().replace(' ', '-')}-{n}")
    if policy is not None:
        org.policy = policy
    org.save()
    return org


def user_make(
    *,
    organisation: Optional[Organisation] = None,
    role: str = Membership.Role.TRAVELLER,
    username: Optional[str] = None,
    superuser: bool = False,
) -> User:
    """A user; a staff ``role`` (support, approver, organisation admin) also makes them admin staff."""
    username = username or f"user{next(_n)}"
    staff = superuser or role != Membership.Role.TRAVELLER
    user = User.objects.create_user(username=username, password="pw", is_staff=staff, is_superuser=superuser)
    if organisation is not None:
        Membership.objects.create(user=user, organisation=organisation, role=role)
    return user


def trip_make(*, owner: Optional[User] = None, organisation: Optional[Organisation] = None, title: str = "") -> Trip:
    organisation = organisation or organisation_make()
    owner = owner or user_make(organisation=organisation)
    return trip_create(owner=owner, organisation=organisation, title=title)
