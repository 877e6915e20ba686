import re
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client, RequestFactory
from django_otp.plugins.otp_totp.models import TOTPDevice

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
    # Named once, not again: a demo hold's names card comes prefilled for a party of up to six.
    alice = User.objects.get(username="alice")
    assert alice.traveller_profile.family_name == "Aliceson" and alice.traveller_profile.email == "alice@example.com"
    assert alice.companions.count() == 5
    assert not hasattr(User.objects.get(username="sam"), "traveller_profile")
    globex = Organisation.objects.get(slug="globex")
    assert globex.policy["rules"]["holds_allowed_without_approval"] is False
    assert Organisation.objects.get(slug="acme").policy["rules"]["holds_allowed_without_approval"] is True


def test_demo_roles_see_what_they_should(db):
    call_command("seed_demo", stdout=StringIO())
    users = {u.username: u for u in User.objects.all()}
    for name in ("sam", "ann", "greg"):  # as after their second step (the next test takes it for real)
        users[name].otp_device = TOTPDevice.objects.get(user=users[name], confirmed=True)
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


def test_a_demo_approver_signs_in_with_the_printed_second_factor(db, settings):
    """The README's way in: the password, then a code from ``seed_demo --otp-code`` or a printed recovery code."""
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    out = StringIO()
    call_command("seed_demo", stdout=out)
    printed = out.getvalue()
    key_line = next(line for line in printed.splitlines() if line.strip().startswith("ann ") and " key " in line)
    assert "otpauth://totp/TripDesk%3Aann?secret=" in key_line
    recovery = re.search(r"recovery codes \(shown once\): (.+)", printed.split("  ann ")[-1]).group(1).split()
    assert len(recovery) == 10
    again = StringIO()
    call_command("seed_demo", stdout=again)
    assert key_line in again.getvalue() and "recovery codes" not in again.getvalue(), "same key; codes shown once"
    client = Client()
    response = client.post("/signin/", {"username": "ann", "password": "ann-demo", "next": "/admin/"})
    assert response["Location"].startswith("/account/two-factor/verify/")
    code = StringIO()
    call_command("seed_demo", "--otp-code", "ann", stdout=code)
    assert re.fullmatch(r"\d{6}\n", code.getvalue())
    assert (
        client.post("/account/two-factor/verify/", {"token": code.getvalue().strip(), "next": "/admin/"})["Location"]
        == "/admin/"
    )
    assert client.get("/admin/trips/approvalrequest/").status_code == 200
    other = Client()
    other.post("/signin/", {"username": "ann", "password": "ann-demo"})
    assert other.post("/account/two-factor/verify/", {"token": recovery[0]}).status_code == 302
    with pytest.raises(CommandError):
        call_command("seed_demo", "--otp-code", "alice", stdout=StringIO())


def test_seed_demo_prints_the_address_tripdesk_serves_on(db, monkeypatch):
    """``TRIPDESK_ADDR`` (what ./scripts/run serves on) is the address printed, not always port 8000."""
    monkeypatch.setenv("TRIPDESK_ADDR", "0.0.0.0:8123")
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert "sign in at http://0.0.0.0:8123/" in out.getvalue() and ":8000" not in out.getvalue()
    monkeypatch.delenv("TRIPDESK_ADDR")
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert "sign in at http://127.0.0.1:8000/" in out.getvalue()
