"""Scenario 1 as a traveller sees it: ``python benchmarks/bench_browser.py [--runs 10]``.

Headless Chromium (the Debian package, through Playwright) against TripDesk on the embedded
default (daphne, a fresh SQLite file, in-memory channel layer, eager Celery). Each run opens a
new trip, types SCENARIOS.md 1 and presses Enter; the page itself times from the composer's
submit to the moment the bundle cards are in the DOM (``performance.now()`` on both ends, so
Playwright's polling is not counted). Runs are sequential on an idle server: the latency one
traveller sees, not throughput.

Prints one JSON object and a readable line.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from benchmarks.stats import summary_ms  # noqa: E402
from tests.browser.live import CHROMIUM, CHROMIUM_ARGS, live_tripdesk, sign_in  # noqa: E402

SCENARIO_1 = "4 people going from Newark to Denver for 3 nights on January 30"
WARMUP_RUNS = 1

# Stamps the composer's submit and the first bundle card's arrival with the page's own clock.
STOPWATCH = """() => {
  const marks = (window.__bench = {});
  document.getElementById("composer").addEventListener("submit", () => { marks.sent = performance.now(); }, { capture: true });
  new MutationObserver((_, observer) => {
    if (document.querySelector("#messages .bundle")) { marks.shown = performance.now(); observer.disconnect(); }
  }).observe(document.getElementById("messages"), { childList: true, subtree: true });
}"""


def one_run(page, base_url: str) -> float:
    """Seconds from pressing Enter to the bundle cards on screen, for a fresh trip."""
    page.goto(f"{base_url}/")
    page.get_by_role("button", name="New trip", exact=True).click()
    page.wait_for_url("**/trips/*/")
    page.wait_for_function("document.getElementById('connection').dataset.state === 'open'")
    page.evaluate(STOPWATCH)
    page.get_by_label("Message TripDesk").fill(SCENARIO_1)
    page.keyboard.press("Enter")
    page.locator("#messages .bundle").nth(2).wait_for(timeout=60_000)
    marks = page.evaluate("window.__bench")
    return (marks["shown"] - marks["sent"]) / 1000


def measure(*, runs: int) -> dict:
    with (
        tempfile.TemporaryDirectory(prefix="tripdesk-bench-browser-") as scratch,
        live_tripdesk(Path(scratch)) as base_url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        sign_in(page, base_url, "alice")
        timings = [one_run(page, base_url) for _ in range(WARMUP_RUNS + runs)][WARMUP_RUNS:]
        browser.close()
    return {
        "scenario1_browser_ms": summary_ms(timings),
        "runs": runs,
        "warmup_runs": WARMUP_RUNS,
        "server": "daphne, embedded default (SQLite, in-memory channel layer, eager Celery)",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    result = measure(runs=parser.parse_args().runs)
    print(json.dumps(result))
    figures = result["scenario1_browser_ms"]
    print(
        f"scenario 1, Enter → bundle cards in Chromium: median {figures['median']} ms, "
        f"p95 {figures['p95']} ms, max {figures['max']} ms over {figures['n']} runs"
    )


if __name__ == "__main__":
    main()
