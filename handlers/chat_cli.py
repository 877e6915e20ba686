"""A terminal chat against the headless harness: ``python -m handlers.chat_cli``.

Plain lines are chat messages. Buttons the browser would show are slash commands:
``/select B2``, ``/hold``, ``/approve`` (the approver grants and the token is kept for you),
``/buy [payment_method]``, ``/retry``, ``/cancel <booking_id> [quote_id]``,
``/advance <hours>``, ``/trip`` (the stored TripIntent's summary) and ``/quit``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Dict, List, Optional, TextIO

from .testing import DEFAULT_PAYMENT_METHOD, Harness
from .wording import describe_trip


def render(message: Dict[str, Any]) -> str:
    """One chat message as terminal lines."""
    widget = message.get("widget") or {}
    prefix = {"progress": "  … ", "error": "  ! ", "status": "  · "}.get(str(message.get("kind")), "")
    lines = [f"{prefix}{message.get('text', '')}"]
    if widget.get("type") == "bundles":
        for b in widget["bundles"]:
            flights = ", ".join(
                " ".join((f.get("summary") or {}).get("flight_numbers") or []) for f in b.get("flights") or []
            )
            hotels = ", ".join(str((h.get("summary") or {}).get("hotel_name")) for h in b.get("hotels") or [])
            lines.append(f"    {b['bundle_id']}  {b.get('total')} {b.get('currency')}  {flights}  {hotels}".rstrip())
    elif widget.get("type") == "trip_summary":
        lines.append(f"    {describe_trip(widget)}")
    elif widget.get("type") == "risk":
        lines += [f"    - {w.get('message')}" for w in widget.get("warnings") or [] if isinstance(w, dict)]
    elif widget.get("type") == "holds":
        lines += [
            f"    {h.get('hold_id')} {h.get('item_type')} until {h.get('payment_required_by')}" for h in widget["holds"]
        ]
    return "\n".join(lines)


class ChatSession:
    """Reads lines, drives the harness, writes what the traveller would see."""

    def __init__(self, harness: Harness, out: TextIO):
        self.h, self.out = harness, out
        self.token: Optional[str] = None
        self.commands: Dict[str, Callable[[List[str]], Optional[Dict[str, Any]]]] = {
            "select": lambda a: self.h.select(a[0].upper()) if a else None,
            "hold": lambda a: self.h.hold(),
            "approve": self._approve,
            "buy": lambda a: self.h.purchase(self.token or "", a[0] if a else DEFAULT_PAYMENT_METHOD),
            "retry": lambda a: self.h.retry(),
            "cancel": lambda a: self.h.cancel(a[0], a[1] if len(a) > 1 else None) if a else None,
            "advance": lambda a: self._advance(float(a[0]) if a else 1.0),
            "trip": self._trip,
        }

    def _approve(self, args: List[str]) -> None:
        try:
            self.token = self.h.grant()
        except ValueError as exc:
            self.out.write(f"  (approver) {exc}\n")
        else:
            self.out.write("  (approver) granted; say /buy to purchase\n")

    def _advance(self, hours: float) -> None:
        self.out.write(f"  (clock) now {self.h.clock.advance(hours=hours).isoformat()}\n")

    def _trip(self, args: List[str]) -> None:
        trip = self.h.intent()
        keys = ("status", "party", "itinerary")
        self.out.write(json.dumps({k: trip.get(k) for k in keys}, indent=2, default=str) + "\n")

    def handle(self, line: str) -> bool:
        """Process one input line; False when the session should end."""
        line = line.rstrip("\n")
        if line.strip() in ("/quit", "/exit"):
            return False
        if line.startswith("/"):
            name, *args = line[1:].split()
            command = self.commands.get(name)
            if command is None:
                self.out.write(f"  unknown command /{name}\n")
                return True
            turn = command(args)
        else:
            turn = self.h.say(line)
        for message in (turn or {}).get("ui_messages") or []:
            self.out.write(render(message) + "\n")
        return True


def main(argv: Optional[List[str]] = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--today", default="2026-12-01")
    parser.add_argument("--tz", default="America/New_York")
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args(argv)
    session = ChatSession(Harness(today=options.today, tz=options.tz, seed=options.seed), stdout)
    interactive = stdin.isatty()
    while True:
        if interactive:
            stdout.write("you> ")
            stdout.flush()
        line = stdin.readline()
        if not line or not session.handle(line):
            return 0


if __name__ == "__main__":
    sys.exit(main())
