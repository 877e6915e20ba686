"""Model factories for the Django tests: small functions, explicit arguments, sensible defaults."""

from itertools import count
from typing import Optional

from django.contrib.auth.models import User
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

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
    second_factor: Optional[bool] = None,
) -> User:
    """A user; a staff ``role`` (support, approver, organisation admin) also makes them admin staff.

    Staff and superusers get a verified second factor by default (``second_factor_give``), as
    their real sign-in would; ``second_factor=False`` makes one who has not set it up.
    """
    username = username or f"user{next(_n)}"
    staff = superuser or role != Membership.Role.TRAVELLER
    user = User.objects.create_user(username=username, password="pw", is_staff=staff, is_superuser=superuser)
    if organisation is not None:
        Membership.objects.create(user=user, organisation=organisation, role=role)
    if staff if second_factor is None else second_factor:
        second_factor_give(user)
    return user


def second_factor_give(user: User) -> TOTPDevice:
    """A confirmed authenticator-app device, and ``user`` marked as verified with it.

    The mark (``user.otp_device``) is what django-otp's middleware sets after the second step;
    services called with this object see a verified sign-in. A test client signs in with
    ``sign_in`` to get the same in its session.
    """
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name="Test authenticator", confirmed=True)
    user.otp_device = device
    return device


def sign_in(client, user: User, *, verified: bool = True) -> None:
    """``client.force_login(user)``, and, if ``user`` has a confirmed device, the second step done too.

    Travellers without a second factor just sign in; ``verified=False`` stops after the password.
    """
    client.force_login(user)
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if verified and device is not None:
        session = client.session
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()


def totp_code(device: TOTPDevice, *, at: Optional[float] = None) -> str:
    """The code the authenticator app shows now (or at time ``at``)."""
    totp = TOTP(device.bin_key, step=device.step, t0=device.t0, digits=device.digits)
    if at is not None:
        totp.time = at
    return f"{totp.token():0{device.digits}d}"


def trip_make(*, owner: Optional[User] = None, organisation: Optional[Organisation] = None, title: str = "") -> Trip:
    organisation = organisation or organisation_make()
    owner = owner or user_make(organisation=organisation)
    return trip_create(owner=owner, organisation=organisation, title=title)


def passengers_name(trip: Trip) -> None:
    """Name one passenger per seat of the trip's party (as the traveller's card does), so it can be held."""
    from trips.services.travellers import seats_wanted, trip_passengers_set

    trip.refresh_from_db()
    born = {"adult": "1980-03-04", "child": "2016-05-06", "infant": "2026-06-01"}
    ages = iter(sorted(int(a) for a in ((trip.intent or {}).get("party") or {}).get("child_ages") or []))
    people = []
    for i, kind in enumerate(seats_wanted(trip)):
        person = {"type": kind, "title": "ms", "gender": "f", "given_name": f"Pat{chr(65 + i)}", "family_name": "Doe"}
        person["born_on"] = born[kind]
        if kind == "child":
            age = next(ages, 8)
            person["born_on"] = f"{2026 - age - 1}-01-01"
        if kind == "infant":
            person["infant_of"] = "0"
        if i == 0:
            person.update(email="pat@example.com", phone_number="+442080160508")
        people.append(person)
    trip_passengers_set(trip=trip, actor=trip.owner, passengers=people)
