"""The purchase tool's approval verifier and payment methods (``trips.hosting.approvals``)."""

from datetime import timedelta

import pytest

from tests.trips.commerce.helpers import hold_for
from trips.hosting.approvals import DjangoApprovalVerifier, DjangoPaymentMethods
from trips.models import ApprovalRequest, Booking, Hold
from trips.services.approvals import approval_check, approval_deny, approval_grant
from trips.services.tokens import token_issue

HOLDS = ["hld_f1", "hld_h1"]
BOOKING = {
    "booking_id": "bkg_1",
    "orders": [{"order_id": "ord_1"}, {"order_id": "ord_2"}],
    "record_locators": ["ABC123", "HTL456"],
    "total": "1030.00",
    "currency": "USD",
}


@pytest.fixture
def verifier():
    return DjangoApprovalVerifier()


def verify(verifier, trip, token, clock, holds=HOLDS):
    return verifier.verify(trip_id=str(trip.pk), token=token, hold_ids=list(holds), now=clock())


def test_a_granted_token_passes_with_its_ceiling_and_is_claimed(verifier, granted, held_trip, clock):
    approval, token = granted
    answer = verify(verifier, held_trip, token, clock, holds=reversed(HOLDS))
    assert answer["ok"] and answer["code"] == "ok"
    assert (answer["approval_id"], answer["ceiling"], answer["currency"]) == (str(approval.pk), "1030.00", "USD")
    assert answer["existing_booking"] is None
    second = verify(verifier, held_trip, token, clock)
    assert not second["ok"] and second["code"] == "approval_in_progress", "a claimed approval serves one purchase"


def test_consume_books_once_and_a_replay_returns_that_booking(verifier, granted, held_trip, clock):
    approval, token = granted
    verify(verifier, held_trip, token, clock)
    verifier.consume(approval_id=str(approval.pk), booking=BOOKING, now=clock())
    verifier.consume(approval_id=str(approval.pk), booking={**BOOKING, "booking_id": "bkg_2"}, now=clock())
    booking = Booking.objects.get(trip=held_trip)
    assert booking.booking_id == "bkg_1" and booking.record_locators == ["ABC123", "HTL456"]
    approval.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.USED and approval.used_at == clock()
    assert set(Hold.objects.values_list("status", flat=True)) == {Hold.Status.PURCHASED}
    replay = verify(verifier, held_trip, token, clock)
    assert not replay["ok"] and replay["code"] == "approval_used"
    assert replay["existing_booking"]["booking_id"] == "bkg_1"


def test_a_used_token_cannot_buy_other_holds(verifier, granted, held_trip, clock):
    approval, token = granted
    verify(verifier, held_trip, token, clock)
    verifier.consume(approval_id=str(approval.pk), booking=BOOKING, now=clock())
    answer = verify(verifier, held_trip, token, clock, holds=["hld_f2", "hld_h2"])
    assert not answer["ok"] and answer["code"] == "approval_used" and answer["existing_booking"] is None


def test_another_trips_token_is_refused(verifier, granted, other_trip, clock):
    _, token = granted
    hold_for(other_trip, now=clock(), suffix="9")
    verdict = approval_check(trip_id=other_trip.pk, token=token, hold_ids=["hld_f9", "hld_h9"], now=clock())
    assert (verdict.ok, verdict.code, verdict.reason) == (False, "approval_invalid", "token_other_trip")
    assert not verify(verifier, other_trip, token, clock, holds=["hld_f9", "hld_h9"])["ok"]


@pytest.mark.parametrize("token", ["approval_token=abc", "", "tdk_apv_fake", token_issue()[0]])
def test_invented_tokens_are_refused(verifier, granted, held_trip, clock, token):
    answer = verify(verifier, held_trip, token, clock)
    assert not answer["ok"] and answer["code"] == "approval_invalid" and answer["approval_id"] is None


def test_an_expired_approval_is_refused_even_before_the_beat_task_marks_it(verifier, granted, held_trip, clock):
    _, token = granted
    clock.advance(hours=24)
    answer = verify(verifier, held_trip, token, clock)
    assert not answer["ok"] and answer["code"] == "approval_expired"


def test_a_hold_released_or_past_its_deadline_fails_the_purchase(verifier, granted, held_trip, clock):
    _, token = granted
    Hold.objects.filter(hold_id="hld_h1").update(status=Hold.Status.RELEASED)
    answer = verify(verifier, held_trip, token, clock)
    assert not answer["ok"] and answer["code"] == "hold_expired"


def test_tampered_holds_are_refused(verifier, granted, held_trip, clock):
    _, token = granted
    for holds in (["hld_f1"], ["hld_f1", "hld_h1", "hld_x"], ["hld_f1", "hld_other"]):
        answer = verify(verifier, held_trip, token, clock, holds=holds)
        assert not answer["ok"] and answer["code"] == "approval_invalid"


def test_a_denied_or_pending_approval_cannot_buy(verifier, pending_approval, approver, held_trip, clock):
    token = approval_grant(approval=pending_approval, approver=approver, now=clock())
    approval_deny(approval=pending_approval, approver=approver, reason="Not this quarter", now=clock())
    answer = verify(verifier, held_trip, token, clock)
    assert not answer["ok"] and "Not this quarter" in answer["message"]


def test_payment_methods_are_only_the_trip_owners(held_trip, card, other_card):
    methods = DjangoPaymentMethods()
    assert methods.get(trip_id=str(held_trip.pk), payment_method_id=str(card.pk)) == {
        "id": str(card.pk),
        "brand": "visa",
        "last4": "4242",
    }
    assert methods.get(trip_id=str(held_trip.pk), payment_method_id=str(other_card.pk)) is None
    assert methods.get(trip_id=str(held_trip.pk), payment_method_id="pm_1; DROP TABLE") is None


def test_the_approval_never_outlives_the_earliest_hold(pending_approval, clock):
    earliest = min(
        Hold.objects.filter(hold_id__in=pending_approval.hold_ids).values_list("payment_required_by", flat=True)
    )
    assert pending_approval.expires_at <= earliest
    assert pending_approval.is_usable(clock()) is False  # pending
    assert earliest - clock() == timedelta(hours=24)


def test_a_check_costs_a_handful_of_queries(granted, held_trip, clock, django_assert_max_num_queries):
    _, token = granted
    with django_assert_max_num_queries(3):
        assert approval_check(trip_id=held_trip.pk, token=token, hold_ids=HOLDS, now=clock()).ok
    with django_assert_max_num_queries(3):
        assert not approval_check(trip_id=held_trip.pk, token=token_issue()[0], hold_ids=HOLDS, now=clock()).ok
