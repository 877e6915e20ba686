"""flight_quote_search: offers for one segment, filtered by the traveller's hard flight constraints.

Of the offers that are the same fare (the same flights on the same terms at other prices), only
the cheapest few are kept (``handlers.supplier.summary.cheapest_of_each_fare``: the rule and why
no later reader can tell), before anything else is made of them: summaries, filters and the
kept details run on those only, so a supplier's hundreds of near copies cost a search little
more than its distinct fares. ``found`` and ``ruled_out`` still count every offer.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Dict, List

from handlers.common.shape import carrier_allowed, carrier_rules, in_window, lands_in, superlative_pick
from handlers.common.types import ok
from handlers.supplier import compact_offer, summarize_offer
from handlers.supplier.summary import cheapest_of_each_fare
from handlers.supplier.wire import collector_paused

from . import SELF_TEST_NOW, SpecialistTool, require, self_test_deps


def _code(place: Any) -> str:
    return (place.get("code") if isinstance(place, dict) else place) or ""


def _filters(args: Dict[str, Any]) -> Callable[[Dict[str, Any]], List[str]]:
    """The hard filters of one search, read from its arguments once: a function of an offer's
    summary that names those it fails ("max_stops", "airlines", "red_eye", "time_window").

    Preferred airlines (``airlines``) are not a filter: the ranker favours them, others stay.
    """
    max_stops = None if args.get("max_stops") is None else int(args["max_stops"])
    rules = carrier_rules({k: args.get(k) for k in ("airlines", "airlines_required", "airlines_avoid")})
    any_carrier = not rules["avoid"] and not rules["required"]
    avoid_red_eye = bool(args.get("avoid_red_eye"))
    window = args.get("depart_time_window")
    landing = args.get("arrive_time_window")

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
        offers: List[Dict[str, Any]] = []
        ruled_out: Dict[str, int] = {}  # how many offers each filter rules out, so an empty search can say why
        fails = _filters(args)
        for offer, stands_for in cheapest_of_each_fare(found):
            summary = summarize_offer(offer)
            failed = fails(summary)  # the same for every offer of its fare
            for name in failed:
                ruled_out[name] = ruled_out.get(name, 0) + stands_for
            if not failed:
                offers.append(compact_offer(offer, summary))  # what is kept of it (handlers.supplier.summary)
        which = args.get("depart_pick")  # "the earliest flight out": only then are the times read
        pick = superlative_pick([o["summary"]["depart_at"][11:16] for o in offers], which) if which else None
        if pick:  # "the earliest flight out": those leaving within the hour of the first one found
            offers = [
                o for o in offers if in_window(o["summary"]["depart_at"][11:16], {"from": pick[0], "to": pick[1]})
            ]
        return ok(
            payload,
            {
                "segment_id": args["segment_id"],
                "offers": offers,
                "count": len(offers),
                "found": len(found),
                "ruled_out": ruled_out,
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
        assert result["success"] and out["count"] == len(out["offers"]) > 0, out
        assert {"carrier", "total", "stops", "red_eye"} <= set(out["offers"][0]["summary"])
        nonstop = tool.run({"args": {**args, "max_stops": 0}, "now": SELF_TEST_NOW.isoformat()})["output"]
        assert all(o["summary"]["stops"] == 0 for o in nonstop["offers"])
        missing = tool.run({"args": {"segment_id": "s1"}, "now": SELF_TEST_NOW.isoformat()})
        assert not missing["success"] and missing["output"]["error"]["code"] == "invalid_arguments"
