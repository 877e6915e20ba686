"""Two-factor sign-in in headless Chromium: an approver without a second factor is kept from the
approval queue and sent to set one up; after enrolling an authenticator app (the code computed
here from the key the page shows) the queue opens. Every page carries the Content-Security-Policy
and runs without a CSP violation."""

import base64
import re

import pytest
from django_otp.oath import TOTP
from playwright.sync_api import expect

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
