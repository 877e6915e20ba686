"""reservation_hold_create (all or nothing, idempotent) and reservation_hold_release."""

from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.reservation_hold_create import ReservationHoldCreate
from handlers.specialists.reservation_hold_release import ReservationHoldRelease

NOW = SELF_TEST_NOW.isoformat()


def bundle_items(deps, *, instant_flight=False):
    offers = deps.supplier.search_flights(
        origin="EWR", destination="DEN", depart_date="2027-01-30", passengers={"adults": 2}, now=SELF_TEST_NOW
    )
    back = deps.supplier.search_flights(
        origin="DEN", destination="EWR", depart_date="2027-02-02", passengers={"adults": 2}, now=SELF_TEST_NOW
    )
    rates = deps.supplier.search_hotels(
        location_code="DEN",
        check_in="2027-01-30",
        check_out="2027-02-02",
        rooms=1,
        guests_per_room=2,
        now=SELF_TEST_NOW,
    )
    out = next(o for o in offers if o["hold_policy"]["holdable"])
    ret = next(o for o in back if o["hold_policy"]["holdable"] != instant_flight)
    rate = next(r for r in rates if r["hold_policy"]["holdable"])
    return [
        {"item_type": "flight", "offer_id": out["offer_id"], "segment_id": "S1"},
        {"item_type": "hotel", "rate_id": rate["rate_id"], "stay_id": "H1"},
        {"item_type": "flight", "offer_id": ret["offer_id"], "segment_id": "S2"},
    ]


def hold(deps, items, key="hold_abc"):
    return ReservationHoldCreate(deps).run(
        {
            "args": {"trip_id": "t1", "bundle_id": "B1", "items": items, "idempotency_key": key},
            "now": NOW,
            "trip_id": "t1",
        }
    )


def test_every_item_is_held_with_its_segment_or_stay():
    deps = self_test_deps()
    out = hold(deps, bundle_items(deps))["output"]
    assert [h["item_type"] for h in out["holds"]] == ["flight", "hotel", "flight"]
    assert [h.get("segment_id") or h.get("stay_id") for h in out["holds"]] == ["S1", "H1", "S2"]
    assert all(h["status"] == "held" and h["idempotency_key"].startswith("hold_abc:") for h in out["holds"])
    assert out["earliest_deadline"] == min(h["payment_required_by"] for h in out["holds"])
    assert out["bundle_id"] == "B1"


def test_repeating_the_call_returns_the_same_holds():
    deps = self_test_deps()
    items = bundle_items(deps)
    first, again = hold(deps, items)["output"], hold(deps, items)["output"]
    assert [h["hold_id"] for h in first["holds"]] == [h["hold_id"] for h in again["holds"]]


def test_an_item_that_must_be_paid_at_once_is_reserved_beside_the_holds():
    deps = self_test_deps()
    out = hold(deps, bundle_items(deps, instant_flight=True))["output"]
    assert [bool(h.get("instant")) for h in out["holds"]] == [False, False, True]
    assert all(h["status"] == "held" for h in out["holds"]) and out["holds"][2]["segment_id"] == "S2"
    assert out["earliest_deadline"] == min(h["payment_required_by"] for h in out["holds"])


def test_one_item_that_cannot_be_held_releases_the_others():
    deps = self_test_deps()
    items = bundle_items(deps)
    items[2] = {**items[2], "offer_id": "off_unknown"}
    out = hold(deps, items)
    assert out["success"] is False and out["output"]["error"]["code"] == "not_found"
    released = out["output"]["released_hold_ids"]
    assert len(released) == 2
    assert {deps.supplier.get_hold(h, now=SELF_TEST_NOW)["status"] for h in released} == {"released"}


def test_after_a_release_the_same_call_holds_again():
    deps = self_test_deps()
    items = bundle_items(deps)
    first = hold(deps, items)["output"]["holds"]
    ReservationHoldRelease(deps).run({"args": {"hold_ids": [h["hold_id"] for h in first]}, "now": NOW})
    again = hold(deps, items)["output"]["holds"]
    assert all(h["status"] == "held" for h in again)
    assert {h["hold_id"] for h in again}.isdisjoint(h["hold_id"] for h in first)


def test_items_without_ids_are_refused():
    out = hold(self_test_deps(), [{"item_type": "flight", "segment_id": "S1"}])
    assert out["output"]["error"]["code"] == "invalid_arguments"


def test_release_reports_each_hold():
    deps = self_test_deps()
    holds = hold(deps, bundle_items(deps))["output"]["holds"]
    out = ReservationHoldRelease(deps).run(
        {"args": {"hold_ids": [holds[0]["hold_id"], "hld_unknown"], "reason": "party_changed"}, "now": NOW}
    )["output"]
    assert [h["status"] for h in out["released"]] == ["released"]
    assert out["unknown_hold_ids"] == ["hld_unknown"] and out["reason"] == "party_changed"
    assert deps.supplier.get_hold(holds[1]["hold_id"], now=SELF_TEST_NOW)["status"] == "held"


def test_where_the_host_keeps_passengers_nothing_is_held_until_one_is_named_per_seat():
    """Whatever the supplier (the sandbox books by reference), a hold waits for everyone's name."""
    import dataclasses

    from handlers.testing import InMemoryPassengers

    directory = InMemoryPassengers()
    deps = dataclasses.replace(self_test_deps(), passengers=directory)
    items = bundle_items(deps)
    party = {"adults": 2, "children": 0, "infants": 0, "child_ages": []}
    args = {"trip_id": "t1", "bundle_id": "B1", "items": items, "idempotency_key": "hold_names", "travelers": party}

    asked = []
    supplier_hold = deps.supplier.hold_create
    deps.supplier.hold_create = lambda **kw: asked.append(kw["item_id"]) or supplier_hold(**kw)

    def run():
        return ReservationHoldCreate(deps).run({"args": args, "now": NOW, "trip_id": "t1"})

    nobody = run()
    assert nobody["success"] is False and nobody["output"]["error"]["code"] == "passengers_missing", nobody
    assert "2 adults, but 0 are named" in nobody["output"]["error"]["message"]
    assert asked == []  # the supplier was never asked
    directory.by_trip["t1"] = [{"passenger_id": "pax_1", "type": "adult"}]
    assert run()["output"]["error"]["code"] == "passengers_missing"  # one of two is not enough
    directory.by_trip["t1"].append({"passenger_id": "pax_2", "type": "adult"})
    held = run()
    assert held["success"] is True and [h["status"] for h in held["output"]["holds"]] == ["held"] * 3
    assert held["output"]["holds"][0]["passengers"] == [
        {"passenger_id": "pax_1", "type": "adult"},
        {"passenger_id": "pax_2", "type": "adult"},
    ]
