"""The approver queue and decision page: scoped, permission-gated, in words, a reason to deny, no token shown."""

import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from tests.factories import passengers_name, sign_in, trip_make
from tests.trips.commerce.helpers import RecordingSupplier, hold_for
from trips.models import ApprovalRequest, AuditEvent, ChatMessage, Hold
from trips.sheets import dates_text, party_text, route_text

QUEUE = reverse("admin:trips_approvalrequest_changelist")


def page_of(approval) -> str:
    return reverse("admin:trips_approvalrequest_change", args=[approval.pk])


def decide(client, approval, decision, reason=""):
    return client.post(page_of(approval), {"decision": decision, "reason": reason})


@pytest.fixture
def globex_request(globex, clock):
    trip = trip_make(organisation=globex, title="Globex secret trip")
    hold_for(trip, now=clock(), suffix="g")
    return ApprovalRequest.objects.get(trip=trip)


def test_the_queue_shows_only_the_approvers_organisation(client, approver, pending_approval, globex_request):
    sign_in(client, approver)
    page = client.get(QUEUE).content.decode()
    assert f'href="{page_of(pending_approval)}"' in page and f'href="{page_of(globex_request)}"' not in page
    assert client.get(page_of(globex_request)).status_code == 302  # not in their queryset: back to the index
    assert decide(client, globex_request, "grant").status_code == 302
    globex_request.refresh_from_db()
    assert globex_request.status == "pending"


def test_the_queue_opens_on_pending_soonest_deadline_first_with_the_triage_columns(
    client, approver, trip, other_trip, clock
):
    from datetime import timedelta

    hold_for(trip, now=clock() + timedelta(hours=5), suffix="late")  # deadline 5 h after the other
    hold_for(other_trip, now=clock(), suffix="soon")
    late, soon = ApprovalRequest.objects.get(trip=trip), ApprovalRequest.objects.get(trip=other_trip)
    denied = trip_make(owner=trip.owner, organisation=trip.organisation, title="Old trip")
    hold_for(denied, now=clock() - timedelta(hours=1), suffix="old")
    ApprovalRequest.objects.filter(trip=denied).update(status="denied")
    sign_in(client, approver)
    page = client.get(QUEUE).content.decode()
    assert page.index(page_of(soon)) < page.index(page_of(late)), "the soonest deadline comes first"
    assert "Old trip" not in page and f'href="{page_of(ApprovalRequest.objects.get(trip=denied))}"' not in page
    for column in ("traveller", "route", "amount", "deadline", "status"):
        assert f"column-{column}" in page
    row = page[page.index(page_of(soon)) :]
    row = row[: row.index("</tr>")]
    # who travels under the traveller, when under where: one line each, in the same cell
    snapshot = soon.snapshot
    party, where, when = party_text(snapshot.get("travelers")), route_text(snapshot), dates_text(snapshot)
    assert f'field-traveller">bob<small class="queue-line">{party}</small>' in row, row
    assert f'field-route">{where}<small class="queue-line">{when}</small>' in row, row
    assert "$1,030.00" in page and "bob" in page and "alice" in page
    assert "Wed Dec 2, 9:00 AM EST" in page  # the traveller's zone, named
    everything = client.get(QUEUE + "?status=all").content.decode()
    assert page_of(ApprovalRequest.objects.get(trip=denied)) in everything


def test_the_queue_says_what_the_policy_check_found_and_filters_by_it(client, approver, trip, other_trip, acme, clock):
    """The approver sees within policy / flagged / over a cap on each row, and can narrow to one of them."""
    from trips.sheets import policy_verdict

    hold_for(trip, now=clock(), suffix="flag")  # within policy, one finding: the hotel is non-refundable
    hold_for(other_trip, now=clock(), suffix="clean")
    flagged, clean = ApprovalRequest.objects.get(trip=trip), ApprovalRequest.objects.get(trip=other_trip)
    clean.snapshot["policy_findings"]["warnings"] = [{"code": "approval_required", "message": "Needs a yes."}]
    clean.save(update_fields=["snapshot"])
    over = trip_make(owner=trip.owner, organisation=acme, title="Big trip")
    hold_for(over, now=clock(), suffix="big", amounts=("2420.00", "610.00"))
    over_cap = ApprovalRequest.objects.get(trip=over)
    acme.policy["budget_per_trip"] = "2000.00"
    acme.save(update_fields=["policy"])

    sign_in(client, approver)
    page = client.get(QUEUE).content.decode()
    assert "column-policy" in page
    verdicts = re.findall(r'data-policy="(\w+)" title="([^"]*)">([^<]+)</span>(?:<small[^>]*>([^<]+)</small>)?', page)
    assert sorted(verdicts) == [
        ("flagged", "The hotel is non-refundable.", "Within policy · 1 risk flag", "nonrefundable"),
        (
            "outside",
            "$1,030.00 over the budget per trip of $2,000.00\nThe hotel is non-refundable.",
            "Over budget · 1 risk flag",
            "over the budget per trip, nonrefundable",
        ),
        ("within", "", "Within policy", ""),
    ], verdicts
    assert "Needs a yes." not in page  # the approver is already being asked: not a flag
    for kind, only in (("outside", over_cap), ("flagged", flagged), ("within", clean)):
        rows = client.get(QUEUE + f"?policy={kind}").content.decode()
        assert [a for a in (over_cap, flagged, clean) if f'href="{page_of(a)}"' in rows] == [only], kind
        assert policy_verdict(only).kind == kind


def test_the_approver_and_support_read_who_travels_by_name(
    client, approver, support, pending_approval, other_trip, clock
):
    """Names as the supplier gets them, read from the trip now (the request's snapshot keeps none)."""
    sign_in(client, approver)
    page = client.get(page_of(pending_approval)).content.decode()  # held before names were asked for
    assert "Nobody named yet (1 to name): nothing can be held until everyone is" in page
    trip = other_trip
    passengers_name(trip)
    hold_for(trip, now=clock(), suffix="named")
    page = client.get(page_of(ApprovalRequest.objects.get(trip=trip))).content.decode()
    assert "Travelling: Ms PatA Doe · lead" in page and "Named as on the document" in page
    sign_in(client, support)
    glance = client.get(reverse("admin:trips_trip_change", args=[trip.pk])).content.decode()
    assert "Ms PatA Doe · lead · Named as on the document" in glance


def test_the_decision_page_reads_the_request_in_words(client, approver, pending_approval):
    sign_in(client, approver)
    page = client.get(page_of(pending_approval)).content.decode()
    assert "alice" in page and "Acme" in page and "Hotel Teatro" in page
    assert "$420.00" in page and "$610.00" in page and "$1,030.00" in page
    assert "Pay by Wed Dec 2, 9:00 AM EST" in page
    assert "The hotel is non-refundable." in page and "nonrefundable" not in page, "findings in words, not codes"
    assert '"hold_id"' not in page and "{" not in page.split('id="content-main"')[1].split("</form>")[0]
    assert "token_hash" not in page and 'name="snapshot"' not in page
    assert ">Grant $1,030.00</button>" in page and ">Deny $1,030.00</button>" in page
    assert "copy" not in page.lower()


def test_the_decision_page_says_when_the_held_prices_stop_being_guaranteed(client, approver, pending_approval):
    """The holds last a day but their prices only 12 hours: "Decide by" alone let an approver take
    the day, and the traveller then met a new price and a new approval."""
    sign_in(client, approver)
    page = client.get(page_of(pending_approval)).content.decode()
    top = page.split('class="module decision-ask"')[1].split("</section>")[0]
    assert "Decide by <strong>Wed Dec 2, 9:00 AM EST</strong>" in top
    assert (
        "Prices are guaranteed only until <strong>Tue Dec 1, 9:00 PM EST</strong>: paid after that, the supplier "
        "may charge more. A total above $1,030.00 needs a new approval."
    ) in top


def test_grant_from_the_page_shows_no_token_and_tells_the_traveller(
    client, approver, pending_approval, django_capture_on_commit_callbacks
):
    sign_in(client, approver)
    with django_capture_on_commit_callbacks(execute=True):
        done = decide(client, pending_approval, "grant", "Budget line 42")
    assert done.status_code == 302 and done["Location"] == page_of(pending_approval)
    pending_approval.refresh_from_db()
    assert pending_approval.status == "granted" and pending_approval.decided_by == approver
    after = client.get(page_of(pending_approval)).content.decode()
    assert "Granted $1,030.00" in after and "tdk_apv_" not in after and "copy" not in after.lower()
    assert "no-store" in client.get(page_of(pending_approval))["Cache-Control"]
    assert AuditEvent.objects.get(type="approval.granted").payload["reason"] == "Budget line 42"
    assert ChatMessage.objects.filter(trip=pending_approval.trip, text__startswith="Approved").exists()


def test_deny_needs_a_reason(client, approver, pending_approval):
    sign_in(client, approver)
    blank = decide(client, pending_approval, "deny", "   ")
    assert blank.status_code == 200 and "Say why" in blank.content.decode()
    pending_approval.refresh_from_db()
    assert pending_approval.status == "pending", "an empty reason changes nothing"
    done = decide(client, pending_approval, "deny", "Use the train")
    assert done.status_code == 302
    pending_approval.refresh_from_db()
    assert (pending_approval.status, pending_approval.reason) == ("denied", "Use the train")
    page = client.get(page_of(pending_approval)).content.decode()
    assert "Use the train" in page and ">Grant" not in page


def test_a_granted_request_can_be_withdrawn_with_a_reason(client, approver, granted):
    approval, _ = granted
    sign_in(client, approver)
    assert ">Withdraw the approval of $1,030.00</button>" in client.get(page_of(approval)).content.decode()
    decide(client, approval, "revoke", "")
    approval.refresh_from_db()
    assert approval.status == "granted"
    decide(client, approval, "revoke", "Trip cancelled")
    approval.refresh_from_db()
    assert approval.status == "revoked"


@pytest.mark.parametrize("later", ["deny", "grant"])
def test_a_second_approver_deciding_on_a_stale_page_changes_nothing(client, approver, acme, pending_approval, later):
    """Ann and Raj both open the pending request; Ann grants first. Raj's page still says Pending:
    his Deny must not turn her grant into a denial, nor his Grant silently replace the token."""
    from django.test import Client

    from tests.factories import user_make
    from trips.models import Membership

    raj = user_make(organisation=acme, role=Membership.Role.APPROVER, username="raj")
    sign_in(client, approver)
    other = Client()
    sign_in(other, raj)
    seen = 'name="seen" value="pending"'
    assert seen in client.get(page_of(pending_approval)).content.decode()
    assert seen in other.get(page_of(pending_approval)).content.decode()
    client.post(page_of(pending_approval), {"decision": "grant", "reason": "", "seen": "pending"})
    pending_approval.refresh_from_db()
    token_hash = pending_approval.token_hash
    events = AuditEvent.objects.count()

    late = other.post(page_of(pending_approval), {"decision": later, "reason": "Too dear", "seen": "pending"})
    assert late.status_code == 200
    page = late.content.decode()
    assert "While this page was open, this request was granted by ann. Nothing was changed" in page
    assert 'name="seen" value="granted"' in page and ">Deny" not in page, "the page now shows what stands"
    pending_approval.refresh_from_db()
    assert (pending_approval.status, pending_approval.decided_by, pending_approval.token_hash) == (
        "granted",
        approver,
        token_hash,
    )
    assert AuditEvent.objects.count() == events


def test_support_staff_can_read_the_queue_but_not_decide(client, support, pending_approval):
    sign_in(client, support)
    assert str(pending_approval.pk) in client.get(QUEUE).content.decode()
    page = client.get(page_of(pending_approval)).content.decode()
    assert "Hotel Teatro" in page and ">Grant" not in page
    assert decide(client, pending_approval, "grant", "sneaky").status_code == 403
    pending_approval.refresh_from_db()
    assert pending_approval.status == "pending"


def test_the_home_page_counts_pending_requests(client, approver, support, pending_approval, globex_request):
    sign_in(client, approver)
    home = client.get(reverse("admin:index")).content.decode()
    assert "TripDesk back office" in home and "Django administration" not in home
    assert "<strong>1</strong> request pending" in home  # Globex's request is not theirs
    decide(client, pending_approval, "deny", "No")
    assert "No requests pending" in client.get(reverse("admin:index")).content.decode()


def test_every_back_office_page_says_what_waits_and_the_badge_can_ask_again(
    client, approver, support, traveller, pending_approval, globex_request, clock
):
    """An approver away from the home page still sees the count; an open page asks for it again."""
    sign_in(client, approver)
    page = client.get(reverse("admin:trips_trip_changelist")).content.decode()
    assert 'id="approvals-waiting"' in page and 'data-count="1"' in page
    assert "approval waiting for your decision" in page and "approvals_waiting.js" in page
    waiting = reverse("admin:trips_approvalrequest_waiting")
    answer = client.get(waiting)
    assert answer.json() == {"count": 1, "url": QUEUE, "can_decide": True}  # Globex's request is not theirs
    assert "no-store" in answer["Cache-Control"]
    hold_for(
        trip_make(owner=pending_approval.trip.owner, organisation=pending_approval.organisation),
        now=clock(),
        suffix="2",
    )
    assert client.get(waiting).json()["count"] == 2  # a new request, without reloading the page
    decide(client, pending_approval, "deny", "No")
    assert client.get(waiting).json()["count"] == 1

    sign_in(client, support)  # support may read the queue, not decide: told it is pending
    assert client.get(waiting).json() == {"count": 1, "url": QUEUE, "can_decide": False}
    assert "approval request pending" in client.get(reverse("admin:trips_trip_changelist")).content.decode()
    sign_in(client, traveller)  # no back office at all
    assert client.get(waiting).status_code == 302


def test_holds_and_bookings_are_read_only(client, support, held_trip):
    sign_in(client, support)
    for name in ("hold", "booking", "approvalrequest"):
        assert client.get(reverse(f"admin:trips_{name}_changelist")).status_code == 200
    hold = Hold.objects.first()
    page = client.get(reverse("admin:trips_hold_change", args=[hold.pk])).content.decode()
    assert hold.hold_id in page and 'name="status"' not in page
    assert client.get(reverse("admin:trips_hold_add")).status_code == 403


def test_cards_show_brand_and_last_digits_never_the_provider_reference(client, support, superuser, card):
    sign_in(client, support)
    assert client.get(reverse("admin:trips_paymentmethod_changelist")).status_code == 403
    sign_in(client, superuser)
    page = client.get(reverse("admin:trips_paymentmethod_change", args=[card.pk])).content.decode()
    assert "4242" in page and card.sandbox_reference not in page


def test_support_releases_a_hold_from_the_admin_with_a_reason(client, support, held_trip, monkeypatch):
    supplier = RecordingSupplier()
    monkeypatch.setattr("trips.admin.commerce.tool_deps", lambda clock: type("Deps", (), {"supplier": supplier}))
    hold = Hold.objects.get(hold_id="hld_f1")
    sign_in(client, support)
    changelist = reverse("admin:trips_hold_changelist")
    ask = client.post(changelist, {"action": "release", ACTION_CHECKBOX_NAME: [hold.pk]})
    assert ask.status_code == 200 and 'name="reason"' in ask.content.decode()
    client.post(changelist, {"action": "release", ACTION_CHECKBOX_NAME: [hold.pk], "apply": "1", "reason": "Dup"})
    hold.refresh_from_db()
    assert hold.status == Hold.Status.RELEASED and supplier.released == ["hld_f1"]
    assert AuditEvent.objects.get(type="hold.released").payload["reason"] == "Dup"


def test_releasing_a_trips_holds_together_tells_the_traveller_once(client, support, held_trip, monkeypatch):
    supplier = RecordingSupplier()
    monkeypatch.setattr("trips.admin.commerce.tool_deps", lambda clock: type("Deps", (), {"supplier": supplier}))
    holds = list(Hold.objects.filter(trip=held_trip))
    assert len(holds) == 2
    sign_in(client, support)
    changelist = reverse("admin:trips_hold_changelist")
    ids = [h.pk for h in holds]
    client.post(changelist, {"action": "release", ACTION_CHECKBOX_NAME: ids, "apply": "1", "reason": "Trip off"})
    assert sorted(supplier.released) == sorted(h.hold_id for h in holds)
    [system] = ChatMessage.objects.filter(trip=held_trip, event__type="HOLDS_CHANGED")
    assert sorted(system.event["data"]["hold_ids"]) == sorted(h.hold_id for h in holds)
