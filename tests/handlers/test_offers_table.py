"""A search's offers as a tool run stores them (``handlers.supplier.table``): one table, read back
exactly as the search returned them, several times smaller than the offers one by one."""

import copy
import json

import pytest

from handlers.common.redact import redact_json_text
from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.flight_quote_search import FlightQuoteSearch
from handlers.specialists.hotel_quote_search import HotelQuoteSearch
from handlers.supplier.table import items_table, output_items, table_items, without_tables
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
        yield "offers", output_items(_flight_search(*leg)["output"], "offers")
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
    items = output_items(_flight_search(*FLIGHTS[0])["output"], "offers")
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
    return copy.deepcopy(output_items(_flight_search(*FLIGHTS[0])["output"], "offers"))


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
    made = live["output"]["result"]["output"]
    back = returned_result(stored)
    assert back["output"]["result"]["output"] == without_tables(made)
    assert list(back["output"]["result"]["output"]) == list(without_tables(made))
    searched = live["output"]["result"]
    listed = {**live["output"], "result": {**searched, "output": without_tables(searched["output"])}}
    old = {"success": True, "output": listed}  # stored before tables
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


def _plain_values(item, shape, out):
    """An item's leaves one by one, as tables were first made: False if not of ``shape``."""
    keys, subs = shape
    if type(item) is not dict or tuple(item) != keys:
        return False
    for value, sub in zip(item.values(), subs or (None,) * len(keys), strict=True):
        if sub is None:
            out.append(value)
        elif not _plain_values(value, sub, out):
            return False
    return True


def _plain_regular(items, template):
    rows, whole = [], {}
    for n, item in enumerate(items):
        values = []
        if _plain_values(item, template, values):
            rows.append(values)
        else:
            whole[n] = item
    return list(zip(*rows, strict=True)), len(rows), whole


def _misshapen(items, rnd):
    """A fifth of ``items`` changed at any depth: a key added, dropped or moved, or a document
    made a list, a string or empty; the first keeps its shape (it makes the columns)."""
    items = copy.deepcopy(items)
    for item in rnd.sample(items[1:], len(items) // 5):
        parent, key, node = None, None, item
        for _ in range(rnd.randint(0, 3)):  # down to a document at a random depth
            docs = [k for k, v in node.items() if isinstance(v, dict) and v]
            if not docs:
                break
            parent, key = node, rnd.choice(docs)
            node = node[key]
        change = rnd.choice(
            ["add", "drop", "move"] if parent is None else ["add", "drop", "move", "list", "text", "empty"]
        )
        if change == "add":
            node["extra"] = 1
        elif change == "drop":
            node.pop(rnd.choice(list(node)))
        elif change == "move":
            first = next(iter(node))
            node[first] = node.pop(first)
        else:
            parent[key] = {"list": [node], "text": "x", "empty": {}}[change]
    return items


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_a_table_made_a_column_at_a_time_is_the_table_made_an_item_at_a_time(seed, monkeypatch):
    """Over hundreds of offers (rates), some of another shape at any depth: the same table, the
    same offers set apart as whole rows."""
    import random

    from handlers.supplier import table as tables

    rnd = random.Random(seed)
    kind, items = list(_searches())[seed % 8]
    items = [copy.deepcopy(rnd.choice(items)) for _ in range(rnd.randint(200, 600))]
    for n, item in enumerate(items):
        item[next(iter(item))] = f"id{n}"  # distinct ids, as a supplier's
    cases = [items, _misshapen(items, rnd), _misshapen(_misshapen(items, rnd), rnd)]
    for case in cases:
        made = items_table(case)
        monkeypatch.setattr(tables, "_regular", _plain_regular)
        plain = items_table(case)
        monkeypatch.undo()
        assert _text(made) == _text(plain)
        if made is not None:
            assert table_items(json.loads(_text(made))) == case
    assert sum(isinstance(row, dict) for row in items_table(cases[2])["rows"]) > len(items) // 5
