from io import StringIO

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import RequestFactory

from trips.access import trips_visible_to
from trips.models import Membership, Organisation
from trips.services.trips import trip_create


def test_seed_demo_creates_people_who_can_sign_in_and_is_idempotent(db):
    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=StringIO())
    printed = out.getvalue()
    for name in ("alice", "bob", "gina", "sam", "ann", "greg", "admin"):
        assert f"{name}-demo" in printed
        sign_in = RequestFactory().post("/signin/")  # every sign-in carries its request (throttling needs it)
        assert authenticate(sign_in, username=name, password=f"{name}-demo") is not None
    assert Membership.objects.count() == 6
    assert [str(m) for m in User.objects.get(username="alice").payment_methods.all()] == ["Sandbox Visa"]
    assert not User.objects.get(username="sam").payment_methods.exists()
    globex = Organisation.objects.get(slug="globex")
    assert globex.policy["rules"]["holds_allowed_without_approval"] is False
    assert Organisation.objects.get(slug="acme").policy["rules"]["holds_allowed_without_approval"] is True


def test_demo_roles_see_what_they_should(db):
    call_command("seed_demo", stdout=StringIO())
    users = {u.username: u for u in User.objects.all()}
    trip = trip_create(owner=users["alice"])
    assert trip.organisation.slug == "acme"
    assert trips_visible_to(users["sam"]).filter(pk=trip.pk).exists()
    assert trips_visible_to(users["ann"]).filter(pk=trip.pk).exists()
    assert not trips_visible_to(users["greg"]).filter(pk=trip.pk).exists()
    assert not trips_visible_to(users["bob"]).filter(pk=trip.pk).exists()
    assert users["ann"].has_perm("trips.decide_approvalrequest") and not users["sam"].has_perm(
        "trips.decide_approvalrequest"
    )
    assert users["sam"].is_staff and not users["alice"].is_staff
