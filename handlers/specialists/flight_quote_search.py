"""flight_quote_search: offers for one segment, filtered by the traveller's hard flight constraints.

Of the offers that are the same fare (the same flights on the same terms at other prices), only
the cheapest few are kept (``handlers.supplier.summary.cheapest_of_each_fare``: the rule and why
no later reader can tell), before anything else is made of them: summaries, filters and the
kept details run on those only, so a supplier's hundreds of near copies cost a search little
more than its distinct fares. ``found`` and ``ruled_out`` still count every offer.

A search of many offers makes what it keeps straight into the table its tool run stores, a field at
a time (``offers_table``: ``handlers.supplier.columns``), instead of a summary and a document per
offer taken apart again into the table; its turn's ranker reads the table's columns.
"""

from __future__ import annotations

from datetime import datetime
from itertools import compress
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from handlers.common.clock import first_night
from handlers.common.shape import carrier_allowed, carrier_rules, in_window, lands_in, superlative_pick
from handlers.common.types import ok
from handlers.supplier import compact_offer, summarize_offer
from handlers.supplier.columns import OfferColumns, offer_columns
from handlers.supplier.summary import cheapest_of_each_fare
from handlers.supplier.table import output_items
from handlers.supplier.wire import collector_paused

from . import SELF_TEST_NOW, SpecialistTool, require, self_test_deps


def _code(place: Any) -> str:
    return (place.get("code") if isinstance(place, dict) else place) or ""


def _filters(args: Dict[str, Any]) -> Optional[Callable[[Dict[str, Any]], List[str]]]:
    """The hard filters of one search, read from its arguments once: a function of an offer's
    summary that names those it fails ("max_stops", "airlines", "red_eye", "time_window"); None
    when the search has none.

    Preferred airlines (``airlines``) are not a filter: the ranker favours them, others stay.
    """
    max_stops = None if args.get("max_stops") is None else int(args["max_stops"])
    rules = carrier_rules({k: args.get(k) for k in ("airlines", "airlines_required", "airlines_avoid")})
    any_carrier = not rules["avoid"] and not rules["required"]
    avoid_red_eye = bool(args.get("avoid_red_eye"))
    window = args.get("depart_time_window")
    landing = args.get("arrive_time_window")
    if max_stops is None and any_carrier and not avoid_red_eye and not window and not landing:
        return None

    def ruled_out(summary: Dict[str, Any]) -> List[str]:
        out = []
        if max_stops is not None and summary["stops"] > max_stops:
            out.append("max_stops")
        if not any_carrier and not carrier_allowed(summary["carrier"], rules):
            out.append("airlines")
        if avoid_red_eye and summary["red_eye"]:
            out.append("red_eye")
        if window and not in_window(summary["depart_at"][11:16], window):  # origin's local "HH:MM"
            out.append("time_window")
        elif landing and not lands_in(summary["depart_at"], summary["arrive_at"], landing):
            out.append("time_window")
        return out

    return ruled_out


# From how many offers a search makes its table a column at a time: each column costs a few steps
# of its own (some thirty-five of them), so below a few dozen offers keeping them one by one costs
# as little (20 offers: the same; 60: a tenth less; 300: a fifth less; one 1,000-offer leg ~10 → 7 ms).
COLUMNS_FROM = 40


def _kept(
    kept: List[Tuple[Dict[str, Any], int]], args: Dict[str, Any], ruled_out: Dict[str, int]
) -> Tuple[Optional[Dict[str, Any]], List[Dict[str, Any]], Sequence[str]]:
    """What a search keeps of the offers ``cheapest_of_each_fare`` kept (each with how many it
    stands for): those no filter rules out (the others counted in ``ruled_out``) and, for "the
    earliest flight out", those leaving within the hour of the first. As the table its tool run
    stores, made a column at a time when they are many (``COLUMNS_FROM``) and all alike
    (``handlers.supplier.columns``); otherwise as a list, each offer kept on its own (the tool run
    makes the table of them); and when each kept offer lands (its summary's ``arrive_at``)."""
    which = args.get("depart_pick")  # "the earliest flight out": only then are the times read
    columns = offer_columns([offer for offer, _ in kept]) if len(kept) >= COLUMNS_FROM else None
    if columns is None:
        offers = _kept_one_by_one(kept, _filters(args), ruled_out)
        picked = _picked([o["summary"]["depart_at"] for o in offers], which) if which else None
        offers = offers if picked is None else list(compress(offers, picked))
        return None, offers, [o["summary"]["arrive_at"] for o in offers]
    columns = columns.keep(_passing(columns, kept, _filters(args), ruled_out))
    picked = _picked(columns.column("summary.depart_at"), which) if which else None
    if picked is not None:
        columns = columns.keep(picked)
    table = columns.table()
    if table is None:
        offers = _kept_one_by_one([(o, 1) for o in columns.offers], None, {})
        return None, offers, [o["summary"]["arrive_at"] for o in offers]
    return table, [], columns.column("summary.arrive_at")


def _picked(departs: Sequence[str], which: Any) -> Optional[List[bool]]:
    """Which offers (leaving at ``departs``, the origin's local times) "the earliest (latest) flight
    out" keeps: those leaving within the hour of the first (last) one; None when it picks none."""
    pick = superlative_pick([at[11:16] for at in departs], which)
    if not pick:
        return None
    return [in_window(at[11:16], {"from": pick[0], "to": pick[1]}) for at in departs]


def _passing(
    columns: OfferColumns,
    kept: List[Tuple[Dict[str, Any], int]],
    fails: Optional[Callable[[Dict[str, Any]], List[str]]],
    ruled_out: Dict[str, int],
) -> List[bool]:
    """Which of the offers (as ``columns``) no filter of the search rules out; counts the others in
    ``ruled_out`` (by filter: each offer for the offers it stands for). The filters read five fields
    of a summary: only those are made, and only when the search has a filter."""
    if fails is None:
        return [True] * len(kept)
    fields = ("stops", "carrier", "red_eye", "depart_at", "arrive_at")
    passing = []
    for (_, stands_for), *values in zip(kept, *(columns.column(f"summary.{f}") for f in fields), strict=True):
        failed = fails(dict(zip(fields, values, strict=True)))  # the same for every offer of its fare
        for name in failed:
            ruled_out[name] = ruled_out.get(name, 0) + stands_for
        passing.append(not failed)
    return passing


def _kept_one_by_one(
    kept: List[Tuple[Dict[str, Any], int]],
    fails: Optional[Callable[[Dict[str, Any]], List[str]]],
    ruled_out: Dict[str, int],
) -> List[Dict[str, Any]]:
    """The offers a search keeps, each as ``compact_offer`` makes it, those a filter rules out
    counted in ``ruled_out`` (offers that cannot be made columns: ``handlers.supplier.columns``)."""
    offers = []
    for offer, stands_for in kept:
        summary = summarize_offer(offer)
        failed = fails(summary) if fails is not None else []
        for name in failed:
            ruled_out[name] = ruled_out.get(name, 0) + stands_for
        if not failed:
            offers.append(compact_offer(offer, summary))  # what is kept of it (handlers.supplier.summary)
    return offers


class FlightQuoteSearch(SpecialistTool):
    name = "flight_quote_search"

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        # The supplier's response is a tree of ~100 objects per offer, without cycles, dropped again
        # once its kept offers are made: with the collector paused until then (its objects freed by
        # reference counts as ``_search`` returns), no collection walks it (handlers.supplier.wire).
        with collector_paused():
            return self._search(payload, args, now)

    def _search(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        require(args, "segment_id", "origin", "destination", "depart_date", "passengers")
        found = self.deps.supplier.search_flights(
            origin=_code(args["origin"]),
            destination=_code(args["destination"]),
            depart_date=args["depart_date"],
            passengers=args["passengers"],
            cabin=args.get("cabin") or "economy",
            now=now,
        )
        ruled_out: Dict[str, int] = {}  # how many offers each filter rules out, so an empty search can say why
        table, offers, arrivals = _kept(cheapest_of_each_fare(found), args, ruled_out)
        return ok(
            payload,
            {
                "segment_id": args["segment_id"],
                **({"offers_table": table} if table is not None else {"offers": offers}),
                "count": len(table["rows"]) if table is not None else len(offers),
                "found": len(found),
                "ruled_out": ruled_out,
                # the first night any kept flight's travellers need a bed (handlers.trip_read.stays_of)
                **({"first_night": night} if (night := first_night(arrivals)) else {}),
            },
        )

    @classmethod
    def run_tests(cls) -> None:
        tool = cls(self_test_deps())
        args = {
            "segment_id": "s1",
            "origin": {"code": "EWR"},
            "destination": {"code": "DEN"},
            "depart_date": "2027-01-30",
            "passengers": {"adults": 2},
        }
        result = tool.run({"args": args, "now": SELF_TEST_NOW.isoformat()})
        out = result["output"]
        offers = output_items(out, "offers")
        assert result["success"] and out["count"] == len(offers) > 0, out
        assert {"carrier", "total", "stops", "red_eye"} <= set(offers[0]["summary"])
        assert [compact_offer(o) for o in offers] == offers, "offers as they are kept"
        nonstop = tool.run({"args": {**args, "max_stops": 0}, "now": SELF_TEST_NOW.isoformat()})["output"]
        assert all(o["summary"]["stops"] == 0 for o in output_items(nonstop, "offers"))
        missing = tool.run({"args": {"segment_id": "s1"}, "now": SELF_TEST_NOW.isoformat()})
        assert not missing["success"] and missing["output"]["error"]["code"] == "invalid_arguments"
