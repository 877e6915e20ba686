"""The approver in headless Chromium: from the notification email's link to a granted request in two clicks
(sign in with password and authenticator code on one page, then Grant)."""

import email
import json
import re
import time
from email import policy
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .live import back_office_sign_in, otp_code
from .test_chat import trip_on_hold

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DECISION_LINK = re.compile(r"http://127\.0\.0\.1:\d+/admin/trips/approvalrequest/(\d+)/change/")


def emails_to(live_dir: Path, address: str) -> list:
    """Every email the live TripDesk wrote (file backend) to ``address``, oldest first."""
    found = []
    for path in sorted((live_dir / "emails").glob("*.log")):
        for chunk in path.read_text().split("-" * 79):
            if chunk.strip():
                message = email.message_from_string(chunk.strip(), policy=policy.default)
                if address in str(message["To"]):
                    found.append(message)
    return found


def wait_for_links(
    live_dir: Path, address: str, subject: str, approval_ids: set[int], *, quiet: float = 1.5, timeout: float = 20
) -> list:
    """The decision links in the emails to ``address``, once one of them is for a request in
    ``approval_ids`` and no new one has come for ``quiet`` seconds after it (emails go out after
    commit, a moment after the page shows the holds; earlier tests' emails are already there, so
    waiting for quiet alone could return before this trip's email is written)."""
    deadline, seen, since = time.monotonic() + timeout, None, time.monotonic()
    while time.monotonic() < deadline:
        found = [
            DECISION_LINK.search(m.get_body(("plain",)).get_content()).group(0)
            for m in emails_to(live_dir, address)
            if str(m["Subject"]).strip().startswith(subject)
        ]
        if found != seen:
            seen, since = found, time.monotonic()
        elif any(int(DECISION_LINK.search(link).group(1)) in approval_ids for link in found):
            if time.monotonic() - since >= quiet:
                return found
        time.sleep(0.2)
    raise AssertionError(f"no email to {address} about {subject!r} for requests {sorted(approval_ids)}")


def approval_ids(live_shell, trip_id: int) -> set[int]:
    """The trip's approval requests, read from the live TripDesk's database."""
    out = live_shell(
        "from trips.models import ApprovalRequest; "
        f"print(sorted(ApprovalRequest.objects.filter(trip_id={trip_id}).values_list('pk', flat=True)))"
    )
    return set(json.loads(out.strip().splitlines()[-1]))  # the shell first says what it imported


def test_from_the_email_to_a_granted_request_in_two_clicks(new_page, base_url, live_dir, screenshot, live_shell):
    page = new_page()
    trip_id = trip_on_hold(page, base_url)
    expect(page.locator("[data-widget=approval]").last).to_have_attribute("data-status", "pending")
    requests = approval_ids(live_shell, trip_id)
    assert len(requests) == 1, f"one hold, one request: {requests}"

    links = wait_for_links(live_dir, "ann@example.com", "Approval needed: alice", requests)
    mine = [m for m in map(DECISION_LINK.search, links) if int(m.group(1)) in requests]
    assert len(mine) == 1, f"one hold, one request, one email: {links}"
    link, approval_id = mine[0].group(0), mine[0].group(1)

    approver = new_page()
    # Every page the approver's own actions open: a navigation that is no redirect. Only the
    # email's link (the goto) may come free; each click or submit after it counts.
    actions: list[str] = []

    def opened(request) -> None:
        if request.is_navigation_request() and request.frame == approver.main_frame and not request.redirected_from:
            actions.append(f"{request.method} {request.url}")

    approver.on("request", opened)
    approver.goto(link)  # signed out: the back office's sign-in page, asking for the code too
    assert len(actions) == 1
    expect(approver.locator("#site-name")).to_contain_text("TripDesk back office")
    approver.locator("#id_username").fill("ann")
    approver.locator("#id_password").fill("ann-demo")
    approver.get_by_label("Code from your authenticator app").fill(otp_code(live_dir, "ann"))
    screenshot(approver, "19-approver-sign-in-1280")
    approver.get_by_role("button", name="Sign in").click()  # click 1: straight back to the request
    expect(approver).to_have_url(re.compile(rf"/admin/trips/approvalrequest/{approval_id}/change/$"))
    assert [a.split()[0] for a in actions] == ["GET", "POST"], actions

    main = approver.locator("#content-main")
    screenshot(approver, "20-approver-decision-1280")
    expect(main).to_contain_text("alice")
    expect(main).to_contain_text(re.compile(r"[A-Z]{3} → DEN → [A-Z]{3}"))
    # the days the held items cover: to Feb 2, or Feb 3 when the return flight lands after midnight
    # (the sandbox's offers change with the hour the search runs)
    expect(main).to_contain_text(re.compile(r"Sat Jan 30 – (?:Tue Feb 2|Wed Feb 3), 20\d\d"))
    expect(main).to_contain_text("4 adults")
    assert main.locator(".decision-item").count() >= 2
    deadline = re.compile(r"Pay by \w{3} \w{3} \d+, \d+:\d\d [AP]M [A-Z]{3,4}")  # local time, zone named
    expect(main.locator(".decision-item").first).to_contain_text(deadline)
    expect(main).not_to_contain_text("room_only")
    expect(main).not_to_contain_text("T00:00")
    grant = approver.get_by_role("button", name=re.compile(r"^Grant \$[\d,]+\.\d\d$"))
    amount = re.search(r"\$[\d,]+\.\d\d", grant.inner_text()).group(0)
    # The decision fits above the fold at 1280×900: the amount, the deadline and both buttons.
    for decisive in (main.locator(".decision-total-top"), grant, approver.get_by_role("button", name=f"Deny {amount}")):
        expect(decisive).to_be_in_viewport(ratio=1)
    expect(main.locator(".decision-ask")).to_contain_text(
        re.compile(r"Decide by \w{3} \w{3} \d+, \d+:\d\d [AP]M [A-Z]{3,4}")
    )
    expect(main.locator(".decision-total")).to_contain_text(amount)
    expect(approver.get_by_role("button", name=f"Deny {amount}")).to_be_visible()
    approver.set_viewport_size({"width": 390, "height": 844})
    screenshot(approver, "21-approver-decision-390")
    # Usable on a phone: nothing runs off sideways, the amount shows first, the buttons are full-width targets.
    assert approver.evaluate("document.documentElement.scrollWidth") <= 390
    expect(main.locator(".decision-total-top")).to_be_in_viewport(ratio=1)
    for button in (grant, approver.get_by_role("button", name=f"Deny {amount}")):
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box["height"] >= 36 and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    screenshot(approver, "21-approver-decision-390-buttons")
    approver.set_viewport_size({"width": 1280, "height": 900})
    approver.evaluate("window.scrollTo(0, 0)")

    actions_before_grant = len(actions)
    grant.click()  # click 2
    expect(approver.locator("[data-status]")).to_have_attribute("data-status", "granted")
    expect(approver.locator(".messagelist")).to_contain_text(f"Granted {amount}")
    expect(main).not_to_contain_text("tdk_apv_")
    assert len(actions) == actions_before_grant + 1 and actions[-1].startswith("POST"), actions
    # From the email: the link, then two actions (the sign-in submit and Grant); resizing the window took none.
    assert len(actions) - 1 == 2, actions
    screenshot(approver, "22-approver-granted")
    expect(page.locator("[data-widget=approval]").last).to_have_attribute("data-status", "granted")

    approver.goto(f"{base_url}/admin/")
    expect(approver.locator("#pending-approvals")).to_be_visible()
    approver.goto(f"{base_url}/admin/trips/approvalrequest/?status=all")
    expect(approver.locator("#result_list")).to_contain_text(amount)
    screenshot(approver, "23-approver-queue-1280")
    queue_filters = approver.locator("#changelist-filter").bounding_box()
    for column in ("request_link", "amount", "policy", "deadline", "traveller", "route", "status"):
        box = approver.locator(f"#result_list th.column-{column}").bounding_box()
        assert box and box["x"] + box["width"] <= queue_filters["x"], f"the queue's {column} is hidden at 1280 px"
    approver.set_viewport_size({"width": 390, "height": 844})
    screenshot(approver, "24-approver-queue-390")
    # On a phone each request is a card that fits the width (the table ran off to the right).
    assert approver.evaluate("document.documentElement.scrollWidth") <= 390
    row = approver.locator("#result_list tbody tr").first
    expect(row).to_contain_text(amount)
    expect(
        row.get_by_role("cell", name=re.compile(r"^Decide by \w{3} \w{3} \d+, \d+:\d\d [AP]M [A-Z]{3,4}$"))
    ).to_be_visible()
    expect(row).to_contain_text(re.compile(r"[A-Z]{3} → DEN → [A-Z]{3}"))
    box = row.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    granted_mail = [
        m for m in emails_to(live_dir, "alice@example.com") if str(m["Subject"]).strip().startswith("Approved:")
    ]
    assert granted_mail and f"/trips/{trip_id}/" in granted_mail[-1].get_body(("plain",)).get_content()

    approver.set_viewport_size({"width": 1280, "height": 900})
    approver.goto(f"{base_url}/admin/trips/trip/")
    filters = approver.locator("#changelist-filter").bounding_box()
    for column in ("phase", "flagged", "awaiting_approval_display", "expiring_holds_display", "failed_tools_display"):
        box = approver.locator(f"#result_list th.column-{column}").bounding_box()
        assert box and box["x"] + box["width"] <= filters["x"], f"{column} is hidden at 1280 px"
    screenshot(approver, "25-trip-list-1280")


def test_an_approver_with_the_back_office_open_sees_a_new_request_arrive(new_page, base_url, live_dir, screenshot):
    """Beyond the email: every back-office page counts what waits, and an open one notices a new request."""
    approver = new_page()
    back_office_sign_in(approver, base_url, "/admin/trips/trip/", "ann", live_dir)
    approver.clock.install()  # the badge asks again every 30 s: the test moves the page's clock on
    approver.goto(f"{base_url}/admin/trips/trip/")
    badge = approver.locator("#approvals-waiting")
    before = int(badge.get_attribute("data-count"))

    traveller = new_page()
    trip_on_hold(traveller, base_url, "bob")
    expect(traveller.locator("[data-widget=approval]").last).to_have_attribute("data-status", "pending")
    approver.clock.fast_forward("00:31")
    expect(badge).to_have_attribute("data-count", str(before + 1))
    expect(badge).to_be_visible()
    expect(badge).to_have_text(f"{before + 1} approval{'' if before == 0 else 's'} waiting for your decision (new)")
    expect(approver.get_by_role("status").filter(has=badge)).to_have_count(1)  # read out when it changes
    expect(approver).to_have_title(re.compile(rf"^\({before + 1}\) "))  # a tab in the background says it too
    screenshot(approver, "26-approver-new-request-badge")
    badge.click()
    expect(approver).to_have_url(re.compile(r"/admin/trips/approvalrequest/$"))
    expect(approver.locator("#result_list")).to_contain_text("bob")
    expect(approver.locator("#result_list td.field-policy").first).to_have_text(
        re.compile(r"^(Within policy|Over budget|Outside policy)")
    )
