"""The processes of the purchase kill test (``test_purchase_kill.py``), one phase per run.

``python -m tests.reliability.purchase_kill_driver <phase>`` on the database ``DATABASE_URL`` names:

- ``setup``: a traveller, an approver, a card and a trip driven through the real core to two or
  more live holds, granted; prints ``{"trip": id, "token": …, "card": id, "approval": id}``.
- ``buy <json>``: the traveller's purchase through the one door (``traveller_act``), as the
  embedded server runs it (eager Celery: the queued turn runs in this process). The test sets
  ``TRIPDESK_CRASH_AT`` so this process is SIGKILLed at one named step.
- ``revoke <json>``: the approver withdraws the approval (while the server is down).
- ``restart``: what the restarted embedded server does first (``embedded.startup_round``:
  reclaim dead leases, run the queued turns, reconcile interrupted purchases); prints the counts.
"""

from __future__ import annotations

import json
import os
import sys


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripdesk.settings")
    import django

    django.setup()
    phase = argv[0]
    if phase == "setup":
        print(json.dumps(_setup()))
    elif phase == "buy":
        _buy(json.loads(argv[1]))
    elif phase == "revoke":
        _revoke(json.loads(argv[1]))
    elif phase == "restart":
        from trips.hosting.embedded import startup_round

        print(json.dumps(startup_round()))
    else:
        raise SystemExit(f"unknown phase {phase}")


def _setup() -> dict:
    from django.utils import timezone

    from tests.factories import organisation_make, passengers_name, trip_make, user_make
    from trips.models import ApprovalRequest, Hold, Membership, PaymentMethod
    from trips.services.approvals import approval_grant
    from trips.services.turns import turn_submit

    org = organisation_make(name="Acme")
    traveller = user_make(organisation=org, username="alice")
    traveller.email = "alice@example.test"
    traveller.save(update_fields=["email"])
    approver = user_make(organisation=org, role=Membership.Role.APPROVER, username="ann")
    trip = trip_make(owner=traveller, organisation=org, title="Kill test")
    card = PaymentMethod.objects.create(owner=traveller, brand="visa", last4="4242", sandbox_reference="pm_kill")
    turn_submit(trip=trip, user=traveller, text="2 people going from Newark to Denver for 3 nights on January 30")
    turn_submit(trip=trip, user=traveller, action={"type": "select", "bundle_id": "B1"})
    passengers_name(trip)  # a hold waits for everyone's name
    turn_submit(trip=trip, user=traveller, action={"type": "hold"})
    assert Hold.objects.filter(trip=trip, status=Hold.Status.HELD).count() >= 2, "a multi-item purchase"
    approval = ApprovalRequest.objects.get(trip=trip, kind="purchase", status="pending")
    token = approval_grant(approval=approval, approver=approver, reason="ok", now=timezone.now())
    return {"trip": trip.pk, "token": token, "card": card.pk, "approval": approval.pk}


def _buy(ids: dict) -> None:
    from trips.models import Trip
    from trips.services.actions import traveller_act
    from trips.web.protocol import traveller_action_parse

    trip = Trip.objects.select_related("owner").get(pk=ids["trip"])
    action = {"type": "purchase", "approval_token": ids["token"], "payment_method_id": str(ids["card"])}
    act = traveller_action_parse({"client_id": "buy-1", "action": action}, client_id_required=True)
    traveller_act(trip=trip, user=trip.owner, act=act)


def _revoke(ids: dict) -> None:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from tests.factories import second_factor_give
    from trips.models import ApprovalRequest
    from trips.services.approvals import approval_revoke

    approver = get_user_model().objects.get(username="ann")
    second_factor_give(approver)  # signed in with her second factor, as in the admin that revokes
    approval = ApprovalRequest.objects.get(pk=ids["approval"])
    approval_revoke(approval=approval, actor=approver, reason="Changed my mind", now=timezone.now())


if __name__ == "__main__":
    main(sys.argv[1:])
