"""Redaction: approval tokens and payment data never reach storage, logs or an LLM."""

from __future__ import annotations

import json
import math
import re
from typing import Any, Iterator, Optional, Tuple

import orjson

# Approval tokens TripDesk issues look like ``tdk_apv_<43 url-safe chars>``.
TOKEN_RE = re.compile(r"tdk_apv_[A-Za-z0-9_\-]{8,}")
# Anything a person might paste that looks like a token or secret: key=value forms (also JSON's
# ``"key": "value"``) and card numbers.
TOKEN_ASSIGN_RE = re.compile(
    r"(?i)\b(approval[_ ]?token|token|api[_ ]?key|secret|password|cvv|cvc)['\"]?\s*[:=]\s*['\"]?[^\s'\",;]+"
)
CARD_RE = re.compile(r"\b(?:\d[ -]?){13,19}\b")
# Bare API keys and bearer credentials pasted without a "key=" in front (OpenAI ``sk-…``, Duffel
# ``duffel_test_…`` / ``duffel_live_…``).
SECRET_RE = re.compile(
    r"\b(?:sk|rk)-[A-Za-z0-9_\-]{16,}|\bBearer\s+[A-Za-z0-9._~+/\-]{16,}=*|\bduffel_(?:test|live)_[A-Za-z0-9_\-]{8,}"
)
SENSITIVE_KEYS = {
    "approval_token",
    "token",
    "api_key",
    "password",
    "secret",
    "card_number",
    "cvv",
    "cvc",
    "authorization",
    # a traveller's identity: only the passenger rows and the supplier's request carry these
    "born_on",
    "date_of_birth",
    "phone_number",
    "known_traveller_number",
    "known_traveler_number",
    "passport_number",
    "unique_identifier",
}
MASK = "[REDACTED]"


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _mask_card(match: re.Match[str]) -> str:
    """Mask a card-number-like run only when it passes the Luhn check (dates and ids stay readable)."""
    raw = match.group(0)
    digits = re.sub(r"\D", "", raw)
    if 13 <= len(digits) <= 19 and _luhn_ok(digits):
        return MASK + raw[len(raw.rstrip(" -")) :]
    return raw


# Every pattern above needs one of these (a keyword, a prefix, or 13 digits in a row): a string
# without any cannot hold a secret, and most stored strings (ids, codes, dates, names) have none.
MAYBE_SECRET_RE = re.compile(
    r"(?i)tdk_apv_|token|api[_ ]?key|secret|password|cvv|cvc|sk-|rk-|bearer|duffel_|(?:\d[ -]?){13}"
)
SHORTEST_SECRET = 5  # "cvv=1"


def redact_text(text: str) -> str:
    if not isinstance(text, str) or len(text) < SHORTEST_SECRET or not MAYBE_SECRET_RE.search(text):
        return text
    text = TOKEN_RE.sub(MASK, text)
    text = TOKEN_ASSIGN_RE.sub(lambda m: f"{m.group(1)}={MASK}", text)
    text = CARD_RE.sub(_mask_card, text)
    text = SECRET_RE.sub(MASK, text)
    return text


# What ``MAYBE_SECRET_RE`` looks for, in a case-folded text: the same words, and a run of digits,
# spaces and hyphens long enough for a card number (a superset of its digit pattern).
MAYBE_SECRET_WORDS = (
    *("tdk_apv_", "token", "api_key", "api key", "apikey", "secret", "password", "cvv", "cvc"),
    *("sk-", "rk-", "bearer", "duffel_"),
)
DIGIT_RUN_RE = re.compile(r"\d[\d -]{12}")
# The keys ``redact`` masks that hold none of those words ("approval_token" holds "token"): a text
# without any of them has no sensitive key, whatever the JSON separators. One substring test each.
SENSITIVE_KEY_TEXTS = tuple(sorted(k for k in SENSITIVE_KEYS if not any(w in k for w in MAYBE_SECRET_WORDS)))
# An ASCII text's bytes with every digit, space and hyphen as ``#`` and anything else as ``.``: 13
# ``#`` in a row wherever ``DIGIT_RUN_RE`` could match (one C pass instead of a regex trying every digit).
DIGIT_RUN_MARKS = bytes(35 if chr(c) in "0123456789 -" else 46 for c in range(256))
DIGIT_RUN_MARKED = b"#" * 13
DEDUPE_ABOVE = 4096  # characters: below, splitting costs more than the searches it saves
COMPACT = (",", ":")


def _text_may_hold_secret(blob: str) -> bool:
    """Whether a JSON text may hold something ``redact`` masks (:func:`_secret_clue`)."""
    return _secret_clue(blob) is not None


def _secret_clue(blob: str) -> Optional[str]:
    """What in a JSON text may be something ``redact`` masks: ``"word"`` (a word a secret needs,
    or a sensitive key), ``"digits"`` (only a card-length run of digits), or None. JSON escapes none of the letters,
    digits, spaces, hyphens and underscores the patterns need, so every string of the value shows
    here as it is: None means no string matches ``MAYBE_SECRET_RE`` (so ``redact_text`` leaves
    each as it is) and no key is a sensitive one, i.e. ``redact`` would change nothing.

    Substring tests on the case-folded text instead of one case-insensitive regex (ten times
    faster on a search's offers). Case-folding turns every character ``re.IGNORECASE`` matches
    to an ASCII letter into that letter, except the dotless ``ı`` and the dot of ``İ``
    (``i`` + U+0307), which are mapped by hand.

    Nothing searched for holds a double quote, so a long text is searched as its distinct
    pieces between quotes, each once: a search's offers repeat most of theirs (keys, codes,
    carriers, fares, the punctuation between values) and the pieces are a fifth of the text
    (split at quotes rather than commas: fewer, longer pieces, a third less time). An ASCII text
    (almost every one) is searched as its bytes (:func:`_ascii_secret_clue`)."""
    if blob.isascii():
        return _ascii_secret_clue(blob)
    low = blob.casefold()
    ascii_only = low.isascii()
    if not ascii_only:
        low = low.replace("\u0131", "i").replace("\u0307", "")
    if len(low) > DEDUPE_ABOVE:
        low = '"'.join(set(low.split('"')))
    if any(word in low for word in MAYBE_SECRET_WORDS) or any(key in low for key in SENSITIVE_KEY_TEXTS):
        return "word"
    if ascii_only and DIGIT_RUN_MARKED not in low.encode("ascii").translate(DIGIT_RUN_MARKS):
        return None  # (``\d`` also matches other scripts' digits: those texts take the regex)
    return "digits" if DIGIT_RUN_RE.search(blob) is not None else None


# The words and keys ``_secret_clue`` looks for, as bytes: none holds a digit or a double quote.
SECRET_NEEDLES = tuple(word.encode("ascii") for word in (*MAYBE_SECRET_WORDS, *SENSITIVE_KEY_TEXTS))
DIGITS = b"0123456789"


def _ascii_secret_clue(blob: str) -> Optional[str]:
    """``_secret_clue`` of an ASCII text, on its bytes (lower-casing is case-folding there). The
    words are looked for with the digits taken out, since none holds one: a search's ids, times,
    prices and flight numbers then mostly read alike ("off_d", "--T::-:"), and its distinct pieces
    between quotes are a hundred or so instead of thousands (a 1,000-offer table: 2.5 → 1.7 ms).
    Taking digits out may join letters into a word that was not there (the value then goes
    through ``redact``, which finds nothing to mask); it never hides one. Card-length runs are
    found by :func:`_digit_runs` and confirmed by ``DIGIT_RUN_RE`` (a run starts with a digit)."""
    raw = blob.encode("ascii")
    low = raw.lower().translate(None, DIGITS)
    if len(low) > DEDUPE_ABOVE:
        low = b'"'.join(set(low.split(b'"')))
    if any(needle in low for needle in SECRET_NEEDLES):
        return "word"
    runs = _digit_runs(raw)
    return "digits" if any(DIGIT_RUN_RE.search(blob, start, end) for start, end in runs) else None


def _digit_runs(raw: bytes) -> Iterator[Tuple[int, int]]:
    """Where an ASCII text (``raw``: its bytes) has 13 or more digits, spaces and hyphens in a row,
    each run as (start, end): ``bytes.find`` on the marks (``DIGIT_RUN_MARKS``), from one run's end
    to the next run. A search's offers are two-fifths digits, hyphens and spaces, and a regex trying
    ``#{13,}`` at each of them took fifteen times as long (a 1,000-offer table: 3.2 → 0.2 ms)."""
    marked = raw.translate(DIGIT_RUN_MARKS)
    start = marked.find(DIGIT_RUN_MARKED)
    while start >= 0:
        end = marked.find(b".", start)
        end = len(marked) if end < 0 else end
        yield start, end
        start = marked.find(DIGIT_RUN_MARKED, end)


def _no_card_in(blob: str) -> bool:
    """Whether ``redact`` leaves a JSON text's value as it is when the only clue is a run of
    digits (``_secret_clue``): with no word a secret needs, only a card number is masked
    (``CARD_RE``, when it passes the Luhn check, as ``_mask_card`` decides). An ASCII text without
    escapes holds each string as it is between its quotes, and no card-length run crosses a quote,
    so the text's runs are its strings' (and its numbers' and keys': any of those that passes
    the check sends the value through ``redact``, as before). A supplier's ids hold thirteen
    digits in a row now and then (hex ids: about one in a hundred): the whole search's offers
    then no longer go through ``redact`` one string at a time. Runs: :func:`_digit_runs`."""
    if not blob.isascii() or "\\" in blob:
        return False
    for start, end in _digit_runs(blob.encode("ascii")):  # only such a run holds a card
        for match in CARD_RE.finditer(blob, start, end + 1):
            digits = re.sub(r"\D", "", match.group(0))
            if 13 <= len(digits) <= 19 and _luhn_ok(digits):
                return False
    return True


def redact_json_text(value: Any) -> str:
    """``redact(value)`` as the JSON text a JSON column stores, encoded once (compact separators,
    non-ASCII characters as they are). A value with nothing to mask (search results: numbers,
    codes, ids, ISO times, names) is stored as its own text: that text is searched once
    (``_text_may_hold_secret``) instead of each string being walked, and nothing is decoded or
    encoded again. Anything that may hold a secret is encoded from ``redact(value)``; either way
    by :func:`json_text`."""
    if isinstance(value, (dict, list)):
        blob = _orjson_text(value)
        if blob is not None:
            clue = _secret_clue(blob)
            if clue is None or (clue == "digits" and _no_card_in(blob)):
                return blob
    return json_text(redact(value))


# What ``orjson`` hands to ``_refused`` instead of encoding it: subclasses of str, int, dict and list
# (json encodes them through their own methods), dates and times, dataclasses.
ORJSON_PASSES = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def _refused(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# Where orjson may write a float otherwise than json: below 0.0001 (``0.00001``, ``2.5e-8``; json
# ``1e-05``, ``2.5e-08``). Elsewhere both write the shortest digits that read back as the float.
# Each such float holds "e-" or starts "0.0000": only around those is the pattern tried (a regex
# over a whole search's text would stop at every comma). A string may hold such a piece too: that
# value is then encoded by json, as before.
SMALL_FLOAT_RE = re.compile(r"[\[:,]-?(?:0\.0000|\d+(?:\.\d+)?e-)")
SMALL_FLOAT_PIECES = ("e-", "0.0000")
SMALL_FLOAT_REACH = 26  # characters before a piece where its number may start: 17 digits, ".", "-", ","


def _small_float_in(text: str) -> bool:
    for piece in SMALL_FLOAT_PIECES:
        at = text.find(piece)
        while at >= 0:
            if SMALL_FLOAT_RE.search(text, max(0, at - SMALL_FLOAT_REACH), at + len(piece)):
                return True
            at = text.find(piece, at + 1)
    return False


def _orjson_text(value: Any) -> Optional[str]:
    """``value``'s text by orjson, or None where it would not be json's (see :func:`json_text`)."""
    try:
        text = orjson.dumps(value, default=_refused, option=ORJSON_PASSES).decode()
    except TypeError:  # (orjson.JSONEncodeError is one)
        return None
    return None if _small_float_in(text) else text


def json_text(value: Any) -> str:
    """``value`` as compact JSON text (non-ASCII characters as they are), by ``orjson``: a
    1,000-offer search's table in 0.2 ms instead of json's 2.6–4.4, the very same text for
    strings, integers, booleans, nulls, lists, tuples and dictionaries. What it cannot say the same way,
    json says: keys that are not strings, integers beyond 64 bits, lone surrogates, nesting deeper
    than 255, subclasses of the built-in types (``IntEnum``, ``OrderedDict``, a ``str`` subclass),
    floats below 0.0001 (``SMALL_FLOAT_RE``); and what json refuses (``Decimal``, dates,
    dataclasses, sets, a value that holds itself) is still refused with ``TypeError``
    (``RecursionError``). Two things are stored otherwise than json wrote them: NaN and the
    infinities as ``null`` (json wrote ``NaN``, which is not JSON and which PostgreSQL refuses, so
    such a tool run could not be stored there at all); an ``Enum`` member as its value and a
    ``UUID`` as its text (json refused both)."""
    text = _orjson_text(value)
    return text if text is not None else json.dumps(_finite(value), ensure_ascii=False, separators=COMPACT)


def _finite(value: Any) -> Any:
    """``value`` with NaN and the infinities as None (what orjson writes for them), for json."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def redact_json(value: Any) -> Any:
    """What ``redact(value)`` stores in a JSON column, as a fresh copy (``redact_json_text`` decoded
    by json: orjson would read an integer beyond 64 bits, which json wrote, as a float)."""
    return json.loads(redact_json_text(value))


def redact(value: Any) -> Any:
    """A deep copy of ``value`` with sensitive keys masked and token-looking strings removed."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(k, str) and k.lower() in SENSITIVE_KEYS and v not in (None, ""):
                out[k] = MASK
            else:
                out[k] = redact(v)
        return out
    if isinstance(value, (list, tuple)):
        return [redact(v) for v in value]
    if isinstance(value, str):
        return redact_text(value)
    return value


def contains_token_like(text: str) -> bool:
    return bool(isinstance(text, str) and (TOKEN_RE.search(text) or TOKEN_ASSIGN_RE.search(text)))
