"""Who travels: a traveller's own profile, the companions they book for, and each trip's passengers.

Personal data lives only in these rows. The mission core, tool runs, audit payloads and every
LLM request see a passenger as a reference (``TripPassenger.ref``, its type and, for a child,
its age); the supplier adapter gets the details at the call that needs them
(``trips.hosting.passengers``). Every write goes through ``trips.services.travellers``.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Dict, Optional

from django.conf import settings
from django.db import models

from handlers.supplier.passengers import age_on


class PersonalDetails(models.Model):
    """The fields suppliers ask for, names exactly as on the travel document."""

    class Title(models.TextChoices):
        MR = "mr", "Mr"
        MS = "ms", "Ms"
        MRS = "mrs", "Mrs"
        MISS = "miss", "Miss"
        DR = "dr", "Dr"

    class Gender(models.TextChoices):
        M = "m", "Male"
        F = "f", "Female"

    title = models.CharField(max_length=8, choices=Title.choices, blank=True)
    given_name = models.CharField(max_length=35, help_text="As on the passport or ID, A–Z only.")
    family_name = models.CharField(max_length=35, help_text="As on the passport or ID, A–Z only.")
    born_on = models.DateField(null=True, blank=True)
    gender = models.CharField(max_length=1, choices=Gender.choices, blank=True)
    email = models.EmailField(blank=True)
    phone_number = models.CharField(max_length=20, blank=True, help_text="International form (E.164).")
    known_traveller_number = models.CharField(max_length=32, blank=True)
    loyalty_programmes = models.JSONField(
        default=list, blank=True, help_text='[{"airline_iata_code": "BA", "account_number": "12901014"}]'
    )

    PERSONAL_FIELDS = (
        "title",
        "given_name",
        "family_name",
        "born_on",
        "gender",
        "email",
        "phone_number",
        "known_traveller_number",
        "loyalty_programmes",
    )

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.given_name} {self.family_name}".strip()

    def details(self) -> Dict[str, Any]:
        """The personal fields as a supplier wants them (ISO date, None for blanks)."""
        out: Dict[str, Any] = {}
        for name in self.PERSONAL_FIELDS:
            value = getattr(self, name)
            if isinstance(value, date):
                value = value.isoformat()
            out[name] = value if value not in ("", [], None) else None
        return out

    def age_on(self, day: date) -> Optional[int]:
        return age_on(self.born_on, day) if self.born_on else None


class TravellerProfile(PersonalDetails):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="traveller_profile")
    updated_at = models.DateTimeField(auto_now=True)


class Companion(PersonalDetails):
    """Someone a traveller books for (a child, a partner, a colleague)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="companions")
    label = models.CharField(max_length=64, blank=True, help_text="How the traveller calls them, e.g. 'my son'.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["owner", "created_at"]


class TripPassenger(PersonalDetails):
    """One seat (or lap) on a trip: a copy of the details at the time they were named.

    A booked trip keeps its passengers when the traveller erases their data: the airline's
    ticket and the booking records the law requires carry these names.
    """

    class Type(models.TextChoices):
        ADULT = "adult", "Adult"
        CHILD = "child", "Child"
        INFANT = "infant", "Lap infant"

    trip = models.ForeignKey("trips.Trip", on_delete=models.CASCADE, related_name="passengers")
    ref = models.CharField(max_length=32, help_text="The opaque reference the core and suppliers see.")
    passenger_type = models.CharField(max_length=8, choices=Type.choices)
    infant_of = models.CharField(max_length=32, blank=True, help_text="A lap infant's adult (its ref).")
    position = models.PositiveSmallIntegerField(default=0)
    source = models.CharField(max_length=16, blank=True, help_text="profile, companion or typed.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["trip", "position"]
        constraints = [models.UniqueConstraint(fields=["trip", "ref"], name="trip_passenger_ref_unique")]
