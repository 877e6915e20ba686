"""Where money is involved: supplier holds, approval requests, bookings and payment methods.

Every write to these rows goes through ``trips.services.{holds,approvals,purchases}``; the
models only describe the data and answer questions about it. Deadlines are checked on every
read (``is_live``/``is_usable``), never left to the periodic task.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models


class Hold(models.Model):
    """A supplier hold on one item of the selected bundle, mirrored from ``working_memory.holds``."""

    class Status(models.TextChoices):
        HELD = "held", "Held"
        EXPIRED = "expired", "Expired"
        RELEASED = "released", "Released"
        PURCHASED = "purchased", "Purchased"
        FAILED = "failed", "Failed"

    trip = models.ForeignKey("trips.Trip", on_delete=models.CASCADE, related_name="holds")
    hold_id = models.CharField(max_length=64, unique=True, help_text="The supplier's hold id.")
    item_type = models.CharField(max_length=16)
    offer_id = models.CharField(max_length=64, blank=True, help_text="Flight offer id, or hotel rate id.")
    segment_id = models.CharField(max_length=64, blank=True, help_text="Segment id, or stay id.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.HELD)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3)
    payment_required_by = models.DateTimeField()
    price_guarantee_expires_at = models.DateTimeField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=128)
    warned_at = models.DateTimeField(null=True, blank=True, help_text="When the deadline warning went out.")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["payment_required_by"]
        indexes = [models.Index(fields=["status", "payment_required_by"])]

    def __str__(self) -> str:
        return f"{self.hold_id} ({self.item_type}, {self.status})"

    def is_live(self, now: datetime) -> bool:
        """Held and inside its payment deadline: the stored status alone is not trusted."""
        return self.status == self.Status.HELD and now < self.payment_required_by


class ApprovalRequest(models.Model):
    """A request for an approver's yes: to buy what is held, or (by policy) to place holds.

    ``snapshot`` is the server's own record of what is being approved (items, total, currency,
    earliest deadline, policy findings), written once at creation and never changed. A grant
    binds the token to the trip, ``hold_ids``, ``amount_ceiling`` and ``currency``; the token
    itself exists only in the approver's screen and the traveller's live frame.
    """

    class Kind(models.TextChoices):
        PURCHASE = "purchase", "Purchase"
        HOLD = "hold", "Hold"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        GRANTED = "granted", "Granted"
        DENIED = "denied", "Denied"
        USED = "used", "Used"
        REVOKED = "revoked", "Revoked"
        EXPIRED = "expired", "Expired"
        SUPERSEDED = "superseded", "Superseded"

    OPEN_STATUSES = (Status.PENDING, Status.GRANTED)

    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.PURCHASE)
    trip = models.ForeignKey("trips.Trip", on_delete=models.CASCADE, related_name="approval_requests")
    organisation = models.ForeignKey("trips.Organisation", on_delete=models.PROTECT, related_name="approval_requests")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    snapshot = models.JSONField(help_text="What the approver sees and approves; set once at creation.")
    hold_ids = models.JSONField(default=list, help_text="The holds a purchase token is bound to, sorted.")
    amount_ceiling = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    currency = models.CharField(max_length=3, blank=True)
    token_hash = models.CharField(max_length=64, blank=True, db_index=True, help_text="HMAC-SHA256; never the token.")
    expires_at = models.DateTimeField(null=True, blank=True, help_text="No later than the earliest hold deadline.")
    auto_approved = models.BooleanField(default=False, help_text="Granted by policy on the traveller's request.")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True)
    claimed_until = models.DateTimeField(
        null=True, blank=True, help_text="A purchase with this approval is under way until then."
    )
    used_at = models.DateTimeField(null=True, blank=True)
    failed_attempts = models.PositiveIntegerField(default=0)
    supersedes = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["organisation", "status"])]
        permissions = [("decide_approvalrequest", "Can grant or deny approval requests")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} approval #{self.pk} ({self.status})"

    def is_usable(self, now: datetime) -> bool:
        """Granted, unused and unexpired: what a purchase needs, checked on every read."""
        return (
            self.status == self.Status.GRANTED
            and self.used_at is None
            and (self.expires_at is None or now < self.expires_at)
        )


class Booking(models.Model):
    """What a purchase bought: exactly one per approval, enforced by the database."""

    class Status(models.TextChoices):
        CONFIRMED = "confirmed", "Confirmed"
        CANCELLED = "cancelled", "Cancelled"

    trip = models.ForeignKey("trips.Trip", on_delete=models.CASCADE, related_name="bookings")
    approval = models.OneToOneField(ApprovalRequest, on_delete=models.PROTECT, related_name="booking")
    booking_id = models.CharField(max_length=64, unique=True, help_text="The core's booking id.")
    record_locators = models.JSONField(default=list)
    orders = models.JSONField(default=list)
    total = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.CONFIRMED)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.booking_id} ({self.status})"


class PaymentMethod(models.Model):
    """A traveller's card as the sandbox knows it: a reference, never a card number."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="payment_methods")
    brand = models.CharField(max_length=32)
    last4 = models.CharField(max_length=4)
    label = models.CharField(max_length=64, blank=True)
    sandbox_reference = models.CharField(max_length=64, unique=True, help_text="The payment provider's token.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["owner", "created_at"]

    def __str__(self) -> str:
        return self.label or f"{self.brand.title()} •• {self.last4}"

    def as_core(self) -> dict:
        """The shape ``handlers.common.host.PaymentMethods.get`` promises."""
        return {"id": str(self.pk), "brand": self.brand, "last4": self.last4}
