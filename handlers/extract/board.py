"""The meals wished with the hotel room ("with free breakfast", "half board", "all inclusive", "b&b").

A wish is the least the rate must include, on the ladder of ``handlers.common.board.BOARD_LEVELS``: breakfast is met by
a breakfast, half-board, full-board or all-inclusive rate; all inclusive only by all inclusive.
A meal named as a time of day ("after breakfast", "a breakfast meeting") or let go of
("breakfast doesn't matter", "room only is fine") is no wish.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

_ALL_INCLUSIVE = r"\ball[\s-]*incl(?:usive|usives|\.|\b)|\ball[\s-]+in\b(?=\s+(?:resorts?|hotels?|packages?|deals?|holidays?|vacations?|stays?)\b)|\ban\s+all[\s-]+in\b|\bAIs?\b(?=\s+(?:resort|hotel|package))"
_FULL_BOARD = (
    r"\bfull[\s-]*(?:board|pension)\b|\ball\s+(?:\w+\s+)?meals\b|\b(?:three|3)\s+meals\b"
    r"|\bbreakfast,?\s+lunch\s+(?:and|&|\+)\s+dinner\b"
)
_HALF_BOARD = (
    r"\bhalf[\s-]*(?:board|pension)\b|\bdemi[\s-]*pension\b"
    r"|\b(?:breakfast|bfast|brekkie)\s+(?:and|&|\+|n)\s+dinner\b|\bdinner\s+(?:and|&|\+|n)\s+breakfast\b"
    r"|\bmeals?\s+(?:are\s+)?(?:incl\w*|provided)\b|\b(?:with|w/?|incl\w*|including)\s+(?:the\s+)?meals\b"
    r"|\bmeal\s+plan\b"
)
_BREAKFAST = (
    r"\b(?=b)(?<!\bafter\s)(?<!\bbefore\s)(?<!\bfor\s)(?<!\bover\s)(?<!\bat\s)(?<!\bby\s)(?<!\bduring\s)(?<!\bmy\s)(?<!\bour\s)"
    r"\b(?:breakfast|brekkie|brekky|bfast|brkfst|bkfst)s?\b(?!\s+(?:meeting|time|with\s+(?!(?:it|the\s+room)\b)"
    # a meal out: "i'll grab breakfast on the way", "we'll have breakfast out"
    r"|on\s+the\s+way|out\b|elsewhere|at\s+the\s+airport|somewhere|nearby|in\s+town))"
    r"|\bb\s*(?:&|n|and)\s*b\b|\bbed\s+(?:&|and|n)\s+breakfast\b"
)
_WISHES = (
    ("all_inclusive", re.compile(_ALL_INCLUSIVE, re.I)),
    ("full_board", re.compile(_FULL_BOARD, re.I)),
    ("half_board", re.compile(_HALF_BOARD, re.I)),
    ("breakfast", re.compile(_BREAKFAST, re.I)),
)
# A meal let go of or not wanted: "breakfast doesn't matter", "no need for breakfast", "room only is
# fine", "don't need meals", "without breakfast", "skip the all inclusive".
_RELAX = re.compile(
    r"\b(?:breakfast|meals?|board|all[\s-]*inclusive|half[\s-]*board|full[\s-]*board)\s+(?:is\s+|are\s+)?"
    r"(?:(?:doesn'?t|does\s+not|don'?t|do\s+not)\s+matter|not\s+(?:needed|necessary|required|important)|optional)\b"
    r"|\b(?:no\s+need\s+for|(?:don'?t|do\s+not|won'?t)\s+need|without|skip|forget|drop|ditch|never\s+mind)\s+(?:about\s+)?(?:the\s+|a\s+|any\s+)?"
    r"(?:free\s+)?(?:breakfast|meals?|board|all[\s-]*inclusive|half[\s-]*board|full[\s-]*board|b\s*&\s*b)\b"
    r"|\b(?:no|any)\s+(?:meals?|breakfast|board)(?:\s+(?:needed|required|plan|type))?\b(?!\s+(?:included|incl))"
    r"|\broom[\s-]*only\b",
    re.I,
)


_MEAL_WORDS = (
    "breakfast",
    "brek",
    "bfast",
    "brkfst",
    "bkfst",
    "b&",
    "b &",
    "b n b",
    "b and b",
    "board",
    "pension",
    "incl",
    "all in",
    "all-in",
    "meals",
    "dinner",
    " ai ",
)
# A question about what the options include ("is breakfast included in B3?", "do they serve
# dinner?"), not a request ("can we get one with breakfast?")
_ASKS = re.compile(r"^\W*(?:is|are|does|do|did|was|were|will|which|what|how|any|has|have)\b[^.!]*\?", re.I)


class _MealsLetGo:
    """The relax step's pattern for meals let go of (``extract.prefs.read_relax``), run only on a
    message that names a meal: the pattern costs tens of microseconds on every message otherwise."""

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return _RELAX.finditer(text) if _around_meal_words(text) or "room" in text.lower() else iter(())


BOARD_RELAX = _MealsLetGo()


def read_board(text: str) -> Optional[str]:
    """The least board the traveller wishes ("breakfast", "half_board", "full_board", "all_inclusive"),
    or None when the message names none, asks about the options' meals, or lets go of them
    (``BOARD_RELAX``: read by the relax step)."""
    near = _around_meal_words(text or "")
    if not near or _RELAX.search(near) or _ASKS.search(text):
        return None
    for level, rx in _WISHES:
        if rx.search(near):
            return level
    return None


def _around_meal_words(text: str) -> str:
    """The parts of ``text`` around its meal words (40 characters before, 60 after), joined: the
    patterns run on these only, so a long message without meals costs a few ``str.find``."""
    low = text.lower()
    spans: list[tuple[int, int]] = []
    for word in _MEAL_WORDS:
        at = low.find(word)
        while at >= 0:
            spans.append((max(0, at - 40), at + 60))
            at = low.find(word, at + 1)
    if not spans:
        return ""
    spans.sort()
    merged = [spans[0]]
    for a, b in spans[1:]:
        if a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return " … ".join(text[a:b] for a, b in merged)
