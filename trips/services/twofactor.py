"""Second-factor writes: enrol an authenticator app, issue recovery codes, verify, disable.

Each write records an ``AccountEvent`` (``account_audit_record``) in its own transaction. No event, log line or
exception carries a secret: not the TOTP key, not a code typed, not a recovery code.

Recovery codes are shown once (the return value of the write that makes them) and stored only
as a keyed digest (HMAC with ``SECRET_KEY``), so the database alone cannot replay one. A code
works once: django-otp's static device deletes the row it matched.
"""

import base64
import hashlib
import hmac
import secrets
from typing import Optional

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django_otp import devices_for_user
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from .audit import account_audit_record, actor_for
from .chat import sockets_recheck_on_commit

RECOVERY_CODE_COUNT = 10
# No 0/o, 1/l/i: codes are read off paper.
RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
RECOVERY_CODE_LENGTH = 10  # 10 symbols of 31: about 49 bits each
TOTP_NAME = "Authenticator app"
DEMO_TOTP_NAME = "Demo authenticator"
RECOVERY_NAME = "Recovery codes"


class Type:
    """The account events (``AccountEvent.type``) these writes record."""

    SECOND_FACTOR_ENROLLED = "second_factor.enrolled"
    SECOND_FACTOR_DISABLED = "second_factor.disabled"
    RECOVERY_CODES_ISSUED = "second_factor.recovery_codes_issued"
    RECOVERY_CODE_USED = "second_factor.recovery_code_used"


def factor_kind(device: Device) -> str:
    """How events and pages name a device: ``totp``, ``passkey`` or ``recovery_code``."""
    if isinstance(device, TOTPDevice):
        return "totp"
    if isinstance(device, StaticDevice):
        return "recovery_code"
    return "passkey"


def _record(
    *,
    user: AbstractBaseUser,
    type: str,
    actor_user: Optional[AbstractBaseUser],
    payload: dict,
    session_key: str = "",
) -> None:
    """Record an account event; a factor enrolled or removed also rechecks the user's open chats
    (those of sessions that no longer count are closed; ``session_key``'s, the changer's, stay)."""
    account_audit_record(user=user, type=type, actor=actor_for(actor_user), payload=payload)
    if type in {Type.SECOND_FACTOR_ENROLLED, Type.SECOND_FACTOR_DISABLED}:
        sockets_recheck_on_commit(user.pk, keep_session=session_key)


def totp_device_pending(*, user: AbstractBaseUser) -> TOTPDevice:
    """The authenticator-app device being set up (unconfirmed: not a factor until a code proves it)."""
    with transaction.atomic():
        device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("pk").first()
        if device is None:
            device = TOTPDevice.objects.create(user=user, name=TOTP_NAME, confirmed=False)
    return device


def totp_enrol(
    *, user: AbstractBaseUser, device_id: int, token: str, session_key: str = ""
) -> tuple[TOTPDevice, list[str]]:
    """Confirm the pending authenticator app with a code from it; returns the device and new recovery codes.

    ``session_key``: the session enrolling, which proves the factor with this code; the user's
    other sessions must give it before doing anything more.

    A wrong code changes nothing but the device's throttle (django-otp backs off after each
    failure), and raises ``ValidationError``.
    """
    with transaction.atomic():
        device = TOTPDevice.objects.select_for_update().filter(pk=device_id, user=user, confirmed=False).first()
        if device is None:
            raise ValidationError("This set-up has expired: start again.")
        matched = device.verify_token(_digits(token))
        if matched:
            device.confirmed = True
            device.save(update_fields=["confirmed"])
            codes = _recovery_codes_replace(user)
            _record(
                user=user,
                type=Type.SECOND_FACTOR_ENROLLED,
                actor_user=user,
                payload={"factor": "totp", "recovery_codes": len(codes)},
                session_key=session_key,
            )
    if not matched:  # outside the transaction: the throttle's count must stay
        raise ValidationError("That code did not match. Check the app's clock and type the current 6 digits.")
    return device, codes


def totp_enrol_for_demo(*, user: AbstractBaseUser) -> tuple[TOTPDevice, list[str]]:
    """``seed_demo``: a confirmed authenticator-app device for a demo staff user, made once.

    Returns the device and, the first time only, its recovery codes (later: no codes, they are
    kept only as digests). The demo prints the key so a person can add it to an app.
    """
    with transaction.atomic():
        device = TOTPDevice.objects.filter(user=user, confirmed=True, name=DEMO_TOTP_NAME).first()
        if device is not None:
            return device, []
        device = TOTPDevice.objects.create(user=user, name=DEMO_TOTP_NAME, confirmed=True)
        codes = _recovery_codes_replace(user)
        _record(
            user=user,
            type=Type.SECOND_FACTOR_ENROLLED,
            actor_user=None,
            payload={"factor": "totp", "recovery_codes": len(codes), "by": "seed_demo"},
        )
    return device, codes


def totp_key_base32(device: TOTPDevice) -> str:
    """The key as authenticator apps take it when typed by hand."""
    return base64.b32encode(device.bin_key).decode()


def passkey_enrolled(*, user: AbstractBaseUser, device: Device, session_key: str = "") -> None:
    """Record a passkey registered by django-otp-webauthn (inside the transaction that saved it)."""
    _record(
        user=user,
        type=Type.SECOND_FACTOR_ENROLLED,
        actor_user=user,
        payload={"factor": "passkey"},
        session_key=session_key,
    )


def recovery_codes_issue(*, user: AbstractBaseUser) -> list[str]:
    """Replace ``user``'s recovery codes with new ones, returned once (only their digests are kept)."""
    with transaction.atomic():
        codes = _recovery_codes_replace(user)
        _record(user=user, type=Type.RECOVERY_CODES_ISSUED, actor_user=user, payload={"recovery_codes": len(codes)})
    return codes


def recovery_codes_left(user: AbstractBaseUser) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


def second_factor_verify(*, user: AbstractBaseUser, token: str) -> Optional[Device]:
    """The device that accepts ``token`` (a 6-digit app code or a recovery code), or ``None``.

    Every device throttles its own failures (django-otp); a recovery code is consumed and its
    use recorded.
    """
    token = (token or "").strip()
    digits = _digits(token)
    matched: Optional[Device] = None
    with transaction.atomic():
        for device in devices_for_user(user, confirmed=True, for_verify=True):
            if isinstance(device, TOTPDevice) and digits.isdigit() and device.verify_token(digits):
                matched = device
                break
            if isinstance(device, StaticDevice) and _recovery_normal(token):
                if device.verify_token(_recovery_digest(user, _recovery_normal(token))):
                    matched = device
                    _record(
                        user=user,
                        type=Type.RECOVERY_CODE_USED,
                        actor_user=user,
                        payload={"recovery_codes_left": device.token_set.count()},
                    )
                    break
    return matched


def second_factor_disable(*, user: AbstractBaseUser, actor: AbstractBaseUser) -> list[str]:
    """Remove every device of ``user`` (app, passkeys, recovery codes); returns the kinds removed.

    Staff who disable theirs keep no staff power until they enrol again (``trips.access``).
    """
    with transaction.atomic():
        devices = list(devices_for_user(user, confirmed=None))
        kinds = sorted({factor_kind(device) for device in devices})
        for device in devices:
            device.delete()
        _record(
            user=user,
            type=Type.SECOND_FACTOR_DISABLED,
            actor_user=actor,
            payload={"factors": kinds, "by": "self" if actor.pk == user.pk else "admin"},
        )
    return kinds


def _digits(token: str) -> str:
    return "".join((token or "").split())


def _recovery_normal(token: str) -> str:
    """A recovery code as typed, without spaces or dashes, lower case; '' if it cannot be one."""
    code = "".join(ch for ch in (token or "").lower() if ch not in " -\t")
    if len(code) != RECOVERY_CODE_LENGTH or any(ch not in RECOVERY_ALPHABET for ch in code):
        return ""
    return code


def _recovery_digest(user: AbstractBaseUser, code: str) -> str:
    """What the database keeps of a recovery code: 16 hex digits of an HMAC keyed by ``SECRET_KEY``."""
    message = f"{user.pk}:{code}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()[:16]


def _recovery_codes_replace(user: AbstractBaseUser) -> list[str]:
    device, _ = StaticDevice.objects.get_or_create(user=user, name=RECOVERY_NAME, defaults={"confirmed": True})
    device.token_set.all().delete()
    codes = [
        "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_CODE_LENGTH))
        for _ in range(RECOVERY_CODE_COUNT)
    ]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=_recovery_digest(user, code)) for code in codes)
    return [f"{code[:5]}-{code[5:]}" for code in codes]
