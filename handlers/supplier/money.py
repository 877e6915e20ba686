"""Amounts travel as decimal strings with two places, as supplier APIs send them."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from operator import methodcaller
from typing import Any, List, Optional, Sequence

CENT = Decimal("0.01")


def money(value: Any) -> Decimal:
    """A Decimal rounded to cents (accepts str, int, float or Decimal).

    An amount as suppliers send it (a short string with two places: "911.08") is already that
    Decimal, digits and exponent, so it is read without rounding (half the time; a search reads a
    thousand). Anything else is rounded to cents, half up."""
    if type(value) is str and len(value) < 16 and value[-3:-2] == "." and value[-2:].isdigit():
        return Decimal(value)
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


# Amounts as suppliers send them, one a line: what ``money`` reads without rounding, each of them.
_AS_SENT = re.compile(r"(?:[^\n]{0,12}\.[0-9][0-9]\n)*")


def moneys(values: Sequence[Any]) -> List[Decimal]:
    """``money`` of each value: a column of amounts all as suppliers send them (a search's thousand
    totals) read as Decimals without a Python step per amount; any other column value by value."""
    if set(map(type, values)) <= {str} and _AS_SENT.fullmatch("\n".join([*values, ""])):
        return list(map(Decimal, values))
    return list(map(money, values))


# Amounts as suppliers send them in plain digits ("911.08"), one a line: what ``in_cents`` reads.
_PLAIN = re.compile(r"(?:[0-9]{1,12}\.[0-9][0-9]\n)*")
_NO_POINT = methodcaller("replace", ".", "")


def in_cents(values: Sequence[Any]) -> Optional[List[int]]:
    """Each amount as a whole number of cents, when every one is an amount in plain digits with two
    places ("911.08"; ``money`` reads it as exactly that many hundredths, and ``from_cents`` gives
    that Decimal back, digits and exponent); None otherwise. Read without a Python step per amount."""
    if set(map(type, values)) <= {str} and _PLAIN.fullmatch("\n".join([*values, ""])):
        return list(map(int, map(_NO_POINT, values)))
    return None


def from_cents(cents: int) -> Decimal:
    """``money`` of an amount ``in_cents`` read."""
    return Decimal(cents).scaleb(-2)


def amount(value: Any) -> str:
    """The wire form: ``"1234.50"``."""
    return str(money(value))
