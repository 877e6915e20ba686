"""The traveller's chat in headless Chromium: scenarios 1, 4-6, 15 and 16 and a dropped connection, as a person sees them."""

import re

import pytest
from playwright.sync_api import expect

from .live import back_office_sign_in, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCENARIO_1 = "4 people going from Newark to Denver for 3 nights on January 30"
LATEST_BUNDLES = ".widget--bundles:not(.is-stale) .bundle"


def start_trip(page, base_url: str, username: str = "alice") -> int:
    sign_in(page, base_url, username)
    page.get_by_role("button", name="Plan a new trip").click()
    page.wait_for_url(re.compile(r"/trips/\d+/$"))
    expect(page.locator("#connection")).to_have_text("Live")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def say(page, text: str) -> None:
    """Type into the composer (focused on load) and press Enter: the keyboard path."""
    expect(page.get_by_label("Message TripDesk")).to_be_focused()
    page.keyboard.type(text)
    page.keyboard.press("Enter")


def wait_until_idle(page) -> None:
    """Until the trip is at rest: nothing sent is waiting and the server said idle after its newest message.

    No spinner is not enough: between two answers of one turn (a hold's "Held…" and what follows)
    the newest message is an answer, with nothing spinning, while the turn still runs.
    """
    expect(page.locator("#messages")).to_have_attribute("data-turn", "idle")
    expect(page.locator(".msg--progress.is-active")).to_have_count(0)
    expect(page.locator(".msg--typing")).to_be_hidden()


def conversation(page) -> list[tuple[int, str]]:
    rows = page.locator("#messages > li[data-seq]").evaluate_all("els => els.map(e => [+e.dataset.seq, e.innerText])")
    return [(seq, text) for seq, text in rows]


def test_scenario_1_one_message_shows_bundle_cards(new_page, base_url, screenshot):
    page = new_page()
    trip_id = start_trip(page, base_url)
    expect(page.locator("#trip-title")).to_have_text(f"New trip #{trip_id}")
    screenshot(page, "01-new-trip")
    say(page, SCENARIO_1)
    expect(page.locator(".msg--progress").first).to_contain_text("Reading your message")
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)

    card = page.locator(LATEST_BUNDLES).first
    expect(card.locator(".bundle__total")).to_have_text(re.compile(r"^\$[\d,]+\.\d\d$"))
    expect(card.locator(".leg")).to_have_count(2)
    # Flight times as stated at each airport, labelled with its zone ("9:46 AM EST"), never a bare clock.
    expect(card.locator(".leg__time").first).to_have_text(re.compile(r"^\d{1,2}:\d\d [AP]M [A-Z]{3,4}"))
    expect(card).not_to_contain_text("local time at each airport")
    expect(card.locator(".leg__meta").first).to_contain_text(re.compile(r"\d+ (h|min)"))  # "4 h 5 min"
    # The hotel's total adds up: nights (× rooms) at the room charges + taxes and fees = what is held.
    hotel_sum = card.locator(".hotel__sum").inner_text()
    parts = [float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+\.\d\d)", hotel_sum)]
    assert len(parts) == 3 and abs(parts[0] + parts[1] - parts[2]) < 0.005, hotel_sum
    expect(card.locator(".leg__meta").first).to_contain_text(re.compile(r"(Nonstop|\d stops?)"))
    # A flight's times never run into its route, however wide ("11:00 AM EST → 12:40 PM PST +1").
    crowded = page.locator(LATEST_BUNDLES + " .leg").evaluate_all(
        """legs => legs.filter((leg) => {
            const times = [...leg.querySelectorAll(".leg__times *")].map((e) => e.getBoundingClientRect());
            const route = leg.querySelector(".leg__route").getBoundingClientRect();
            return times.some((t) => t.right > route.left && t.top < route.bottom && t.bottom > route.top);
        }).map((leg) => leg.innerText.replace(/\\s+/g, " "))"""
    )
    assert not crowded, crowded
    expect(card.locator(".hotel .stars")).to_have_attribute("aria-label", re.compile(r"\d-star hotel"))
    expect(card.locator(".hotel__meta")).to_contain_text(re.compile(r"Refundable|Non-refundable"))
    expect(card.locator(".bundle__why li").first).to_be_visible()
    expect(card.get_by_role("button", name=re.compile(r"^Select option B1$"))).to_be_enabled()
    summary = page.locator("[data-widget=trip_summary]").last
    expect(summary).to_contain_text("4 adults")
    expect(summary).to_contain_text("Newark (EWR) → Denver (DEN)")
    # Money in the assistant's own words is formatted like the cards ("$1,234.56"), and says whom it covers.
    lead = page.locator(".msg--assistant").filter(has=page.locator("[data-widget=bundles]")).last.locator(".msg__text")
    expect(lead).to_have_text(re.compile(r"cheapest \$[\d,]+\.\d\d in all for 4 adults\.$"))
    expect(page.locator("#messages")).not_to_contain_text(re.compile(r"\d\.\d\d USD|\dh\d\dm"))
    # The page lands on the best option (the summary and option B1), not the last option.
    best = page.locator(LATEST_BUNDLES).first
    in_view = page.evaluate("""() => {
        const box = document.getElementById("chat-scroll").getBoundingClientRect();
        const best = document.querySelector(".widget--bundles:not(.is-stale) .bundle").getBoundingClientRect();
        const last = [...document.querySelectorAll(".widget--bundles:not(.is-stale) .bundle")].pop().getBoundingClientRect();
        return {bestTop: best.top >= box.top - 1 && best.top < box.bottom - 120, lastBelow: last.top >= box.bottom};
    }""")
    assert in_view == {"bestTop": True, "lastBelow": True}, in_view
    expect(best.locator(".bundle__title")).to_be_in_viewport()
    expect(summary.locator(".summary__assumptions li").first).to_be_visible()
    expect(page.locator("#trip-phase")).to_have_text("Options ready")
    expect(page.locator(".msg--user")).to_have_count(1)
    # Issue 4: named by its route in the header, the sidebar and the tab, without a reload.
    expect(page.locator("#trip-title")).to_have_text("EWR → DEN · Jan 30")
    expect(page.locator("#trip-link-label")).to_have_text("EWR → DEN · Jan 30")
    expect(page).to_have_title("EWR → DEN · Jan 30 · TripDesk")
    screenshot(page, "02-bundles")
    page.locator(LATEST_BUNDLES).first.scroll_into_view_if_needed()
    screenshot(page, "03-bundle-card")

    page.set_viewport_size({"width": 375, "height": 812})
    page.reload()
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    widths = page.evaluate("""() => [document.documentElement.scrollWidth,
        document.getElementById("chat-scroll").scrollWidth - document.getElementById("chat-scroll").clientWidth]""")
    assert widths[0] <= 375 and widths[1] == 0  # nothing runs off sideways at phone width
    screenshot(page, "04-phone-latest")
    page.locator(LATEST_BUNDLES).first.scroll_into_view_if_needed()
    screenshot(page, "04-phone-bundle-card")
    page.set_viewport_size({"width": 375, "height": 640})  # a small phone: the answer below will not fit
    page.get_by_label("Message TripDesk").focus()
    say(page, "Is breakfast included?")  # what the traveller sends shows at the bottom, not the options
    expect(page.locator(".msg--user").last).to_be_in_viewport()
    # The answer is taller than a phone's chat area (the travellers card takes part of it): the
    # question stays in view with the answer starting below it, not scrolled off above.
    expect(page.locator(".msg--assistant").last).to_contain_text("Breakfast included")
    wait_until_idle(page)
    geometry = page.evaluate("""() => {
        const box = document.getElementById("chat-scroll").getBoundingClientRect();
        const asked = [...document.querySelectorAll(".msg--user")].pop().getBoundingClientRect();
        const answer = [...document.querySelectorAll(".msg--assistant")].pop().getBoundingClientRect();
        return {askedInView: asked.top >= box.top - 1 && asked.bottom <= box.bottom + 1,
                answerStartsInView: answer.top < box.bottom, answerTaller: answer.bottom > box.bottom};
    }""")
    assert geometry == {"askedInView": True, "answerStartsInView": True, "answerTaller": True}, geometry


def test_reading_above_is_not_moved_by_messages_from_another_tab(new_page, base_url):
    """Once the traveller scrolls up to read, new messages (here sent from their other tab) leave the page where it is."""
    page = new_page()
    trip_id = start_trip(page, base_url)
    say(page, SCENARIO_1)
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)
    other = new_page()
    sign_in(other, base_url, "alice")
    other.goto(f"{base_url}/trips/{trip_id}/")
    expect(other.locator("#connection")).to_have_text("Live")
    page.locator("#chat-scroll").hover()
    page.mouse.wheel(0, -20000)
    page.wait_for_function(
        "() => document.getElementById('chat-scroll').scrollTop === 0"
    )  # a function: a bare expression is eval'd in the page, which its CSP refuses
    say(other, "make it 3 people")
    expect(page.locator(".msg--user")).to_have_count(2)
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)
    assert page.evaluate("document.getElementById('chat-scroll').scrollTop") == 0
    expect(page.locator(".msg--user").first).to_be_in_viewport()


def send_from_another_socket(page, trip_id: int, action: dict) -> dict:
    """Send ``action`` as a page left open elsewhere would (its own websocket to the trip), and
    return the server's answer to it: its ``ack`` or its ``error`` frame."""
    return page.evaluate(
        """([trip, action]) => new Promise(done => {
            const ws = new WebSocket(`ws://${location.host}/ws/trips/${trip}/`);
            let sent = false;
            ws.onmessage = (event) => {
                const frame = JSON.parse(event.data);
                if (frame.type === "status" && !sent) {
                    sent = true;
                    ws.send(JSON.stringify({type: "action", action, client_id: "elsewhere1"}));
                } else if (frame.client_id === "elsewhere1" && (frame.type === "error" || frame.type === "ack")) {
                    ws.close();
                    done(frame);
                }
            };
        })""",
        [trip_id, action],
    )


def trip_with_bundles(page, base_url: str) -> None:
    """A new trip with scenario 1's bundles on screen and the turn done."""
    start_trip(page, base_url)
    say(page, SCENARIO_1)
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)


def hold_first_holdable(page, screenshot=None, press=None) -> None:
    """Select bundles in rank order until one can be held, and hold it (by keyboard, or ``press(button)``).

    Some sandbox offers cannot be held (instant payment, sold out): the first that can is taken.
    """
    # After a reload the chat is drawn again from the trip's history: the options are counted once on screen
    expect(page.locator(LATEST_BUNDLES).first).to_be_visible()
    for index in range(page.locator(LATEST_BUNDLES).count()):
        page.locator(LATEST_BUNDLES).nth(index).get_by_role("button", name=re.compile("^Select")).click()
        risk = page.locator("[data-widget=risk]").nth(index)
        expect(risk).to_be_visible()
        expect(page.locator(LATEST_BUNDLES).nth(index)).to_have_class(re.compile("is-selected"))
        wait_until_idle(page)
        if index == 0 and screenshot:
            screenshot(page, "05-selected")
        hold = risk.get_by_role("button", name="Hold these")
        if not hold.count():
            continue
        replies = page.locator("#messages > li.msg--assistant").count()
        if press:
            press(hold)
        else:
            hold.focus()
            page.keyboard.press("Enter")  # buttons are buttons: Enter works
        # Wait for the hold's own answer (holds, or why not) before choosing anything else: selecting
        # the next option while the hold is under way would release it and ask the approver again.
        page.wait_for_function(
            "n => document.querySelectorAll('#messages > li.msg--assistant').length > n", arg=replies
        )
        wait_until_idle(page)
        asked = page.locator("[data-widget=travellers]")
        if asked.count() and not page.locator("[data-widget=holds]").count():
            name_everyone(page, asked.last)
        if page.locator("[data-widget=holds]").count():
            return
    raise AssertionError("no bundle could be held")


def name_everyone_first(page) -> None:
    """Name everyone from the page's "Who's travelling" card before pressing anything (prefilled
    from the profile and companions): a hold then needs no question."""
    page.reload()  # the party is known: the page's card asks for names
    card = page.locator("#travellers-card")
    expect(card).to_have_attribute("open", "")
    card.get_by_role("button", name="Save travellers").click()
    expect(page.locator("#travellers-card summary")).to_contain_text(re.compile(r"all \d+ named"))
    expect(page.locator("#connection")).to_have_text("Live")
    wait_until_idle(page)


def name_everyone(page, card) -> None:
    """The hold asked for everyone's names: the card comes prefilled from the traveller's profile and
    saved companions (the demo travellers have both); save it, and the hold carries on by itself."""
    save = card.get_by_role("button", name="Save travellers")
    expect(save).to_be_visible()
    replies = page.locator("#messages > li.msg--assistant").count()
    save.click()
    expect(card).to_contain_text(re.compile(r"All \d+ named\."))
    # The hold goes on as a turn of its own once the names are saved: until the server says so, the
    # trip may still read as at rest, so its answer is waited for first (on a busy machine the check
    # for idle could otherwise pass before the turn began), then the turn's end.
    page.wait_for_function("n => document.querySelectorAll('#messages > li.msg--assistant').length > n", arg=replies)
    wait_until_idle(page)


def test_select_then_hold_shows_countdowns(new_page, base_url, screenshot):
    page = new_page()
    trip_with_bundles(page, base_url)
    page.reload()  # the party is known: the page's "Who's travelling" card asks for names
    card = page.locator("#travellers-card")
    expect(card).to_have_attribute("open", "")
    expect(card.locator("summary")).to_contain_text("name everyone before anything is held")
    hold_first_holdable(page, screenshot)
    holds = page.locator("[data-widget=holds]").last
    expect(holds).to_be_visible()
    # Nothing was held before everyone was named: the chat asked first, with the card, then held.
    said = page.locator("#messages > li[data-seq]").evaluate_all("els => els.map(e => e.innerText)")
    ask = next(i for i, text in enumerate(said) if "need the name of everyone" in text)
    named = next(i for i, text in enumerate(said) if text.startswith("Travellers named: 4 adults"))
    held = next(i for i, text in enumerate(said) if "Held for 4 adults" in text)
    assert ask < named < held, said
    expect(page.locator("[data-widget=travellers]").last).to_contain_text("All 4 named.")
    # Named and held: the page's card folds and stops asking, without a reload.
    expect(card).not_to_have_attribute("open", "")
    expect(card.locator("summary")).to_have_text("Who's travelling · all 4 named")
    countdowns = holds.locator(".countdown")
    assert countdowns.count() >= 2
    expect(countdowns.first).to_have_text(re.compile(r"^(\d+d \d+h|\d+h \d\dm|\d+m \d\ds) left$"))
    # Deadlines on cards read as the words beside them do: "Pay by Tue Nov 24, 5:17 PM EST".
    expect(holds.locator(".hold").first).to_contain_text(
        re.compile(r"Pay by \w{3} \w{3} \d+, \d+:\d\d [AP]M [A-Z]{3,4}")
    )
    expect(holds.locator(".hold").first).to_contain_text(re.compile(r"Flight [A-Z]{3} → [A-Z]{3} · [A-Z0-9]{2}\d+"))
    expect(page.locator("#trip-phase")).to_have_text("On hold")
    expect(page.locator("[data-widget=approval]").last).to_have_attribute("data-status", "pending")
    # The traveller reads the core's "Held…" first, then the approval request it led to.
    said = page.locator("#messages > li.msg--assistant").evaluate_all(
        "els => els.map(e => [e.querySelector('[data-widget]')?.dataset.widget || '', e.innerText])"
    )
    held = next(i for i, (_, text) in enumerate(said) if "Held for 4 adults" in text)
    asked = next(i for i, (widget, _) in enumerate(said) if widget == "approval")
    assert held < asked, said
    expect(page.locator("[data-widget=approval]").last.locator(".chip")).to_have_text("Pending")
    # Nothing to buy while the approval is pending: no purchase action anywhere on screen.
    expect(page.get_by_role("button", name=re.compile(r"pay|purchase|buy", re.I))).to_have_count(0)
    expect(page.locator("[data-auto-approve]")).to_have_count(0)  # Acme's policy: an approver always decides
    screenshot(page, "06-holds")


def test_cancel_the_hold_in_words_releases_it_and_the_request_card_says_so(new_page, base_url, screenshot):
    page = new_page()
    trip_with_bundles(page, base_url)
    hold_first_holdable(page)
    request = page.locator("[data-widget=approval]").first
    expect(request).to_have_attribute("data-status", "pending")
    page.get_by_label("Message TripDesk").click()  # from the hold button back to the composer
    say(page, "never mind, cancel the hold")
    expect(page.locator("#messages > li.msg--assistant", has_text="Nothing was bought")).to_be_visible()
    wait_until_idle(page)
    expect(page.locator("[data-widget=holds]").last).to_contain_text("Holds released")
    # the request above no longer reads "Pending": its newer card says why, and it says the same, dimmed
    expect(page.locator("[data-widget=approval]").last.locator(".chip")).to_have_text("Superseded")
    expect(request).to_have_attribute("data-status", "superseded")
    expect(request).to_have_class(re.compile("is-stale"))
    expect(request.locator("[data-deadline]")).to_have_count(0)
    expect(page.locator("#trip-phase")).not_to_have_text("On hold")
    page.reload()  # the stored history says the same
    expect(page.locator("[data-widget=approval]").first).to_have_attribute("data-status", "superseded")
    screenshot(page, "16-hold-released-in-words")


def trip_on_hold(page, base_url: str, username: str = "alice") -> int:
    """Scenario 1 in a new trip, then the first holdable bundle held; returns the trip's id."""
    trip_id = start_trip(page, base_url, username)
    say(page, SCENARIO_1)
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)
    hold_first_holdable(page)
    return trip_id


def approver_grants(
    new_page, base_url: str, trip_id: int, live_dir=None, *, username: str = "ann", password: str = "ann-demo"
):
    """The approver (Ann by default) opens the trip in the back office, gives the second factor
    (``second_step``), follows its purchase approval and grants it; returns the approver's page."""
    approver = new_page()
    back_office_sign_in(approver, base_url, f"/admin/trips/trip/{trip_id}/change/", username, live_dir, password)
    approver.locator(".tripdesk-glance").get_by_role("link", name=re.compile(r"^Purchase approval #\d+$")).click()
    approver.get_by_role("button", name=re.compile(r"^Grant \$[\d,]+\.\d\d$")).click()
    expect(approver.locator("[data-status]")).to_have_attribute("data-status", "granted")
    return approver


def test_a_grant_while_typing_buys_nothing_and_paying_survives_a_reload(new_page, base_url, screenshot, live_dir):
    """Issue 12, the blocker: a grant pushed mid-sentence never takes the keyboard; paying is its own act.

    The approver grants in the back office while the traveller is typing; Enter sends the words and buys nothing. The pay button names the amount and the
    card; after a reload, with no token passed by hand, the traveller still completes the purchase.
    """
    page = new_page()
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    trip_id = trip_on_hold(page, base_url)
    expect(page.locator("[data-widget=approval]").last).to_have_attribute("data-status", "pending")

    composer = page.get_by_label("Message TripDesk")
    composer.focus()
    page.keyboard.type("Can I add a checked")
    approver = approver_grants(new_page, base_url, trip_id, live_dir)  # granted while the traveller types
    expect(approver.locator("#content-main")).not_to_contain_text("tdk_apv_")  # no token to pass on by hand
    review = page.get_by_role("button", name=re.compile(r"^Review and pay \$[\d,]+\.\d\d…$"))
    expect(review).to_be_visible()
    expect(page.locator("[data-widget=approval]").last).to_have_attribute("data-status", "granted")
    # The request's card above no longer says "Pending": one approval, one status on screen.
    expect(page.locator("[data-widget=approval] .chip")).to_have_text(["Granted", "Granted"])
    expect(page.locator("[data-widget=approval]").first).not_to_contain_text("Needs a yes before")
    # The grant came unasked, long after the hold's answer: it is brought into view (not left below
    # while the page keeps the traveller's last question at the top).
    expect(page.locator("[data-widget=approval]").last).to_be_in_viewport()
    expect(page.locator("#trip-phase")).to_have_text("Approved")  # not "On hold" beside a granted approval
    expect(composer).to_be_focused()  # the grant did not take the keyboard
    expect(page.locator("#pay")).to_be_hidden()  # nor open anything over the composer
    page.keyboard.type(" bag")
    page.keyboard.press("Enter")
    expect(page.locator(".msg--user").last).to_contain_text("Can I add a checked bag")
    wait_until_idle(page)
    expect(page.locator("[data-widget=booking]")).to_have_count(0)  # Enter bought nothing
    expect(page.locator("#trip-phase")).not_to_have_text("Booked")
    screenshot(page, "13-approved-while-typing")

    page.reload()  # a closed tab or a reload loses nothing: the pay action comes from the server
    expect(page.locator("#connection")).to_have_text("Live")
    amount = review.inner_text().removeprefix("Review and pay ").removesuffix("…")
    review.click()
    pay = page.get_by_role("button", name=f"Pay {amount} with Visa •• 4242")
    expect(pay).to_be_visible()
    expect(pay).to_be_in_viewport(ratio=1)  # the Pay button fits the window (the page itself never scrolls)
    expect(page.locator("#pay [data-pay-refund]")).to_contain_text(re.compile(r"refund", re.I))
    expect(page.locator("#pay [data-pay-total]")).to_contain_text(f"Total {amount} for 4 adults")
    items = page.locator("#pay .pay__item > span:first-child")
    expect(items.first).to_have_text(re.compile(r"^Flight [A-Z]{3} → [A-Z]{3} · "))
    expect(items.last).to_have_text(re.compile(r"^Hotel \S"))  # named as the cards name it
    expect(review).to_be_hidden()  # the open panel is the review: not offered again above it
    screenshot(page, "14-pay-panel")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)  # the drawer's slide when the layout turns narrow
    screenshot(page, "14-pay-panel-phone")
    pay_box = pay.bounding_box()
    assert pay_box and pay_box["y"] + pay_box["height"] <= 844, "the Pay button is reachable on a phone"
    page.set_viewport_size({"width": 1280, "height": 900})
    assert page.evaluate("document.scrollingElement.scrollTop") == 0
    page.get_by_role("button", name="Not now").click()
    expect(review).to_be_focused()  # closed: the action bar offers it again, focus where it was
    review.click()
    pay.click()
    booking = page.locator("[data-widget=booking]")
    expect(booking).to_be_visible()
    wait_until_idle(page)
    expect(booking.locator(".locator").first).to_have_text(re.compile(r"^[A-Z0-9]{5,8}$"))
    expect(page.locator("#trip-phase")).to_have_text("Booked")
    expect(page.get_by_role("button", name=re.compile(r"^(Review and pay|Pay )"))).to_have_count(0)
    assert not [frame for frame in frames if "tdk_apv_" in frame]  # no token ever reached the page
    booked = page.locator(".msg--assistant").filter(has=booking).last.locator(".msg__text")
    expect(booked).to_have_text(
        re.compile(r"^Booked: booking references .+; \$[\d,]+\.\d\d paid for 4 adults with Visa •• 4242\.$")
    )
    expect(page.locator("#messages")).not_to_contain_text("bkg_")  # the internal booking id is never shown
    # What was pressed stays as the button said it, once (the server's copy replaced the pending one).
    expect(page.locator("#messages > li.msg--user", has_text=f"Pay {amount} with Visa •• 4242")).to_have_count(1)
    screenshot(page, "15-booked")

    # Cancelling starts with a quote that says what is lost, never the internal id.
    booking.get_by_role("button", name="Cancel booking…").click()
    quote = page.locator("[data-widget=cancellation]").last
    expect(quote).to_contain_text(re.compile(r"Refund if you cancel now \$[\d,]+\.\d\d of \$[\d,]+\.\d\d paid"))
    expect(quote).to_contain_text(
        re.compile(r"You lose \$[\d,]+\.\d\d \(non-refundable fares and cancellation fees\)|you lose nothing")
    )
    expect(quote.get_by_role("button", name="Confirm cancellation")).to_be_visible()
    # A card's buttons act on that card: while the quote is open the booking offers no second "Cancel booking…".
    expect(booking.get_by_role("button", name="Cancel booking…")).to_have_count(0)
    expect(page.get_by_role("button", name="Try again")).to_have_count(0)
    expect(page.locator("#messages")).not_to_contain_text("bkg_")
    screenshot(page, "15b-cancellation-quote")

    # "Keep my booking" closes the quote: "Cancel booking…" comes back (focused), also after a reload.
    quote.get_by_role("button", name="Keep my booking").click()
    expect(quote.get_by_role("button", name="Confirm cancellation")).to_have_count(0)
    expect(quote).to_contain_text("You kept the booking: nothing was cancelled.")
    expect(booking.get_by_role("button", name="Cancel booking…")).to_be_focused()
    page.reload()
    expect(page.locator("#connection")).to_have_text("Live")
    expect(page.locator("#messages > li.msg--user", has_text=f"Pay {amount} with Visa •• 4242")).to_have_count(1)
    expect(page.get_by_role("button", name="Confirm cancellation")).to_have_count(0)
    expect(booking.get_by_role("button", name="Cancel booking…")).to_be_visible()
    # A quote left open until it lapses gives "Cancel booking…" back the same way.
    page.clock.install()
    booking.get_by_role("button", name="Cancel booking…").click()
    expect(page.locator("[data-widget=cancellation]")).to_have_count(2)
    expect(
        page.locator("[data-widget=cancellation]").last.get_by_role("button", name="Confirm cancellation")
    ).to_be_visible()
    wait_until_idle(page)
    expect(booking.get_by_role("button", name="Cancel booking…")).to_have_count(0)
    page.clock.fast_forward("16:00")  # the sandbox's quote holds 15 minutes
    expect(page.locator("[data-widget=cancellation]").last).to_contain_text("This quote has expired")
    expect(page.get_by_role("button", name="Confirm cancellation")).to_have_count(0)
    expect(booking.get_by_role("button", name="Cancel booking…")).to_be_visible()


def test_released_holds_say_so_and_ask_for_no_payment(new_page, base_url, screenshot, live_dir):
    page = new_page()
    trip_id = trip_on_hold(page, base_url)
    staff = new_page()
    # Support staff give a second factor, then are back on the trip.
    back_office_sign_in(staff, base_url, f"/admin/trips/trip/{trip_id}/change/", "sam", live_dir)
    staff.get_by_role("button", name="Release holds…").click()
    staff.locator("textarea[name=reason]").fill("The hotel asked us to free the rooms")
    staff.get_by_role("button", name="Release holds").click()

    released = page.locator("[data-widget=holds]").last
    expect(released.locator(".card__title")).to_have_text("Holds released")
    expect(released).not_to_contain_text("Pay by")
    expect(released).not_to_contain_text("On hold")
    expect(released.locator(".chip").first).to_have_text("Released")
    expect(released).to_contain_text("No longer held: nothing to pay")
    expect(page.locator(".msg--system").last).to_contain_text("The hotel asked us to free the rooms")
    screenshot(page, "07-holds-released")


INITECH = """
from trips.services.orgs import member_add, organisation_create
from trips.services.payment_methods import payment_method_create
from handlers.common.defaults import DEFAULT_POLICY
from django.contrib.auth import get_user_model
import copy
policy = copy.deepcopy(DEFAULT_POLICY)
policy["rules"]["auto_approve_below"] = "100000.00"
org = organisation_create(name="Initech", slug="initech", policy=policy)
ivy, created = get_user_model().objects.get_or_create(username="ivy")
if created:
    ivy.set_password("ivy-demo")
    ivy.save()
    member_add(user=ivy, organisation=org, role="traveller")
    payment_method_create(owner=ivy, brand="visa", last4="4242", label="Sandbox Visa")
    from trips.management.commands.seed_demo import demo_travellers
    demo_travellers(ivy)  # a profile and companions, as the demo travellers have: the names card comes prefilled
"""


def test_a_traveller_approves_within_the_company_limit(new_page, base_url, screenshot, live_shell):
    """Issue 8 item 6: where the policy allows it, a button and a confirm step replace the approver."""
    live_shell(INITECH)  # an organisation that approves purchases under 100,000 on the traveller's request
    page = new_page()
    start_trip(page, base_url, "ivy")
    say(page, SCENARIO_1)
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)
    hold_first_holdable(page)

    card = page.locator("[data-widget=approval]").last
    expect(card).to_have_attribute("data-status", "pending")
    ask = card.get_by_role("button", name="Buy now — within your company's auto-approval limit")
    expect(ask).to_be_visible()
    card.scroll_into_view_if_needed()
    screenshot(page, "15-auto-approval-offered")
    ask.click()
    confirm = card.get_by_role("button", name=re.compile(r"^Approve \$[\d,]+\.\d\d myself$"))
    expect(confirm).to_be_focused()  # the confirm step, reached by keyboard too
    screenshot(page, "16-auto-approval-confirm")
    page.keyboard.press("Enter")

    expect(page.locator("[data-widget=approval]").last).to_have_attribute("data-status", "granted")
    expect(page.locator("[data-auto-approve]")).to_have_count(0)  # offered no more
    expect(page.locator("#messages")).to_contain_text("Approved automatically")
    screenshot(page, "17-auto-approved")
    page.locator("[data-widget=approval]").last.get_by_role("button", name="Review and pay…").click()
    page.get_by_role("button", name=re.compile(r"^Pay \$[\d,]+\.\d\d with Visa •• 4242$")).click()
    expect(page.locator("[data-widget=booking]")).to_be_visible()
    wait_until_idle(page)
    expect(page.locator("#messages")).not_to_contain_text("tdk_apv_")


def test_reload_mid_search_loses_and_duplicates_nothing(new_page, base_url, screenshot):
    page = new_page()
    start_trip(page, base_url)
    say(page, SCENARIO_1)
    expect(page.locator(".msg--progress", has_text="Searching flights").first).to_be_visible()
    assert not page.locator(".widget--bundles").count(), "the search finished before the reload"
    page.reload()
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)
    screenshot(page, "09-after-reload")

    after_reload = conversation(page)
    seqs = [seq for seq, _ in after_reload]
    assert seqs == list(range(1, len(seqs) + 1))  # every message, once, in order
    assert sum(SCENARIO_1 in text for _, text in after_reload) == 1
    assert page.locator(".widget--bundles").count() == 1
    page.reload()
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)
    assert conversation(page) == after_reload  # what a fresh load shows is exactly what survived the reload


def test_another_traveller_is_refused(new_page, base_url, screenshot):
    alice = new_page()
    trip_id = start_trip(alice, base_url, "alice")
    say(alice, "I'm going to San Francisco")
    expect(alice.locator(".msg--assistant").first).to_be_visible()

    bob = new_page()
    sign_in(bob, base_url, "bob")
    expect(bob.locator(".trip-list")).not_to_contain_text(f"#{trip_id}")
    response = bob.goto(f"{base_url}/trips/{trip_id}/")
    assert response.status == 404
    close_code = bob.evaluate(
        """trip => new Promise(done => {
            const ws = new WebSocket(`ws://${location.host}/ws/trips/${trip}/`);
            ws.onmessage = () => done("received a frame");
            ws.onclose = (event) => done(event.code);
        })""",
        trip_id,
    )
    assert close_code == 4404  # the same code as no trip at all
    bob.goto(f"{base_url}/")
    screenshot(bob, "10-other-traveller")


def test_questions_are_said_once_with_what_is_known_so_far(new_page, base_url, screenshot):
    """Several questions read as one card (a lead-in, one per line), not a run-on sentence repeated
    by the card under it; one question is said once; each card says what was understood so far."""
    page = new_page()
    start_trip(page, base_url)
    say(page, "I want to go to Paris")
    wait_until_idle(page)
    card = page.locator(".msg--assistant [data-widget=questions]").last
    expect(card).to_contain_text("A few things before I search:")
    expect(card.locator("li")).to_have_count(3)
    expect(card).to_contain_text("So far: To Paris")
    answer = page.locator(".msg--assistant").last
    assert answer.inner_text().count("Where are you flying from?") == 1
    screenshot(page, "13-questions-with-what-is-known")
    say(page, "from boston on march 8, me and my husband")
    wait_until_idle(page)
    one = page.locator(".msg--assistant").last
    expect(one.locator("[data-widget=questions]")).to_contain_text("When do you come back?")
    assert one.inner_text().count("When do you come back?") == 1
    expect(one).to_contain_text("Boston (BOS) → Paris")
    expect(one).to_contain_text("2 adults")
    say(page, "hmm not sure yet")  # answers nothing: said so above the question, once
    wait_until_idle(page)
    again = page.locator(".msg--assistant").last
    expect(again.locator(".questions__opening")).to_contain_text("nothing changed")
    assert again.inner_text().count("When do you come back?") == 1


def test_sign_in_page_and_phone_layout(new_page, base_url, screenshot):
    page = new_page(width=375, height=812)
    page.goto(f"{base_url}/")
    assert page.url.startswith(f"{base_url}/signin/")
    screenshot(page, "11-signin-phone")
    sign_in(page, base_url, "alice")
    toggle = page.get_by_role("button", name="Trips")
    expect(page.locator("#sidebar")).not_to_be_in_viewport()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_role("button", name="New trip", exact=True)).to_be_focused()
    expect(page.locator("#sidebar")).to_be_in_viewport(ratio=1)  # slid fully in
    screenshot(page, "12-trips-drawer-phone")
    page.keyboard.press("Escape")
    expect(toggle).to_be_focused()
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(re.compile(r"/signin/$"))
    expect(page.get_by_role("status")).to_contain_text("signed out")


def test_a_dropped_connection_reconnects_and_resumes(new_page, base_url):
    """The page reconnects by itself, asks only for what it lacks, and carries on."""
    page = new_page()
    sockets = []

    def through(ws):
        ws.connect_to_server()  # a transparent proxy the test can cut
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws/trips/\d+/"), through)
    start_trip(page, base_url)
    say(page, SCENARIO_1)
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)
    before = conversation(page)

    sockets[-1].close(code=4000, reason="network blip")
    expect(page.locator("#connection")).to_have_text("Live")
    assert len(sockets) == 2
    assert sockets[1].url.endswith(f"?after_seq={before[-1][0]}")  # resumes after the last seq it holds
    page.get_by_label("Message TripDesk").focus()
    say(page, "actually we are 6 adults")
    expect(page.locator(".widget--bundles")).to_have_count(2)
    wait_until_idle(page)
    after = conversation(page)
    assert [seq for seq, _ in after] == list(range(1, len(after) + 1))  # nothing lost, nothing twice

    def heads(rows):  # older bundle cards now say "Replaced by newer options": compare what was said
        return [(seq, text.splitlines()[:4]) for seq, text in rows]

    assert heads(after[: len(before)]) == heads(before)
    expect(page.locator("[data-widget=trip_summary]").last).to_contain_text("6 adults")


def test_a_stale_cards_button_cannot_act_on_another_option(new_page, base_url, screenshot):
    """Issue 12: after another option is chosen, the old card's buttons are gone, and the server refuses them."""
    page = new_page()
    trip_id = start_trip(page, base_url)
    say(page, SCENARIO_1)
    expect(page.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
    wait_until_idle(page)
    page.locator(LATEST_BUNDLES).nth(0).get_by_role("button", name=re.compile("^Select")).click()
    expect(page.locator("[data-widget=risk]")).to_have_count(1)
    wait_until_idle(page)
    page.locator(LATEST_BUNDLES).nth(1).get_by_role("button", name=re.compile("^Select")).click()
    expect(page.locator("[data-widget=risk]")).to_have_count(2)
    wait_until_idle(page)
    expect(page.locator("[data-widget=risk]").first.get_by_role("button")).to_have_count(0)
    expect(page.locator(".bundle.is-selected")).to_have_attribute("data-bundle-id", "B2")

    # A card left open in another tab still says "Hold" for B1: the server refuses it, holds nothing.
    reply = send_from_another_socket(page, trip_id, {"type": "hold", "bundle_id": "B1"})
    assert reply["type"] == "error" and "no longer the one selected" in reply["message"]
    wait_until_idle(page)
    expect(page.locator("[data-widget=holds]")).to_have_count(0)
    expect(page.locator("#trip-phase")).to_have_text("Option selected")
    screenshot(page, "18-stale-card")
