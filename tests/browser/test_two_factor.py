"""Two-factor sign-in in headless Chromium: an approver without a second factor is kept from the
approval queue and sent to set one up; after enrolling an authenticator app (the code computed
here from the key the page shows) the queue opens. Every page carries the Content-Security-Policy
and runs without a CSP violation."""

import base64
import re

import pytest
from django_otp.oath import TOTP
from playwright.sync_api import expect

from .live import free_port, live_tripdesk, manage, second_step

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QUEUE = "/admin/trips/approvalrequest/"
NEW_APPROVER = """
from django.contrib.auth import get_user_model
from trips.models import Membership, Organisation
from trips.services.orgs import member_add
user = get_user_model().objects.create_user("amy", email="amy@example.com", password="amy-demo")
member_add(user=user, organisation=Organisation.objects.get(slug="acme"), role=Membership.Role.APPROVER)
"""


def code_for(key_text: str, *, step_ahead: int = 0) -> str:
    """What an authenticator app shows for the key as the page prints it ("ABCD EFGH …")."""
    key = base64.b32decode(key_text.replace(" ", ""))
    totp = TOTP(key, step=30, digits=6)
    totp.time = totp.time + 30 * step_ahead
    return f"{totp.token():06d}"


def test_an_approver_enrols_totp_before_the_approval_queue_opens(new_page, base_url, live_shell, screenshot):
    live_shell(NEW_APPROVER)
    page = new_page()
    csp_headers, violations = [], []
    page.on(
        "response", lambda r: r.request.resource_type == "document" and csp_headers.append((r.url, r.status, r.headers))
    )
    page.on("console", lambda m: "Content Security Policy" in m.text and violations.append(m.text))

    page.goto(f"{base_url}/admin/login/?next={QUEUE}")
    page.locator("#id_username").fill("amy")
    page.locator("#id_password").fill("amy-demo")
    page.locator("input[type=submit]").click()

    # No second factor: not the queue, the set-up page (asked again, the same answer).
    expect(page).to_have_url(re.compile(r"/account/two-factor/\?next="))
    expect(page.get_by_role("heading", name="Set up two-factor sign-in")).to_be_visible()
    page.goto(f"{base_url}{QUEUE}")
    expect(page).to_have_url(re.compile(r"/account/two-factor/\?next="))
    assert page.locator("#result_list").count() == 0
    qr = page.get_by_test_id("totp-qr")
    expect(qr).to_be_visible()
    assert qr.get_attribute("src").startswith("data:image/svg+xml"), "drawn here, not fetched"
    assert page.evaluate("document.querySelector('[data-testid=totp-qr]').naturalWidth") > 100
    screenshot(page, "30-two-factor-setup")

    key = page.get_by_test_id("totp-secret").inner_text()
    page.get_by_label("Code from the app").fill(code_for(key))
    page.get_by_role("button", name="Turn on two-factor sign-in").click()

    codes = page.get_by_test_id("recovery-codes").locator("code")
    expect(codes).to_have_count(10)
    screenshot(page, "31-two-factor-recovery-codes")
    page.get_by_role("link", name=re.compile("continue")).click()
    expect(page).to_have_url(re.compile(rf"{QUEUE}$"))
    expect(page.locator("#content")).to_contain_text("approval")

    # Signed out and in again: the password, then the code (the next window's: this one's is spent).
    page.goto(f"{base_url}/signout/")
    page.get_by_role("button", name="Sign out").click()
    page.goto(f"{base_url}/signin/?next={QUEUE}")
    page.get_by_label("Username").fill("amy")
    page.get_by_label("Password").fill("amy-demo")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="One more step")).to_be_visible()
    page.goto(f"{base_url}{QUEUE}")
    expect(page).to_have_url(re.compile(r"/account/two-factor/verify/"))
    page.get_by_label(re.compile("Code from your authenticator app")).fill(code_for(key, step_ahead=1))
    page.get_by_role("button", name="Verify").click()
    expect(page).to_have_url(re.compile(rf"{QUEUE}$"))

    missing = [
        (url, status)
        for url, status, h in csp_headers
        if "script-src 'self'" not in h.get("content-security-policy", "")
    ]
    assert csp_headers and missing == []
    assert violations == []


@pytest.fixture(scope="module")
def localhost_url(tmp_path_factory):
    """A TripDesk of its own at http://localhost:<port> (passkeys need a domain, not an IP address),
    its passkey origin set to that; yields (base URL, workdir)."""
    workdir = tmp_path_factory.mktemp("browser-passkeys")
    port = free_port()
    extra = {"TRIPDESK_PASSKEY_RP_ID": "localhost", "TRIPDESK_PASSKEY_ORIGINS": f"http://localhost:{port}"}
    with live_tripdesk(workdir, extra_env=extra, port=port):
        yield f"http://localhost:{port}", workdir


def test_a_passkey_is_added_and_then_signs_in(new_page, localhost_url, screenshot):
    """Chromium's virtual authenticator (DevTools) stands in for a security key or a phone."""
    base, workdir = localhost_url
    page = new_page()
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True}
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {"options": {**options, "hasUserVerification": True, "isUserVerified": True}},
    )

    page.goto(f"{base}/signin/?next=/account/two-factor/")
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill("sam-demo")
    page.get_by_role("button", name="Sign in").click()
    second_step(page, workdir, "sam")  # the demo authenticator first: a new factor needs a verified sign-in
    expect(page.get_by_role("heading", name="Two-factor sign-in is on")).to_be_visible()
    expect(page.locator(".twofa__factors")).to_contain_text("Passkeys: none")
    page.get_by_role("button", name="Add a passkey").click()
    expect(page.locator(".twofa__factors")).not_to_contain_text("Passkeys: none")  # the page came back
    screenshot(page, "32-two-factor-passkey-added")

    page.goto(f"{base}/signout/")
    page.get_by_role("button", name="Sign out").click()
    page.goto(f"{base}/signin/?next=/admin/trips/approvalrequest/")
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill("sam-demo")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="One more step")).to_be_visible()
    page.get_by_role("button", name="Use a passkey").click()
    expect(page).to_have_url(re.compile(r"/admin/trips/approvalrequest/$"))
    events = manage(workdir, "shell", "-c", PASSKEY_EVENTS)
    assert [line for line in events.splitlines() if line.startswith("second_factor.")] == ["second_factor.enrolled"]


PASSKEY_EVENTS = """
from trips.models import AccountEvent
for event in AccountEvent.objects.filter(user__username="sam", payload__factor="passkey"):
    print(event.type)
"""
