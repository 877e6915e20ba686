"""A trip from the first message to a booking and its cancellation through the Duffel adapter,
in Chromium, against the fake Duffel server: travellers named in the chat's card (prefilled from
the profile and saved companions), holds with Duffel's payment deadline, approval, payment,
Duffel's record locator, then the cancellation quote and its confirmation."""

import re

import pytest
from playwright.sync_api import expect

from tests.fakes.duffel_server import FakeDuffel

from .live import live_tripdesk, manage
from .test_chat import INITECH, LATEST_BUNDLES, SCENARIO_1, say, start_trip, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TRAVELLERS = """
from django.contrib.auth import get_user_model
from trips.services.travellers import companion_save, profile_save
ivy = get_user_model().objects.get(username="ivy")
profile_save(user=ivy, data={"title": "ms", "gender": "f", "given_name": "Ivy", "family_name": "Lambert",
    "born_on": "1984-09-02", "email": "ivy@example.com", "phone_number": "+44 20 8016 0508"})
for given, born in (("Ian", "1982-01-15"), ("Iris", "1990-05-05"), ("Igor", "1979-12-12")):
    companion_save(user=ivy, data={"title": "mr", "gender": "m", "given_name": given, "family_name": "Lambert",
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
        for script in (INITECH, TRAVELLERS):
            manage(workdir, "shell", "-c", script)
        yield url


def test_a_duffel_trip_from_first_message_to_cancellation(new_page, duffel_url, duffel, screenshot):
    page = new_page()
    trip_id = start_trip(page, duffel_url, "ivy")
    say(page, SCENARIO_1)
    expect(page.locator(LATEST_BUNDLES).nth(1)).to_be_visible()
    wait_until_idle(page)
    page.locator(LATEST_BUNDLES).nth(0).get_by_role("button", name=re.compile("^Select")).click()
    risk = page.locator("[data-widget=risk]").last
    expect(risk).to_be_visible()
    wait_until_idle(page)
    risk.get_by_role("button", name="Hold these").click()
    expect(page.locator("#messages")).to_contain_text("Who's travelling")  # nobody named: nothing held
    wait_until_idle(page)
    assert not duffel.writes("/air/orders")

    page.reload()
    card = page.locator("#travellers-card")
    expect(card).to_contain_text("0 of 4 named")
    expect(card.get_by_label("Last name, as on the passport").first).to_have_value("Lambert")  # from the profile
    expect(card.locator("#p3-given_name")).to_have_value("Igor")  # from the saved companions
    screenshot(page, "30-duffel-travellers-card")
    card.get_by_role("button", name="Save travellers").click()
    page.wait_for_url(re.compile(rf"/trips/{trip_id}/$"))
    expect(page.locator("#travellers-card")).to_contain_text("all 4 named")

    risk = page.locator("[data-widget=risk]").last
    page.locator(LATEST_BUNDLES).nth(0).get_by_role("button", name=re.compile("^Select")).click()
    wait_until_idle(page)
    page.locator("[data-widget=risk]").last.get_by_role("button", name="Hold these").click()
    expect(page.locator("[data-widget=holds]")).to_be_visible()
    wait_until_idle(page)
    order = next(iter(duffel.app.orders.values()))
    assert sorted(p["given_name"] for p in order["passengers"]) == ["Ian", "Igor", "Iris", "Ivy"]

    card = page.locator("[data-widget=approval]").last
    card.get_by_role("button", name="Buy now — within your company's auto-approval limit").click()
    page.keyboard.press("Enter")  # the confirm step has the focus
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
    assert order["cancelled_at"]
    screenshot(page, "32-duffel-cancelled")
