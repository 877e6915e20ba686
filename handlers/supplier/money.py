"""Amounts travel as decimal strings with two places, as supplier APIs send them."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

CENT = Decimal("0.01")


def money(value: Any) -> Decimal:
    """A Decimal rounded to cents (accepts str, int, float or Decimal)."""
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def amount(value: Any) -> str:
    """The wire form: ``"1234.50"``."""
    return str(money(value))
