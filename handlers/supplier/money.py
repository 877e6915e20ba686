"""Amounts travel as decimal strings with two places, as supplier APIs send them."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

CENT = Decimal("0.01")


def money(value: Any) -> Decimal:
    """A Decimal rounded to cents (accepts str, int, float or Decimal).

    An amount as suppliers send it (a short string with two places: "911.08") is already that
    Decimal, digits and exponent, so it is read without rounding (half the time; a search reads a
    thousand). Anything else is rounded to cents, half up."""
    if type(value) is str and len(value) < 16 and value[-3:-2] == "." and value[-2:].isdigit():
        return Decimal(value)
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def amount(value: Any) -> str:
    """The wire form: ``"1234.50"``."""
    return str(money(value))
