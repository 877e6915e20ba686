"""Regenerate the screenshots in docs/screenshots/: the traveller's chat with options on screen and with
a granted approval (its pay button), the approver's decision page and the approval queue, each at 1280
and 390 px wide, in headless Chromium against a fresh TripDesk on the embedded default.

    python -m tests.browser.screenshots [OUT_DIR]

Uses the browser tests' own steps (tests/browser/test_chat.py). PNGs are squeezed with ``pngquant``
when it is installed (``apt-get install pngquant``), else kept as Chromium wrote them.
"""

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from .live import CHROMIUM, CHROMIUM_ARGS, ROOT, back_office_sign_in, live_tripdesk, sign_in
from .test_chat import LATEST_BUNDLES, SCENARIO_1, hold_first_holdable, say, start_trip, trip_on_hold, wait_until_idle

WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def save(page, out: Path, name: str) -> None:
    page.wait_for_timeout(300)  # a drawer's or card's transition settles
    path = out / f"{name}.png"
    page.screenshot(path=path)
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--quality=65-95", "--ext", ".png", str(path)])
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size // 1024} KB")


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    expect.set_options(timeout=30_000)
    with tempfile.TemporaryDirectory() as tmp, live_tripdesk(Path(tmp)) as base, sync_playwright() as playwright:
        workdir = Path(tmp)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

        def new_page(width: int = 1280, height: int = 900):
            return browser.new_context(viewport={"width": width, "height": height}).new_page()

        trip_on_hold(new_page(), base, "bob")  # another pending request, so the queue has more than one row

        traveller = new_page()
        trip_id = start_trip(traveller, base, "alice")
        say(traveller, SCENARIO_1)
        expect(traveller.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
        wait_until_idle(traveller)
        save(traveller, out, "traveller-options-1280")
        phone = new_page(**PHONE)
        sign_in(phone, base, "alice")
        phone.goto(f"{base}/trips/{trip_id}/")
        expect(phone.locator(LATEST_BUNDLES).nth(2)).to_be_visible()
        save(phone, out, "traveller-options-390")

        hold_first_holdable(traveller)
        approver = new_page()
        back_office_sign_in(approver, base, "/admin/trips/approvalrequest/", "ann", workdir)
        expect(approver.locator("#result_list tbody tr")).to_have_count(2)
        save(approver, out, "approval-queue-1280")
        approver.set_viewport_size(PHONE)
        save(approver, out, "approval-queue-390")
        approver.set_viewport_size(WIDE)
        approver.goto(f"{base}/admin/trips/trip/{trip_id}/change/")
        approver.locator(".tripdesk-glance").get_by_role("link", name=re.compile(r"^Purchase approval #\d+$")).click()
        grant = approver.get_by_role("button", name=re.compile(r"^Grant \$[\d,]+\.\d\d$"))
        expect(grant).to_be_visible()
        save(approver, out, "approver-decision-1280")
        approver.set_viewport_size(PHONE)
        save(approver, out, "approver-decision-390")
        approver.set_viewport_size(WIDE)
        grant.click()
        expect(approver.locator("[data-status]")).to_have_attribute("data-status", "granted")

        expect(traveller.locator("[data-widget=approval]").last).to_have_attribute("data-status", "granted")
        pay = traveller.get_by_role("button", name=re.compile(r"^Review and pay"))
        expect(pay.first).to_be_visible()
        wait_until_idle(traveller)
        save(traveller, out, "traveller-approved-1280")
        expect(phone.locator("[data-widget=approval]").last).to_have_attribute("data-status", "granted")  # live
        save(phone, out, "traveller-approved-390")
        traveller.locator("#action-purchase").click()
        expect(traveller.get_by_role("button", name=re.compile(r"^Pay \$[\d,]+\.\d\d with "))).to_be_visible()
        save(traveller, out, "traveller-pay-1280")
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
