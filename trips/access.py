"""Who may do what: the one rule the API, the websocket, the pages, the admin and the services use.

Every power is held *per organisation*: a membership carries one role (traveller, support staff,
approver, organisation admin) and the role decides what its holder may do with that
organisation's trips — nothing else. Being an approver in Globex gives no power over Acme's
trips, even to someone who also travels for Acme. Superusers hold every power everywhere.

- ``may(user, power, organisation_id=…)`` / ``require(…)``: one power in one organisation.
- ``organisations_where(user, power)``: the organisations in which ``user`` holds ``power``.
- ``trips_visible_to`` / ``trip_get_for_user``: the trips a user may read (their own, and every
  trip of an organisation where their role reads trips).
- ``may_write_in(user, trip)``: only the trip's traveller writes in it (messages, actions).
- Staff powers need a second factor: a user whose sign-in has not proved one
  (``second_factor_verified``, django-otp's ``user.otp_device``) holds no power anywhere and
  reads only their own trips, whatever their role (``trips.twofactor``).
- ``OrganisationRoleBackend``: the Django auth backend that answers ``user.has_perm`` for the
  admin's model-level checks from the same table (a staff page or action button shows when the
  user holds that power in *some* organisation; the service then checks the trip's own).

Global groups and per-user permissions confer nothing: ``PasswordBackend`` checks passwords but
grants no permission, the services never consult them, and the admin no longer offers them
(``trips.admin.users``). So no admin form can make a user whose powers reach another organisation.
"""

from typing import Iterable, Optional

from django.contrib.auth.backends import BaseBackend, ModelBackend
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet

from trips.models import Membership, Trip

Role = Membership.Role

# What every staff role reads (the same list the historical 0003 migration froze for the old groups).
READ_MODELS = (
    "organisation",
    "membership",
    "trip",
    "chatmessage",
    "tooldefinition",
    "toolrun",
    "auditevent",
    "hold",
    "approvalrequest",
    "booking",
    # who travels: the passengers of the organisation's trips, its members' profiles and companions
    "trippassenger",
    "travellerprofile",
    "companion",
)
READ = frozenset(f"trips.view_{model}" for model in READ_MODELS)

VIEW_TRIPS = "trips.view_trip"
FLAG = "trips.flag_trip"
RETRY = "trips.retry_tool"
RELEASE = "trips.release_hold"
DECIDE = "trips.decide_approvalrequest"
MANAGE_ORGANISATION = "trips.change_organisation"
# An organisation admin changes its members' roles and removes members; adding people is a superuser's.
MANAGE_MEMBERS = frozenset({"trips.change_membership", "trips.delete_membership"})

ROLE_POWERS: dict[str, frozenset[str]] = {
    Role.TRAVELLER: frozenset(),
    Role.SUPPORT: READ | {FLAG, RETRY, RELEASE},
    Role.APPROVER: READ | {DECIDE},
    Role.ORG_ADMIN: READ | {MANAGE_ORGANISATION} | MANAGE_MEMBERS,
}
STAFF_ROLES = frozenset(role for role, powers in ROLE_POWERS.items() if powers)
# Roles that must prove a second factor at sign-in (trips.web.twofactor).
SECOND_FACTOR_ROLES = frozenset({Role.SUPPORT, Role.APPROVER, Role.ORG_ADMIN})


def roles_with(power: str) -> list[str]:
    return [role for role, powers in ROLE_POWERS.items() if power in powers]


def _signed_in(user: Optional[AbstractBaseUser | AnonymousUser]) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def second_factor_verified(user: Optional[AbstractBaseUser | AnonymousUser]) -> bool:
    """Whether this sign-in proved a second factor (django-otp sets ``user.otp_device``)."""
    return getattr(user, "otp_device", None) is not None


def _staff_powers_on(user: Optional[AbstractBaseUser | AnonymousUser]) -> bool:
    """Signed in with a verified second factor: only then do roles (and superuser status) count."""
    return _signed_in(user) and second_factor_verified(user)


def role_in(user: AbstractBaseUser | AnonymousUser, organisation_id: int) -> Optional[str]:
    """``user``'s role in the organisation, or ``None`` when they are not a member."""
    if not _signed_in(user):
        return None
    return (
        Membership.objects.filter(user_id=user.pk, organisation_id=organisation_id)
        .values_list("role", flat=True)
        .first()
    )


def may(user: AbstractBaseUser | AnonymousUser, power: str, *, organisation_id: int) -> bool:
    """Whether ``user`` holds ``power`` in this organisation (by their role there), signed in with a second factor."""
    return _staff_powers_on(user) and _role_grants(user, power, organisation_id)


def _role_grants(user, power: str, organisation_id: int) -> bool:
    if user.is_superuser:
        return True
    return power in ROLE_POWERS.get(role_in(user, organisation_id) or "", frozenset())


def require(user: AbstractBaseUser | AnonymousUser, power: str, *, organisation_id: int, refusal: str) -> None:
    """Raise ``PermissionDenied(refusal)`` unless ``may(user, power, organisation_id=…)``."""
    if not may(user, power, organisation_id=organisation_id):
        raise PermissionDenied(refusal)


def organisations_where(user: AbstractBaseUser | AnonymousUser, power: str) -> QuerySet:
    """Ids of the organisations where ``user`` holds ``power`` (a subquery; superusers: all)."""
    from trips.models import Organisation

    if not _staff_powers_on(user):
        return Organisation.objects.none().values("pk")
    if user.is_superuser:
        return Organisation.objects.values("pk")
    return Membership.objects.filter(user_id=user.pk, role__in=roles_with(power)).values("organisation_id")


def staff_organisation_ids(user: AbstractBaseUser | AnonymousUser) -> QuerySet:
    """Organisations whose trips ``user`` reads as staff (support, approver or organisation admin)."""
    return organisations_where(user, VIEW_TRIPS)


def trips_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Trip]:
    """Trips ``user`` may read: their own; every trip of an organisation where their role reads trips."""
    if not _signed_in(user):
        return Trip.objects.none()
    if not _staff_powers_on(user):
        return Trip.objects.filter(owner_id=user.pk)
    if user.is_superuser:
        return Trip.objects.all()
    return Trip.objects.filter(Q(owner_id=user.pk) | Q(organisation_id__in=staff_organisation_ids(user)))


def trip_get_for_user(user: AbstractBaseUser | AnonymousUser, trip_id: int | str) -> Trip:
    """The trip, if ``user`` may see it; ``Trip.DoesNotExist`` otherwise.

    An unknown id and someone else's trip are the same answer, so ids cannot be probed.
    """
    try:
        trip_id = int(trip_id)
    except (TypeError, ValueError):
        raise Trip.DoesNotExist("no such trip") from None
    return trips_visible_to(user).select_related("organisation", "owner").get(pk=trip_id)


def may_write_in(user: AbstractBaseUser | AnonymousUser, trip: Trip) -> bool:
    """Only the trip's traveller says things and presses buttons in it (staff act in the admin)."""
    return _signed_in(user) and trip.owner_id == user.pk


def trip_may(user: AbstractBaseUser | AnonymousUser, power: str, trip_id: int) -> bool:
    """``may`` for the organisation of trip ``trip_id``."""
    organisation_id = Trip.objects.filter(pk=trip_id).values_list("organisation_id", flat=True).first()
    return organisation_id is not None and may(user, power, organisation_id=organisation_id)


def holds_second_factor_role(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether ``user`` is support, approver or organisation admin anywhere (or a superuser)."""
    if not _signed_in(user):
        return False
    return user.is_superuser or Membership.objects.filter(user_id=user.pk, role__in=SECOND_FACTOR_ROLES).exists()


class PasswordBackend(ModelBackend):
    """Django's username/password sign-in, without its global group and user permissions."""

    def get_user_permissions(self, user_obj, obj=None) -> set[str]:
        return set()

    def get_group_permissions(self, user_obj, obj=None) -> set[str]:
        return set()

    def get_all_permissions(self, user_obj, obj=None) -> set[str]:
        return set()

    def has_perm(self, user_obj, perm, obj=None) -> bool:
        return False

    def has_module_perms(self, user_obj, app_label) -> bool:
        return False


class OrganisationRoleBackend(BaseBackend):
    """``has_perm`` from memberships: the powers of every role the user holds somewhere.

    Only the admin's model-level checks (which pages and buttons to show) ask without an object;
    with an ``obj`` that belongs to an organisation, only the role in *that* organisation counts.
    """

    def get_all_permissions(self, user_obj, obj=None) -> set[str]:
        if not _staff_powers_on(user_obj) or user_obj.is_anonymous:
            return set()
        if obj is not None:
            organisation_id = _organisation_of(obj)
            if organisation_id is None:
                return set()
            return set(ROLE_POWERS.get(role_in(user_obj, organisation_id) or "", ()))
        if not hasattr(user_obj, "_organisation_role_perms"):
            roles: Iterable[str] = Membership.objects.filter(user_id=user_obj.pk).values_list("role", flat=True)
            user_obj._organisation_role_perms = set().union(*(ROLE_POWERS.get(r, ()) for r in roles))
        return set(user_obj._organisation_role_perms)

    def has_perm(self, user_obj, perm, obj=None) -> bool:
        return perm in self.get_all_permissions(user_obj, obj)

    def has_module_perms(self, user_obj, app_label) -> bool:
        return any(perm.startswith(f"{app_label}.") for perm in self.get_all_permissions(user_obj))


def _organisation_of(obj) -> Optional[int]:
    from trips.models import Organisation

    if isinstance(obj, Organisation):
        return obj.pk
    organisation_id = getattr(obj, "organisation_id", None)
    if organisation_id is None and getattr(obj, "trip_id", None) is not None:
        organisation_id = Trip.objects.filter(pk=obj.trip_id).values_list("organisation_id", flat=True).first()
    return organisation_id
