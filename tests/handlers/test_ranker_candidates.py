"""The ranker's legs (each offer's costs read once per list, as columns; a candidate made only for
an item a pick may use) rank exactly as candidates made offer by offer, every wish read again
for each, did: the same bundles, scores, breakdowns and words over seeded supplier responses of
hundreds of offers and every kind of flight wish (carriers preferred, required or avoided,
cabin, stops, red-eyes, refunds, weights), with and without a policy."""

import json
import random
from datetime import datetime

import pytest

from handlers.common.defaults import DEFAULT_POLICY
from handlers.common.shape import carrier_allowed, carrier_rules
from handlers.specialists import SELF_TEST_NOW, self_test_deps, trip_option_ranker
from handlers.specialists.flight_quote_search import FlightQuoteSearch
from handlers.specialists.hotel_quote_search import HotelQuoteSearch
from handlers.specialists.trip_option_ranker import Candidate, Leg, _unslept, _unslept_each, _wants_refundable, rank
from handlers.supplier import summarize_offer
from handlers.supplier.summary import ranked_offers
from handlers.supplier.table import output_items

NOW = SELF_TEST_NOW.isoformat()


def plain_flight_leg(quote, w, prefs, constraints, stays=()):
    """``_flight_leg`` as first written: a candidate per offer, every wish read again for each."""
    fp = prefs.get("flight") or {}
    carriers = carrier_rules(fp)
    preferred = set(carriers["preferred"])
    max_stops = fp.get("max_stops")
    refund_w = w["refundability"] * (4 if _wants_refundable("flight", prefs, constraints) else 1)
    red_eye_w = w["red_eye"] * (4 if fp.get("avoid_red_eye") else 1)
    offers = output_items(quote, "offers")  # (the search keeps them as a table; the ranker reads its columns)
    summaries = ranked_offers([(o["offer_id"], o.get("summary") or summarize_offer(o)) for o in offers])
    fastest = min((s["duration_minutes"] for _, s in summaries), default=1) or 1
    out = []
    for offer_id, s in summaries:
        misses = sum(
            (
                bool(preferred) and s["carrier"] not in preferred,
                4 * (not carrier_allowed(s["carrier"], carriers)),
                max_stops is not None and s["stops"] > max_stops,
                bool(fp.get("cabin")) and s["cabin"] != fp["cabin"],
                bool(fp.get("avoid_red_eye")) and s["red_eye"],
                _unslept(s["depart_at"], s["arrive_at"], stays),  # a hotel night paid while still flying
            )
        )
        costs = {
            "duration": w["duration"] * (s["duration_minutes"] / fastest - 1),
            "stops": w["stops"] * s["stops"],
            "red_eye": red_eye_w if s["red_eye"] else 0.0,
            "refundability": 0.0 if s["refundable"] else refund_w,
            "stars": 0.0,
            "preference_fit": w["preference_fit"] * misses,
            "holdability": 0.0 if s.get("holdable", True) else w["holdability"],
        }
        out.append(Candidate("flight", quote["segment_id"], offer_id, s, costs))
    return Leg.of("flight", quote["segment_id"], out)


def _padded(offers, rnd, copies):
    """A supplier's long answer: copies of ``offers`` under other flights, carriers and prices."""
    out = json.loads(json.dumps(offers))
    for i in range(copies):
        twin = json.loads(json.dumps(rnd.choice(offers)))
        twin["offer_id"] = f"{twin['offer_id']}c{i}"
        twin["price"]["total_amount"] = f"{float(twin['price']['total_amount']) * rnd.uniform(0.8, 1.6):.2f}"
        twin["owner"]["iata_code"] = rnd.choice(["UA", "DL", "AA", "WN", "B6"])
        for n, segment in enumerate(twin["slices"][0]["segments"]):
            segment["flight_number"] = f"{twin['owner']['iata_code']}{100 + (i * 3 + n) % 900}"
        if rnd.random() < 0.2:
            twin["cabin"] = "premium_economy"
        out.append(twin)
    return out


def _searches(seed):
    deps = self_test_deps()
    deps.supplier.seed = seed
    rnd = random.Random(seed)
    real = deps.supplier.search_flights
    deps.supplier.search_flights = lambda **kwargs: _padded(real(**kwargs), rnd, rnd.randint(200, 500))
    people = {"adults": 2}

    def fly(segment, a, b, day):
        args = {"segment_id": segment, "origin": {"code": a}, "destination": {"code": b}, "depart_date": day}
        return FlightQuoteSearch(deps).run({"args": {**args, "passengers": people}, "now": NOW})["output"]

    stay = {"stay_id": "H1", "location_code": "DEN", "check_in": "2027-01-30", "check_out": "2027-02-02"}
    hotel = HotelQuoteSearch(deps).run({"args": {**stay, "rooms": 1, "guests_per_room": 2}, "now": NOW})["output"]
    return [fly("S1", "EWR", "DEN", "2027-01-30"), fly("S2", "DEN", "EWR", "2027-02-02")], [hotel]


WISHES = [
    {},
    {"flight": {"airlines": ["UA", "DL"]}},
    {"flight": {"airlines_required": ["UA", "WN"], "max_stops": 0}},
    {"flight": {"airlines_avoid": ["AA"], "avoid_red_eye": True}},
    {"flight": {"cabin": "premium_economy", "airlines": ["B6"], "airlines_avoid": ["B6"]}},
    {"flight": {"max_stops": 1, "avoid_red_eye": True}, "weights": {"duration": 1.5, "preference_fit": 0.9}},
]


@pytest.mark.parametrize("seed", [3, 8])
def test_candidates_made_with_wishes_read_once_rank_as_before(monkeypatch, seed):
    flights, hotels = _searches(seed)
    assert all("offers_table" in q and len(output_items(q, "offers")) > 150 for q in flights)
    now = datetime.fromisoformat(NOW)
    for preferences, policy in [(wish, DEFAULT_POLICY) for wish in WISHES] + [(WISHES[1], None)]:
        for constraints in ({}, {"refundable_preference": "flight"}):
            args = {
                "flight_quotes": flights,
                "hotel_quotes": hotels,
                "preferences": preferences,
                "constraints": constraints,
                "party": {"adults": 2},
                "top_k": 5,
                "policy": policy,
                "now": now,
            }
            ranked = rank(**args)
            monkeypatch.setattr(trip_option_ranker, "_flight_leg", plain_flight_leg)
            plain = rank(**args)
            monkeypatch.undo()
            assert ranked["bundles"] and json.dumps(ranked) == json.dumps(plain), (preferences, constraints)


def test_unslept_asked_per_day_and_hour_says_what_it_says_of_each_offer():
    rnd = random.Random(5)
    days = ["2027-03-02", "2027-03-03", "2027-03-04", "2027-03-05"]

    def at(zone):
        return f"{rnd.choice(days)}T{rnd.randrange(24):02d}:{rnd.randrange(0, 60, 5):02d}:00{zone}"

    departs = [at("-05:00") for _ in range(600)]
    arrives = [at(rnd.choice(["+00:00", "+09:00", "-07:00"])) for _ in range(600)]
    for stays in ([], [("2027-03-03", "2027-03-08")], [("2027-03-02", "2027-03-04"), ("2027-03-04", "2027-03-06")]):
        each = _unslept_each(departs, arrives, stays)
        assert each == [_unslept(d, a, stays) for d, a in zip(departs, arrives, strict=True)]
        assert not stays or 0 < sum(each) < len(each)  # (the times reach both answers)
    # times that are not text, or not whole: each asked as it is
    odd_departs, odd_arrives = (
        ["2027-03-03T22:00", None, "2027-03-03", 7],
        ["2027-03-04T01", "2027-03-04T09:00", None, 7],
    )
    stays = [("2027-03-03", "2027-03-08")]
    assert _unslept_each(odd_departs, odd_arrives, stays) == [
        _unslept(d, a, stays) for d, a in zip(odd_departs, odd_arrives, strict=True)
    ]
