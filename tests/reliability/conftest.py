"""The reliability suite's figures (frames fuzzed, API calls, 5xx seen…), printed after the run."""

from __future__ import annotations

from collections import Counter

FIGURES: Counter = Counter()


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("reliability figures")
        for name, value in sorted(FIGURES.items()):
            terminalreporter.write_line(f"{name}: {value}")
