"""Two-factor sign-in: required for staff, optional for travellers; enrolment, the second step,
recovery codes, throttling, the API's Basic auth and the audit trail (``trips.twofactor``)."""

import base64
import json
import re
import time

import pytest
from django.test import Client
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.factories import second_factor_give, sign_in, totp_code, trip_make, user_make
from trips.models import AccountEvent, Membership
from trips.services.twofactor import Type

pytestmark = pytest.mark.django_db
TWO_FACTOR, VERIFY = "/account/two-factor/", "/account/two-factor/verify/"


@pytest.fixture(autouse=True)
def _no_device_backoff(settings):
    """django-otp makes a device wait 1 s, 2 s, … after each wrong code; the tests type fast."""
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    settings.OTP_STATIC_THROTTLE_FACTOR = 0


@pytest.fixture
def bare_approver(acme):
    """Acme's approver who has not set up a second factor."""
    return user_make(organisation=acme, role=Membership.Role.APPROVER, username="ann", second_factor=False)


def _enrol(client) -> tuple[TOTPDevice, list[str]]:
    """Set up an authenticator app through the pages, as a person would; returns the device and codes."""
    page = client.get(TWO_FACTOR)
    assert page.status_code == 200
    device_id = int(re.search(r'name="device" value="(\d+)"', page.content.decode()).group(1))
    device = TOTPDevice.objects.get(pk=device_id)
    response = client.post("/account/two-factor/setup/", {"device": device_id, "token": totp_code(device)})
    assert response.status_code == 200
    codes = re.findall(r"<code>([a-z0-9]{5}-[a-z0-9]{5})</code>", response.content.decode())
    return device, codes


def _password(client, username: str, next_url: str = "") -> str:
    response = client.post("/signin/", {"username": username, "password": "pw", "next": next_url})
    assert response.status_code == 302
    return response["Location"]


def test_staff_without_a_second_factor_are_sent_to_set_one_up(bare_approver, trip):
    client = Client()
    sign_in(client, bare_approver)
    for path in ("/admin/", "/admin/trips/approvalrequest/", f"/admin/trips/trip/{trip.pk}/change/"):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith(TWO_FACTOR), path
    # The chat and the API still serve them, as the traveller they may be: nothing of Acme's trips.
    assert client.get("/").status_code == 200
    assert client.get(f"/trips/{trip.pk}/").status_code == 404
    assert client.get("/api/trips/").json()["results"] == []


def test_superusers_need_one_too(db):
    client = Client()
    sign_in(client, user_make(username="root", superuser=True, second_factor=False))
    assert client.get("/admin/")["Location"].startswith(TWO_FACTOR)


def test_the_set_up_page_draws_its_qr_code_here_and_shows_the_key(bare_approver):
    client = Client()
    sign_in(client, bare_approver)
    response = client.get(TWO_FACTOR, HTTP_HOST="localhost")  # the passkey relying party's host: its scripts too
    page = response.content.decode()
    device = TOTPDevice.objects.get(user=bare_approver, confirmed=False)
    key = base64.b32encode(device.bin_key).decode()
    assert 'src="data:image/svg+xml' in page, "the QR code is an inline SVG image, no external service"
    assert " ".join(key[i : i + 4] for i in range(0, len(key), 4)) in page
    assert not re.search(r'<img[^>]+src="https?:', page)
    assert "script-src 'self'" in response["Content-Security-Policy"]
    scripts = re.findall(r"<script([^>]*)>", page)
    assert "otp_webauthn_register.js" in page and 'id="passkey-register-button"' in page
    assert scripts and all("src=" in attrs or 'type="application/json"' in attrs for attrs in scripts), scripts
    assert response["Cache-Control"].startswith("max-age=0")


def test_enrolling_opens_the_back_office_and_shows_recovery_codes_once(bare_approver, trip, caplog):
    client = Client()
    sign_in(client, bare_approver)
    device, codes = _enrol(client)
    assert len(codes) == 10 and len(set(codes)) == 10
    device.refresh_from_db()
    assert device.confirmed
    assert client.get("/admin/trips/approvalrequest/").status_code == 200
    assert client.get(f"/trips/{trip.pk}/").status_code == 200, "staff powers are on"
    # Shown once: the management page lists how many are left, not the codes.
    page = client.get(TWO_FACTOR).content.decode()
    assert "Recovery codes left: 10" in page and not any(code in page for code in codes)
    # Kept as digests only; the audit and the logs carry neither the key nor a code.
    stored = set(StaticToken.objects.filter(device__user=bare_approver).values_list("token", flat=True))
    assert len(stored) == 10 and not stored & {code.replace("-", "") for code in codes}
    event = AccountEvent.objects.get(user=bare_approver, type=Type.SECOND_FACTOR_ENROLLED)
    assert event.payload == {"factor": "totp", "recovery_codes": 10} and event.actor == f"user:{bare_approver.pk}"
    secrets = [device.key, base64.b32encode(device.bin_key).decode(), *codes, *(c.replace("-", "") for c in codes)]
    everything = json.dumps(list(AccountEvent.objects.values("type", "actor", "payload")), default=str) + caplog.text
    assert not [secret for secret in secrets if secret in everything]


def test_passkeys_are_offered_only_where_browsers_allow_them(bare_approver, settings):
    """Browsers refuse passkeys at an IP address: there the page says where they work instead."""
    settings.OTP_WEBAUTHN_ALLOWED_ORIGINS = ["http://localhost:8000"]
    client = Client()
    sign_in(client, bare_approver)
    at_ip = client.get(TWO_FACTOR, HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "Passkeys work where TripDesk is opened at http://localhost:8000" in at_ip
    assert "passkey-register-button" not in at_ip and "otp_webauthn" not in at_ip
    at_localhost = client.get(TWO_FACTOR, HTTP_HOST="localhost:8000").content.decode()
    assert "passkey-register-button" in at_localhost


def test_a_wrong_first_code_enrols_nothing(bare_approver):
    client = Client()
    sign_in(client, bare_approver)
    client.get(TWO_FACTOR)
    device = TOTPDevice.objects.get(user=bare_approver, confirmed=False)
    wrong = f"{(int(totp_code(device)) + 1) % 1_000_000:06d}"
    response = client.post("/account/two-factor/setup/", {"device": device.pk, "token": wrong})
    assert response.status_code == 400 and "did not match" in response.content.decode()
    device.refresh_from_db()
    assert not device.confirmed and not AccountEvent.objects.filter(user=bare_approver).exists()
    assert client.get("/admin/")["Location"].startswith(TWO_FACTOR)


def test_signing_in_asks_for_the_code_after_the_password(approver, trip):
    device = TOTPDevice.objects.get(user=approver)
    client = Client()
    location = _password(client, "ann", next_url="/admin/trips/approvalrequest/")
    assert location.startswith(VERIFY) and "next=%2Fadmin%2Ftrips%2Fapprovalrequest%2F" in location
    assert client.get("/admin/trips/approvalrequest/")["Location"].startswith(VERIFY)
    assert client.get(f"/api/trips/{trip.pk}/").status_code == 403
    response = client.post(VERIFY, {"token": totp_code(device), "next": "/admin/trips/approvalrequest/"})
    assert response.status_code == 302 and response["Location"] == "/admin/trips/approvalrequest/"
    assert client.get("/admin/trips/approvalrequest/").status_code == 200
    assert client.get(f"/api/trips/{trip.pk}/").status_code == 200


def test_the_back_office_sign_in_takes_password_and_code_in_one_submit(approver, trip):
    """An approval email's link lands a signed-out approver here: one submit, then the request itself."""
    device = TOTPDevice.objects.get(user=approver)
    client = Client()
    page = client.get("/admin/login/?next=/admin/trips/approvalrequest/").content.decode()
    assert 'name="otp_token"' in page and 'autocomplete="one-time-code"' in page
    response = client.post(
        "/admin/login/",
        {"username": "ann", "password": "pw", "otp_token": totp_code(device), "next": "/admin/trips/approvalrequest/"},
    )
    assert response.status_code == 302 and response["Location"] == "/admin/trips/approvalrequest/"
    assert client.get("/admin/trips/approvalrequest/").status_code == 200, "verified: no second page"
    assert client.get(f"/api/trips/{trip.pk}/").status_code == 200


def test_a_wrong_code_in_the_one_submit_signs_nobody_in_and_counts(approver, other_traveller):
    device = TOTPDevice.objects.get(user=approver)
    wrong = f"{(int(totp_code(device)) + 500_000) % 1_000_000:06d}"
    client = Client()
    form = {"username": "ann", "password": "pw", "otp_token": wrong, "next": "/admin/"}
    first = client.post("/admin/login/", form)
    assert first.status_code == 200 and "That code did not work" in first.content.decode()
    assert "_auth_user_id" not in client.session, "the right password alone signed nobody in"
    statuses = [client.post("/admin/login/", form).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    right = {**form, "otp_token": totp_code(device)}
    assert client.post("/admin/login/", right).status_code == 429, "even the right code"
    assert "_auth_user_id" not in client.session
    # The second-step page shares the counter: no way round it.
    _password(client, "ann")
    assert client.post(VERIFY, {"token": totp_code(device)}).status_code == 429
    other = Client()
    sign_in(other, other_traveller)
    assert other.get("/").status_code == 200, "others are not affected"


def test_a_wrong_password_with_a_right_code_is_refused_and_spends_no_code(approver):
    device = TOTPDevice.objects.get(user=approver)
    code = totp_code(device)
    client = Client()
    response = client.post("/admin/login/", {"username": "ann", "password": "nope", "otp_token": code})
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    assert client.post("/admin/login/", {"username": "ann", "password": "pw", "otp_token": code}).status_code == 302


def test_the_one_submit_takes_a_recovery_code_once(bare_approver):
    client = Client()
    sign_in(client, bare_approver)
    _, codes = _enrol(client)
    client.logout()
    form = {"username": "ann", "password": "pw", "otp_token": codes[0], "next": "/admin/"}
    assert client.post("/admin/login/", form)["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200
    assert AccountEvent.objects.get(user=bare_approver, type=Type.RECOVERY_CODE_USED).payload == {
        "recovery_codes_left": 9
    }
    client.logout()
    assert client.post("/admin/login/", form).status_code == 200, "used up"


def test_an_empty_code_leaves_the_second_step_to_its_page(approver):
    """For a passkey: the password signs in, the back office stays shut until the second factor."""
    client = Client()
    response = client.post("/admin/login/", {"username": "ann", "password": "pw", "next": "/admin/"})
    assert response.status_code == 302
    assert client.get("/admin/")["Location"].startswith(VERIFY)


def test_a_code_is_good_once(approver):
    device = TOTPDevice.objects.get(user=approver)
    code = totp_code(device)
    first, second = Client(), Client()
    _password(first, "ann")
    assert first.post(VERIFY, {"token": code}).status_code == 302
    _password(second, "ann")
    assert second.post(VERIFY, {"token": code}).status_code == 400, "a replayed code"


def test_a_recovery_code_signs_in_once_and_is_recorded(bare_approver):
    client = Client()
    sign_in(client, bare_approver)
    _, codes = _enrol(client)
    client.logout()
    _password(client, "ann")
    response = client.post(VERIFY, {"token": codes[3].upper().replace("-", " ")})
    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200
    event = AccountEvent.objects.get(user=bare_approver, type=Type.RECOVERY_CODE_USED)
    assert event.payload == {"recovery_codes_left": 9}
    client.logout()
    _password(client, "ann")
    assert client.post(VERIFY, {"token": codes[3]}).status_code == 400, "used up"
    assert client.get("/admin/")["Location"].startswith(VERIFY)


def test_new_recovery_codes_replace_the_old_ones(bare_approver):
    client = Client()
    sign_in(client, bare_approver)
    _, old = _enrol(client)
    response = client.post("/account/two-factor/recovery-codes/")
    new = re.findall(r"<code>([a-z0-9]{5}-[a-z0-9]{5})</code>", response.content.decode())
    assert len(new) == 10 and not set(new) & set(old)
    assert AccountEvent.objects.filter(user=bare_approver, type=Type.RECOVERY_CODES_ISSUED).count() == 1
    client.logout()
    _password(client, "ann")
    assert client.post(VERIFY, {"token": old[0]}).status_code == 400
    assert client.post(VERIFY, {"token": new[0]}).status_code == 302


def test_guessing_codes_is_throttled_like_passwords(approver, other_traveller):
    """django-axes counts the second step's failures; a right password does not reset them."""
    device = TOTPDevice.objects.get(user=approver)
    wrong = f"{(int(totp_code(device)) + 500_000) % 1_000_000:06d}"
    client = Client()
    _password(client, "ann")
    statuses = [client.post(VERIFY, {"token": wrong}).status_code for _ in range(5)]
    assert statuses == [400, 400, 400, 400, 429]
    assert client.post(VERIFY, {"token": totp_code(device)}).status_code == 429, "even the right code"
    client.logout()
    _password(client, "ann")  # the password is still accepted; the second step stays locked
    assert client.post(VERIFY, {"token": totp_code(device)}).status_code == 429
    assert client.get("/admin/")["Location"].startswith(VERIFY)
    other = Client()
    sign_in(other, other_traveller)
    assert other.get("/").status_code == 200, "others are not affected"


def test_turning_it_off_takes_a_code_and_is_recorded(approver):
    device = TOTPDevice.objects.get(user=approver)
    client = Client()
    sign_in(client, approver)
    response = client.post("/account/two-factor/disable/", {"token": "000000"})
    assert TOTPDevice.objects.filter(user=approver).exists(), response.status_code
    client.post("/account/two-factor/disable/", {"token": totp_code(device, at=time.time() + 30)})
    assert not TOTPDevice.objects.filter(user=approver).exists()
    event = AccountEvent.objects.get(user=approver, type=Type.SECOND_FACTOR_DISABLED)
    assert event.payload == {"factors": ["totp"], "by": "self"}
    assert client.get("/admin/")["Location"].startswith(TWO_FACTOR), "staff powers are off again"


def test_travellers_may_opt_in_and_then_must_give_it(traveller):
    trip = trip_make(owner=traveller, organisation=Membership.objects.get(user=traveller).organisation)
    client = Client()
    sign_in(client, traveller)
    assert client.get("/").status_code == 200, "optional: the chat works without it"
    device, _ = _enrol(client)
    client.logout()
    assert _password(client, "alice").startswith(VERIFY)
    assert client.get(f"/trips/{trip.pk}/")["Location"].startswith(VERIFY)
    assert client.get("/api/trips/").status_code == 403
    basic = "Basic " + base64.b64encode(b"alice:pw").decode()
    assert Client().get("/api/trips/", HTTP_AUTHORIZATION=basic).status_code in {401, 403}, "a password alone"
    assert client.post(VERIFY, {"token": totp_code(device, at=time.time() + 30)}).status_code == 302
    assert client.get(f"/trips/{trip.pk}/").status_code == 200


def test_staff_on_basic_auth_hold_no_staff_power(acme, trip):
    """The API's Basic auth proves no second factor: staff who use it read only their own trips."""
    bare = user_make(organisation=acme, role=Membership.Role.SUPPORT, username="sid", second_factor=False)
    basic = "Basic " + base64.b64encode(b"sid:pw").decode()
    assert Client().get("/api/trips/", HTTP_AUTHORIZATION=basic).json()["results"] == []
    assert Client().get(f"/api/trips/{trip.pk}/", HTTP_AUTHORIZATION=basic).status_code == 404
    second_factor_give(bare)  # enrolled: refused outright
    assert Client().get("/api/trips/", HTTP_AUTHORIZATION=basic).status_code in {401, 403}


def test_an_admin_resets_a_lost_second_factor(approver, superuser):
    client = Client()
    sign_in(client, superuser)
    response = client.post(
        "/admin/auth/user/", {"action": "second_factor_reset", "_selected_action": [str(approver.pk)]}
    )
    assert response.status_code == 302
    assert not TOTPDevice.objects.filter(user=approver).exists()
    event = AccountEvent.objects.get(user=approver, type=Type.SECOND_FACTOR_DISABLED)
    assert event.actor == f"user:{superuser.pk}" and event.payload["by"] == "admin"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_chat_socket_waits_for_the_second_step(traveller, acme):
    """An enrolled traveller's socket: closed 4401 after the password alone, served after the code."""
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from tripdesk.asgi import application
    from trips.consumers import CloseCode

    trip = await sync_to_async(trip_make)(owner=traveller, organisation=acme)
    await sync_to_async(second_factor_give)(traveller)

    async def first_output(verified: bool) -> dict:
        client = Client()
        await sync_to_async(sign_in)(client, traveller, verified=verified)
        cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
        ws = WebsocketCommunicator(
            application, f"/ws/trips/{trip.pk}/", headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)]
        )
        assert (await ws.connect(timeout=10))[0]
        output = await ws.receive_output(timeout=10)
        await ws.disconnect()
        return output

    assert await first_output(verified=False) == {"type": "websocket.close", "code": CloseCode.NOT_SIGNED_IN}
    assert (await first_output(verified=True))["type"] == "websocket.send"


def test_enrolling_leaves_other_sessions_only_the_second_step(traveller):
    """A session signed in before the second factor existed (another browser, maybe not the
    traveller's) gets only the code page once it is set up elsewhere."""
    trip = trip_make(owner=traveller, organisation=Membership.objects.get(user=traveller).organisation)
    earlier, here = Client(), Client()
    sign_in(earlier, traveller)
    assert earlier.get(f"/trips/{trip.pk}/").status_code == 200
    sign_in(here, traveller)
    _enrol(here)
    assert here.get(f"/trips/{trip.pk}/").status_code == 200, "the enrolling session proved the code"
    assert earlier.get(f"/trips/{trip.pk}/")["Location"].startswith(VERIFY)
    assert earlier.get("/api/trips/").status_code == 403


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_enrolling_closes_the_open_chats_of_sessions_without_it(traveller, acme):
    """An open chat of the earlier session is closed (4401) when the factor is set up in another
    session; the enrolling session's own chat stays open."""
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from tripdesk.asgi import application
    from trips.consumers import CloseCode

    trip = await sync_to_async(trip_make)(owner=traveller, organisation=acme)

    async def chat(client) -> WebsocketCommunicator:
        cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
        ws = WebsocketCommunicator(
            application, f"/ws/trips/{trip.pk}/", headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)]
        )
        assert (await ws.connect(timeout=10))[0]
        while (await ws.receive_json_from(timeout=10)).get("type") != "status":
            pass  # the history, then the trip's status
        return ws

    earlier, here = Client(), Client()
    await sync_to_async(sign_in)(earlier, traveller)
    await sync_to_async(sign_in)(here, traveller)
    earlier_chat, here_chat = await chat(earlier), await chat(here)
    await sync_to_async(_enrol)(here)
    assert await earlier_chat.receive_output(timeout=10) == {"type": "websocket.close", "code": CloseCode.NOT_SIGNED_IN}
    assert await here_chat.receive_nothing(timeout=0.5), "the session that gave the code keeps its chat"
    await here_chat.disconnect()
