"""A search makes its kept offers straight into its table's columns (``handlers.supplier.columns``):
the same output, to the byte, as keeping each offer one by one and making the table of them; offers
that are not all alike, or cannot be read, are kept one by one, as before."""

import copy
import json

import pytest

from handlers.common.clock import first_night
from handlers.common.shape import in_window, superlative_pick
from handlers.specialists import SELF_TEST_NOW, flight_quote_search, self_test_deps
from handlers.specialists.flight_quote_search import FlightQuoteSearch, _filters, _kept_one_by_one
from handlers.supplier.columns import TableSummaries, offer_columns
from handlers.supplier.summary import cheapest_of_each_fare, compact_offer, summarize_offer
from handlers.supplier.table import items_table, output_items, with_tables, without_tables


@pytest.fixture(autouse=True)
def columns_for_every_size(monkeypatch):
    """Made a column at a time from two offers on (the search does so from ``COLUMNS_FROM``)."""
    monkeypatch.setattr(flight_quote_search, "COLUMNS_FROM", 2)


SEARCHES = [
    ("EWR", "DEN", "2027-01-30", {"adults": 4}, "economy"),
    ("DEN", "EWR", "2027-02-02", {"adults": 2}, "economy"),
    ("JFK", "LHR", "2027-03-10", {"adults": 2, "children": 1, "child_ages": [7], "infants": 1}, "economy"),
    ("SFO", "NRT", "2027-02-14", {"adults": 1}, "business"),
    ("BOS", "MIA", "2027-01-08", {"adults": 2, "children": 2}, "premium_economy"),
    ("LAX", "HNL", "2026-12-18", {"adults": 2, "infants": 1}, "first"),
]
WISHES = [
    {},
    {"max_stops": 0},
    {"avoid_red_eye": True},
    {"airlines_avoid": ["UA", "AA"]},
    {"airlines_required": ["WN", "B6"]},
    {"depart_time_window": {"from": "06:00", "to": "12:00"}},
    {"arrive_time_window": {"from": "12:00", "to": "18:00"}},
    {"depart_pick": "earliest"},
    {"depart_pick": "latest", "max_stops": 1},
    {"max_stops": 0, "airlines_required": ["ZZ"]},  # nothing left
]


def _found(origin, destination, day, passengers, cabin):
    deps = self_test_deps()
    offers = deps.supplier.search_flights(
        origin=origin, destination=destination, depart_date=day, passengers=passengers, cabin=cabin, now=SELF_TEST_NOW
    )
    return json.loads(json.dumps(offers))  # a response's own objects, as decoded


def _search(found, wishes):
    class Supplier:
        def search_flights(self, **kwargs):
            return found

    deps = self_test_deps()
    deps.supplier = Supplier()
    args = {"segment_id": "S1", "origin": "EWR", "destination": "DEN", "depart_date": "2027-01-30"}
    return FlightQuoteSearch(deps).run(
        {"args": {**args, "passengers": {"adults": 1}, **wishes}, "now": SELF_TEST_NOW.isoformat()}
    )


def _one_by_one(found, wishes):
    """The search's output as it was made before: each offer kept on its own."""
    ruled_out = {}
    offers = _kept_one_by_one(cheapest_of_each_fare(found), _filters(wishes), ruled_out)
    which = wishes.get("depart_pick")
    pick = superlative_pick([o["summary"]["depart_at"][11:16] for o in offers], which) if which else None
    if pick:
        window = {"from": pick[0], "to": pick[1]}
        offers = [o for o in offers if in_window(o["summary"]["depart_at"][11:16], window)]
    night = first_night([o["summary"]["arrive_at"] for o in offers])
    return {
        "segment_id": "S1",
        "offers": offers,
        "count": len(offers),
        "found": len(found),
        "ruled_out": ruled_out,
        **({"first_night": night} if night else {}),
    }


def _same(found, wishes):
    made = _search(copy.deepcopy(found), wishes)
    assert made["success"], made
    out = made["output"]
    expected = _one_by_one(copy.deepcopy(found), wishes)
    assert json.dumps(with_tables(out)) == json.dumps(with_tables(expected)), "the same offers, stored the same"
    assert without_tables(out) == expected and list(without_tables(out)) == list(expected)
    return out


@pytest.mark.parametrize("search", SEARCHES, ids=[f"{s[0]}-{s[1]}" for s in SEARCHES])
def test_a_search_made_a_column_at_a_time_is_the_search_made_offer_by_offer(search):
    found = _found(*search)
    assert offer_columns([o for o, _ in cheapest_of_each_fare(found)]) is not None, "these offers are all alike"
    for wishes in WISHES:
        _same(found, wishes)
        for few in (found[:1], found[:2], found[:3], []):
            _same(few, wishes)
    assert "offers_table" in _same(found, {})


def test_the_ranker_reads_the_summaries_a_table_keeps_as_the_offers_carry_them():
    for search in SEARCHES:
        out = _search(_found(*search), {})["output"]
        offers = output_items(out, "offers")
        read = TableSummaries.of(out["offers_table"])
        assert read.ids == [o["offer_id"] for o in offers] and list(read) == [o["summary"] for o in offers]
        for field in offers[0]["summary"]:
            assert read.column(field) == [o["summary"][field] for o in offers], field
        minutes = [tuple(c["minutes"] for c in o["summary"]["connections"]) for o in offers]
        assert read.connection_minutes() == minutes
        picked = read.keep([2, 0])
        assert picked.ids == [offers[2]["offer_id"], offers[0]["offer_id"]]
        assert list(picked) == [offers[2]["summary"], offers[0]["summary"]]
        assert list(read.keep([1])) == [offers[1]["summary"]] and list(read.keep([])) == []
        whole = items_table([*offers[:2], {**offers[2], "note": "odd"}, *offers[3:]])  # a row kept whole
        assert TableSummaries.of(whole) is None  # (read as offers)


def _break(offers, how):
    first, other = offers[0], offers[len(offers) // 2]
    if how == "two slices":
        other["slices"].append(copy.deepcopy(other["slices"][0]))
    elif how == "no conditions":
        del other["conditions"]
    elif how == "a rule left out":
        other["conditions"]["refund_before_departure"] = None
    elif how == "a rule of other fields":
        other["conditions"]["change_before_departure"]["note"] = "by phone"
    elif how == "a passenger of another kind":
        other["passengers"][0]["type"] = "child"
    elif how == "a passenger without a kind":
        del other["passengers"][0]["type"]
    elif how == "fewer passengers":
        other["passengers"].pop()
    elif how == "no bags said":
        del other["passengers"][0]["baggage"]
    elif how == "bags as a number":
        for passenger in other["passengers"]:
            passenger["baggage"] = 2
    elif how == "a flight without its length":
        del other["slices"][0]["segments"][0]["duration_minutes"]
    elif how == "the airline named as a document":
        first["owner"]["name"] = {"en": "Airline"}
    elif how == "a cabin left out":
        del other["cabin"]
    elif how == "no hold policy":
        del other["hold_policy"]
    elif how == "a time that is not one":
        other["slices"][0]["segments"][-1]["arrive_at"] = "soon"
    elif how == "an offer kept already":
        other.pop("slices")
        other["summary"] = summarize_offer(first)


ODD = [
    "two slices",
    "no conditions",
    "a rule left out",
    "a rule of other fields",
    "a passenger of another kind",
    "a passenger without a kind",
    "fewer passengers",
    "no bags said",
    "bags as a number",
    "a flight without its length",
    "the airline named as a document",
    "a cabin left out",
    "no hold policy",
    "a time that is not one",
    "an offer kept already",
]


@pytest.mark.parametrize("wishes", [{}, {"depart_pick": "earliest", "max_stops": 1}], ids=["all", "earliest"])
@pytest.mark.parametrize("how", ODD)
def test_odd_offers_are_kept_or_refused_as_one_by_one(how, wishes):
    found = _found(*SEARCHES[2])
    _break(found, how)
    made = _search(copy.deepcopy(found), wishes)
    try:
        expected = _one_by_one(copy.deepcopy(found), wishes)
    except Exception as exc:  # noqa: BLE001 - the search refuses what the offer by offer path could not read
        assert not made["success"] and type(exc).__name__ in made["output"]["error"]["message"], made["output"]
        return
    assert made["success"] and json.dumps(with_tables(made["output"])) == json.dumps(with_tables(expected))
    assert without_tables(made["output"]) == expected


def test_a_search_of_many_offers_keeps_them_as_its_table_and_of_a_few_as_a_list(monkeypatch):
    monkeypatch.undo()
    found = _found(*SEARCHES[0])
    few = _search(copy.deepcopy(found), {})["output"]
    assert len(found) < flight_quote_search.COLUMNS_FROM and "offers" in few and "offers_table" not in few
    many = [{**o, "offer_id": f"{o['offer_id']}c{i}"} for i in range(4) for o in copy.deepcopy(found)]
    for n, offer in enumerate(many):  # each a flight of its own (the same flights are one fare: kept 5 times)
        offer["slices"][0]["segments"][0]["flight_number"] += f"{n}"
    out = _same(many, {})
    assert len(many) >= flight_quote_search.COLUMNS_FROM and list(out)[:2] == ["segment_id", "offers_table"]


@pytest.mark.parametrize("left_out", ["cabin", "requires_instant_payment", "seats_remaining"])
def test_an_offer_without_a_field_read_with_get_is_still_made_a_column_at_a_time(left_out):
    found = _found(*SEARCHES[2])
    del found[len(found) // 2][left_out]
    columns = offer_columns(found)
    assert columns is not None, "read as get reads it, not refused"
    assert columns.table() == items_table([compact_offer(o) for o in found])
