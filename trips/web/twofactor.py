"""Two-factor sign-in pages and the gate in front of everything else (rules: ``trips.twofactor``).

- ``/account/two-factor/``: set up an authenticator app (QR code drawn here as SVG, and the
  secret to type by hand) or a passkey; once enrolled, see the factors, issue new recovery
  codes, add a passkey, or turn two-factor sign-in off.
- ``/account/two-factor/verify/``: the second step of every sign-in of an enrolled user (an
  app code, a recovery code, or a passkey). Failures count with django-axes like wrong
  passwords (own counter per username and address, so a correct password does not reset it)
  and each device also backs off on its own (django-otp).
- ``PasswordAndCodeForm``: the back office's sign-in (where an approval email's link lands a
  signed-out approver) takes the username, the password and the app code (or a recovery code)
  in one submit; left empty, the second step follows on its own page (for a passkey).
- ``SecondFactorMiddleware``: an enrolled user who has not verified this sign-in reaches only
  these pages and sign-out (the API answers 403); staff who have not enrolled are sent to set
  up from the admin. Their staff powers are off anyway until verified (``trips.access``), so
  the chat and the API still serve them as the traveller they may also be.
"""

import json
from typing import Optional
from urllib.parse import urlencode

import segno
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_lockout_response
from axes.utils import reset as axes_reset
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.decorators import login_required
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_otp import login as otp_login
from django_otp.models import Device
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp_webauthn.models import WebAuthnCredential
from django_otp_webauthn.views import CompleteCredentialRegistrationView

from trips import twofactor
from trips.services.twofactor import (
    factor_kind,
    passkey_enrolled,
    recovery_codes_issue,
    recovery_codes_left,
    second_factor_disable,
    second_factor_verify,
    totp_device_pending,
    totp_enrol,
    totp_key_base32,
)

# Reachable before the second step: these pages, the passkey ceremony, signing in and out.
OPEN_PREFIXES = ("/account/two-factor/", "/signin/", "/signout/", "/admin/login/", "/admin/logout/", "/static/")


class SecondFactorMiddleware:
    """After ``OTPMiddleware``: keeps an unverified sign-in away from what needs the second factor."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        path = request.path
        if user.is_authenticated and not twofactor.verified(user) and not path.startswith(OPEN_PREFIXES):
            if twofactor.enrolled(user):
                if path.startswith("/api/"):
                    return JsonResponse({"detail": "Finish signing in with your second factor first."}, status=403)
                return redirect(_with_next("web:twofactor-verify", request.get_full_path()))
            if path.startswith("/admin/") and twofactor.required(user):
                return redirect(_with_next("web:twofactor", request.get_full_path()))
        return self.get_response(request)


def after_password(request: HttpRequest, next_url: str) -> Optional[str]:
    """Where the sign-in page sends someone whose password was right: the second step, if due."""
    user = request.user
    if twofactor.verified(user):
        return None
    if twofactor.enrolled(user):
        return _with_next("web:twofactor-verify", next_url)
    if twofactor.required(user):
        return _with_next("web:twofactor", next_url)
    return None


@never_cache
@login_required
def manage(request: HttpRequest) -> HttpResponse:
    """Set up (not enrolled yet) or manage (enrolled and verified) the second factor."""
    user = request.user
    if twofactor.enrolled(user) and not twofactor.verified(user):
        return redirect(_with_next("web:twofactor-verify", _next(request)))
    if not twofactor.enrolled(user):
        return _setup_page(request, totp_device_pending(user=user))
    passkeys = WebAuthnCredential.objects.filter(user=user, confirmed=True).order_by("pk")
    context = {
        "has_totp": TOTPDevice.objects.filter(user=user, confirmed=True).exists(),
        "passkeys": passkeys,
        "recovery_left": recovery_codes_left(user),
        "required": twofactor.required(user),
        "verified_with": factor_kind(user.otp_device),
        "next": _next(request),
        "passkeys_here": passkeys_here(request),
        "passkey_origins": settings.OTP_WEBAUTHN_ALLOWED_ORIGINS,
    }
    return render(request, "registration/twofactor_manage.html", context)


@never_cache
@login_required
@require_POST
def setup_confirm(request: HttpRequest) -> HttpResponse:
    """The first code from the app: the device is confirmed, the sign-in verified, codes shown once."""
    user = request.user
    if twofactor.enrolled(user):
        return redirect("web:twofactor")
    try:
        device_id = int(request.POST.get("device", ""))
    except ValueError:
        return redirect("web:twofactor")
    try:
        device, codes = totp_enrol(
            user=user,
            device_id=device_id,
            token=request.POST.get("token", ""),
            session_key=request.session.session_key or "",
        )
    except ValidationError as error:
        return _setup_page(request, totp_device_pending(user=user), error=error.messages[0], status=400)
    otp_login(request, device)
    return _codes_page(request, codes, first=True)


@never_cache
@login_required
def verify(request: HttpRequest) -> HttpResponse:
    """The second step of signing in."""
    user = request.user
    next_url = _next(request)
    if twofactor.verified(user):
        return redirect(next_url or _landing(user))
    if not twofactor.enrolled(user):
        return redirect(_with_next("web:twofactor", next_url))
    credentials = {"username": _throttle_key(user)}
    if AxesProxyHandler.is_locked(request, credentials):
        return get_lockout_response(request, None, credentials)
    error = ""
    if request.method == "POST":
        device = _code_check(request, user, request.POST.get("token", ""))
        if device is None:
            if getattr(request, "axes_locked_out", False):
                return get_lockout_response(request, None, credentials)
            error = WRONG_CODE
        else:
            otp_login(request, device)
            return redirect(next_url or _landing(user))
    context = {
        "error": error,
        "next": next_url,
        "has_totp": TOTPDevice.objects.filter(user=user, confirmed=True).exists(),
        "has_passkey": WebAuthnCredential.objects.filter(user=user, confirmed=True).exists(),
        "passkeys_here": passkeys_here(request),
    }
    return render(request, "registration/twofactor_verify.html", context, status=400 if error else 200)


@never_cache
@login_required
@require_POST
def recovery_codes(request: HttpRequest) -> HttpResponse:
    """New recovery codes (the old ones stop working), shown once."""
    if not twofactor.verified(request.user):
        return redirect("web:twofactor-verify")
    return _codes_page(request, recovery_codes_issue(user=request.user), first=False)


@never_cache
@login_required
@require_POST
def disable(request: HttpRequest) -> HttpResponse:
    """Turn two-factor sign-in off: a current code (or recovery code) is asked again."""
    user = request.user
    if not twofactor.verified(user):
        return redirect("web:twofactor-verify")
    credentials = {"username": _throttle_key(user)}
    if AxesProxyHandler.is_locked(request, credentials):
        return get_lockout_response(request, None, credentials)
    if second_factor_verify(user=user, token=request.POST.get("token", "")) is None:
        user_login_failed.send(sender=__name__, credentials=credentials, request=request)
        messages.error(request, "That code did not work, so two-factor sign-in is still on.")
        return redirect("web:twofactor")
    second_factor_disable(user=user, actor=user)
    if twofactor.required(user):
        messages.info(request, "Two-factor sign-in is off. Set it up again to use your staff powers.")
    else:
        messages.info(request, "Two-factor sign-in is off: your password alone signs you in.")
    return redirect("web:twofactor")


WRONG_CODE = "That code did not work. Type the current 6 digits from your app, or one of your recovery codes."


class PasswordAndCodeForm(AdminAuthenticationForm):
    """The back office's sign-in: username, password and, for the enrolled, the code, in one submit.

    The password is checked first (django-axes counts its failures); then the code, throttled
    like the second-step page (its own django-axes counter, each device's back-off) and
    consumed if it is a recovery code. Nobody is signed in until both are right. An empty code
    signs in with the password only, and ``SecondFactorMiddleware`` then asks for the second
    factor on its page (where a passkey works): no staff power without it either way.
    """

    otp_token = forms.CharField(
        label="Code from your authenticator app",
        required=False,
        max_length=32,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autocapitalize": "none", "aria-describedby": "otp-token-help"}
        ),
        help_text="Or one of your recovery codes. Leave it empty to use a passkey on the next page.",
    )

    def clean(self):
        cleaned = super().clean()
        user = self.get_user()
        token = (cleaned.get("otp_token") or "").strip()
        if user is None or not token or not twofactor.enrolled(user):
            return cleaned
        credentials = {"username": _throttle_key(user)}
        if AxesProxyHandler.is_locked(self.request, credentials):
            self.request.axes_locked_out = True  # AxesMiddleware answers with the lockout page
            self.request.axes_credentials = credentials
            raise forms.ValidationError("Too many wrong codes: wait a while, then try again.", code="locked")
        device = _code_check(self.request, user, token)
        if device is None:
            raise forms.ValidationError(WRONG_CODE, code="invalid_code")
        user.otp_device = device  # django-otp's sign-in handler keeps it in the session
        return cleaned


def _code_check(request: HttpRequest, user, token: str) -> Optional[Device]:
    """The device that accepts ``token``; a failure counts towards the lockout, a success resets it."""
    credentials = {"username": _throttle_key(user)}
    device = second_factor_verify(user=user, token=token)
    if device is None:
        user_login_failed.send(sender=__name__, credentials=credentials, request=request)
        return None
    axes_reset(username=credentials["username"])
    if factor_kind(device) == "recovery_code":
        left = recovery_codes_left(user)
        messages.warning(
            request, f"You signed in with a recovery code; {left} left. Issue new ones from Two-factor sign-in."
        )
    return device


class PasskeyRegistrationComplete(CompleteCredentialRegistrationView):
    """django-otp-webauthn's registration, with the enrolment recorded in the same transaction."""

    def post(self, *args, **kwargs):
        with transaction.atomic():
            response = super().post(*args, **kwargs)
            device = WebAuthnCredential.objects.get(pk=json.loads(response.content)["id"])
            passkey_enrolled(user=device.user, device=device, session_key=self.request.session.session_key or "")
        return response


# --- helpers -----------------------------------------------------------------------------------


def _setup_page(request: HttpRequest, device: TOTPDevice, *, error: str = "", status: int = 200) -> HttpResponse:
    url = device.config_url
    secret = totp_key_base32(device)
    context = {
        "device": device,
        "qr_svg": segno.make(url, error="m").svg_data_uri(scale=5, border=2),
        "secret_groups": " ".join(secret[i : i + 4] for i in range(0, len(secret), 4)),
        "otpauth_url": url,
        "error": error,
        "required": twofactor.required(request.user),
        "next": _next(request),
        "passkeys_here": passkeys_here(request),
        "passkey_origins": settings.OTP_WEBAUTHN_ALLOWED_ORIGINS,
    }
    return render(request, "registration/twofactor_setup.html", context, status=status)


def _codes_page(request: HttpRequest, codes: list[str], *, first: bool) -> HttpResponse:
    next_url = _next(request) or _landing(request.user)
    response = render(request, "registration/twofactor_codes.html", {"codes": codes, "first": first, "next": next_url})
    response["Cache-Control"] = "no-store"
    return response


def passkeys_here(request: HttpRequest) -> bool:
    """Whether this address can use passkeys: its host is the relying party's domain (or under it).

    Browsers refuse passkeys at an IP address (http://127.0.0.1:8000) or another domain; the
    pages then say where passkeys work instead of offering a button that cannot.
    """
    host = request.get_host().rsplit(":", 1)[0].lower()
    rp_id = settings.OTP_WEBAUTHN_RP_ID.lower()
    return bool(rp_id) and (host == rp_id or host.endswith(f".{rp_id}"))


def _landing(user) -> str:
    return reverse("admin:index") if twofactor.required(user) else reverse("web:home")


def _next(request: HttpRequest) -> str:
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return ""


def _with_next(name: str, next_url: str) -> str:
    url = reverse(name)
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def _throttle_key(user) -> str:
    """django-axes counts second-step failures apart from passwords ('#' is never in a username)."""
    return f"{user.get_username()}#2fa"
