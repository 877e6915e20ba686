"""``manage.py seed_demo``: demo organisations and people, and how to sign in as each.

Staff sign in with a second factor, so each demo staff user gets an authenticator-app device
(made once, random per database): the command prints its key and otpauth URL every time, and
its recovery codes the first time. ``seed_demo --otp-code ann`` prints the current 6-digit code
for a demo staff user who has no phone at hand.
"""

import copy
import os

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from handlers.common.defaults import DEFAULT_POLICY
from trips.models import Membership, TravellerProfile
from trips.services.orgs import member_add, organisation_create
from trips.services.payment_methods import payment_method_create
from trips.services.travellers import companion_save, profile_save
from trips.services.twofactor import DEMO_TOTP_NAME, totp_enrol_for_demo, totp_key_base32
from trips.twofactor import required as second_factor_required

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


DEMO_PERSON = {"title": "ms", "gender": "f", "born_on": "1986-04-12"}
DEMO_COMPANIONS = [
    ("Ben", "1984-02-03"),
    ("Cara", "1990-07-21"),
    ("Dan", "1979-11-30"),
    ("Eve", "1992-01-15"),
    ("Finn", "1988-09-09"),
]


def globex_policy() -> dict:
    """Globex: holds wait for an approver's yes."""
    policy = copy.deepcopy(DEFAULT_POLICY)
    policy["rules"]["holds_allowed_without_approval"] = False
    return policy


def demo_travellers(user) -> None:
    """A profile and five adult companions for a demo traveller, so a demo hold's "Who's travelling"
    card comes prefilled (a party of up to six) and is saved in one press; kept if already there."""
    if TravellerProfile.objects.filter(user=user).exists():
        return
    family = user.username.capitalize() + "son"
    profile_save(
        user=user,
        data={
            **DEMO_PERSON,
            "given_name": user.username.capitalize(),
            "family_name": family,
            "email": user.email or f"{user.username}@example.com",
            "phone_number": "+44 20 8016 0508",
        },
    )
    for given, born in DEMO_COMPANIONS:
        companion_save(user=user, data={**DEMO_PERSON, "given_name": given, "family_name": family, "born_on": born})


def demo_password(username: str) -> str:
    return f"{username}-demo"


class Command(BaseCommand):
    help = "Create the demo organisations (Acme Travel, Globex) and users; safe to run again."

    def add_arguments(self, parser):
        parser.add_argument(
            "--otp-code", metavar="USERNAME", help="print the current 6-digit code of a demo staff user"
        )

    def handle(self, *args, **options):
        if options.get("otp_code"):
            self._print_code(options["otp_code"])
            return
        organisations = {
            "acme": organisation_create(name="Acme Travel", slug="acme"),
            "globex": organisation_create(name="Globex", slug="globex", policy=globex_policy()),
        }
        User = get_user_model()
        rows = []
        second_factors = []
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
                    demo_travellers(user)
            rows.append((username, demo_password(username), org_slug or "all", "superuser" if superuser else role))
            if second_factor_required(user):
                second_factors.append((username, *totp_enrol_for_demo(user=user)))
        address = os.environ.get("TRIPDESK_ADDR") or "127.0.0.1:8000"  # what ./scripts/run serves on
        self.stdout.write(self.style.SUCCESS(f"Demo users (sign in at http://{address}/ ; staff use /admin/):"))
        for username, password, org, role in rows:
            self.stdout.write(f"  {username:<6} password {password:<12} {org:<7} {role}")
        self.stdout.write(
            self.style.SUCCESS("Staff also give a second factor: add a key to an authenticator app, or print a code")
        )
        self.stdout.write("  with `python manage.py seed_demo --otp-code USERNAME`, or use a recovery code.")
        for username, device, codes in second_factors:
            self.stdout.write(f"  {username:<6} key {totp_key_base32(device)}  {device.config_url}")
            if codes:
                self.stdout.write(f"         recovery codes (shown once): {' '.join(codes)}")

    def _print_code(self, username: str) -> None:
        """The current code of a demo staff user's demo authenticator (only those seed_demo made)."""
        if username not in {person[0] for person in PEOPLE}:
            raise CommandError(f"{username!r} is not a demo user.")
        device = TOTPDevice.objects.filter(user__username=username, name=DEMO_TOTP_NAME, confirmed=True).first()
        if device is None:
            raise CommandError(f"{username!r} has no demo authenticator: run `python manage.py seed_demo` first.")
        totp = TOTP(device.bin_key, step=device.step, t0=device.t0, digits=device.digits)
        self.stdout.write(f"{totp.token():0{device.digits}d}")

    def _payment_method(self, user) -> None:
        """A sandbox card for each traveller."""
        if not user.payment_methods.exists():
            payment_method_create(owner=user, brand="visa", last4="4242", label="Sandbox Visa")
