"""Who may see a trip: the one rule the API, the websocket consumer and the admin all use."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet

from trips.models import Membership, Trip

STAFF_GROUPS = ("Support", "Approvers")


def staff_organisation_ids(user: AbstractBaseUser | AnonymousUser) -> QuerySet:
    """Organisations whose trips ``user`` handles as support staff or approver."""
    return Membership.objects.filter(user_id=user.pk, user__groups__name__in=STAFF_GROUPS).values("organisation_id")


def trips_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Trip]:
    """Trips ``user`` may read: their own; their organisation's if they are staff; all for a superuser."""
    if not user.is_authenticated:
        return Trip.objects.none()
    if user.is_superuser:
        return Trip.objects.all()
    return Trip.objects.filter(Q(owner_id=user.pk) | Q(organisation_id__in=staff_organisation_ids(user)))


def trip_get_for_user(user: AbstractBaseUser | AnonymousUser, trip_id: int | str) -> Trip:
    """The trip, if ``user`` may see it.

    Raises ``Trip.DoesNotExist`` for an unknown id and ``PermissionDenied`` for someone else's trip.
    """
    try:
        return trips_visible_to(user).select_related("organisation", "owner").get(pk=trip_id)
    except Trip.DoesNotExist:
        if Trip.objects.filter(pk=trip_id).exists():
            raise PermissionDenied("this trip belongs to someone else") from None
        raise
