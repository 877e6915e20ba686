"""The sandbox's searches: real geography, plausible prices, determinism per (seed, search, day)."""

import re
from datetime import UTC, datetime, timedelta

import pytest

from handlers.common.clock import FrozenClock
from handlers.common.stores import InMemoryKeyValueStore
from handlers.supplier import SandboxSupplier, summarize_offer, summarize_rate
from handlers.supplier.money import money

NOW = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
LEG = {"origin": "EWR", "destination": "DEN", "depart_date": "2027-01-30", "passengers": {"adults": 2}}
STAY = {"location_code": "DEN", "check_in": "2027-01-30", "check_out": "2027-02-02", "rooms": 2, "guests_per_room": 2}


def sandbox(seed=7):
    return SandboxSupplier(InMemoryKeyValueStore(), seed=seed, clock=FrozenClock(NOW))


def test_same_seed_search_and_day_give_identical_offers_in_fresh_sandboxes():
    assert sandbox().search_flights(**LEG) == sandbox().search_flights(**LEG)
    assert sandbox().search_hotels(**STAY) == sandbox().search_hotels(**STAY)


def test_another_seed_or_another_day_changes_the_offers():
    ids = {o["offer_id"] for o in sandbox().search_flights(**LEG)}
    assert ids.isdisjoint(o["offer_id"] for o in sandbox(seed=8).search_flights(**LEG))
    tomorrow = sandbox().search_flights(**LEG, now=NOW + timedelta(days=1))
    assert ids.isdisjoint(o["offer_id"] for o in tomorrow)


def test_offer_amounts_are_decimal_strings_that_add_up():
    for offer in sandbox().search_flights(**LEG):
        price = offer["price"]
        assert money(price["base_amount"]) + money(price["tax_amount"]) == money(price["total_amount"])
        assert price["total_amount"] == f"{money(price['total_amount']):.2f}" and price["currency"] == "USD"
        assert 1 <= offer["seats_remaining"] <= 9
        assert len(offer["passengers"]) == 2


def test_offers_are_sorted_and_mix_stops_fares_and_instant_payment():
    offers = sandbox().search_flights(**LEG)
    totals = [money(o["price"]["total_amount"]) for o in offers]
    assert totals == sorted(totals)
    summaries = [summarize_offer(o) for o in offers]
    assert {s["stops"] for s in summaries} == {0, 1}
    assert {s["refundable"] for s in summaries} == {True, False}
    assert any(o["requires_instant_payment"] and not o["hold_policy"]["holdable"] for o in offers)
    connected = [s for s in summaries if s["stops"]]
    assert all(s["connections"][0]["minutes"] >= 35 for s in connected)


def test_red_eyes_appear_on_long_routes():
    supplier = sandbox()
    dates = [f"2027-02-{d:02d}" for d in range(1, 15)]
    red_eyes = [
        summarize_offer(o)["red_eye"]
        for d in dates
        for o in supplier.search_flights(origin="JFK", destination="LAX", depart_date=d, passengers={"adults": 1})
    ]
    assert any(red_eyes) and not all(red_eyes)


def test_longer_routes_take_longer_and_cost_more():
    supplier = sandbox()

    def cheapest(dest):
        offers = supplier.search_flights(
            origin="JFK", destination=dest, depart_date="2027-03-03", passengers={"adults": 1}
        )
        nonstop = [summarize_offer(o) for o in offers if o["slices"][0]["stops"] == 0]
        return min(s["duration_minutes"] for s in nonstop), min(money(s["total"]) for s in nonstop)

    short, long_ = cheapest("BOS"), cheapest("LAX")
    assert short[0] < 120 < 300 < long_[0] < 420
    assert short[1] < long_[1]


def test_metro_codes_expand_to_their_airports():
    offers = sandbox().search_flights(
        origin="NYC", destination="LON", depart_date="2027-02-10", passengers={"adults": 1}
    )
    origins = {o["slices"][0]["origin"] for o in offers}
    assert origins <= {"JFK", "EWR", "LGA"} and "JFK" in origins
    assert {o["slices"][0]["destination"] for o in offers} <= {"LHR", "LGW", "STN", "LCY", "LTN", "SEN"}


def test_local_times_carry_each_airports_offset():
    offer = sandbox().search_flights(**LEG)[0]
    segment = offer["slices"][0]["segments"][0]
    assert segment["depart_at"].endswith("-05:00")  # Newark in winter
    assert offer["slices"][0]["segments"][-1]["arrive_at"].endswith("-07:00")  # Denver


def test_premium_cabins_cost_more():
    supplier = sandbox()
    economy = min(money(o["price"]["total_amount"]) for o in supplier.search_flights(**LEG))
    business = min(money(o["price"]["total_amount"]) for o in supplier.search_flights(**LEG, cabin="business"))
    assert business > 2 * economy


@pytest.mark.parametrize(
    "leg",
    [
        {**LEG, "origin": "XXX"},
        {**LEG, "depart_date": "2026-11-30"},
    ],
)
def test_unknown_places_and_past_dates_give_no_offers(leg):
    assert sandbox().search_flights(**leg) == []


def test_hotels_spread_over_stars_boards_and_refundability():
    rates = sandbox().search_hotels(**STAY)
    summaries = [summarize_rate(r) for r in rates]
    assert len({s["stars"] for s in summaries}) >= 4
    assert len({s["board_type"] for s in summaries}) >= 2
    assert {s["refundable"] for s in summaries} == {True, False}
    for rate in rates:
        price = rate["price"]
        assert len(price["nightly"]) == 3 and rate["quantity_available"] >= 2
        parts = money(price["base_amount"]) + money(price["tax_amount"]) + money(price["fee_amount"])
        assert (
            parts
            == money(price["total_amount"])
            == sum(money(n) for n in price["nightly"]) + money(price["tax_amount"]) + money(price["fee_amount"])
        )


def test_a_city_keeps_its_hotels_across_stays():
    supplier = sandbox()
    first = {r["hotel"]["id"] for r in supplier.search_hotels(**STAY)}
    later = {
        r["hotel"]["id"]
        for r in supplier.search_hotels(**{**STAY, "check_in": "2027-03-01", "check_out": "2027-03-04"})
    }
    assert len(first & later) >= len(first) // 2


def test_refundable_rates_have_a_timeline_and_nonrefundable_ones_none():
    for rate in sandbox().search_hotels(**STAY):
        timeline = rate["cancellation_timeline"]
        if timeline:
            assert money(timeline[0]["refund_amount"]) == money(rate["price"]["total_amount"])
            assert timeline[0]["before"] < "2027-01-30T23:59"
        else:
            assert rate["conditions"][0] == "Non-refundable."


def test_rate_conditions_read_money_and_time_as_the_chat_does():
    """Issue 12: the supplier's own words about a rate say "$75.00", never "75.00 USD", and name
    the free-cancellation deadline in the hotel's time, labelled, never as an ISO string."""
    rates = sandbox().search_hotels(**STAY)
    lines = [line for rate in rates for line in rate["conditions"]]
    assert any(line.startswith("Free cancellation before") for line in lines)
    assert any("resort fee" in line for line in lines)
    for line in lines:
        assert not re.search(r"\d\.\d\d [A-Z]{3}\b", line), line
        assert not re.search(r"\d{4}-\d\d-\d\d", line), line
    for rate in rates:
        if rate["cancellation_timeline"]:
            first = rate["conditions"][0]
            assert re.fullmatch(r"Free cancellation before \w{3} \w{3} \d+, \d+:\d\d [AP]M M[SD]T\.", first), first
        if any("resort fee" in line for line in rate["conditions"]):
            assert any(re.search(r"resort fee of \$[\d,]+\.\d\d,", line) for line in rate["conditions"])
