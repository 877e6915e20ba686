"""A trip that needs no hotel by its kind, though no word says so.

A round trip gets a hotel unless the traveller says otherwise ("no hotel", "staying at my
sister's": ``prefs.NO_HOTEL``). Some first messages say it by what they ask for or why they go:
the fare alone ("just need airfare", "plane tickets for 3", "book me a flight"), or a holiday at
home or with family ("going home for christmas", "thanksgiving at my parents in columbus"). Those
search flights only and tell the traveller so, ending "say if you want a hotel": a guess, not a wish.
A message that names a hotel ("a flight and a hotel", "a hotel near my parents") keeps it.
"""

from __future__ import annotations

import re
from typing import Optional

from .cues import HOTEL_BRANDS, STAY_NOUNS

# The people whose home a traveller stays in
_FAMILY = (
    r"(?:parents|folks|in[\s-]?laws|mom|mum|dad|mother|father|grand(?:parents|ma|pa|mother|father)|nana|family|"
    r"sister|brother|aunt|uncle|cousin|son|daughter|kids)"
)
_HOLIDAY = re.compile(
    r"\b(?:christmas|xmas|x-mas|thanksgiving|the\s+holidays|holiday\s+break|new\s+years?(?:'s)?|easter|hanukkah|passover|diwali)\b",
    re.I,
)
# A stay named: its nouns, a chain ("the marriott near the stadium"), or a kind of place to stay
_HOTEL = re.compile(rf"\b(?:{STAY_NOUNS}|{HOTEL_BRANDS}|inn|resort|check[\s-]?in|airbnb|vrbo)\b", re.I)

# (what the message says, the told reason); the first that matches is the reason
_KINDS = (
    # the fare alone: "just need airfare", "plane tickets for 3", "book me a flight SFO-ORD 1/9, return 1/12"
    (
        re.compile(
            r"\bair\s?fares?\b|\b(?:plane|air|airline)\s+tickets?\b"
            r"|\bbook\s+(?:me|us|him|her|them)?\s*(?:a|one)\s+(?:round[\s-]?trip\s+|return\s+)?flight\b",
            re.I,
        ),
        "you asked for flights",
    ),
    # home: "going home for christmas", "headed back home to pittsburgh", "home for the holidays"
    (
        re.compile(
            r"\b(?:head(?:ed|ing)?|go(?:ing)?|fly(?:ing)?|com(?:e|ing)|travel(?:l?ing)?)\s+(?:back\s+)?home\s+(?:for|to)\b"
            r"|\bhome\s+for\s+(?:the\s+)?(?:holidays?|christmas|xmas|thanksgiving|easter|new\s+years?|break)\b",
            re.I,
        ),
        "you're going home",
    ),
    # at family's: "thanksgiving at my parents in columbus", "christmas at my in-laws'"
    (
        re.compile(
            rf"\bat\s+(?:my|our)\s+{_FAMILY}(?:'s?|’s?)?(?:\s+(?:place|house|home))?"
            r"(?=\s*(?:[,.;!?)]|$)|\s+(?:in|for|over|on|from|to|this|and|dec|jan)\b)",  # not "at my sister's wedding"
            re.I,
        ),
        "you're staying with family",
    ),
)
# visiting family over a holiday: "visiting my folks in tampa over new year's"
_VISITING = re.compile(rf"\b(?:visit(?:ing)?|see(?:ing)?)\s+(?:my|our)\s+{_FAMILY}\b", re.I)


def hotel_unwanted(text: str) -> Optional[str]:
    """Why this first message needs no hotel ("you're going home"), or None when it may."""
    if _HOTEL.search(text):
        return None
    for said, reason in _KINDS:
        if said.search(text):
            return reason
    if _HOLIDAY.search(text) and _VISITING.search(text):
        return "you're staying with family"
    return None


def told(reason: str) -> str:
    """The assumption line for a hotel left out."""
    return f"No hotel searched, as {reason}; say if you want a hotel"
