"""Trip shapes in headless Chromium, first message to booking: a hotel-only trip (SCENARIOS.md 18) and a
trip whose hotel gets a nightly cap once options are on screen (19)."""

import re

import pytest
from playwright.sync_api import expect

from .test_chat import LATEST_BUNDLES, approver_grants, hold_first_holdable, say, start_trip, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def buy(page, new_page, base_url: str, trip_id: int, live_dir) -> None:
    """Hold the first option that can be held, have Ann grant it, buy: the booking shows."""
    hold_first_holdable(page)
    approver_grants(new_page, base_url, trip_id, live_dir)
    page.get_by_role("button", name=re.compile(r"^Review and pay \$[\d,]+\.\d\d…$")).click()
    page.get_by_role("button", name=re.compile(r"^Pay \$[\d,]+\.\d\d with Visa •• 4242$")).click()
    booking = page.locator("[data-widget=booking]")
    expect(booking).to_be_visible()
    wait_until_idle(page)
    expect(booking.locator(".locator").first).to_have_text(re.compile(r"^[A-Z0-9]{5,8}$"))
    expect(page.locator("#trip-phase")).to_have_text("Booked")


def test_a_hotel_only_trip_goes_from_the_first_message_to_a_booking(new_page, base_url, screenshot, live_dir):
    page = new_page()
    trip_id = start_trip(page, base_url)
    say(page, "Just need a room in Austin Dec 10 to Dec 12 for two, no flights")
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)
    expect(page.locator("#messages")).not_to_contain_text("flying from")
    summary = page.locator("[data-widget=trip_summary]").last
    expect(summary).to_contain_text("hotel only")
    expect(summary).to_contain_text("Austin")
    card = page.locator(LATEST_BUNDLES).first
    expect(card.locator(".leg")).to_have_count(0)  # no flight in any option
    expect(card.locator(".hotel")).to_have_count(1)
    expect(page.locator("#trip-title")).to_have_text("Hotel in Austin · Dec 10")
    screenshot(page, "20-hotel-only-options")
    buy(page, new_page, base_url, trip_id, live_dir)
    expect(page.locator("[data-widget=booking]").locator(".locator")).to_have_count(1)  # one room, one locator
    screenshot(page, "21-hotel-only-booked")


def test_a_nightly_cap_after_options_keeps_the_dates_and_books(new_page, base_url, screenshot, live_dir):
    page = new_page()
    trip_id = start_trip(page, base_url)
    say(page, "2 of us from Newark to Denver on January 30, back February 2, with a hotel")
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)
    say(page, "keep the hotel under 250 a night")
    echo = page.locator(".msg", has_text="Hotel capped at $250.00 a night")
    expect(echo).to_be_visible()
    expect(page.locator(".widget--bundles")).to_have_count(2)
    wait_until_idle(page)
    expect(page.locator("#messages")).not_to_contain_text("moved to")  # a price never moves a date
    summary = page.locator("[data-widget=trip_summary]").last
    expect(summary).to_contain_text("up to $250.00 a night")
    expect(summary).to_contain_text("Newark (EWR) → Denver (DEN)")
    screenshot(page, "22-nightly-cap-options")
    buy(page, new_page, base_url, trip_id, live_dir)
    screenshot(page, "23-nightly-cap-booked")
