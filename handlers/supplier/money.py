"""Amounts travel as decimal strings with two places, as supplier APIs send them."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, List, Sequence

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


def amount(value: Any) -> str:
    """The wire form: ``"1234.50"``."""
    return str(money(value))
