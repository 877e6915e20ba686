"""trip_option_ranker: the k best bundles equal a brute-force ranking, with explanations."""
import itertools
import random

import pytest

from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.flight_quote_search import FlightQuoteSearch
from handlers.specialists.hotel_quote_search import HotelQuoteSearch
from handlers.specialists.trip_option_ranker import Candidate, TripOptionRanker, k_best, rank

NOW = SELF_TEST_NOW.isoformat()


@pytest.fixture(scope="module")
def quotes():
    deps = self_test_deps()

    def fly(seg, o, d, day):
        args = {"segment_id": seg, "origin": {"code": o}, "destination": {"code": d}, "depart_date": day,
                "passengers": {"adults": 2}}
        return FlightQuoteSearch(deps).run({"args": args, "now": NOW})["output"]

    def stay(sid, code, a, b):
        args = {"stay_id": sid, "location_code": code, "check_in": a, "check_out": b, "rooms": 1, "guests_per_room": 2}
        return HotelQuoteSearch(deps).run({"args": args, "now": NOW})["output"]

    return {
        "out": fly("S1", "EWR", "DEN", "2027-01-30"),
        "back": fly("S2", "DEN", "EWR", "2027-02-02"),
        "den": stay("H1", "DEN", "2027-01-30", "2027-02-02"),
        "nyc_lon": fly("S1", "NYC", "LON", "2027-02-10"),
        "lon_par": fly("S2", "LON", "PAR", "2027-02-14"),
        "par_nyc": fly("S3", "PAR", "NYC", "2027-02-18"),
        "lon": stay("H1", "LON", "2027-02-10", "2027-02-14"),
        "par": stay("H2", "PAR", "2027-02-14", "2027-02-18"),
    }


def test_k_best_matches_brute_force_on_random_lists():
    rnd = random.Random(3)
    for _ in range(30):
        lists = []
        for n in range(rnd.randint(1, 4)):
            items = [Candidate("flight", f"L{n}", f"i{n}_{j}", {"total": "1"}, {}) for j in range(rnd.randint(1, 6))]
            for c in items:
                c.cost = rnd.choice([0.0, 0.5, 1.0, rnd.random()])
            lists.append(sorted(items, key=lambda c: c.cost))
        k = rnd.randint(1, 12)
        brute = sorted(sum(lists[p][i].cost for p, i in enumerate(idx))
                       for idx in itertools.product(*[range(len(lst)) for lst in lists]))[:k]
        got = [cost for cost, _ in k_best(lists, k)]
        assert got == pytest.approx(brute)


def test_round_trip_with_hotel_gives_ranked_explained_bundles(quotes):
    out = TripOptionRanker(self_test_deps()).run({"args": {
        "flight_quotes": [quotes["out"], quotes["back"]], "hotel_quotes": [quotes["den"]], "top_k": 5}, "now": NOW})
    result = out["output"]
    bundles = result["bundles"]
    assert out["success"] and [b["bundle_id"] for b in bundles] == ["B1", "B2", "B3", "B4", "B5"]
    assert [b["rank"] for b in bundles] == [1, 2, 3, 4, 5]
    assert result["considered"] == quotes["out"]["count"] * quotes["back"]["count"] * quotes["den"]["count"]
    scores = [b["score"] for b in bundles]
    assert scores == sorted(scores, reverse=True)
    for b in bundles:
        assert [f["segment_id"] for f in b["flights"]] == ["S1", "S2"] and [h["stay_id"] for h in b["hotels"]] == ["H1"]
        parts = sum(float(f["summary"]["total"]) for f in b["flights"]) + float(b["hotels"][0]["summary"]["total"])
        assert float(b["total"]) == pytest.approx(parts)
        assert len(b["why"]) >= 4 and b["currency"] == "USD"
        assert set(b["score_breakdown"]) == {"price", "duration", "stops", "red_eye", "refundability", "stars",
                                             "preference_fit", "holdability"}
        assert b["refundable"] == all(i["summary"]["refundable"] for i in b["flights"] + b["hotels"])


def test_when_k_covers_the_cross_product_every_bundle_appears_once_in_cost_order(quotes):
    flights = {**quotes["out"], "offers": quotes["out"]["offers"][:4]}
    stays = {**quotes["den"], "rates": quotes["den"]["rates"][:5]}
    bundles = rank(flight_quotes=[flights], hotel_quotes=[stays], top_k=20)["bundles"]
    pairs = {(b["flights"][0]["offer_id"], b["hotels"][0]["rate_id"]) for b in bundles}
    assert len(bundles) == len(pairs) == 20
    costs = [sum(b["score_breakdown"].values()) for b in bundles]
    assert costs == sorted(costs)


def test_flight_only_when_there_are_no_stays(quotes):
    bundles = rank(flight_quotes=[quotes["out"]], hotel_quotes=[], top_k=3)["bundles"]
    assert len(bundles) == 3 and all(b["hotels"] == [] and len(b["flights"]) == 1 for b in bundles)


def test_multi_city_bundles_have_three_flights_and_two_hotels(quotes):
    bundles = rank(flight_quotes=[quotes["nyc_lon"], quotes["lon_par"], quotes["par_nyc"]],
                   hotel_quotes=[quotes["lon"], quotes["par"]], top_k=4)["bundles"]
    assert len(bundles) == 4
    for b in bundles:
        assert [f["segment_id"] for f in b["flights"]] == ["S1", "S2", "S3"]
        assert [h["stay_id"] for h in b["hotels"]] == ["H1", "H2"]


def test_cheapest_bundle_says_so_and_others_say_how_much_more(quotes):
    bundles = rank(flight_quotes=[quotes["out"]], hotel_quotes=[quotes["den"]], top_k=5,
                   preferences={"weights": {k: 0 for k in ("duration", "stops", "red_eye", "refundability", "stars",
                                                           "preference_fit", "holdability")}})["bundles"]
    totals = [float(b["total"]) for b in bundles]
    assert totals == sorted(totals)
    assert bundles[0]["why"][0] == "The lowest total price of all combinations."
    assert bundles[1]["why"][0].endswith("more than the cheapest combination.")


def test_avoiding_red_eyes_and_wanting_refunds_change_the_order():
    offer = lambda oid, total, red_eye, refundable: {"offer_id": oid, "summary": {  # noqa: E731
        "carrier": "UA", "carrier_name": "United", "flight_numbers": ["UA1"], "origin": "JFK", "destination": "LAX",
        "depart_at": "2027-03-03T22:00:00-05:00", "arrive_at": "2027-03-04T01:00:00-08:00", "stops": 0,
        "connections": [], "duration_minutes": 360, "total": total, "currency": "USD", "refundable": refundable,
        "red_eye": red_eye, "cabin": "economy"}}
    quote = {"segment_id": "S1", "offers": [offer("cheap_red", "300.00", True, False),
                                            offer("day_flex", "360.00", False, True)]}
    plain = rank(flight_quotes=[quote], hotel_quotes=[], top_k=2)["bundles"]
    picky = rank(flight_quotes=[quote], hotel_quotes=[], top_k=2,
                 preferences={"flight": {"avoid_red_eye": True}}, constraints={"refundable_preference": "flight"})
    assert plain[0]["flights"][0]["offer_id"] == "cheap_red"
    assert picky["bundles"][0]["flights"][0]["offer_id"] == "day_flex"


def test_items_that_cannot_be_held_sink_below_holdable_ones(quotes):
    instant = [o for o in quotes["out"]["offers"] if not o["summary"]["holdable"]]
    assert instant, "the sandbox should offer some pay-now fares"
    cheapest = min(float(o["summary"]["total"]) for o in quotes["out"]["offers"])
    cheap_instant = {**instant[0], "offer_id": "off_cheap", "summary": {**instant[0]["summary"],
                                                                        "total": f"{cheapest * 0.8:.2f}"}}
    quote = {**quotes["out"], "offers": [cheap_instant] + quotes["out"]["offers"]}
    bundles = rank(flight_quotes=[quote], hotel_quotes=[], top_k=3)["bundles"]
    assert all(b["flights"][0]["summary"]["holdable"] for b in bundles)
    alone = rank(flight_quotes=[{**quote, "offers": [cheap_instant]}], hotel_quotes=[], top_k=1)["bundles"][0]
    assert "cannot be held" in alone["why"][1] and alone["score_breakdown"]["holdability"] > 0


def test_budget_puts_affordable_bundles_first_and_says_so(quotes):
    every = rank(flight_quotes=[quotes["out"]], hotel_quotes=[quotes["den"]], top_k=20)["bundles"]
    budget = sorted(float(b["total"]) for b in every)[2]
    bundles = rank(flight_quotes=[quotes["out"]], hotel_quotes=[quotes["den"]], top_k=5,
                   constraints={"budget_total": f"{budget:.2f}"})["bundles"]
    within = [float(b["total"]) <= budget for b in bundles]
    assert within == sorted(within, reverse=True) and within[0]
    assert any(line.startswith("Within your budget") for line in bundles[0]["why"])


def test_empty_quotes_give_no_bundles_and_missing_args_fail():
    assert rank(flight_quotes=[{"segment_id": "S1", "offers": []}], hotel_quotes=[]) == {"bundles": [], "considered": 0}
    out = TripOptionRanker(self_test_deps()).run({"args": {}, "now": NOW})
    assert out["output"]["error"]["code"] == "invalid_arguments"
