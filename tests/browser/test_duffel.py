"""A trip from the first message to a booking and its cancellation through the Duffel adapter,
in Chromium, against the fake Duffel server: the hold asks for the travellers with a live card in
the chat (prefilled from the profile and saved companions, saved in place, and the hold carries
on without a reload), holds with Duffel's payment deadline, an approver's grant in the back
office, the traveller's payment, Duffel's record locator, then the cancellation quote and its
confirmation."""

import re

import pytest
from playwright.sync_api import expect

from tests.fakes.duffel_server import FakeDuffel

from .live import live_tripdesk, manage
from .test_chat import LATEST_BUNDLES, SCENARIO_1, approver_grants, say, start_trip, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Umbrella: the default policy (no purchase without an approver's grant); Uma travels, Ulf approves.
UMBRELLA = """
from django.contrib.auth import get_user_model
from handlers.common.defaults import DEFAULT_POLICY
from trips.services.orgs import member_add, organisation_create
from trips.services.payment_methods import payment_method_create
from trips.services.travellers import companion_save, profile_save
users = get_user_model()
org = organisation_create(name="Umbrella", slug="umbrella", policy=DEFAULT_POLICY)
for name, role in (("uma", "traveller"), ("ulf", "approver")):
    user = users.objects.create_user(username=name, password=f"{name}-demo", email=f"{name}@example.com")
    member_add(user=user, organisation=org, role=role)
uma = users.objects.get(username="uma")
payment_method_create(owner=uma, brand="visa", last4="4242", label="Test Visa")
profile_save(user=uma, data={"title": "ms", "gender": "f", "given_name": "Uma", "family_name": "Lambert",
    "born_on": "1984-09-02", "email": "uma@example.com", "phone_number": "+44 20 8016 0508"})
for given, born in (("Ian", "1982-01-15"), ("Iris", "1990-05-05"), ("Igor", "1979-12-12")):
    companion_save(user=uma, data={"title": "mr", "gender": "m", "given_name": given, "family_name": "Lambert",
        "born_on": born})
"""


@pytest.fixture(scope="module")
def duffel():
    with FakeDuffel() as server:
        yield server


@pytest.fixture(scope="module")
def duffel_url(tmp_path_factory, duffel):
    workdir = tmp_path_factory.mktemp("browser-duffel")
    extra = {
        "TRIPDESK_SUPPLIER": "duffel",
        "DUFFEL_ACCESS_TOKEN": FakeDuffel.TOKEN,
        "DUFFEL_BASE_URL": duffel.base_url,
        "DUFFEL_TIMEOUT_S": "5",
    }
    with live_tripdesk(workdir, extra_env=extra) as url:
        manage(workdir, "shell", "-c", UMBRELLA)
        yield url


def test_a_duffel_trip_from_first_message_to_cancellation(new_page, duffel_url, duffel, screenshot):
    page = new_page()
    trip_id = start_trip(page, duffel_url, "uma")
    say(page, SCENARIO_1)
    expect(page.locator(LATEST_BUNDLES).nth(1)).to_be_visible()
    wait_until_idle(page)
    page.locator(LATEST_BUNDLES).nth(0).get_by_role("button", name=re.compile("^Select")).click()
    risk = page.locator("[data-widget=risk]").last
    expect(risk).to_be_visible()
    wait_until_idle(page)
    page.evaluate("window.tripdeskNotReloaded = true")  # gone if anything below reloads the page
    risk.get_by_role("button", name="Hold these").click()

    card = page.locator("[data-widget=travellers]").last  # pushed live: nobody named, nothing held
    expect(card).to_contain_text("0 of 4 named")
    wait_until_idle(page)
    # Retrying cannot help until everyone is named: no "Try again" (on a card or in the action bar).
    expect(page.get_by_role("button", name="Try again")).to_have_count(0)
    expect(page.locator("#action-retry")).to_be_hidden()
    assert not duffel.writes("/air/orders")
    expect(card.get_by_label("Last name, as on the passport").first).to_have_value("Lambert")  # the profile
    expect(card.locator("[name=p3-given_name]")).to_have_value("Igor")  # the saved companions
    expect(card.get_by_label("Email", exact=True)).to_have_value("uma@example.com")
    screenshot(page, "30-duffel-travellers-card")
    card.get_by_role("button", name="Save travellers").click()
    expect(card).to_contain_text("All 4 named.")
    holds = page.locator("[data-widget=holds]")
    expect(holds).to_be_visible()  # the hold carried on by itself
    wait_until_idle(page)
    assert page.evaluate("window.tripdeskNotReloaded") is True and page.url.endswith(f"/trips/{trip_id}/")
    order = next(iter(duffel.app.orders.values()))
    assert sorted(p["given_name"] for p in order["passengers"]) == ["Ian", "Igor", "Iris", "Uma"]
    expect(holds).to_contain_text("Pay by")

    approval = page.locator("[data-widget=approval]").last
    expect(approval).to_have_attribute("data-status", "pending")
    expect(page.locator("[data-auto-approve]")).to_have_count(0)  # only an approver can say yes
    approver_grants(new_page, duffel_url, trip_id, username="ulf", password="ulf-demo")  # enrols on the way
    expect(page.locator("[data-widget=approval]").last).to_have_attribute("data-status", "granted")
    page.locator("[data-widget=approval]").last.get_by_role("button", name="Review and pay…").click()
    page.get_by_role("button", name=re.compile(r"^Pay \$[\d,]+\.\d\d with Visa •• 4242$")).click()
    booking = page.locator("[data-widget=booking]")
    expect(booking).to_be_visible()
    wait_until_idle(page)
    expect(booking).to_contain_text(order["booking_reference"])  # Duffel's record locator
    assert duffel.writes("/air/payments")
    screenshot(page, "31-duffel-booked")

    booking.get_by_role("button", name="Cancel booking…").click()
    quote = page.locator("[data-widget=cancellation]").last
    expect(quote).to_be_visible()
    wait_until_idle(page)
    quote.get_by_role("button", name="Confirm cancellation").click()
    expect(page.locator("[data-widget=cancellation]").last).to_contain_text("Booking cancelled")
    wait_until_idle(page)
    # Cancelled: nothing on the page offers to cancel or confirm again.
    expect(page.get_by_role("button", name=re.compile("^(Cancel booking…|Confirm cancellation)$"))).to_have_count(0)
    expect(page.locator("[data-widget=cancellation]").first).to_contain_text("This booking is cancelled.")
    assert order["cancelled_at"]
    screenshot(page, "32-duffel-cancelled")
