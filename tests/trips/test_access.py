import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from tests.factories import trip_make
from trips.access import trip_get_for_user, trips_visible_to
from trips.models import Trip


def test_owner_sees_only_their_trips(trip, traveller, other_traveller):
    trip_make(owner=other_traveller, organisation=trip.organisation)
    assert list(trips_visible_to(traveller)) == [trip]


def test_staff_see_their_organisations_trips_only(trip, support, approver, globex_support, globex):
    foreign = trip_make(organisation=globex)
    assert set(trips_visible_to(support)) == {trip}
    assert set(trips_visible_to(approver)) == {trip}
    assert set(trips_visible_to(globex_support)) == {foreign}


def test_a_member_without_a_staff_group_is_not_staff(trip, other_traveller):
    assert not trips_visible_to(other_traveller).filter(pk=trip.pk).exists()


def test_superuser_sees_everything(trip, superuser, globex):
    foreign = trip_make(organisation=globex)
    assert set(trips_visible_to(superuser)) == {trip, foreign}


def test_anonymous_sees_nothing(trip):
    assert not trips_visible_to(AnonymousUser()).exists()


def test_trip_get_for_user_tells_missing_from_forbidden(trip, traveller, other_traveller):
    assert trip_get_for_user(traveller, trip.pk) == trip
    with pytest.raises(PermissionDenied):
        trip_get_for_user(other_traveller, trip.pk)
    with pytest.raises(Trip.DoesNotExist):
        trip_get_for_user(traveller, trip.pk + 1000)
