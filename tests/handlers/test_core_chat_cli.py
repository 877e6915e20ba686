"""``python -m handlers.chat_cli`` drives the harness from plain lines and slash commands."""

from __future__ import annotations

import io

from handlers.chat_cli import main


def chat(*lines):
    out = io.StringIO()
    assert main([], stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out) == 0
    return out.getvalue()


def test_a_message_shows_progress_bundles_and_the_trip():
    text = chat("4 people going from Newark to Denver for 3 nights on January 30", "/quit", "never read")
    assert "  … Searching flights Newark (EWR) → Denver (DEN) on Sat Jan 30…" in text
    assert "    B1  " in text and "Your trip: 4 adults" in text and "never read" not in text


def test_commands_without_a_hold_explain_themselves():
    text = chat("/approve", "/buy", "/hold", "/nonsense")
    assert "nothing on hold to approve" in text and "There's nothing on hold to buy" in text
    assert "Pick a bundle first" in text and "unknown command /nonsense" in text


def test_a_policy_check_counts_its_notes_and_lists_each_once():
    text = chat("4 people going from Newark to Denver for 3 nights on January 30", "/select B1")
    [line] = [row for row in text.splitlines() if row.startswith("B1 is within policy")]
    notes = [row for row in text.splitlines() if row.startswith("    - ")]
    assert notes and f"with {len(notes)} things worth knowing" in line and "Say 'hold' to hold it." in line
    assert "approver's yes" not in line and any("approver's yes" in row for row in notes), "listed, not run together"
