"""Fixtures for holds, approvals and purchases at the service level.

``held_trip`` is a trip whose TripIntent carries a selected bundle, a clean risk report and
two live holds, synced into Hold rows with their pending purchase approval, as the runner
leaves it after "hold". The end-to-end tests drive the real core instead.
"""

import pytest

from handlers.common.clock import FrozenClock
from handlers.supplier import SandboxSupplier
from tests.factories import trip_make, user_make
from tests.trips.commerce.helpers import NOW, hold_for
from trips.hosting import turns
from trips.models import ApprovalRequest, Membership, PaymentMethod
from trips.services.approvals import approval_grant


@pytest.fixture
def clock():
    """The services' ``now``, passed explicitly (2026-12-01 14:00 UTC)."""
    return FrozenClock(NOW)


@pytest.fixture
def frozen(monkeypatch):
    """Every clock in the process reads 2026-12-01 14:00 UTC until the test moves it (for full turns)."""
    clock = FrozenClock(NOW)
    monkeypatch.setattr("django.utils.timezone.now", clock)
    return clock


@pytest.fixture
def held_trip(trip, clock):
    hold_for(trip, now=clock())
    return trip


@pytest.fixture
def pending_approval(held_trip):
    return ApprovalRequest.objects.get(trip=held_trip, status=ApprovalRequest.Status.PENDING)


@pytest.fixture
def granted(pending_approval, approver, clock):
    """``(approval, token)`` after the approver's yes."""
    token = approval_grant(approval=pending_approval, approver=approver, reason="Within budget", now=clock())
    pending_approval.refresh_from_db()
    return pending_approval, token


@pytest.fixture
def card(traveller):
    return PaymentMethod.objects.create(owner=traveller, brand="visa", last4="4242", sandbox_reference="pm_alice_1")


@pytest.fixture
def other_card(other_traveller):
    return PaymentMethod.objects.create(
        owner=other_traveller, brand="mastercard", last4="4444", sandbox_reference="pm_bob"
    )


@pytest.fixture
def globex_approver(globex):
    return user_make(organisation=globex, role=Membership.Role.APPROVER, username="greg")


@pytest.fixture
def other_trip(other_traveller, acme):
    return trip_make(owner=other_traveller, organisation=acme, title="Bob's trip")


@pytest.fixture
def price_jump(monkeypatch):
    """The sandbox's own fault injection: every purchase re-prices 15–25 % higher."""
    build = turns.tool_deps

    def with_fault(*, clock, writes=None):
        deps = build(clock=clock, writes=writes)
        deps.supplier = SandboxSupplier(
            store=deps.supplier.state.store,
            seed=deps.supplier.seed,
            clock=clock,
            faults={"booking_confirm_and_purchase": {"price_jump": 1.0}},
        )
        return deps

    monkeypatch.setattr(turns, "tool_deps", with_fault)
