"""A search run's offers as support staff read them: a summary, then one line per offer, a page at a time.

A flight search can return a thousand offers; its run's page printed every one as pretty JSON,
thousands of lines before anything else could be read. The result is shown with its offers
(rates) folded to a count, and below it the search in a few words (how many, the price range,
how many nonstop, holdable, refundable) and the offers in the search's order, ``PER_PAGE`` at a
time, each a line that opens to the whole offer as the search returned it.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, Optional

from django.core.paginator import Paginator

from handlers.tools import SEARCHES
from trips.formats import money_text

from .base import pretty_json
from .trip_page import flight_line, hotel_line

PER_PAGE = 50
PAGE_PARAM = "offers_page"


def _found(result: Any) -> Optional[tuple[str, dict, list]]:
    """(the list's key, the search's output, its offers or rates) of a search run's returned result."""
    output = result.get("output") if isinstance(result, dict) else None
    if not isinstance(output, dict) or output.get("tool_name") not in SEARCHES:
        return None
    found = (output.get("result") or {}).get("output")
    for key in ("offers", "rates"):
        if isinstance(found, dict) and isinstance(found.get(key), list):
            return key, found, found[key]
    return None


def result_folded(result: Any) -> Any:
    """``result`` with a search's offers (rates) folded to a line saying where they are listed."""
    found = _found(result)
    if found is None:
        return result
    key, output, items = found
    folded = {**output, key: f"{len(items):,} {key}: summarised and listed one per line below"}
    inner = {**result["output"]["result"], "output": folded}
    return {**result, "output": {**result["output"], "result": inner}}


def _total(item: dict) -> Optional[Decimal]:
    try:
        return Decimal(str((item.get("summary") or {}).get("total")))
    except (InvalidOperation, ValueError):
        return None


def search_listing(result: Any, page: Any) -> Optional[dict[str, Any]]:
    """The template context of a search run's offers (``admin/trips/toolrun/change_form.html``), or None."""
    found = _found(result)
    if found is None:
        return None
    key, output, items = found
    summaries = [item.get("summary") or {} for item in items if isinstance(item, dict)]
    totals = sorted(t for t in map(_total, items) if t is not None)
    currency = next((s.get("currency") for s in summaries if s.get("currency")), "")
    facts = [f"{len(items):,} {key} returned" + (f" of {output['found']:,} found" if output.get("found") else "")]
    if totals:
        facts.append(f"{money_text(totals[0], currency)} to {money_text(totals[-1], currency)}")
    if key == "offers":
        facts.append(f"{len({s.get('carrier') for s in summaries if s.get('carrier')})} airline(s)")
        facts.append(f"{sum(1 for s in summaries if s.get('stops') == 0):,} nonstop")
        facts.append(f"{sum(1 for s in summaries if s.get('holdable')):,} holdable")
    else:
        facts.append(f"{len({s.get('hotel_name') for s in summaries if s.get('hotel_name')})} hotel(s)")
    facts.append(f"{sum(1 for s in summaries if s.get('refundable')):,} refundable")
    paginator = Paginator(items, PER_PAGE)
    shown = paginator.get_page(page)
    line = flight_line if key == "offers" else hotel_line
    return {
        "kind": key,
        "summary": " · ".join(facts),
        "page": shown,
        "page_param": PAGE_PARAM,
        "rows": [
            (line(item) if isinstance(item, dict) else str(item), pretty_json(item, sort_keys=False))
            for item in shown.object_list
        ],
    }
