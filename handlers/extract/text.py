"""Text clean-up and small vocabularies shared by the extractor's readers.

Every reader works on the same cleaned text, so character offsets line up between them and a
span claimed by one reader (an airline, a date) can be masked out for the next.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Dict, Iterable, Optional, Tuple

from anyascii import anyascii

# Messages are capped before any regex runs: the readers stay linear and a pasted 1 MB blob
# costs the same as a long paragraph.
MAX_CHARS = 4000

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\ufeff]")

NUMBER_WORDS = {
    "zero": 0,
    "no": 0,
    "a": 1,
    "an": 1,
    "one": 1,
    "single": 1,
    "two": 2,
    "couple": 2,
    "pair": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
}
ORDINAL_WORDS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "twenty first": 21,
    "twenty second": 22,
    "twenty third": 23,
    "twenty fourth": 24,
    "twenty fifth": 25,
    "twenty sixth": 26,
    "twenty seventh": 27,
    "twenty eighth": 28,
    "twenty ninth": 29,
    "thirtieth": 30,
    "thirty first": 31,
}
# A number written as digits or as a word ("3", "three", "a").
NUMBER_RE = r"(?:\d{1,3}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"


# Arrows people type between two places ("cleveland->nashville", "BOS → DEN", "Boston ✈️ Denver").
_ARROW = re.compile(
    r"\s*(?:-+>|=+>|[\u2192\u27f6\u21d2\u21e8\u2794\u279c\u279d\u279e\u27a1\u2b95\u2708\U0001f449]\ufe0f?)\s*"
)
# a plane that opens the message or a line ("✈️ Philly ➡️ San Juan") decorates it: no "to" before the origin
_OPENING_PLANE = re.compile(r"(?:^|(?<=[\n.!?:]))(?:\s*(?:\u2708|\U0001f6eb|\U0001f6ec)\ufe0f?)+")
_BARE_ARROW = re.compile(r"(?<=[A-Za-z])\s*>\s*(?=[A-Za-z])")  # "BOS>DEN", unless the text has tags
_DASHES = re.compile(r"[\u2010-\u2015\u2212]")
_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201b": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"'}


@lru_cache(maxsize=4096)
def _ascii_char(char: str) -> str:
    """One character as people would type it on an ASCII keyboard: letters transliterated
    ("ü" -> "u", "ß" -> "ss", "ł" -> "l"), other symbols and emoji a space."""
    if char in _QUOTES:
        return _QUOTES[char]
    category = unicodedata.category(char)
    if category[0] in "LN":
        out = anyascii(char)
        return out if out.isalnum() else " "
    if category == "Sc":  # currency signs keep their meaning
        return {"€": "€", "£": "£", "¥": "¥"}.get(char, anyascii(char) or " ")
    return " "


def to_ascii(text: str) -> str:
    """``text`` with every non-ASCII character transliterated or blanked (currency signs kept)."""
    if text.isascii():
        return text
    return "".join(c if c.isascii() else _ascii_char(c) for c in text)


def clean(text: object) -> str:
    """A bounded, single-spaced ASCII string without control characters (never raises).

    Accents are transliterated so every reader sees "Dusseldorf" and "Bogota"; arrows
    between places become "to"; typographic dashes a hyphen (date ranges), quotes straight.
    """
    if not isinstance(text, str):
        return ""
    text = unicodedata.normalize("NFC", text[: MAX_CHARS * 2])
    text = _CONTROL.sub(" ", text)
    text = _OPENING_PLANE.sub(" ", text)
    text = _ARROW.sub(" to ", text)
    if "<" not in text:
        text = _BARE_ARROW.sub(" to ", text)
    text = _DASHES.sub("-", text)
    text = to_ascii(text)
    text = re.sub(r"[ \t\r\n]+", " ", text).strip()
    return _words_spelt(text[:MAX_CHARS])


def _word_typos() -> Dict[str, str]:
    """Misspelt words the readers key on ("febuary", "ocotber", "tommorow", "wendesday", "retrun",
    "adutls") -> the word: one letter dropped, two neighbours swapped, or a stray "r" (only words of
    six letters or more, whose slips are no other word), and a few slips common enough to name."""
    names = (
        "january february august september october november december tomorrow tuesday wednesday thursday saturday "
        "return returning adults children weekend"
    ).split()
    out: Dict[str, str] = {}
    for name in names:
        for i in range(len(name)):
            out[name[:i] + name[i + 1 :]] = name
            if i + 1 < len(name):
                out[name[:i] + name[i + 1] + name[i] + name[i + 2 :]] = name
            out[name[:i] + "r" + name[i:]] = name
    for word in [*names, "adult"]:
        out.pop(word, None)
    out.update({"tommorow": "tomorrow", "tommorrow": "tomorrow", "tommorw": "tomorrow", "wensday": "wednesday"})
    return out


_WORD_TYPOS = _word_typos()
_LONG_WORD = re.compile(r"\b[A-Za-z]{5,10}\b")


def _words_spelt(text: str) -> str:
    """The text with misspelt words written out right ("febuary 12" -> "february 12")."""

    def fixed(m: re.Match[str]) -> str:
        word = m.group(0)
        name = _WORD_TYPOS.get(word.lower())
        return word if name is None else name.capitalize() if word[0].isupper() else name

    return _LONG_WORD.sub(fixed, text)


def accented_words(text: object) -> frozenset:
    """Folded words written with accents or in another script ("Málaga" -> "malaga"): names, not English words."""
    if not isinstance(text, str) or text.isascii():
        return frozenset()
    return frozenset(fold(to_ascii(w)) for w in re.findall(r"\w+", text[: MAX_CHARS * 2]) if not w.isascii())


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower-case ASCII with punctuation as spaces: the key under which names are indexed."""
    s = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    s = s.replace("'", "").replace(".", "")
    s = re.sub(r"[^a-z0-9]+", " ", s)
    return s.strip()


def to_int(word: Optional[str]) -> Optional[int]:
    """'3' or 'three' -> 3; anything else -> None."""
    if word is None:
        return None
    w = word.strip().lower()
    if w.isdigit():
        return int(w)
    return NUMBER_WORDS.get(w)


def mask(text: str, spans: Iterable[Tuple[int, int]]) -> str:
    """``text`` with the given spans blanked (same length, so offsets stay valid)."""
    chars = list(text)
    for start, end in spans:
        for i in range(max(0, start), min(len(chars), end)):
            chars[i] = " "
    return "".join(chars)
