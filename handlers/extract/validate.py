"""Fields from outside (a model's structured output) made safe for ``fields_to_patch``.

The schema says what a model should return; this says what is kept: known keys only, real ISO
dates, airport or metro codes that exist, counts in range. Anything else becomes ``None``
("not said") rather than an error, so one bad value never loses the rest of the message.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Dict, List, Optional

from handlers.common import geo
from handlers.common.beds import BED_WISHES
from handlers.common.board import BOARD_LEVELS
from handlers.common.carriers import AIRLINE_NAMES
from handlers.common.shape import is_arrival_wish, is_time_wish

from .places import lookup
from .schema import RELAX_FILTERS, empty_fields

_CABINS = ("economy", "premium_economy", "business", "first")
_REFUNDABLE = ("hotel", "flight", "all")


def clean_fields(raw: Any) -> Dict[str, Any]:
    fields = empty_fields()
    if not isinstance(raw, dict):
        return fields
    for key in ("origin", "destination"):
        fields[key] = _place(raw.get(key))
    for key in ("depart_date", "return_date"):
        fields[key] = _date(raw.get(key))
    for key, top in (
        ("nights", 90),
        ("adults", 20),
        ("children", 20),
        ("infants", 20),
        ("rooms", 20),
        ("max_stops", 3),
    ):
        fields[key] = _count(raw.get(key), top)
    for key in ("hotel_min_stars", "hotel_quality"):
        fields[key] = _count(raw.get(key), 5) or None
    for key in (
        "one_way",
        "avoid_red_eye",
        "prefer_nonstop",
        "hotel_needed",
        "flights_needed",
        "separate_rooms",
        "for_work",
        "friends_sharing",
        "colleagues",
    ):
        fields[key] = raw.get(key) if isinstance(raw.get(key), bool) else None
    fields["cabin"] = raw.get("cabin") if raw.get("cabin") in _CABINS else None
    fields["refundable"] = raw.get("refundable") if raw.get("refundable") in _REFUNDABLE else None
    for key in ("airlines", "airlines_required", "airlines_avoid"):
        fields[key] = _carriers(raw.get(key))
    for key in ("time_out", "time_return"):
        fields[key] = raw.get(key) if is_time_wish(raw.get(key)) else None
    for key in ("arrive_out", "arrive_return"):
        fields[key] = raw.get(key) if is_arrival_wish(raw.get(key)) else None
    for key in ("budget_total", "budget_per_person", "hotel_max_per_night"):
        fields[key] = _money(raw.get(key))
    currency = raw.get("currency")
    fields["currency"] = (
        currency.upper() if isinstance(currency, str) and len(currency) == 3 and currency.isalpha() else None
    )
    near = raw.get("hotel_near")
    fields["hotel_near"] = near.strip()[:120] if isinstance(near, str) and near.strip() else None
    board = raw.get("hotel_board")
    fields["hotel_board"] = board if board in BOARD_LEVELS[1:] else None
    beds = raw.get("hotel_beds")
    fields["hotel_beds"] = beds if beds in BED_WISHES else None
    ages = [a for a in raw.get("child_ages") or [] if isinstance(a, int) and not isinstance(a, bool) and 0 <= a < 18]
    fields["child_ages"] = ages or None
    relax = [r for r in raw.get("relax") or [] if r in RELAX_FILTERS] if isinstance(raw.get("relax"), list) else []
    fields["relax"] = list(dict.fromkeys(relax)) or None
    fields["legs"] = _legs(raw.get("legs"))
    fields["stays"] = _stays(raw.get("stays"))
    return fields


def _place(value: Any) -> Optional[Dict[str, str]]:
    if isinstance(value, str):
        return lookup(value)
    if not isinstance(value, dict):
        return None
    code = str(value.get("code") or "").strip().upper()
    known = geo.place(code) if code else None
    if not known:
        return lookup(str(value.get("name") or "")) if value.get("name") else None
    name = (
        value.get("name")
        if isinstance(value.get("name"), str) and value.get("name").strip()
        else known["city"] or known["name"]
    )
    return {"type": known["type"], "code": known["code"], "name": name.strip()[:80]}


def _carriers(value: Any) -> Optional[List[str]]:
    if not isinstance(value, list):
        return None
    codes = []
    for a in value[:12]:
        code = a.strip().upper() if isinstance(a, str) else None
        if code in AIRLINE_NAMES and code not in codes:
            codes.append(code)
    return codes or None


def _money(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 10_000_000:
        return None
    return float(value)


def _date(value: Any) -> Optional[str]:
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value.strip()[:10]).isoformat()
    except ValueError:
        return None


def _count(value: Any, top: int) -> Optional[int]:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        return None
    return int(value) if 0 <= value <= top else None


def _legs(value: Any) -> Optional[List[Dict[str, Any]]]:
    if not isinstance(value, list):
        return None
    legs = []
    for leg in value[:8]:
        if isinstance(leg, dict):
            legs.append(
                {
                    "origin": _place(leg.get("origin")),
                    "destination": _place(leg.get("destination")),
                    "depart_date": _date(leg.get("depart_date")),
                }
            )
    return legs or None


def _stays(value: Any) -> Optional[List[Dict[str, Any]]]:
    if not isinstance(value, list):
        return None
    stays = []
    for stay in value[:8]:
        if isinstance(stay, dict):
            stays.append(
                {
                    "location": _place(stay.get("location")),
                    "check_in": _date(stay.get("check_in")),
                    "check_out": _date(stay.get("check_out")),
                }
            )
    return stays or None
