"""Words on the options in a real browser: "hold B2" picks, checks and holds in one message, and
the cards the buttons would have shown follow (the pick marked, the policy card, the holds, the
approval request); a question naming an option picks nothing."""

import re

from playwright.sync_api import expect

from .test_chat import LATEST_BUNDLES, name_everyone, say, trip_with_bundles, wait_until_idle


def test_hold_said_with_the_pick_marks_checks_and_holds_it(new_page, base_url, screenshot):
    page = new_page()
    trip_with_bundles(page, base_url)
    held = 0
    for n in range(1, page.locator(LATEST_BUNDLES).count() + 1):  # some sandbox offers can't be held
        say(page, f"hold B{n}")
        expect(page.locator("[data-widget=risk]")).to_have_count(n)  # each pick gets its policy card
        wait_until_idle(page)
        asked = page.locator("[data-widget=travellers]")
        if asked.count() and not page.locator("[data-widget=holds]").count():
            name_everyone(page, asked.last)  # the first hold asks for the names, then carries on
            page.get_by_label("Message TripDesk").focus()
        if page.locator("[data-widget=holds]").count():
            held = n
            break
    assert held, "no option on screen could be held"
    expect(page.locator(LATEST_BUNDLES).nth(held - 1)).to_have_class(re.compile("is-selected"))
    expect(page.locator("#messages > li.msg--assistant", has_text=f"B{held} is within policy")).to_contain_text(
        "Holding it now."
    )
    expect(page.locator("[data-widget=approval]").last).to_have_attribute("data-status", "pending")
    expect(page.locator("#trip-phase")).to_have_text(re.compile("On hold"))
    screenshot(page, "17-hold-said-with-the-pick")
    page.reload()  # the stored history says the same
    expect(page.locator("[data-widget=holds]").last).to_be_visible()


def test_a_question_naming_an_option_answers_it_and_picks_nothing(new_page, base_url):
    page = new_page()
    trip_with_bundles(page, base_url)
    say(page, "whats the hotel in B2 called")
    reply = page.locator("#messages > li.msg--assistant", has_text="B2 (")
    expect(reply.last).to_be_visible()
    wait_until_idle(page)
    expect(page.locator(f"{LATEST_BUNDLES}.is-selected")).to_have_count(0)
    expect(page.locator("[data-widget=risk]")).to_have_count(0)
