"""Second factor: who must prove one, and whether a session or a socket has.

- ``required(user)``: support staff, approvers and organisation admins (by their role in any
  organisation, ``trips.access.holds_second_factor_role``), superusers and admin staff must sign
  in with a second factor; travellers may opt in.
- ``enrolled(user)``: the user has a confirmed device (an authenticator app, a passkey, or
  recovery codes left). Someone enrolled must prove it at every sign-in, traveller or not.
- ``verified(user)``: this sign-in proved it (django-otp's ``user.otp_device``, set from the
  session by ``OTPMiddleware`` for pages and the API, by ``socket_verify`` for websockets).
  ``trips.access`` grants no staff power to a user who is not verified.

The devices are django-otp's (TOTP, static recovery codes) and django-otp-webauthn's
(passkeys); enrolment and removal go through ``trips.services.twofactor``.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q
from django_otp import DEVICE_ID_SESSION_KEY, device_classes
from django_otp.models import Device

from trips.access import holds_second_factor_role, second_factor_verified

verified = second_factor_verified


def required(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether ``user`` may not use their staff powers (or the admin) without a second factor."""
    if not (user.is_authenticated and user.is_active):
        return False
    return bool(user.is_staff or user.is_superuser or holds_second_factor_role(user))


def enrolled(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether ``user`` has a confirmed device (of any kind): then every sign-in must prove it.

    One query for every device kind, asked once per request (the answer is kept on ``user``).
    """
    if not user.is_authenticated:
        return False
    cached = getattr(user, "_second_factor_enrolled", None)
    if cached is None:
        has_device = Q()
        for model in device_classes():
            has_device |= Exists(model.objects.filter(user_id=OuterRef("pk"), confirmed=True))
        cached = get_user_model().objects.filter(has_device, pk=user.pk).exists()
        user._second_factor_enrolled = cached
    return cached


def socket_verify(user: Any, session: Any) -> None:
    """Set ``user.otp_device`` from the websocket's session, as ``OTPMiddleware`` does for requests.

    The device must still exist, be confirmed and belong to ``user``; a device removed since
    (second factor disabled) verifies nothing.
    """
    user.otp_device = None
    persistent_id = session.get(DEVICE_ID_SESSION_KEY) if session is not None else None
    if not persistent_id or not user.is_authenticated:
        return
    device = Device.from_persistent_id(persistent_id)
    if device is not None and device.user_id == user.pk and device.confirmed:
        user.otp_device = device
