"""The money moments as a hurried traveller meets them: a button pressed twice sends one action;
the hold card releases its holds only after a question whose default keeps them."""

import json
import re

import pytest
from playwright.sync_api import expect

from .test_chat import hold_first_holdable, trip_with_bundles, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PRESS_TWICE = "button => { button.click(); button.click(); }"  # a double click faster than any repaint


def sent_actions(frames: list[str], kind: str) -> list[dict]:
    out = []
    for raw in frames:
        frame = json.loads(raw)
        if frame.get("type") == "action" and frame["action"]["type"] == kind:
            out.append(frame["action"])
    return out


def test_a_double_press_holds_once_and_the_hold_card_releases_after_asking(new_page, base_url, screenshot):
    page = new_page()
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    trip_with_bundles(page, base_url)
    hold_first_holdable(page, press=lambda hold: hold.evaluate(PRESS_TWICE))
    assert len(sent_actions(sent, "hold")) == 1, "the button is disabled while its hold runs"
    expect(page.locator("#messages > li.msg--user", has_text="Hold this trip")).to_have_count(1)

    card = page.locator("[data-widget=holds]").last
    request = page.locator("[data-widget=approval]").last
    expect(request).to_have_attribute("data-status", "pending")
    release = card.get_by_role("button", name="Release these holds…")
    expect(release).to_be_visible()
    release.click()  # it only asks; keeping them is the default a hurried Enter lands on
    keep = card.get_by_role("button", name="Keep them on hold")
    expect(keep).to_be_focused()
    expect(card.get_by_role("group")).to_contain_text("Nothing has been bought")
    screenshot(page, "money-01-release-asks")
    page.keyboard.press("Enter")
    expect(release).to_be_focused()
    expect(card.get_by_role("button", name="Yes, release them")).to_be_hidden()
    assert sent_actions(sent, "release_holds") == []
    expect(page.locator("#trip-phase")).to_have_text("On hold")

    release.click()
    card.get_by_role("button", name="Yes, release them").evaluate(PRESS_TWICE)
    expect(page.locator("#messages > li.msg--assistant", has_text="Nothing was bought")).to_be_visible()
    wait_until_idle(page)
    assert len(sent_actions(sent, "release_holds")) == 1
    expect(page.locator("#messages > li.msg--user", has_text="Release the holds")).to_have_count(1)
    expect(page.locator("[data-widget=holds]").last).to_contain_text("Holds released")
    expect(request).to_have_attribute("data-status", "superseded")
    expect(page.locator("#trip-phase")).not_to_have_text("On hold")
    expect(page.get_by_role("button", name=re.compile("Release these holds"))).to_have_count(0)
    screenshot(page, "money-02-released")

    page.reload()  # the stored history says the same, and offers no release of holds that are gone
    expect(page.locator("#connection")).to_have_text("Live")
    expect(page.locator("[data-widget=holds]").last).to_contain_text("Holds released")
    expect(page.locator("#messages > li.msg--user", has_text="Release the holds")).to_have_count(1)
    expect(page.locator("[data-widget=approval]").first).to_have_attribute("data-status", "superseded")
    expect(page.get_by_role("button", name=re.compile("Release these holds"))).to_have_count(0)
