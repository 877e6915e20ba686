import pytest
from django.contrib.auth.models import AnonymousUser, Group, Permission
from django.core.exceptions import PermissionDenied

from tests.factories import trip_make, user_make
from trips.access import ROLE_POWERS, may, may_write_in, require, trip_get_for_user, trips_visible_to
from trips.models import Membership, Trip
from trips.services.orgs import member_add


def test_owner_sees_only_their_trips(trip, traveller, other_traveller):
    trip_make(owner=other_traveller, organisation=trip.organisation)
    assert list(trips_visible_to(traveller)) == [trip]


def test_staff_see_their_organisations_trips_only(trip, support, approver, globex_support, globex):
    foreign = trip_make(organisation=globex)
    assert set(trips_visible_to(support)) == {trip}
    assert set(trips_visible_to(approver)) == {trip}
    assert set(trips_visible_to(globex_support)) == {foreign}


def test_a_traveller_member_is_not_staff(trip, other_traveller):
    assert not trips_visible_to(other_traveller).filter(pk=trip.pk).exists()


def test_superuser_sees_everything(trip, superuser, globex):
    foreign = trip_make(organisation=globex)
    assert set(trips_visible_to(superuser)) == {trip, foreign}


def test_anonymous_sees_nothing(trip):
    assert not trips_visible_to(AnonymousUser()).exists()


def test_trip_get_for_user_does_not_tell_missing_from_forbidden(trip, traveller, other_traveller):
    """Someone else's trip and no trip at all are the same answer: ids cannot be probed."""
    assert trip_get_for_user(traveller, trip.pk) == trip
    for user, trip_id in ((other_traveller, trip.pk), (traveller, trip.pk + 1000), (traveller, "x")):
        with pytest.raises(Trip.DoesNotExist):
            trip_get_for_user(user, trip_id)


@pytest.mark.parametrize("role", [Membership.Role.SUPPORT, Membership.Role.APPROVER, Membership.Role.ORG_ADMIN])
def test_a_staff_role_holds_in_its_organisation_only(role, trip, acme, globex):
    """Staff in Globex who also travel for Acme are travellers in Acme: no power crosses."""
    user = user_make(organisation=globex, role=role)
    Membership.objects.create(user=user, organisation=acme, role=Membership.Role.TRAVELLER)
    home = trip_make(organisation=globex)
    assert set(trips_visible_to(user)) == {home}
    for power in ROLE_POWERS[role]:
        assert may(user, power, organisation_id=globex.pk)
        assert not may(user, power, organisation_id=acme.pk)
        assert user.has_perm(power), "the admin shows the page or button (model level)"
        assert not user.has_perm(power, trip) and user.has_perm(power, home), "object level: the trip's organisation"
    with pytest.raises(PermissionDenied):
        require(user, next(iter(ROLE_POWERS[role])), organisation_id=acme.pk, refusal="no")


def test_global_permissions_grant_no_power_over_trips(trip, other_traveller):
    """A permission given by hand (a group, a user permission) grants nothing: only roles do."""
    group = Group.objects.create(name="Deciders")
    group.permissions.add(Permission.objects.get(codename="decide_approvalrequest"))
    other_traveller.groups.add(group)
    other_traveller.user_permissions.add(Permission.objects.get(codename="view_trip"))
    other_traveller = type(other_traveller).objects.get(pk=other_traveller.pk)
    assert not other_traveller.has_perm("trips.decide_approvalrequest")
    assert not other_traveller.has_perm("trips.view_trip")
    assert not may(other_traveller, "trips.decide_approvalrequest", organisation_id=trip.organisation_id)
    assert not trips_visible_to(other_traveller).filter(pk=trip.pk).exists()


def test_only_the_owner_writes(trip, traveller, support, superuser):
    assert may_write_in(traveller, trip)
    assert not may_write_in(support, trip) and not may_write_in(superuser, trip)
    assert not may_write_in(AnonymousUser(), trip)


def test_staff_roles_open_the_admin(acme):
    user = user_make()
    member_add(user=user, organisation=acme, role=Membership.Role.ORG_ADMIN)
    user.refresh_from_db()
    assert user.is_staff and not user.groups.exists()
