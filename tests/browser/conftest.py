"""Chromium (the Debian package) driven by Playwright against a live TripDesk served by daphne."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from .live import CHROMIUM, CHROMIUM_ARGS, ROOT, live_tripdesk, manage

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
# Each sandbox search takes this long in these tests, so a reload can land mid-search (scenario 15).
SEARCH_DELAY_SECONDS = 0.4
# A turn takes a few seconds on a busy two-core runner; assertions wait that long, not longer.
expect.set_options(timeout=20_000)


@pytest.fixture(scope="session")
def live_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("browser")


@pytest.fixture(scope="session")
def base_url(live_dir) -> str:
    with live_tripdesk(live_dir, search_delay=SEARCH_DELAY_SECONDS) as url:
        yield url


@pytest.fixture
def live_shell(live_dir, base_url):
    """Run Python in ``manage.py shell`` against the live server's database (a test's own data)."""
    return lambda code: manage(live_dir, "shell", "-c", code)


@pytest.fixture(scope="session")
def chromium():
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install -y chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


FAILURES = ROOT / "artifacts" / "failures"
CHAT_GEOMETRY = """() => {
  const s = document.getElementById("chat-scroll");
  if (!s) return null;
  return {scrollTop: s.scrollTop, scrollHeight: s.scrollHeight, clientHeight: s.clientHeight,
    items: [...document.querySelectorAll("#messages > li")].map((e) => [e.className, e.dataset.seq || "",
      Math.round(e.getBoundingClientRect().top), Math.round(e.getBoundingClientRect().height),
      (e.innerText || "").replace(/\\s+/g, " ").slice(0, 80)])};
}"""


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.stash.setdefault(_FAILED, report.failed)
    return report


_FAILED = pytest.StashKey[bool]()


@pytest.fixture
def new_page(chromium, request):
    """Pages in their own browser contexts (separate cookies: one signed-in person each).

    When the test fails, each page's screenshot and the chat's geometry (every message's place
    in the scroller) are kept under ``artifacts/failures/``: what the person would have seen."""
    contexts = []
    pages = []

    def make(*, width: int = 1280, height: int = 900):
        context = chromium.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        pages.append(page)
        return page

    yield make
    if request.node.stash.get(_FAILED, False):
        FAILURES.mkdir(parents=True, exist_ok=True)
        for n, page in enumerate(pages):
            name = f"{request.node.name}-{n}"
            try:
                page.screenshot(path=FAILURES / f"{name}.png")
                (FAILURES / f"{name}.json").write_text(json.dumps(page.evaluate(CHAT_GEOMETRY), indent=1))
            except Exception as exc:  # noqa: BLE001 - a closed page leaves nothing to keep
                (FAILURES / f"{name}.txt").write_text(repr(exc))
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def save(page, name: str) -> None:
        page.screenshot(path=SCREENSHOTS / f"{name}.png")

    return save
