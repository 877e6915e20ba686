"""Scenarios 6, 13, 14 and 17 through Django and the real core; cancellation, a half-failed purchase, leaks."""

import logging
from datetime import timedelta

import pytest
from django.contrib import admin
from django.test import RequestFactory

from handlers.supplier import SandboxSupplier, SupplierError
from tests.factories import passengers_name
from tests.trips.commerce.flow import press, replies_after, say, to_bundles, to_held, to_selected
from trips.hosting.replay import trip_replay
from trips.models import ApprovalRequest, AuditEvent, Booking, ChatMessage, Hold, SupplierState, ToolRun, Trip
from trips.services.approvals import approval_deny, approval_grant
from trips.services.purchases import purchase_submit
from trips.tasks.deadlines import hold_deadlines_notify

pytestmark = pytest.mark.django_db(transaction=True)  # the core runs tools in worker threads


def charges():
    return [
        row.value
        for row in SupplierState.objects.filter(key__startswith="sandbox:ledger:")
        if row.value.get("kind") == "charge"
    ]


def refusals(trip):
    return list(AuditEvent.objects.filter(trip=trip, type="purchase.refused").values_list("payload", flat=True))


def test_nothing_is_held_or_asked_of_an_approver_until_everyone_is_named(trip, traveller, superuser, frozen):
    """The sandbox books by reference, yet a hold waits for one name per seat, as a real supplier's does."""
    to_bundles(trip, traveller)
    press(trip, traveller, type="select", bundle_id="B1")
    pressed = press(trip, traveller, type="hold")
    assert not Hold.objects.filter(trip=trip).exists()
    assert not ApprovalRequest.objects.filter(trip=trip).exists()
    asked = [m for m in replies_after(pressed) if (m.widget or {}).get("type") == "travellers"]
    assert len(asked) == 1 and "need the name of everyone" in asked[0].text, replies_after(pressed)
    assert asked[0].widget["bundle_id"] == "B1" and asked[0].widget["travelers"]["adults"] == 4
    assert not [m for m in replies_after(pressed) if (m.widget or {}).get("type") == "error"]  # asked, not failed
    request = RequestFactory().get("/admin/trips/trip/")
    request.user = superuser
    assert admin.site._registry[Trip].get_queryset(request).get(pk=trip.pk).failed_tools == 0  # nothing for support

    passengers_name(trip)  # the card saved: the page presses Hold again
    press(trip, traveller, type="hold", bundle_id="B1")
    assert Hold.objects.filter(trip=trip, status="held").count() >= 2
    assert ApprovalRequest.objects.filter(trip=trip, status="pending").count() == 1
    assert trip_replay(trip=trip).matches


def test_scenario_6_approve_and_buy_exactly_once(trip, traveller, approver, card, frozen, caplog):
    caplog.set_level(logging.DEBUG)
    approval = to_held(trip, traveller)
    holds = list(Hold.objects.filter(trip=trip))
    assert len(holds) == 3 and {h.item_type for h in holds} == {"flight", "hotel"}
    token = approval_grant(approval=approval, approver=approver, reason="Budgeted", now=frozen())

    bought = purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    booking = Booking.objects.get(trip=trip)
    assert len(booking.record_locators) == len(holds) == len(booking.orders)
    assert booking.approval_id == approval.pk and booking.total == approval.amount_ceiling
    assert any(m.widget and m.widget.get("type") == "booking" for m in replies_after(bought))
    assert len(charges()) == len(holds)
    trip.refresh_from_db()
    assert trip.phase == "purchased"

    again = purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    assert Booking.objects.count() == 1 and len(charges()) == len(holds), "a replay charges nothing"
    replayed = replies_after(again)[0].text
    assert booking.booking_id not in replayed, "the internal booking id is never shown"
    assert all(locator in replayed for locator in booking.record_locators)
    types = list(AuditEvent.objects.filter(trip=trip).values_list("type", flat=True))
    assert types.count("purchase.succeeded") == 1 and types.count("purchase.replayed") == 1
    assert {"approval.requested", "approval.granted", "approval.used", "hold.created"} <= set(types)

    stored = [
        *ChatMessage.objects.values_list("text", "widget", "event"),
        *AuditEvent.objects.values_list("payload", flat=True),
        *ToolRun.objects.values_list("arguments", "result", "error"),
        *Trip.objects.values_list("intent", flat=True),
        *SupplierState.objects.values_list("key", "value"),
        *ApprovalRequest.objects.values_list("snapshot", "token_hash", "reason"),
    ]
    assert token not in str(stored), "the token is stored nowhere"
    assert token not in caplog.text, "nor logged"
    extract_inputs = ToolRun.objects.filter(tool="trip_requirements_extract").values_list("arguments", flat=True)
    assert token not in str(list(extract_inputs)), "nor sent towards an LLM"
    assert trip_replay(trip=trip).matches, "the purchase turn replays from its recorded (token-free) events"


def test_scenario_6_the_token_cannot_buy_other_holds_later(trip, traveller, approver, card, frozen):
    approval = to_held(trip, traveller)
    token = approval_grant(approval=approval, approver=approver, now=frozen())
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    intent = Trip.objects.get(pk=trip.pk).intent
    intent["working_memory"]["holds"].append(
        {**intent["working_memory"]["holds"][0], "hold_id": "hld_new", "status": "held"}
    )
    Trip.objects.filter(pk=trip.pk).update(intent=intent)
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    assert refusals(trip)[-1]["reason"] == "token_used"
    assert Booking.objects.count() == 1


def test_scenario_13_expired_hold(trip, traveller, approver, card, frozen):
    approval = to_held(trip, traveller)
    token = approval_grant(approval=approval, approver=approver, now=frozen())
    frozen.advance(hours=25)  # past the flights' payment deadline

    message = purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    assert not Booking.objects.exists() and not charges()
    answer = replies_after(message)[-1]
    assert answer.kind == "error" and "Hold again" in answer.text
    assert refusals(trip)[-1]["reason"] == "approval_expired"

    counts = hold_deadlines_notify()
    assert counts["holds_expired"] == 2 and counts["approvals_expired"] == 1
    approval.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.EXPIRED
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    # The flights lapsed and only the hotel is still held, yet the traveller hears the truth: it expired.
    assert refusals(trip)[-1]["reason"] == "approval_expired" and not Booking.objects.exists()


def test_deadline_warning_reaches_traveller_and_staff_once(trip, traveller, frozen):
    to_held(trip, traveller)
    frozen.advance(hours=23, minutes=30)
    assert hold_deadlines_notify()["warned"] == 2
    assert hold_deadlines_notify()["warned"] == 0
    assert AuditEvent.objects.filter(trip=trip, type="hold.deadline_warning").count() == 2
    assert ChatMessage.objects.filter(trip=trip, text__startswith="Heads up").count() == 2


def test_scenario_14_price_moved_above_the_approval(trip, traveller, approver, card, frozen, price_jump):
    approval = to_held(trip, traveller)
    token = approval_grant(approval=approval, approver=approver, now=frozen())
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    assert not Booking.objects.exists() and not charges()
    approval.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.SUPERSEDED
    fresh = ApprovalRequest.objects.get(trip=trip, status=ApprovalRequest.Status.PENDING)
    assert fresh.supersedes_id == approval.pk and fresh.amount_ceiling > approval.amount_ceiling
    assert fresh.hold_ids == approval.hold_ids
    assert refusals(trip)[-1]["code"] == "price_changed"
    assert "new approval" in ChatMessage.objects.filter(trip=trip, kind="error").last().text
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    assert refusals(trip)[-1]["reason"] == "approval_superseded", "the old token is dead"


@pytest.fixture
def globex_trip(globex, frozen):
    from tests.factories import trip_make, user_make

    globex.policy["rules"]["holds_allowed_without_approval"] = False
    globex.save(update_fields=["policy"])
    gina = user_make(organisation=globex, username="gina")
    return trip_make(owner=gina, organisation=globex)


def test_scenario_17_holds_wait_for_an_approvers_yes(globex_trip, globex_approver, frozen):
    gina = globex_trip.owner
    to_selected(globex_trip, gina)
    asked = press(globex_trip, gina, type="hold")
    assert not Hold.objects.exists()
    request = ApprovalRequest.objects.get(trip=globex_trip, kind=ApprovalRequest.Kind.HOLD)
    assert request.status == "pending" and request.snapshot["bundle_id"] == "B1"
    assert "approver" in replies_after(asked)[-1].text

    approval_grant(approval=request, approver=globex_approver, reason="Go ahead", now=frozen())
    assert Hold.objects.filter(trip=globex_trip, status="held").count() >= 2, "the yes placed the holds"
    request.refresh_from_db()
    assert request.status == ApprovalRequest.Status.USED
    assert ApprovalRequest.objects.filter(trip=globex_trip, kind="purchase", status="pending").exists()
    assert any(m.widget and m.widget.get("type") == "holds" for m in ChatMessage.objects.filter(trip=globex_trip))
    types = set(AuditEvent.objects.filter(trip=globex_trip).values_list("type", flat=True))
    assert {"approval.requested", "approval.granted", "approval.used", "hold.created"} <= types
    assert trip_replay(trip=globex_trip).matches, "the approver's decision is a recorded turn"


def test_scenario_17_a_no_is_explained(globex_trip, globex_approver, frozen):
    gina = globex_trip.owner
    to_selected(globex_trip, gina)
    press(globex_trip, gina, type="hold")
    request = ApprovalRequest.objects.get(trip=globex_trip, kind=ApprovalRequest.Kind.HOLD)
    approval_deny(approval=request, approver=globex_approver, reason="Pick a cheaper hotel", now=frozen())
    assert not Hold.objects.exists()
    last = ChatMessage.objects.filter(trip=globex_trip, role="assistant").last()
    assert "Pick a cheaper hotel" in last.text
    assert AuditEvent.objects.filter(trip=globex_trip, type="approval.denied").exists()


def test_cancellation_after_purchase_is_quote_then_confirm(trip, traveller, approver, card, frozen):
    approval = to_held(trip, traveller)
    token = approval_grant(approval=approval, approver=approver, now=frozen())
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    booking = Booking.objects.get()
    quoted = press(trip, traveller, type="cancel_booking", booking_id=booking.booking_id)
    quote = next(m.widget for m in replies_after(quoted) if m.widget and m.widget.get("type") == "cancellation")
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CONFIRMED, "a quote cancels nothing"
    press(trip, traveller, type="cancel_booking", booking_id=booking.booking_id, quote_id=quote["quote_id"])
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CANCELLED
    assert AuditEvent.objects.filter(trip=trip, type="booking.cancelled").exists()
    assert trip_replay(trip=trip).matches
    assert timedelta(0) <= frozen() - booking.created_at


def test_a_purchase_that_fails_half_way_flags_the_trip_for_staff(trip, traveller, approver, card, frozen, monkeypatch):
    approval = to_held(trip, traveller)
    token = approval_grant(approval=approval, approver=approver, now=frozen())
    real_purchase, bought = SandboxSupplier.purchase, []

    def second_item_sells_out(self, **kwargs):
        if bought:
            raise SupplierError("sold_out", "The last rooms were sold before payment.")
        bought.append(kwargs["hold_id"])
        return real_purchase(self, **kwargs)

    def void_fails(self, order_id, now=None):
        raise SupplierError("error", "The supplier could not void the order.")

    monkeypatch.setattr(SandboxSupplier, "purchase", second_item_sells_out)
    monkeypatch.setattr(SandboxSupplier, "order_void", void_fails)
    message = purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))

    trip.refresh_from_db()
    assert trip.flagged and trip.phase == "needs_attention"
    assert not Booking.objects.exists() and len(charges()) == 1
    failed = AuditEvent.objects.get(trip=trip, type="purchase.failed")
    assert failed.payload["code"] == "partial_failure"
    assert "half way" in AuditEvent.objects.get(trip=trip, type="trip.flagged").payload["reason"]
    assert "Support staff" in replies_after(message)[-1].text


@pytest.fixture
def llm(settings):
    """The LLM path switched on, against a fake OpenAI-compatible server that records every request."""
    from handlers.extract import empty_fields
    from tests.fakes.openai_server import FakeOpenAIServer, Reply

    quote = {
        **empty_fields(),
        "origin": {"type": "city", "code": "EWR", "name": "Newark"},
        "destination": {"type": "city", "code": "DEN", "name": "Denver"},
        "depart_date": "2027-01-30",
        "nights": 3,
        "adults": 4,
    }

    def answer(request):
        body = request.json or {}
        if (body.get("text") or {}).get("format"):  # structured extraction
            return Reply.json_output(quote if "Newark" in str(body.get("input"))[-400:] else empty_fields())
        return Reply.ok(text="Noted.")

    with FakeOpenAIServer() as server:
        server.respond_with(answer)
        settings.TRIPDESK = {**settings.TRIPDESK, "LLM": {"OPENAI_BASE_URL": server.base_url, "OPENAI_MODEL": "local"}}
        yield server


def test_the_token_never_reaches_an_llm(trip, traveller, approver, card, frozen, llm):
    approval = to_held(trip, traveller)
    token = approval_grant(approval=approval, approver=approver, now=frozen())
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    say(trip, traveller, f"thanks! for the record my approval token was {token}")
    say(trip, traveller, "what time does the first flight leave?")
    assert Booking.objects.count() == 1
    assert len(llm.sent_bodies) >= 3, "the LLM really was asked"
    assert token not in llm.all_sent_text()
