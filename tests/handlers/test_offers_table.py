"""A search's offers as a tool run stores them (``handlers.supplier.table``): one table, read back
exactly as the search returned them, several times smaller than the offers one by one."""

import copy
import json

import pytest

from handlers.common.redact import redact_json_text
from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.flight_quote_search import FlightQuoteSearch
from handlers.specialists.hotel_quote_search import HotelQuoteSearch
from handlers.supplier.table import items_table, table_items
from handlers.tools import returned_result, stored_result

FLIGHTS = [
    ("EWR", "DEN", "2027-01-30", {"adults": 4}, "economy"),
    ("DEN", "EWR", "2027-02-02", {"adults": 4}, "economy"),
    ("JFK", "LHR", "2027-03-10", {"adults": 2, "children": 1, "infants": 1}, "economy"),
    ("SFO", "NRT", "2027-02-14", {"adults": 1}, "business"),
    ("BOS", "MIA", "2027-01-08", {"adults": 2, "children": 2}, "premium_economy"),
]
STAYS = [
    ("DEN", "2027-01-30", "2027-02-02", 2, 2),
    ("LON", "2027-03-10", "2027-03-17", 1, 3),
    ("MIA", "2027-01-08", "2027-01-09", 1, 1),
]


def _text(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _flight_search(origin, destination, day, passengers, cabin):
    args = {
        "segment_id": "seg_1",
        "origin": {"code": origin},
        "destination": {"code": destination},
        "depart_date": day,
        "passengers": passengers,
        "cabin": cabin,
    }
    return FlightQuoteSearch(self_test_deps()).run({"args": args, "now": SELF_TEST_NOW.isoformat()})


def _hotel_search(code, check_in, check_out, rooms, guests):
    args = {
        "stay_id": "st_1",
        "location_code": code,
        "check_in": check_in,
        "check_out": check_out,
        "rooms": rooms,
        "guests_per_room": guests,
    }
    return HotelQuoteSearch(self_test_deps()).run({"args": args, "now": SELF_TEST_NOW.isoformat()})


def _searches():
    for leg in FLIGHTS:
        yield "offers", _flight_search(*leg)["output"]["offers"]
    for stay in STAYS:
        yield "rates", _hotel_search(*stay)["output"]["rates"]


@pytest.mark.parametrize("kind, items", list(_searches()), ids=[f"{k}{i}" for i, (k, _) in enumerate(_searches())])
def test_a_search_read_back_from_its_table_is_the_search_and_far_smaller(kind, items):
    assert len(items) >= 5
    table = items_table(items)
    assert table is not None and not any(isinstance(row, dict) for row in table["rows"]), "every offer is a row"
    stored = json.loads(_text(table))  # as the column keeps it
    assert table_items(stored) == items
    assert [list(i) for i in table_items(stored)] == [list(i) for i in items], "each offer's fields in their order"
    assert len(_text(table)) < len(_text(items)) / 2


def test_flights_keep_each_leg_once_and_the_summary_reads_its_route_from_them():
    items = _flight_search(*FLIGHTS[0])["output"]["offers"]
    table = items_table(items)
    assert table["records"]["legs"] == [
        "flight_number",
        "origin",
        "destination",
        "depart_at",
        "arrive_at",
        "duration_minutes",
    ]
    assert {"summary.flight_numbers", "summary.depart_at", "summary.arrive_at"} <= set(table["derived"])
    assert table["same"]["summary.currency"] == "USD"


def _offers():
    return copy.deepcopy(_flight_search(*FLIGHTS[0])["output"]["offers"])


def test_an_offer_of_another_shape_is_kept_whole_and_the_rest_stay_rows():
    items = _offers()
    items[1]["summary"]["fare_brand"] = "Basic"  # a field the others have not
    del items[2]["baggage"]
    items[3]["legs"].append("a note")  # a list the table cannot keep as records
    table = items_table(items)
    assert table_items(json.loads(_text(table))) == items
    rows = table["rows"]
    assert rows[1] == items[1] and rows[2] == items[2]
    assert not isinstance(rows[0], dict)


def test_values_equal_in_python_but_not_in_json_are_not_merged():
    items = _offers()
    items[0]["summary"]["holdable"] = 1  # True elsewhere: 1 == True
    items[1]["summary"]["seats_remaining"] = 9.0  # 9 elsewhere
    items[2]["summary"]["stops"] = False  # 0 or 1 elsewhere; no longer what its legs say
    items[3]["summary"]["origin"] = "NYC"  # not the first leg's airport: not derived
    table = items_table(items)
    back = table_items(json.loads(_text(table)))
    assert back == items and _text(back) == _text(items)
    assert "summary.origin" not in table["same"] and "summary.origin" not in table.get("derived", [])


def test_too_few_or_odd_items_stay_a_list():
    items = _offers()
    assert items_table(items[:1]) is None
    assert items_table([*items, "not an offer"]) is None
    assert items_table([]) is None
    dotted = copy.deepcopy(items)
    dotted[0]["summary"] = {**dotted[0]["summary"], "a.b": 1}
    assert items_table(dotted) is None  # the first offer's names make the columns


def test_a_field_redaction_masks_by_name_is_never_a_column():
    items = _offers()
    for item in items:
        item["token"] = "abc123def"
    assert items_table(items) is None
    items = _offers()
    items[1]["passport_number"] = "X1234567"
    table = items_table(items)
    assert table["rows"][1] == items[1]
    text = redact_json_text(table)
    assert "X1234567" not in text and "[REDACTED]" in text


def _wrapped(tool, result):
    return {"success": result["success"], "output": {"tool_name": tool, "result": result}, "input": {}}


def test_a_stored_search_result_reads_back_as_returned_and_an_old_one_as_it_is():
    live = _wrapped("flight_quote_search", _flight_search(*FLIGHTS[0]))
    stored = json.loads(_text(stored_result(live)))
    inner = stored["output"]["result"]["output"]
    assert "offers" not in inner and list(inner)[:2] == ["segment_id", "offers_table"]
    back = returned_result(stored)
    assert back["output"]["result"]["output"] == live["output"]["result"]["output"]
    assert list(back["output"]["result"]["output"]) == list(live["output"]["result"]["output"])
    old = {"success": True, "output": {k: v for k, v in live["output"].items()}}  # stored before tables
    assert returned_result(old) is old
    hotels = _wrapped("hotel_quote_search", _hotel_search(*STAYS[0]))
    stored = json.loads(_text(stored_result(hotels)))
    assert "rates_table" in stored["output"]["result"]["output"]
    assert returned_result(stored)["output"]["result"]["output"] == hotels["output"]["result"]["output"]


def test_other_tools_results_are_stored_as_before():
    result = _wrapped("trip_option_ranker", {"success": True, "output": {"offers": [{"a": 1}, {"a": 2}]}})
    assert stored_result(result)["output"]["result"]["output"] == {"offers": [{"a": 1}, {"a": 2}]}


def test_a_table_reads_back_before_it_is_stored_too():
    items = _offers()
    items[2]["extra"] = True
    assert table_items(items_table(items)) == items


def test_the_rankers_bundles_are_stored_as_tables_and_read_back_as_ranked():
    from handlers.testing import Harness

    h = Harness()
    h.say("4 people going from Newark to Denver for 3 nights on January 30")
    bundles = [
        {
            **b,
            "score_breakdown": {"price": 0.5},
            "flights": [{k: v for k, v in f.items() if k != "summary"} for f in b["flights"]],
        }
        for b in h.intent()["working_memory"]["ranked_bundles"]
    ]
    result = _wrapped("trip_option_ranker", {"success": True, "output": {"bundles": bundles, "considered": 90}})
    stored = json.loads(_text(stored_result(result)))
    assert list(stored["output"]["result"]["output"]) == ["bundles_table", "considered"]
    read = returned_result(stored)["output"]["result"]["output"]
    assert read["bundles"] == [
        {**b, "hotels": [{k: v for k, v in x.items() if k != "summary"} for x in b["hotels"]]} for b in bundles
    ]
