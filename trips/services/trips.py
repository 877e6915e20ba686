"""Creating trips and keeping their indexed columns in step with the TripIntent."""

from typing import Optional

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from handlers.common.intent import new_trip_intent
from trips.models import Membership, Organisation, Trip

from .audit import actor_for, audit_record


def organisation_of(user: AbstractBaseUser) -> Organisation:
    """The organisation a traveller books for (their first membership)."""
    membership = Membership.objects.select_related("organisation").filter(user=user).order_by("pk").first()
    if membership is None:
        raise Organisation.DoesNotExist(f"{user} belongs to no organisation")
    return membership.organisation


def trip_create(*, owner: AbstractBaseUser, organisation: Optional[Organisation] = None, title: str = "") -> Trip:
    """A new trip whose TripIntent starts empty, with the organisation's policy and time zone.

    The first audit event keeps that starting document: ``replay_trip`` starts from it.
    """
    organisation = organisation or organisation_of(owner)
    now = timezone.now()
    with transaction.atomic(durable=True):
        trip = Trip.objects.create(owner=owner, organisation=organisation, title=title, last_activity_at=now)
        trip.intent = new_trip_intent(
            str(trip.pk),
            now,
            timezone=organisation.timezone,
            policy=organisation.policy,
            currency=organisation.policy.get("currency", "USD"),
        )
        trip.save(update_fields=["intent"])
        audit_record(
            trip_id=trip.pk,
            type="trip.created",
            actor=actor_for(owner),
            actor_user=owner,
            payload={"organisation": organisation.slug, "title": title, "intent": trip.intent},
        )
    return trip
