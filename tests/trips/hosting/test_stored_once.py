"""What a search turn stores: each offer once (in its search's tool run), the ranker's record by
reference, the supplier its searches; a hold still checks what was offered."""

from collections import Counter
from typing import Any, Iterator

import pytest

from handlers.tools import returned_result
from tests.factories import passengers_name
from trips.models import ChatMessage, Hold, SupplierState, ToolRun, Trip
from trips.services.turns import turn_submit

pytestmark = pytest.mark.django_db(transaction=True)  # tools run in the core's worker threads

SCENARIO_1 = "4 people going from Newark to Denver for 3 nights on January 30"


def full_items(value: Any) -> Iterator[str]:
    """Ids of every offer or rate kept as a search keeps it (with its legs, its cancellation
    timeline) or whole (its slices, its hotel) anywhere in ``value``; a bundle's summary is neither."""
    if isinstance(value, dict):
        if "offer_id" in value and ("legs" in value or "slices" in value):
            yield value["offer_id"]
        if "rate_id" in value and ("cancellation_timeline" in value or isinstance(value.get("hotel"), dict)):
            yield value["rate_id"]
        for v in value.values():
            yield from full_items(v)
    elif isinstance(value, list):
        for v in value:
            yield from full_items(v)


def test_a_search_turn_stores_each_offer_once_and_the_ranker_by_reference(trip, traveller, frozen):
    turn_submit(trip=trip, user=traveller, text=SCENARIO_1)
    runs = list(ToolRun.objects.filter(trip=trip).order_by("pk"))
    # (a search's run keeps its offers as one table: read as the search returned them)
    stored = Counter(i for run in runs for i in full_items([run.arguments, returned_result(run.result)]))
    searched = [run for run in runs if run.tool in ("flight_quote_search", "hotel_quote_search")]
    found = Counter(i for run in searched for i in full_items(returned_result(run.result)))
    assert len(found) >= 20 and stored == found and set(stored.values()) == {1}, "each offer in one run, once"

    ranker = next(run for run in runs if run.tool == "trip_option_ranker")
    assert not list(full_items([ranker.arguments, ranker.result])), "the ranker's record names offers, no copies"
    bundles = returned_result(ranker.result)["output"]["result"]["output"]["bundles"]
    items = [item for bundle in bundles for item in bundle["flights"] + bundle["hotels"]]
    assert items and all("summary" not in item for item in items), "nor their summaries"
    assert all(isinstance(q["offers"], int) for q in ranker.arguments["flight_quotes"])

    # The supplier keeps each search (an offer is found again from it), not its offers.
    assert not SupplierState.objects.filter(key__startswith="sandbox:offer:").exists()
    searches = SupplierState.objects.filter(key__startswith="sandbox:search:")
    assert searches.count() == len(searched) and not list(full_items([row.value for row in searches]))


def test_a_hold_is_placed_at_the_price_that_was_offered(trip, traveller, frozen):
    turn_submit(trip=trip, user=traveller, text=SCENARIO_1)
    turn_submit(trip=trip, user=traveller, action={"type": "select", "bundle_id": "B1"})
    passengers_name(trip)
    turn_submit(trip=trip, user=traveller, action={"type": "hold"})
    wm = Trip.objects.get(pk=trip.pk).intent["working_memory"]
    bundle = next(b for b in wm["ranked_bundles"] if b["bundle_id"] == "B1")
    offered = {f["offer_id"]: f["summary"]["total"] for f in bundle["flights"]}
    offered |= {h["rate_id"]: h["summary"]["total"] for h in bundle["hotels"]}
    holds = list(Hold.objects.filter(trip=trip))
    assert holds, "the selected bundle was held"
    for hold in holds:
        assert f"{hold.amount:.2f}" == offered[hold.offer_id]


def test_the_bundles_card_stores_what_it_shows_and_the_bundles_stay_whole(trip, traveller, frozen):
    turn_submit(trip=trip, user=traveller, text=SCENARIO_1)
    ranked = Trip.objects.get(pk=trip.pk).intent["working_memory"]["ranked_bundles"]
    (card,) = [m.widget for m in ChatMessage.objects.filter(trip=trip) if (m.widget or {}).get("type") == "bundles"]
    assert [b["bundle_id"] for b in card["bundles"]] == [b["bundle_id"] for b in ranked]
    for shown, bundle in zip(card["bundles"], ranked, strict=True):
        # what static/trips/js/widgets.js and conversation.js read, as the bundle has it
        for key in ("rank", "total", "currency", "refundable", "why", "policy"):
            assert shown[key] == bundle[key], key
        for kind, read in (
            ("flights", ("carrier_name", "flight_numbers", "origin", "destination", "depart_at", "arrive_at", "stops")),
            ("hotels", ("hotel_name", "stars", "board_type", "refundable", "nights", "room_charges", "total")),
        ):
            assert len(shown[kind]) == len(bundle[kind])
            for item, whole in zip(shown[kind], bundle[kind], strict=True):
                assert {k: item["summary"][k] for k in read} == {k: whole["summary"][k] for k in read}
                assert {k: v for k, v in item.items() if k != "summary"} == {
                    k: v for k, v in whole.items() if k != "summary"
                }
        for flight in shown["flights"]:
            assert flight["zones"] and not {"expires_at", "total", "max_hold_minutes"} & set(flight["summary"])
        for hotel in shown["hotels"]:
            assert not {"expires_at", "hotel_id", "max_hold_minutes"} & set(hotel["summary"])
        assert "score_breakdown" not in shown and "score_breakdown" not in bundle, "the ranker's run keeps it"
        assert bundle["flights"][0]["summary"]["expires_at"], "the bundle stays whole"
