"""Payment methods: a traveller's sandbox cards, stored as a provider reference and the last four digits."""

from __future__ import annotations

import secrets

from django.core.exceptions import ValidationError

from trips.models import PaymentMethod


def payment_method_create(*, owner, brand: str, last4: str, label: str = "") -> PaymentMethod:
    """Register a sandbox card for ``owner``: a provider reference and the last four digits, no number."""
    if not (len(last4) == 4 and last4.isdigit()):
        raise ValidationError("last4 is the card's last four digits.")
    return PaymentMethod.objects.create(
        owner=owner, brand=brand, last4=last4, label=label, sandbox_reference=f"pm_sandbox_{secrets.token_hex(12)}"
    )
