"""flight_quote_search and hotel_quote_search: contract shapes, filters, failures as results."""

import pytest

from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.flight_quote_search import FlightQuoteSearch
from handlers.specialists.hotel_quote_search import HotelQuoteSearch
from handlers.supplier import compact_offer, compact_rate, summarize_offer
from handlers.supplier.table import output_items, without_tables

NOW = SELF_TEST_NOW.isoformat()
FLIGHT = {
    "segment_id": "S1",
    "origin": {"type": "airport", "code": "EWR"},
    "destination": {"type": "airport", "code": "DEN"},
    "depart_date": "2027-01-30",
    "passengers": {"adults": 4},
}
HOTEL = {
    "stay_id": "H1",
    "location_code": "DEN",
    "check_in": "2027-01-30",
    "check_out": "2027-02-02",
    "rooms": 2,
    "guests_per_room": 2,
}
SUMMARY_KEYS = {
    "carrier",
    "carrier_name",
    "flight_numbers",
    "depart_at",
    "arrive_at",
    "stops",
    "duration_minutes",
    "total",
    "currency",
    "refundable",
    "red_eye",
    "cabin",
}


def flights(deps=None, **args):
    """The search's result with its offers as a list (it keeps them as a table: ``handlers.supplier.columns``)."""
    result = FlightQuoteSearch(deps or self_test_deps()).run({"args": {**FLIGHT, **args}, "now": NOW, "trip_id": "t1"})
    return {**result, "output": without_tables(result["output"])}


def hotels(deps=None, **args):
    return HotelQuoteSearch(deps or self_test_deps()).run({"args": {**HOTEL, **args}, "now": NOW, "trip_id": "t1"})


def test_flight_output_follows_the_contract():
    result = flights()
    out = result["output"]
    assert result["success"] and out["segment_id"] == "S1" and out["count"] == len(out["offers"]) > 3
    for offer in out["offers"]:
        assert SUMMARY_KEYS <= set(offer["summary"])
        assert offer["summary"]["flight_numbers"] == [leg["flight_number"] for leg in offer["legs"]]


@pytest.mark.parametrize(
    "args, keep",
    [
        ({"max_stops": 0}, lambda s: s["stops"] == 0),
        ({"cabin": "business"}, lambda s: s["cabin"] == "business"),
    ],
)
def test_flight_filters_keep_only_matching_offers(args, keep):
    everything = flights()["output"]["offers"]
    filtered = flights(**args)["output"]["offers"]
    assert filtered and all(keep(o["summary"]) for o in filtered)
    if "cabin" not in args:
        assert len(filtered) < len(everything)


def test_required_airlines_keep_only_those_carriers():
    carriers = sorted({o["summary"]["carrier"] for o in flights()["output"]["offers"]})
    kept = flights(airlines_required=[carriers[0].lower()])["output"]["offers"]
    assert len(carriers) > 1 and kept and {o["summary"]["carrier"] for o in kept} == {carriers[0]}


def test_avoided_airlines_are_dropped_and_never_become_the_only_one():
    everything = flights()["output"]["offers"]
    carriers = sorted({o["summary"]["carrier"] for o in everything})
    kept = flights(airlines_avoid=[carriers[0]])["output"]["offers"]
    assert kept and carriers[0] not in {o["summary"]["carrier"] for o in kept}
    assert len(kept) == sum(o["summary"]["carrier"] != carriers[0] for o in everything)
    # the same carrier also named as preferred or required: avoiding it wins
    both = flights(airlines_avoid=[carriers[0]], airlines_required=[carriers[0]], airlines=[carriers[0]])
    assert [o["offer_id"] for o in both["output"]["offers"]] == [o["offer_id"] for o in kept]


def test_preferred_airlines_are_not_a_filter():
    everything = flights()["output"]["offers"]
    carrier = everything[0]["summary"]["carrier"]
    assert len(flights(airlines=[carrier])["output"]["offers"]) == len(everything)


def test_avoiding_red_eyes_drops_overnight_flights():
    far = {"origin": {"code": "JFK"}, "destination": {"code": "LAX"}}
    everything = flights(**far)["output"]["offers"]
    kept = flights(**far, avoid_red_eye=True)["output"]["offers"]
    assert any(o["summary"]["red_eye"] for o in everything)
    assert kept and not any(o["summary"]["red_eye"] for o in kept)


def test_a_night_window_wraps_past_midnight():
    from handlers.common.shape import time_window

    far = {"origin": {"code": "JFK"}, "destination": {"code": "LAX"}}
    kept = [
        o["summary"]["depart_at"][11:16]
        for o in flights(**far, depart_time_window=time_window("night"))["output"]["offers"]
    ]
    assert kept and all(t >= "21:00" or t <= "04:59" for t in kept)


def test_departure_window_filters_on_local_time():
    times = sorted(o["summary"]["depart_at"][11:16] for o in flights()["output"]["offers"])
    window = {"from": times[0], "to": times[len(times) // 2]}
    kept = [o["summary"]["depart_at"][11:16] for o in flights(depart_time_window=window)["output"]["offers"]]
    assert kept and all(window["from"] <= t <= window["to"] for t in kept)
    assert len(kept) == sum(window["from"] <= t <= window["to"] for t in times) < len(times)


def test_no_flights_is_a_success_with_count_zero_and_says_which_filter_ruled_them_out():
    out = flights(airlines_required=["ZZ"])
    found = out["output"]["found"]
    assert found > 0
    assert out["success"] and out["output"] == {
        "segment_id": "S1",
        "offers": [],
        "count": 0,
        "found": found,
        "ruled_out": {"airlines": found},
    }


def test_a_supplier_timeout_is_a_retryable_failure():
    out = flights(self_test_deps(faults={"flight_quote_search": {"timeout": 1.0}}))
    assert out["success"] is False
    assert out["output"]["error"] == {
        "code": "timeout",
        "message": "The supplier did not answer in time.",
        "retryable": True,
    }


def test_missing_arguments_are_named():
    out = FlightQuoteSearch(self_test_deps()).run({"args": {"segment_id": "S1"}, "now": NOW})
    assert out["output"]["error"]["code"] == "invalid_arguments"
    assert "depart_date" in out["output"]["error"]["message"]


def test_a_search_keeps_each_offer_as_its_summary_and_the_details_bundles_are_asked_about():
    deps = self_test_deps()
    out = flights(deps)["output"]
    supplied = {
        o["offer_id"]: o
        for o in deps.supplier.search_flights(
            origin="EWR", destination="DEN", depart_date="2027-01-30", passengers={"adults": 4}, now=SELF_TEST_NOW
        )
    }
    for offer in out["offers"]:
        whole = supplied[offer["offer_id"]]
        assert set(offer) == {"offer_id", "summary", "conditions", "baggage", "legs"}
        assert (
            offer["summary"] == summarize_offer(whole) and offer["summary"]["total"] == whole["price"]["total_amount"]
        )
        assert [leg["depart_at"] for leg in offer["legs"]] == [s["depart_at"] for s in whole["slices"][0]["segments"]]
        assert offer["baggage"] == {"adult": whole["passengers"][0]["baggage"]}
        assert offer["conditions"]["refund_before_departure"] == whole["conditions"]["refund_before_departure"]
        assert compact_offer(offer) is offer  # a kept offer read again is kept as it is


def test_a_search_keeps_each_rate_as_its_summary_and_its_cancellation_terms():
    out = hotels()["output"]
    for rate in out["rates"]:
        assert set(rate) == {"rate_id", "summary", "cancellation_timeline", "conditions"}
        assert bool(rate["cancellation_timeline"]) == rate["summary"]["refundable"]
        assert compact_rate(rate) is rate


def test_a_handler_never_raises_even_on_garbage():
    out = FlightQuoteSearch(self_test_deps()).run({"args": {**FLIGHT, "depart_date": "not a date"}, "now": NOW})
    assert out["success"] is False and out["output"]["error"]["code"] == "internal_error"


def test_hotel_output_follows_the_contract():
    out = hotels()["output"]
    assert out["stay_id"] == "H1" and out["count"] == len(out["rates"]) > 3
    for rate in out["rates"]:
        s = rate["summary"]
        assert {"hotel_name", "stars", "board_type", "refundable", "total", "currency", "nightly_avg", "nights"} <= set(
            s
        )
        assert s["nights"] == 3 and s["rooms"] == 2


def test_hotel_filters_for_stars_and_refundability():
    out = hotels(min_stars=4, refundable_only=True)["output"]
    assert out["count"] > 0
    assert all(r["summary"]["stars"] >= 4 and r["summary"]["refundable"] for r in out["rates"])


def test_time_comes_from_the_payload():
    deps = self_test_deps()
    later = FlightQuoteSearch(deps).run({"args": FLIGHT, "now": "2026-12-02T19:00:00+00:00"})["output"]
    assert (
        output_items(later, "offers")[0]["summary"]["expires_at"] == "2026-12-02T19:45:00+00:00"
    )  # 45 minutes from then
