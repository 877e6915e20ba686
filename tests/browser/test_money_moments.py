"""The money moments as a hurried traveller meets them: a button pressed twice sends one action;
the hold card releases its holds only after a question whose default keeps them; an approval
that arrives while the traveller reads above is said over the chat's foot, without moving the
page; approving a purchase oneself is done once however often it is pressed, in however many tabs."""

import json
import re

import pytest
from playwright.sync_api import expect

from .live import sign_in
from .test_chat import (
    INITECH,
    approver_grants,
    hold_first_holdable,
    name_everyone_first,
    send_from_another_socket,
    trip_on_hold,
    trip_with_bundles,
    wait_until_idle,
)

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
    name_everyone_first(page)  # so the hold needs no question in between
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


def scrolled_to_top(page) -> None:
    page.locator("#chat-scroll").hover()
    page.mouse.wheel(0, -20000)
    page.wait_for_function("() => document.getElementById('chat-scroll').scrollTop === 0")


def test_a_grant_while_reading_above_is_said_below_without_moving_the_page(new_page, base_url, live_dir, screenshot):
    page = new_page()
    trip_id = trip_on_hold(page, base_url)
    wait_until_idle(page)
    composer = page.get_by_label("Message TripDesk")
    composer.focus()
    scrolled_to_top(page)
    jump = page.locator("#jump-below")
    expect(jump).to_be_hidden()

    approver_grants(new_page, base_url, trip_id, live_dir)
    expect(jump).to_be_visible()
    expect(jump).to_have_text("Approved: you can pay now ↓")
    expect(page.get_by_role("status").filter(has=jump)).to_have_count(1)  # read out, politely
    granted = page.locator("[data-widget=approval]").last
    expect(granted).to_have_attribute("data-status", "granted")
    wait_until_idle(page)
    assert page.evaluate("document.getElementById('chat-scroll').scrollTop") == 0  # the page stayed put
    expect(granted).not_to_be_in_viewport()
    expect(composer).to_be_focused()  # nothing took the keyboard
    screenshot(page, "money-03-granted-while-reading-above")

    jump.click()
    expect(granted).to_be_in_viewport()
    expect(jump).to_be_hidden()
    expect(composer).to_be_focused()
    page.keyboard.press("Enter")  # a hurried Enter in the empty composer buys nothing
    expect(page.locator("[data-widget=booking]")).to_have_count(0)
    expect(page.locator("#trip-phase")).to_have_text("Approved")

    # Scrolling down to it by hand clears the notice too.
    scrolled_to_top(page)
    page.get_by_label("Message TripDesk").focus()
    page.keyboard.type("thanks")
    page.keyboard.press("Enter")  # what the traveller sends shows at the bottom; no notice is left over
    expect(page.locator(".msg--user").last).to_be_in_viewport()
    expect(jump).to_be_hidden()


def test_approving_it_myself_twice_or_in_two_tabs_approves_once_without_an_error(
    new_page, base_url, live_shell, screenshot
):
    live_shell(INITECH)  # purchases under 100,000 may be approved by the traveller
    page = new_page()
    sent: list[str] = []
    received: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(str(payload))))
    trip_id = trip_on_hold(page, base_url, "ivy")
    other = new_page()  # the same trip open in a second tab
    sign_in(other, base_url, "ivy")
    other.goto(f"{base_url}/trips/{trip_id}/")
    expect(other.locator("#connection")).to_have_text("Live")

    card = page.locator("[data-widget=approval]").last
    card.get_by_role("button", name="Buy now — within your company's auto-approval limit").click()
    confirm = card.get_by_role("button", name=re.compile(r"^Approve \$[\d,]+\.\d\d myself$"))
    confirm.evaluate(PRESS_TWICE)
    expect(page.locator("[data-widget=approval]").last).to_have_attribute("data-status", "granted")
    assert len(sent_actions(sent, "auto_approve")) == 1, "the confirm button is off once pressed"
    expect(other.locator("[data-widget=approval]").last).to_have_attribute("data-status", "granted")
    expect(other.locator("[data-auto-approve]")).to_have_count(0)  # the other tab offers it no more

    # A press that was already on its way from the other tab: answered, not refused.
    reply = send_from_another_socket(other, trip_id, {"type": "auto_approve"})
    assert reply["type"] == "ack", reply
    wait_until_idle(page)
    for tab in (page, other):
        expect(tab.locator("#notice")).to_be_hidden()
        expect(tab.locator("#messages > li", has_text="Approved automatically")).to_have_count(1)
    assert not [f for f in received if '"type": "error"' in f or '"type":"error"' in f], received
    screenshot(page, "money-04-approved-once")
    page.locator("[data-widget=approval]").last.get_by_role("button", name="Review and pay…").click()
    pay = page.get_by_role("button", name=re.compile(r"^Pay \$[\d,]+\.\d\d with Visa •• 4242$"))
    pay.evaluate(PRESS_TWICE)
    expect(page.locator("[data-widget=booking]")).to_have_count(1)
    wait_until_idle(page)
    assert len(sent_actions(sent, "purchase")) == 1
    expect(page.locator("[data-widget=booking]")).to_have_count(1)
    expect(page.locator("#messages")).not_to_contain_text("tdk_apv_")
