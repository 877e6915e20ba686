"""The sandbox keeps a search, not its offers: any process finds an offer again from the search
it came from, exactly as it was offered, so holds and orders check what the traveller saw."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from handlers.common.clock import FrozenClock
from handlers.common.stores import InMemoryKeyValueStore
from handlers.supplier import SandboxSupplier, SupplierError

NOW = datetime(2026, 12, 1, 21, 30, tzinfo=ZoneInfo("America/New_York"))  # already Dec 2 in UTC
LEG = {"origin": "EWR", "destination": "DEN", "depart_date": "2027-01-30", "passengers": {"adults": 2}}
STAY = {"location_code": "DEN", "check_in": "2027-01-30", "check_out": "2027-02-02", "rooms": 1, "guests_per_room": 2}


def test_another_supplier_on_the_same_store_finds_each_item_as_offered():
    store = InMemoryKeyValueStore()
    searching = SandboxSupplier(store, seed=7, clock=FrozenClock(NOW))
    offers, rates = searching.search_flights(**LEG), searching.search_hotels(**STAY)
    assert offers and rates
    later = SandboxSupplier(store, seed=7, clock=FrozenClock(NOW + timedelta(minutes=5)))
    for offer in offers:
        assert later.get_item("flight", offer["offer_id"]) == offer
    for rate in rates:
        assert later.get_item("hotel", rate["rate_id"]) == rate
    kept = [key for key in store._data if not key.startswith("sandbox:stock:")]
    assert len(kept) == 2 and all(key.startswith("sandbox:search:") for key in kept), kept


def test_an_item_no_search_published_is_unknown():
    store = InMemoryKeyValueStore()
    supplier = SandboxSupplier(store, seed=7, clock=FrozenClock(NOW))
    offer = supplier.search_flights(**LEG)[0]
    other = SandboxSupplier(InMemoryKeyValueStore(), seed=7, clock=FrozenClock(NOW))
    with pytest.raises(SupplierError) as refused:
        other.get_item("flight", offer["offer_id"])
    assert refused.value.code == "not_found"
    forged = offer["offer_id"][:-1] + ("0" if offer["offer_id"][-1] != "0" else "1")
    with pytest.raises(SupplierError):
        supplier.get_item("flight", forged)
    with pytest.raises(SupplierError):  # a flight's search does not answer for a hotel rate
        supplier.get_item("hotel", offer["offer_id"])


def test_a_newer_search_of_the_same_day_answers_with_its_own_expiry():
    store = InMemoryKeyValueStore()
    clock = FrozenClock(NOW.astimezone(UTC))
    supplier = SandboxSupplier(store, seed=7, clock=clock)
    first = supplier.search_flights(**LEG)[0]
    clock.advance(minutes=30)
    again = next(o for o in supplier.search_flights(**LEG) if o["offer_id"] == first["offer_id"])
    assert again["expires_at"] > first["expires_at"]
    assert supplier.get_item("flight", first["offer_id"])["expires_at"] == again["expires_at"]


CARD = {"id": "pm_1", "brand": "visa", "last4": "4242", "status": "active"}


def test_stock_counters_start_with_the_first_hold_and_purchases_still_show_in_later_searches():
    """A search nobody held from keeps no stock counter (publishing 1,000 offers read and created
    1,000); the first hold starts its offer's counter at the stock offered, not at the seats held,
    and marks the search, so later searches show what purchases took."""
    store = InMemoryKeyValueStore()
    supplier = SandboxSupplier(store, seed=7, clock=FrozenClock(NOW))
    offers = supplier.search_flights(**LEG)
    assert not [key for key in store._data if key.startswith(("sandbox:stock:", "sandbox:stocked:"))]
    offer = max(offers, key=lambda o: o["seats_remaining"])
    assert offer["seats_remaining"] > 2, "a party of two leaves seats behind"
    hold = supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="h1")
    assert supplier.refresh_offer("flight", offer["offer_id"])["seats_remaining"] == offer["seats_remaining"]
    supplier.purchase(
        hold_id=hold["hold_id"], amount_due=hold["held_total"]["amount"], payment_method=CARD, idempotency_key="p1"
    )
    again = {o["offer_id"]: o for o in supplier.search_flights(**LEG)}
    assert again[offer["offer_id"]]["seats_remaining"] == offer["seats_remaining"] - 2
    others = [o for o in offers if o["offer_id"] != offer["offer_id"]]
    assert all(again[o["offer_id"]]["seats_remaining"] == o["seats_remaining"] for o in others)
