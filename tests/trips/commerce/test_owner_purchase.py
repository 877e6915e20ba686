"""Issue 12: after a grant the trip's owner pays from the chat with no token in hand.

The pay button sends the approval it named; the server re-issues a token to the signed-in
owner (revoking every earlier one, storing only its hash) and spends it on that purchase.
"""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tests.trips.commerce.flow import replies_after, to_held
from trips.formats import money_text
from trips.models import ApprovalRequest, AuditEvent, Booking, ChatMessage
from trips.services import tokens
from trips.services.approvals import approval_grant, approval_token_for_owner
from trips.services.purchases import purchase_submit_as_owner


def test_reissuing_to_the_owner_revokes_the_approvers_token(granted, traveller, clock, held_trip):
    approval, approvers_token = granted
    token = approval_token_for_owner(trip=held_trip, user=traveller, approval_id=str(approval.pk), now=clock())
    approval.refresh_from_db()
    assert token != approvers_token
    assert tokens.token_matches(token, approval.token_hash)
    assert not tokens.token_matches(approvers_token, approval.token_hash)
    assert approval.token_hash != token  # only the hash is stored
    event = AuditEvent.objects.get(trip=held_trip, type="approval.token_reissued")
    assert event.actor_user == traveller and token not in str(event.payload)


def test_only_the_owner_and_only_a_usable_grant(
    granted, pending_approval, traveller, other_traveller, approver, other_trip, clock, held_trip
):
    approval, _ = granted
    before = approval.token_hash
    for user in (other_traveller, approver):
        with pytest.raises(PermissionDenied):
            approval_token_for_owner(trip=held_trip, user=user, approval_id=str(approval.pk), now=clock())
    with pytest.raises(ValidationError):  # another trip's approval id is not this trip's
        approval_token_for_owner(trip=other_trip, user=other_trip.owner, approval_id=str(approval.pk), now=clock())
    with pytest.raises(ValidationError, match="no longer valid"):  # past its deadline
        approval_token_for_owner(
            trip=held_trip, user=traveller, approval_id=str(approval.pk), now=approval.expires_at + timedelta(seconds=1)
        )
    with pytest.raises(ValidationError):
        approval_token_for_owner(trip=held_trip, user=traveller, approval_id="B1; drop", now=clock())
    approval.refresh_from_db()
    assert approval.token_hash == before


def test_a_pending_request_cannot_be_paid(pending_approval, traveller, clock, held_trip):
    with pytest.raises(ValidationError, match="no longer valid"):
        approval_token_for_owner(trip=held_trip, user=traveller, approval_id=str(pending_approval.pk), now=clock())
    pending_approval.refresh_from_db()
    assert pending_approval.token_hash == ""


@pytest.mark.django_db(transaction=True)  # the core runs tools in worker threads
def test_the_owner_buys_with_the_grant_alone_once(trip, traveller, approver, card, frozen):
    approval = to_held(trip, traveller)
    approval_grant(approval=approval, approver=approver, reason="ok", now=frozen())
    bought = purchase_submit_as_owner(
        trip=trip, user=traveller, approval_id=str(approval.pk), payment_method_id=str(card.pk), client_id="c1"
    )
    booking = Booking.objects.get(trip=trip)
    assert booking.approval_id == approval.pk
    assert any(m.widget and m.widget.get("type") == "booking" for m in replies_after(bought))
    again = purchase_submit_as_owner(  # the same press delivered twice
        trip=trip, user=traveller, approval_id=str(approval.pk), payment_method_id=str(card.pk), client_id="c1"
    )
    assert again.pk == bought.pk and Booking.objects.count() == 1
    # The chat keeps what the Pay button said (amount and card), not a different "Buy with Sandbox Visa".
    assert bought.text == f"Pay {money_text(approval.amount_ceiling, approval.currency)} with Visa •• 4242"
    with pytest.raises(ValidationError):  # a used approval pays for nothing more
        purchase_submit_as_owner(
            trip=trip, user=traveller, approval_id=str(approval.pk), payment_method_id=str(card.pk)
        )
    stored = str(list(ChatMessage.objects.values_list("text", "widget", "event")))
    stored += str(list(AuditEvent.objects.values_list("payload", flat=True)))
    assert "tdk_apv_" not in stored
    assert ApprovalRequest.objects.get(pk=approval.pk).status == ApprovalRequest.Status.USED
