"""hotel_quote_search: rates for one stay, filtered by minimum stars, refundability, meals and the nightly cap.

A stay wished "near" a place the desk knows (``handlers.common.landmarks``: "the convention
center", "Times Square", "the airport") gives each rate's summary ``near_km``, the hotel's
distance from it, and the result ``near``, the place's name; one it does not know gives
``near_unknown``."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Dict, List

from handlers.common import geo
from handlers.common.board import board_met
from handlers.common.landmarks import km, where_near
from handlers.common.shape import nightly_cap
from handlers.common.types import ok
from handlers.supplier import compact_rate, summarize_rate
from handlers.supplier.money import money

from . import SELF_TEST_NOW, SpecialistTool, require, self_test_deps


class HotelQuoteSearch(SpecialistTool):
    name = "hotel_quote_search"

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        require(args, "stay_id", "location_code", "check_in", "check_out", "rooms", "guests_per_room")
        found = self.deps.supplier.search_hotels(
            location_code=args["location_code"],
            check_in=args["check_in"],
            check_out=args["check_out"],
            rooms=int(args["rooms"]),
            guests_per_room=int(args["guests_per_room"]),
            now=now,
        )
        min_stars = int(args.get("min_stars") or 0)
        board = args.get("board")  # the least meals wished ("breakfast"): a rate with fewer is ruled out
        refundable_only = bool(args.get("refundable_only"))
        cap = nightly_cap({"hotel_max_per_night": args.get("max_nightly")})
        near = args.get("near")
        found_near = where_near(near, geo.place(args["location_code"])) if near else None
        # "downtown": the rates' own distance_km is from the centre
        point = found_near if found_near and found_near["name"] != "the centre" else None
        rates: List[Dict[str, Any]] = []
        ruled_out: Dict[str, int] = {}  # how many rates each filter rules out, so an empty search can say why
        for rate in found:
            summary = summarize_rate(rate)
            failed = [
                name
                for name, fails in (
                    ("min_stars", summary["stars"] < min_stars),
                    ("refundable", refundable_only and not summary["refundable"]),
                    ("board", not board_met(summary["board_type"], board)),
                    # per room and night, before tax
                    ("max_nightly", cap is not None and money(summary["nightly_max"]) > cap),
                )
                if fails
            ]
            for name in failed:
                ruled_out[name] = ruled_out.get(name, 0) + 1
            if not failed:
                if point:
                    where = rate["hotel"].get("location") or {}
                    if "lat" in where and "lon" in where:
                        summary["near_km"] = round(km(where["lat"], where["lon"], point["lat"], point["lon"]), 1)
                rates.append(compact_rate(rate, summary))  # what is kept of it (handlers.supplier.summary)
        return ok(
            payload,
            {
                "stay_id": args["stay_id"],
                "rates": rates,
                "count": len(rates),
                "found": len(found),
                "ruled_out": ruled_out,
                **({"near": point["name"]} if point else {}),
                **({"near_unknown": near} if near and not found_near else {}),
            },
        )

    @classmethod
    def run_tests(cls) -> None:
        tool = cls(self_test_deps())
        args = {
            "stay_id": "h1",
            "location_code": "DEN",
            "check_in": "2027-01-30",
            "check_out": "2027-02-02",
            "rooms": 2,
            "guests_per_room": 2,
        }
        out = tool.run({"args": args, "now": SELF_TEST_NOW.isoformat()})["output"]
        assert out["count"] == len(out["rates"]) > 0 and out["stay_id"] == "h1", out
        assert out["rates"][0]["summary"]["nights"] == 3
        picky = tool.run({"args": {**args, "min_stars": 4, "refundable_only": True}, "now": SELF_TEST_NOW.isoformat()})[
            "output"
        ]
        assert all(r["summary"]["stars"] >= 4 and r["summary"]["refundable"] for r in picky["rates"])
        assert picky["count"] < out["count"]
        capped = tool.run({"args": {**args, "max_nightly": "200"}, "now": SELF_TEST_NOW.isoformat()})["output"]
        assert 0 < capped["count"] < out["count"], capped["count"]
        assert all(float(r["summary"]["nightly_max"]) <= 200 for r in capped["rates"])
