"""trip_option_ranker: the k-best merge equals a brute-force ranking; the list offers real, explained choices."""

import itertools
import json
import random
from datetime import datetime

import pytest

from handlers.common.defaults import DEFAULT_POLICY
from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.flight_quote_search import FlightQuoteSearch
from handlers.specialists.hotel_quote_search import HotelQuoteSearch
from handlers.specialists.trip_option_ranker import Candidate, TripOptionRanker, k_best, rank
from handlers.supplier.table import with_tables, without_tables
from handlers.testing import Harness

NOW = SELF_TEST_NOW.isoformat()


@pytest.fixture(scope="module")
def quotes():
    deps = self_test_deps()

    def fly(seg, o, d, day):
        args = {
            "segment_id": seg,
            "origin": {"code": o},
            "destination": {"code": d},
            "depart_date": day,
            "passengers": {"adults": 2},
        }
        return without_tables(FlightQuoteSearch(deps).run({"args": args, "now": NOW})["output"])  # offers as a list

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
        brute = sorted(
            sum(lists[p][i].cost for p, i in enumerate(idx))
            for idx in itertools.product(*[range(len(lst)) for lst in lists])
        )[:k]
        got = [cost for cost, _ in k_best(lists, k)]
        assert got == pytest.approx(brute)


def test_round_trip_with_hotel_gives_ranked_explained_bundles(quotes):
    out = TripOptionRanker(self_test_deps()).run(
        {
            "args": {"flight_quotes": [quotes["out"], quotes["back"]], "hotel_quotes": [quotes["den"]], "top_k": 5},
            "now": NOW,
        }
    )
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
        assert set(b["score_breakdown"]) == {
            "price",
            "duration",
            "stops",
            "red_eye",
            "refundability",
            "stars",
            "preference_fit",
            "holdability",
        }
        assert b["refundable"] == all(i["summary"]["refundable"] for i in b["flights"] + b["hotels"])


@pytest.mark.parametrize("legs", [("out", "back"), ("nyc_lon", "lon_par", "par_nyc")])
def test_quotes_kept_as_their_search_made_them_rank_as_the_same_offers_in_a_list(quotes, legs):
    """In its own turn a search's offers reach the ranker as the table the search made of them
    (``handlers.supplier.columns``); later, from the store, as a list: the same bundles either way."""
    now = datetime.fromisoformat(NOW)
    for preferences in ({}, {"flight": {"max_stops": 0, "airlines": ["UA"]}}, {"flight": {"avoid_red_eye": True}}):
        lists = [quotes[leg] for leg in legs]
        tables = [with_tables(q) for q in lists]
        assert all("offers_table" in q for q in tables)
        kwargs = {"hotel_quotes": [quotes["den"]], "preferences": preferences, "policy": DEFAULT_POLICY, "now": now}
        assert json.dumps(rank(flight_quotes=tables, **kwargs)) == json.dumps(rank(flight_quotes=lists, **kwargs))


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
    bundles = rank(
        flight_quotes=[quotes["nyc_lon"], quotes["lon_par"], quotes["par_nyc"]],
        hotel_quotes=[quotes["lon"], quotes["par"]],
        top_k=4,
    )["bundles"]
    assert len(bundles) == 4
    for b in bundles:
        assert [f["segment_id"] for f in b["flights"]] == ["S1", "S2", "S3"]
        assert [h["stay_id"] for h in b["hotels"]] == ["H1", "H2"]


def test_cheapest_bundle_says_so_and_others_say_how_much_more(quotes):
    bundles = rank(
        flight_quotes=[quotes["out"]],
        hotel_quotes=[quotes["den"]],
        top_k=5,
        preferences={
            "weights": {
                k: 0
                for k in ("duration", "stops", "red_eye", "refundability", "stars", "preference_fit", "holdability")
            }
        },
    )["bundles"]
    totals = [float(b["total"]) for b in bundles]
    assert totals == sorted(totals)
    assert bundles[0]["why"][1] == "The lowest total price of all combinations."
    assert bundles[1]["why"][1].endswith("more than the cheapest combination.")


def test_avoiding_red_eyes_and_wanting_refunds_change_the_order():
    def offer(oid, total, red_eye, refundable):
        return {
            "offer_id": oid,
            "summary": {  # noqa: E731
                "carrier": "UA",
                "carrier_name": "United",
                "flight_numbers": ["UA1"],
                "origin": "JFK",
                "destination": "LAX",
                "depart_at": "2027-03-03T22:00:00-05:00",
                "arrive_at": "2027-03-04T01:00:00-08:00",
                "stops": 0,
                "connections": [],
                "duration_minutes": 360,
                "total": total,
                "currency": "USD",
                "refundable": refundable,
                "red_eye": red_eye,
                "cabin": "economy",
            },
        }

    quote = {
        "segment_id": "S1",
        "offers": [offer("cheap_red", "300.00", True, False), offer("day_flex", "360.00", False, True)],
    }
    plain = rank(flight_quotes=[quote], hotel_quotes=[], top_k=2)["bundles"]
    picky = rank(
        flight_quotes=[quote],
        hotel_quotes=[],
        top_k=2,
        preferences={"flight": {"avoid_red_eye": True}},
        constraints={"refundable_preference": "flight"},
    )
    assert plain[0]["flights"][0]["offer_id"] == "cheap_red"
    assert picky["bundles"][0]["flights"][0]["offer_id"] == "day_flex"


def test_items_that_cannot_be_held_sink_below_holdable_ones(quotes):
    instant = [o for o in quotes["out"]["offers"] if not o["summary"]["holdable"]]
    assert instant, "the sandbox should offer some pay-now fares"
    cheapest = min(float(o["summary"]["total"]) for o in quotes["out"]["offers"])
    cheap_instant = {
        **instant[0],
        "offer_id": "off_cheap",
        "summary": {**instant[0]["summary"], "total": f"{cheapest * 0.8:.2f}"},
    }
    quote = {**quotes["out"], "offers": [cheap_instant] + quotes["out"]["offers"]}
    bundles = rank(flight_quotes=[quote], hotel_quotes=[], top_k=3)["bundles"]
    assert all(b["flights"][0]["summary"]["holdable"] for b in bundles)
    alone = rank(flight_quotes=[{**quote, "offers": [cheap_instant]}], hotel_quotes=[], top_k=1)["bundles"][0]
    assert "cannot be held" in alone["why"][2] and alone["score_breakdown"]["holdability"] > 0


def test_budget_puts_affordable_bundles_first_and_says_so(quotes):
    every = rank(flight_quotes=[quotes["out"]], hotel_quotes=[quotes["den"]], top_k=20)["bundles"]
    budget = sorted(float(b["total"]) for b in every)[2]
    bundles = rank(
        flight_quotes=[quotes["out"]],
        hotel_quotes=[quotes["den"]],
        top_k=5,
        constraints={"budget_total": f"{budget:.2f}"},
    )["bundles"]
    within = [float(b["total"]) <= budget for b in bundles]
    assert within == sorted(within, reverse=True) and within[0]
    assert any(line.startswith("Within your budget") for line in bundles[0]["why"])


def test_empty_quotes_give_no_bundles_and_missing_args_fail():
    assert rank(flight_quotes=[{"segment_id": "S1", "offers": []}], hotel_quotes=[]) == {"bundles": [], "considered": 0}
    out = TripOptionRanker(self_test_deps()).run({"args": {}, "now": NOW})
    assert out["output"]["error"]["code"] == "invalid_arguments"


def flight(oid, total, minutes, stops=0, carrier="UA", number=None, refundable=False, holdable=True):
    return {
        "offer_id": oid,
        "summary": {
            "carrier": carrier,
            "carrier_name": carrier,
            "flight_numbers": [number or f"{carrier}{oid}"],
            "origin": "EWR",
            "destination": "DEN",
            "depart_at": "2027-01-30T08:00:00-05:00",
            "arrive_at": "2027-01-30T11:00:00-07:00",
            "stops": stops,
            "connections": [],
            "duration_minutes": minutes,
            "total": total,
            "currency": "USD",
            "refundable": refundable,
            "red_eye": False,
            "cabin": "economy",
            "holdable": holdable,
        },
    }


def rate(rid, hotel_id, total, stars=3, refundable=True):
    return {
        "rate_id": rid,
        "summary": {
            "hotel_id": hotel_id,
            "hotel_name": f"Hotel {hotel_id}",
            "stars": stars,
            "board_type": "room_only",
            "refundable": refundable,
            "total": total,
            "currency": "USD",
            "distance_km": 1.0,
            "nightly_avg": "100.00",
            "nights": 3,
            "holdable": True,
        },
    }


def test_scenario_1_shows_real_choices_each_labelled():
    h = Harness()
    h.say("4 people going from Newark to Denver for 3 nights on January 30")
    memory = h.intent()["working_memory"]
    bundles = memory["ranked_bundles"]
    assert [b["bundle_id"] for b in bundles] == ["B1", "B2", "B3", "B4", "B5"]
    assert len({s["summary"]["hotel_id"] for b in bundles for s in b["hotels"]}) > 1, "not all in one hotel"
    assert len({(tuple(f["offer_id"] for f in b["flights"]), b["hotels"][0]["rate_id"]) for b in bundles}) == 5
    lists = [q["offers"] for q in h.found("flight_quotes")] + [q["rates"] for q in h.found("hotel_quotes")]
    cheapest_holdable = sum(
        min(float(i["summary"]["total"]) for i in items if i["summary"]["holdable"]) for items in lists
    )
    assert min(float(b["total"]) for b in bundles) == pytest.approx(cheapest_holdable)
    assert bundles[0]["label"] == "Best overall" and len({b["label"] for b in bundles}) >= 4
    assert all(b["why"][0].startswith(b["label"] + ":") for b in bundles)


def test_near_copies_of_the_best_give_way_to_other_hotels_and_flights():
    """The 9 lowest-cost bundles are UA100 and hotel A at other fares and rates; the list mixes in the rest."""
    offers = [flight(f"f{i}", f"{300 + i}.00", 240, number="UA100") for i in range(3)]
    offers += [flight("dl", "330.00", 240, carrier="DL", number="DL7"), flight("aa", "340.00", 240, carrier="AA")]
    rates = [rate(f"a{i}", "A", f"{500 + i}.00") for i in range(3)] + [
        rate("b", "B", "530.00"),
        rate("c", "C", "540.00"),
    ]
    quotes = {
        "flight_quotes": [{"segment_id": "S1", "offers": offers}],
        "hotel_quotes": [{"stay_id": "H1", "rates": rates}],
    }
    in_cost_order = rank(**quotes, top_k=25)["bundles"]  # all 25 combinations, so in cost order
    assert all(
        b["flights"][0]["summary"]["carrier"] == "UA" and b["hotels"][0]["summary"]["hotel_id"] == "A"
        for b in in_cost_order[:5]
    )
    bundles = rank(**quotes, top_k=5)["bundles"]
    assert (bundles[0]["flights"][0]["offer_id"], bundles[0]["hotels"][0]["rate_id"]) == ("f0", "a0")
    assert {b["hotels"][0]["summary"]["hotel_id"] for b in bundles} == {"A", "B", "C"}
    assert {b["flights"][0]["summary"]["carrier"] for b in bundles} == {"UA", "DL", "AA"}
    assert all(b["label"] in {"Best overall", "Another hotel", "Other flights", "Another mix"} for b in bundles)
    assert "Another hotel: Hotel B (3★)." in [b["why"][0] for b in bundles]


def test_cheapest_and_fastest_get_a_slot_even_far_down_the_cost_order():
    slow = [flight(f"s{i:03d}", f"{400 + i}.00", 300, stops=1) for i in range(150)]
    quote = {
        "segment_id": "S1",
        "offers": slow
        + [
            flight("fast", "900.00", 120),
            flight("cheap", "350.00", 900, 2),
            flight("cheaper_pay_now", "330.00", 300, holdable=False),
        ],
    }
    bundles = rank(flight_quotes=[quote], hotel_quotes=[], top_k=3)["bundles"]
    by_label = {b["label"]: b["flights"][0]["offer_id"] for b in bundles}
    assert by_label == {"Best overall": "s000", "Cheapest": "cheap", "Fastest": "fast"}
    assert bundles[0]["label"] == "Best overall"
    fastest = next(b for b in bundles if b["label"] == "Fastest")
    assert fastest["why"][0] == "Fastest: 2 h of flying in all, all nonstop, 3 h less than the best overall."
    cheapest = next(b for b in bundles if b["label"] == "Cheapest")
    assert cheapest["why"][0] == (
        "Cheapest: the lowest total price you can hold; cheaper combinations must be paid at once and cannot be held."
    )
    # The card's comparison agrees with its label: nothing says it costs more than "the cheapest".
    assert cheapest["why"][1] == "The lowest total price of the options you can hold."
    assert not any("more than the cheapest combination" in line for b in bundles for line in b["why"])
    assert fastest["why"][1] == "$550.00 more than the cheapest option you can hold."


def test_when_nothing_can_be_held_no_card_says_it_can():
    """Every flight must be paid at once, and the cheapest hotel is above the policy's cap: the
    cheapest pick policy allows still cannot be held, so no card claims to be the lowest price "of
    the options you can hold" (there are none); they compare with the cheapest combination."""
    from datetime import datetime

    offers = [flight("pay_now", "330.00", 300, holdable=False), flight("pay_now_2", "410.00", 240, holdable=False)]
    cheap, allowed = rate("over_cap", "A", "300.00"), rate("in_cap", "B", "450.00")
    cheap["summary"]["nightly_max"], allowed["summary"]["nightly_max"] = "400.00", "150.00"
    bundles = rank(
        flight_quotes=[{"segment_id": "S1", "offers": offers}],
        hotel_quotes=[{"stay_id": "H1", "rates": [cheap, allowed]}],
        top_k=4,
        policy=_policy(hotel_nightly_cap="300.00"),
        now=datetime.fromisoformat(NOW),
    )["bundles"]
    lines = [line for b in bundles for line in b["why"]]
    assert any("must be paid at once, cannot be held" in line for line in lines)
    assert not any("you can hold" in line for line in lines), lines


def test_refundable_and_better_hotel_options_when_the_best_is_neither():
    quote = {"segment_id": "S1", "offers": [flight("f", "300.00", 240), flight("flex", "420.00", 240, refundable=True)]}
    rates = [
        rate("cheap", "A", "400.00", stars=2, refundable=False),
        rate("flex", "A", "450.00", stars=2),
        rate("nice", "B", "700.00", stars=4, refundable=False),
    ]
    bundles = rank(flight_quotes=[quote], hotel_quotes=[{"stay_id": "H1", "rates": rates}], top_k=3)["bundles"]
    picked = {b["label"]: (b["flights"][0]["offer_id"], b["hotels"][0]["rate_id"], b["refundable"]) for b in bundles}
    assert picked == {
        "Best overall": ("f", "cheap", False),
        "Refundable": ("flex", "flex", True),
        "Better hotel": ("f", "nice", False),
    }
    better = next(b for b in bundles if b["label"] == "Better hotel")
    assert better["why"][0] == "Better hotel: Hotel B (4★ instead of 2★)."


def test_the_list_does_not_depend_on_the_order_quotes_arrive_in(quotes):
    def run(shuffle_seed):
        rnd = random.Random(shuffle_seed)
        shuffled = []
        for q, key in ((quotes["out"], "offers"), (quotes["back"], "offers"), (quotes["den"], "rates")):
            items = list(q[key])
            rnd.shuffle(items)
            shuffled.append({**q, key: items})
        return rank(flight_quotes=shuffled[:2], hotel_quotes=shuffled[2:], top_k=7)["bundles"]

    first = run(0)
    assert len(first) == 7 and all(run(seed) == first for seed in (1, 2, 3))


def test_k_beyond_the_cross_product_returns_every_bundle_once(quotes):
    flights = {**quotes["out"], "offers": quotes["out"]["offers"][:3]}
    stays = {**quotes["den"], "rates": quotes["den"]["rates"][:4]}
    bundles = rank(flight_quotes=[flights], hotel_quotes=[stays], top_k=20)["bundles"]
    pairs = {(b["flights"][0]["offer_id"], b["hotels"][0]["rate_id"]) for b in bundles}
    assert len(bundles) == len(pairs) == 12
    assert [b["bundle_id"] for b in bundles] == [f"B{n}" for n in range(1, 13)]


def test_hotel_only_trips_rank_hotels_alone(quotes):
    out = TripOptionRanker(self_test_deps()).run(
        {"args": {"flight_quotes": [], "hotel_quotes": [quotes["den"]], "top_k": 4}, "now": NOW}
    )
    bundles = out["output"]["bundles"]
    assert out["success"] and len(bundles) == 4
    assert all(not b["flights"] and len(b["hotels"]) == 1 for b in bundles)
    assert "Fastest" not in {b["label"] for b in bundles}
    assert out["output"]["considered"] == quotes["den"]["count"]


def test_a_per_person_budget_counts_for_the_whole_party(quotes):
    every = rank(flight_quotes=[quotes["out"]], hotel_quotes=[quotes["den"]], top_k=20)["bundles"]
    third = sorted(float(b["total"]) for b in every)[2]
    per_person = f"{third / 3:.2f}"  # three travellers: the third-cheapest bundle fits
    bundles = rank(
        flight_quotes=[quotes["out"]],
        hotel_quotes=[quotes["den"]],
        constraints={"budget_per_person": per_person},
        party={"travelers": {"adults": 2, "children": 1, "infants": 0}},
        top_k=5,
    )["bundles"]
    within = [float(b["total"]) <= float(per_person) * 3 + 0.01 for b in bundles]
    assert within == sorted(within, reverse=True) and within[0] and not all(within)
    assert any(f"{per_person} per person" in line for line in bundles[0]["why"])
    # with a looser trip total as well, the per-person budget still decides
    both = rank(
        flight_quotes=[quotes["out"]],
        hotel_quotes=[quotes["den"]],
        constraints={"budget_per_person": per_person, "budget_total": "99999"},
        party={"travelers": {"adults": 2, "children": 1, "infants": 0}},
        top_k=5,
    )["bundles"]
    assert [b["total"] for b in both] == [b["total"] for b in bundles]


def test_a_preferred_airline_rises_and_an_avoided_one_sinks():
    quote = {
        "segment_id": "S1",
        "offers": [flight("o1", "300.00", 240, carrier="UA"), flight("o2", "320.00", 240, carrier="DL")],
    }
    assert rank(flight_quotes=[quote], hotel_quotes=[], top_k=1)["bundles"][0]["flights"][0]["offer_id"] == "o1"
    prefs = {"flight": {"airlines": ["DL"]}}
    assert (
        rank(flight_quotes=[quote], hotel_quotes=[], preferences=prefs, top_k=1)["bundles"][0]["flights"][0]["offer_id"]
        == "o2"
    )
    # "DL, but never UA": never the other way round
    prefs = {"flight": {"airlines": ["UA"], "airlines_avoid": ["UA"]}}
    assert (
        rank(flight_quotes=[quote], hotel_quotes=[], preferences=prefs, top_k=1)["bundles"][0]["flights"][0]["offer_id"]
        == "o2"
    )


# --- issue 12: options that know the organisation's policy ----------------------------------------


def _policy(**overrides):
    import copy

    from handlers.common.defaults import DEFAULT_POLICY

    return {**copy.deepcopy(DEFAULT_POLICY), **overrides}


def test_in_policy_options_come_first_and_the_rest_say_why_before_selection(quotes):
    from datetime import datetime

    from handlers.specialists.policy_and_risk_check import check

    rates = sorted(float(r["summary"]["nightly_max"]) for r in quotes["den"]["rates"])
    cap = f"{rates[len(rates) // 2]:.2f}"  # half the hotels are over the cap
    policy, now = _policy(hotel_nightly_cap=cap), datetime.fromisoformat(NOW)
    bundles = rank(
        flight_quotes=[quotes["out"], quotes["back"]], hotel_quotes=[quotes["den"]], top_k=5, policy=policy, now=now
    )["bundles"]
    verdicts = [b["policy"]["ok"] for b in bundles]
    assert verdicts[0] is True, "Best match is never an option policy blocks while one it allows exists"
    assert verdicts == sorted(verdicts, reverse=True), "in-policy options first"
    for b in bundles:  # the badge is the check's own verdict, the one selecting it would get
        report = check(bundle=b, policy=policy, constraints={}, now=now)
        assert (report["ok"], report["blocking"]) == (b["policy"]["ok"], b["policy"]["blocking"])
        if not b["policy"]["ok"]:
            assert any("above your policy's cap" in f["message"] for f in b["policy"]["blocking"])
    unconstrained = rank(flight_quotes=[quotes["out"], quotes["back"]], hotel_quotes=[quotes["den"]], top_k=5)
    assert all("policy" not in b for b in unconstrained["bundles"])  # no policy given, nothing claimed


def test_when_policy_blocks_everything_every_option_is_badged(quotes):
    from datetime import datetime

    bundles = rank(
        flight_quotes=[quotes["out"], quotes["back"]],
        hotel_quotes=[quotes["den"]],
        top_k=5,
        policy=_policy(hotel_nightly_cap="1.00"),
        now=datetime.fromisoformat(NOW),
    )["bundles"]
    assert bundles and all(b["policy"]["ok"] is False and b["policy"]["blocking"] for b in bundles)


@pytest.mark.parametrize("seed", [7, 11, 23])
def test_jfk_to_sfo_for_four_adults_shows_an_in_policy_option_first(seed):
    """Issue 12's case: every option was refused after selection. Now B1 passes, or all are badged."""
    harness = Harness(seed=seed)
    harness.say("4 adults from JFK to SFO on January 12, back January 15")
    bundles = harness.trips.get(harness.trip_id)["working_memory"]["ranked_bundles"]
    assert bundles
    if bundles[0]["policy"]["ok"]:
        harness.select(bundles[0]["bundle_id"])
        assert harness.trips.get(harness.trip_id)["working_memory"]["risk_report"]["ok"]
    else:
        assert all(not b["policy"]["ok"] and b["policy"]["blocking"] for b in bundles)
