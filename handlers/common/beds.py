"""The beds wished in a hotel room ("a king bed", "2 queens"): no search filters on them, so the
ranker puts the rooms that have them first and the trip's summary says the wish back."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

# each wish -> what it accepts of a room's beds as the card says them ("1 king bed", "2 queen beds")
BED_WISHES: Dict[str, Tuple[str, ...]] = {
    "king": ("1 king",),
    "queen": ("1 queen", "1 king"),
    "double": ("1 double", "1 queen", "1 king"),
    "2 king": ("2 king",),
    "2 queen": ("2 queen",),
    "2 double": ("2 double", "2 queen"),
    "2 twin": ("2 twin",),
    "2 beds": ("2 ",),
}


def beds_fit(wish: Any, beds: Optional[str]) -> bool:
    """Whether a room whose beds the card says (``beds``: "2 queen beds") has the beds wished (any, without a wish)."""
    if wish not in BED_WISHES:
        return True
    return bool(beds) and str(beds).startswith(BED_WISHES[wish])


def beds_words(wish: Any) -> str:
    """The wish in words ("a king bed", "2 queen beds", "2 beds")."""
    text = str(wish or "")
    if text == "2 beds" or not text:
        return text
    return f"{text} beds" if text.startswith("2 ") else f"a {text} bed"
