"""The back office shows times in the staff member's zone: their organisation's (Django's ``timezone.activate``)."""

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils import timezone

from trips.access import STAFF_ROLES
from trips.models import Membership


class StaffTimezoneMiddleware:
    """Under ``/admin/``, activate the zone of the first organisation where the signed-in person is staff.

    Every admin date is then shown in that zone and labelled with it (``tripdesk.formats``);
    superusers without a membership, and everyone elsewhere, keep UTC (labelled too).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        zone = self._zone(request) if request.path.startswith("/admin/") else None
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    @staticmethod
    def _zone(request):
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        name = (
            Membership.objects.filter(user_id=user.pk, role__in=STAFF_ROLES)
            .order_by("pk")
            .values_list("organisation__timezone", flat=True)
            .first()
        )
        try:
            return ZoneInfo(name) if name else None
        except (ZoneInfoNotFoundError, ValueError):
            return None
