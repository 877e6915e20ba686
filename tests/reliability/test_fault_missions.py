"""Forty booking missions under 10–50 % supplier faults: nothing crashes, every failure is told to
the traveller in words, no hold is orphaned, nobody is charged twice or for nothing.

The same missions, 200 of them with printed figures: ``scripts/reliability/fault_missions.py``.
The first tests prove the audit itself sees each kind of breakage, so a clean run means something.
"""

from __future__ import annotations

import pytest

from .conftest import FIGURES
from .missions import SCENARIOS, Mission, run_missions

ROUND_TRIP = SCENARIOS[1]


@pytest.fixture(scope="module")
def figures():
    fig = run_missions(40, seed=11)
    FIGURES.update(
        {
            "missions run": fig.missions,
            "faults injected": sum(fig.faults_injected.values()),
            "tool failures seen": sum(fig.failures.values()),
            "orphan holds": len(fig.orphan_holds),
            "double charges": len(fig.double_charges),
        }
    )
    return fig


def booked_mission() -> Mission:
    mission = Mission(0, faults={}, text=ROUND_TRIP)
    mission.run()
    assert mission.wm()["bookings"], "without faults the mission books"
    return mission


# -- the audit sees what it claims to see ---------------------------------------------------------
def test_audit_finds_an_orphan_hold_a_double_charge_and_money_for_nothing():
    mission = booked_mission()
    assert mission.audit().orphan_holds == [] and mission.audit().double_charges == []
    supplier = mission.h.deps.supplier
    offer = next(
        o
        for o in supplier.search_flights(
            origin="BOS", destination="MIA", depart_date="2027-03-11", passengers={"adults": 1}
        )
        if o["hold_policy"]["holdable"]
    )
    supplier.hold_create(item_type="flight", item_id=offer["offer_id"], idempotency_key="behind-the-trip")
    [charge] = supplier.charges()[:1]
    supplier.state.record_money(charge)  # the same order charged a second time
    fig = mission.audit()
    assert len(fig.orphan_holds) == 1 and "unknown to the trip" in fig.orphan_holds[0]
    assert fig.double_charges == [f"trip-0: order {charge['order_id']} charged 2×"]
    assert fig.money_mismatches


def test_audit_flags_a_failure_nobody_explained():
    mission = Mission(0, faults={"flight_quote_search": {"timeout": 1.0}}, text=ROUND_TRIP)
    mission.run()
    assert mission.audit().unexplained == []
    mission.h.agu.messages[:] = [m for m in mission.h.chat if m["kind"] != "error"]
    assert mission.audit().unexplained, "with the error messages gone, the failures are unexplained"


# -- the missions ---------------------------------------------------------------------------------
def test_missions_ran_under_every_kind_of_fault(figures):
    assert figures.missions == 40 and figures.crashes == []
    assert set(figures.faults_injected) == {"timeout", "error", "empty", "price_jump", "sold_out"}
    assert sum(figures.failures.values()) >= sum(figures.faults_injected.values()) - figures.faults_injected["empty"]
    assert 0 < figures.booked < figures.missions, "some missions book despite faults, some are stopped by them"


def test_every_failure_is_explained_in_plain_words(figures):
    assert figures.unexplained == []


def test_no_orphan_hold_and_every_hold_ends(figures):
    assert figures.orphan_holds == []
    assert set(figures.holds) <= {"purchased", "released", "expired", "failed"} and figures.holds["purchased"]


def test_nobody_is_charged_twice_or_for_nothing(figures):
    assert figures.double_charges == [] and figures.double_bookings == [] and figures.money_mismatches == []
    assert figures.charges >= figures.holds["purchased"]


def test_a_retryable_purchase_failure_can_be_retried(figures):
    assert figures.holds_lost_on_retry == []


def test_after_a_failed_purchase_the_trip_shows_the_holds_the_supplier_has(figures):
    assert figures.stale_holds == []


def test_a_turn_with_a_failed_search_does_not_leave_the_trip_running(figures):
    assert figures.left_running == []
