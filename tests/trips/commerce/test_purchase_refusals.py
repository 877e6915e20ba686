"""Every way a purchase is refused: a clear answer in the chat, a ``purchase.refused`` event, no money.

These refusals happen before any turn runs, so the core never sees a bad token.
"""

import pytest
from django.core.exceptions import PermissionDenied

from tests.trips.commerce.helpers import hold_for
from trips.models import ApprovalRequest, AuditEvent, Booking, ChatMessage, ToolRun
from trips.services.approvals import approval_deny, approval_grant
from trips.services.purchases import purchase_submit
from trips.services.tokens import token_issue


def buy(trip, user, token, card, clock, **kwargs):
    return purchase_submit(
        trip=trip, user=user, approval_token=token, payment_method_id=str(card.pk), clock=clock, **kwargs
    )


def assert_refused(trip, message, *, code, reason, says):
    """Nothing bought, the traveller told why, the refusal audited with its reason."""
    answer = ChatMessage.objects.filter(trip=trip, seq__gt=message.seq).get()
    assert answer.kind == ChatMessage.Kind.ERROR and answer.widget["code"] == code
    assert says in answer.text
    event = AuditEvent.objects.filter(trip=trip, type="purchase.refused").last()
    assert (event.payload["code"], event.payload["reason"]) == (code, reason)
    assert event.causation_id == f"message:{message.pk}"
    assert not Booking.objects.exists()
    assert not ToolRun.objects.filter(tool="booking_confirm_and_purchase").exists(), "no turn ran"


def test_an_invented_token_is_refused(held_trip, traveller, card, clock, granted):
    for invented in ("abc", "approval_token=abc", token_issue()[0]):
        message = buy(held_trip, traveller, invented, card, clock)
        assert_refused(held_trip, message, code="approval_invalid", reason=_reason(invented), says="not valid")
    assert invented not in str(list(ChatMessage.objects.values_list("text", "widget", "event")))


def _reason(token: str) -> str:
    return "token_unknown" if token.startswith("tdk_apv_") else "token_malformed"


def test_another_trips_token_is_refused(held_trip, other_trip, other_traveller, other_card, approver, clock, granted):
    _, token = granted
    hold_for(other_trip, now=clock(), suffix="2")
    message = buy(other_trip, other_traveller, token, other_card, clock)
    assert_refused(other_trip, message, code="approval_invalid", reason="token_other_trip", says="not valid")


def test_only_the_trips_owner_may_buy(held_trip, other_traveller, support, approver, card, clock, granted):
    _, token = granted
    for user in (other_traveller, support, approver):
        with pytest.raises(PermissionDenied):
            buy(held_trip, user, token, card, clock)
    assert not ChatMessage.objects.filter(trip=held_trip, kind="action").exists()


def test_a_denied_approval_is_refused_with_the_approvers_reason(
    held_trip, traveller, approver, card, clock, pending_approval
):
    token = approval_grant(approval=pending_approval, approver=approver, now=clock())
    approval_deny(approval=pending_approval, approver=approver, reason="Travel freeze", now=clock())
    message = buy(held_trip, traveller, token, card, clock)
    assert_refused(held_trip, message, code="approval_invalid", reason="approval_denied", says="Travel freeze")


def test_an_expired_approval_is_refused(held_trip, traveller, card, clock, granted):
    _, token = granted
    clock.advance(hours=24, seconds=1)
    message = buy(held_trip, traveller, token, card, clock)
    assert_refused(held_trip, message, code="approval_expired", reason="approval_expired", says="Hold again")


def test_a_pending_request_has_no_token_to_use(held_trip, traveller, card, clock, pending_approval):
    message = buy(held_trip, traveller, "", card, clock)
    assert_refused(held_trip, message, code="approval_invalid", reason="token_malformed", says="not valid")


def test_tampered_holds_are_refused(held_trip, traveller, card, clock, granted):
    _, token = granted
    hold_for(held_trip, now=clock(), suffix="7", amounts=("999.00", "999.00"))  # the holds changed after approval
    message = buy(held_trip, traveller, token, card, clock)
    assert_refused(held_trip, message, code="approval_invalid", reason="holds_mismatch", says="other holds")
    fresh = ApprovalRequest.objects.get(trip=held_trip, status="pending")
    assert fresh.amount_ceiling == 1998 and fresh.hold_ids == ["hld_f7", "hld_h7"]


def test_someone_elses_payment_method_is_refused(held_trip, traveller, other_card, clock, granted):
    _, token = granted
    message = buy(held_trip, traveller, token, other_card, clock)
    assert_refused(held_trip, message, code="payment_invalid", reason="payment_invalid", says="your own payment")
    approval, _ = granted
    approval.refresh_from_db()
    assert approval.status == "granted" and approval.failed_attempts == 1, "a wrong card does not burn the approval"


def test_wrong_tokens_are_rate_limited_per_trip(held_trip, traveller, card, clock, granted):
    _, token = granted
    for _ in range(5):
        buy(held_trip, traveller, token_issue()[0], card, clock)
    message = buy(held_trip, traveller, token, card, clock)
    assert_refused(held_trip, message, code="rate_limited", reason="rate_limited", says="Too many")


def test_a_repeated_client_id_is_answered_once(held_trip, traveller, card, clock, granted):
    first = buy(held_trip, traveller, "abc", card, clock, client_id="c-9")
    again = buy(held_trip, traveller, "abc", card, clock, client_id="c-9")
    assert first.pk == again.pk
    assert AuditEvent.objects.filter(trip=held_trip, type="purchase.refused").count() == 1


def test_a_half_finished_purchase_can_be_submitted_again_with_the_same_token(granted, clock):
    """After a retryable failure half way, one hold is already paid for: the pre-check must still see
    the approval's whole hold set (the core replays the paid item and buys the rest)."""
    from trips.models import Trip
    from trips.services.approvals import approval_check
    from trips.services.purchases.answers import held_ids as _held_ids

    approval, token = granted
    trip = Trip.objects.get(pk=approval.trip_id)
    intent = trip.intent
    first = intent["working_memory"]["holds"][0]
    first["status"] = "purchased"  # paid for, in no booking yet
    Trip.objects.filter(pk=trip.pk).update(intent=intent)

    assert _held_ids(trip) == sorted(approval.hold_ids)
    assert approval_check(trip_id=trip.pk, token=token, hold_ids=_held_ids(trip), now=clock()).ok
