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

import functools
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
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
    Every signed-in page and chat connection asks, so the statement is written once per process
    (``_enrolled_sql``) instead of composed by the ORM each time (≈ 1.7 ms of CPU a request).
    """
    if not user.is_authenticated:
        return False
    cached = getattr(user, "_second_factor_enrolled", None)
    if cached is None:
        sql, kinds = _enrolled_sql(connection.vendor)
        if not kinds:
            cached = False
        else:
            with connection.cursor() as cursor:
                cursor.execute(sql, [user.pk] * kinds)
                cached = bool(cursor.fetchone()[0])
        user._second_factor_enrolled = cached
    return cached


@functools.cache
def _enrolled_sql(vendor: str) -> tuple[str, int]:
    """``SELECT EXISTS (…) OR EXISTS (…)``: a confirmed device of the user's, one clause per device
    kind; with how many times the user's id is passed (``vendor``: the cache's key per backend)."""
    quote = connection.ops.quote_name
    clauses = []
    for model in device_classes():
        meta = model._meta
        clauses.append(
            f"EXISTS (SELECT 1 FROM {quote(meta.db_table)} WHERE {quote(meta.get_field('user').column)} = %s"
            f" AND {quote(meta.get_field('confirmed').column)})"
        )
    return "SELECT " + " OR ".join(clauses), len(clauses)


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
