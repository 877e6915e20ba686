"""Who may open what: every URL the resolver knows and every websocket route, for an anonymous
visitor, the trip's traveller (A), another traveller of the same organisation (B), support and
approver staff of the trip's organisation, support staff of another organisation, and a superuser.

Routes are enumerated, not listed: a new route that no rule below covers fails
``test_every_route_has_a_rule`` until someone says who may open it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Dict, FrozenSet, Optional

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.test import Client

from tests.trips.commerce.helpers import hold_for
from tripdesk.asgi import application
from trips.consumers import CloseCode
from trips.models import ApprovalRequest, AuditEvent, Hold, Membership, PaymentMethod, ToolDefinition, Trip

from .routes import Route, concrete, http_routes, websocket_routes

NOW = datetime(2026, 12, 1, 14, 0, tzinfo=UTC)
ROLES = ("anonymous", "traveller_a", "traveller_b", "support", "approver", "foreign_staff", "superuser")
SEES = frozenset({"traveller_a", "support", "approver", "superuser"})  # may see trip A
BLIND = frozenset({"traveller_b", "foreign_staff"})  # signed in, may not
NOT_STAFF = frozenset({"anonymous", "traveller_a", "traveller_b"})
ANY = frozenset({200, 301, 302, 403, 404, 405})  # anything but a server error


@dataclass(frozen=True)
class Expect:
    """Allowed statuses per role, and where a redirect must lead (a sign-in page)."""

    statuses: Dict[str, FrozenSet[int]]
    redirect_to: Dict[str, str] = field(default_factory=dict)
    hides_trip_a: bool = False  # a list: BLIND roles must not find trip A's rows in it

    @classmethod
    def of(cls, default, *, redirect_to=None, hides_trip_a=False, **per_role) -> Expect:
        statuses = {role: frozenset(per_role.get(role, default)) for role in ROLES}
        return cls(statuses, redirect_to or {}, hides_trip_a)


def _by(roles, value) -> dict:
    return {role: value for role in roles}


SIGN_IN, ADMIN_SIGN_IN = "/signin/", "/admin/login/"
RULES: list[tuple[str, Expect]] = [
    (r"^admin/login/$", Expect.of({200, 302})),
    (r"^admin/logout/$", Expect.of({200, 302, 405})),
    (
        r"^admin/trips/(trip|hold|approvalrequest)/<path:object_id>/change/$",
        Expect.of(
            {200}, **_by(NOT_STAFF, {302}), foreign_staff={302, 403, 404}, redirect_to=_by(NOT_STAFF, ADMIN_SIGN_IN)
        ),
    ),
    (r"^admin/", Expect.of(ANY, **_by(NOT_STAFF, {302}), redirect_to=_by(NOT_STAFF, ADMIN_SIGN_IN))),
    (r"^api/(schema|docs)/$", Expect.of({200})),
    (r"^api/\^trips/.*auto-approve", Expect.of({405}, anonymous={401, 403})),  # POST only
    (r"^api/\^(trips|holds|approvals)/\(\?P<pk>", Expect.of({200}, anonymous={401, 403}, **_by(BLIND, {404}))),
    (r"^api/", Expect.of({200}, anonymous={401, 403}, hides_trip_a=True)),
    (
        r"^trips/<int:trip_id>/$",
        Expect.of({200}, anonymous={302}, **_by(BLIND, {404}), redirect_to={"anonymous": SIGN_IN}),
    ),
    (r"^trips/new/$", Expect.of({405}, anonymous={302}, redirect_to={"anonymous": SIGN_IN})),  # POST only
    (r"^$", Expect.of({200}, anonymous={302}, redirect_to={"anonymous": SIGN_IN}, hides_trip_a=True)),
    (r"^signin/$", Expect.of({302}, anonymous={200})),
    (r"^signout/$", Expect.of({200}, anonymous={302}, redirect_to={"anonymous": SIGN_IN})),
]
WEBSOCKET_RULES: list[tuple[str, Dict[str, Optional[int]]]] = [
    # None: accepted and served (history, then status); a code: accepted, then closed with it.
    (
        r"^ws/trips/<int:trip_id>/$",
        {**_by(SEES, None), "anonymous": CloseCode.NOT_SIGNED_IN, **_by(BLIND, CloseCode.NOT_ALLOWED)},
    ),
]


# The trip actions' format-suffixed routes (``events.json``), once 500s: also checked on their own at the end.
FORMAT_SUFFIXED_ACTIONS = re.compile(r"^api/\^trips/\(\?P<pk>\[\^/\.\]\+\)/(events|messages)\\\.")


def rule_for(route: Route, rules) -> Optional[object]:
    return next((expect for pattern, expect in rules if re.search(pattern, route.template)), None)


def test_every_route_has_a_rule():
    assert [r.template for r in http_routes() if rule_for(r, RULES) is None] == []
    assert [r.template for r in websocket_routes() if rule_for(r, WEBSOCKET_RULES) is None] == []
    assert len(http_routes()) > 50 and websocket_routes(), "the resolver was enumerated"


@pytest.fixture
def people(traveller, other_traveller, support, approver, globex_support, superuser) -> Dict[str, object]:
    return {
        "anonymous": None,
        "traveller_a": traveller,
        "traveller_b": other_traveller,
        "support": support,
        "approver": approver,
        "foreign_staff": globex_support,
        "superuser": superuser,
    }


@pytest.fixture
def ids(trip, traveller) -> Dict[str, str]:
    """Trip A with holds and an approval request, and one row of every model the admin shows."""
    hold_for(trip, now=NOW)
    card = PaymentMethod.objects.create(owner=traveller, brand="visa", last4="4242", sandbox_reference="pm_matrix")
    first = lambda model: str(model.objects.order_by("pk").values_list("pk", flat=True).first() or 0)  # noqa: E731
    return {
        "trip_id": str(trip.pk),
        "pk": str(trip.pk),
        "format": "json",
        "app_label": "trips",
        "url": "no-such-page/",
        "id": str(traveller.pk),
        "content_type_id": str(ContentType.objects.get_for_model(Trip).pk),
        "object_id": str(trip.pk),
        "trip": str(trip.pk),
        "hold": str(Hold.objects.filter(trip=trip).first().pk),
        "approvalrequest": str(ApprovalRequest.objects.get(trip=trip).pk),
        "paymentmethod": str(card.pk),
        "user": str(traveller.pk),
        "group": str(Group.objects.get(name="Support").pk),
        "organisation": str(trip.organisation_id),
        "membership": str(Membership.objects.filter(user=traveller).first().pk),
        "auditevent": first(AuditEvent),
        "tooldefinition": first(ToolDefinition),
        "toolrun": "0",
        "booking": "0",
    }


def route_ids(route: Route, ids: Dict[str, str]) -> Dict[str, str]:
    """Holds and approvals are addressed by their own pk, not the trip's."""
    for prefix, model in (("api/^holds/", "hold"), ("api/^approvals/", "approvalrequest")):
        if route.template.startswith(prefix):
            return {**ids, "pk": ids[model]}
    return ids


def client_for(user) -> Client:
    client = Client(raise_request_exception=False)  # a server error is a finding, reported with the rest
    if user is not None:
        client.force_login(user)
    return client


def shows_trip_a(response, trip_pk: int) -> bool:
    if response.get("Content-Type", "").startswith("application/json"):
        body = response.json()
        rows = body.get("results", body) if isinstance(body, dict) else body
        return isinstance(rows, list) and any(
            isinstance(r, dict) and (r.get("trip") == trip_pk or (r.get("id") == trip_pk and "owner" in r))
            for r in rows
        )
    return f"/trips/{trip_pk}/" in response.content.decode(errors="replace")


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_every_url_answers_each_role_as_the_rules_say(role, people, ids, trip):
    client, wrong = client_for(people[role]), []
    for route in http_routes():
        expect = rule_for(route, RULES)
        path = concrete(route, route_ids(route, ids))
        response = client.get(path)
        if response.status_code not in expect.statuses[role]:
            wrong.append(f"{path}: {response.status_code}, expected {sorted(expect.statuses[role])}")
        elif response.status_code == 302 and role in expect.redirect_to:
            if not response["Location"].startswith(expect.redirect_to[role]):
                wrong.append(f"{path}: redirected to {response['Location']}")
        elif response.status_code == 200 and expect.hides_trip_a and role in BLIND and shows_trip_a(response, trip.pk):
            wrong.append(f"{path}: shows trip A to {role}")
    assert wrong == []


@pytest.mark.django_db
def test_lists_do_show_trip_a_to_those_who_may_see_it(people, ids, trip):
    """The other half of ``hides_trip_a``: the check would pass vacuously if nobody saw trip A."""
    for role in SEES:
        client = client_for(people[role])
        for path in ("/api/trips/", "/api/holds/", "/api/approvals/"):
            assert shows_trip_a(client.get(path), trip.pk), (role, path)
    assert shows_trip_a(client_for(people["traveller_a"]).get("/"), trip.pk)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_only_the_traveller_writes_in_the_trip(role, people, trip):
    response = client_for(people[role]).post(
        f"/api/trips/{trip.pk}/messages/",
        {"text": "I'm going to San Francisco", "client_id": f"m-{role}"},
        content_type="application/json",
    )
    expected = {"traveller_a": {202}, "anonymous": {401, 403}, **_by(BLIND, {404})}.get(role, {403})
    assert response.status_code in expected


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("role", ROLES)
async def test_every_websocket_route_answers_each_role_as_the_rules_say(role, people, trip):
    user = people[role]
    for route in websocket_routes():
        expected = rule_for(route, WEBSOCKET_RULES)[role]
        headers = [(b"origin", b"http://testserver")]
        if user is not None:
            client = await sync_to_async(client_for)(user)
            headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
        path = concrete(route, {"trip_id": str(trip.pk)})
        ws = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await ws.connect(timeout=10)
        assert connected, path
        first = await ws.receive_output(timeout=10)
        await ws.disconnect()
        if expected is None:
            assert first["type"] == "websocket.send", (path, role, first)
        else:
            assert first == {"type": "websocket.close", "code": expected}, (path, role, first)


@pytest.mark.django_db
def test_format_suffixed_trip_actions_do_not_fail(people, ids):
    """``TripViewSet.events``/``.messages`` take the ``format`` the router's suffix routes pass."""
    routes = [r for r in http_routes() if FORMAT_SUFFIXED_ACTIONS.search(r.template)]
    assert len(routes) == 2
    client = client_for(people["traveller_a"])
    assert [client.get(concrete(r, ids)).status_code for r in routes] == [200, 200]


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_only_approvers_grant(role, people, ids):
    """The grant action, applied with a reason, as each role: only the trip's approver (and a
    superuser) gets a token; everyone else leaves the request pending."""
    approval = ApprovalRequest.objects.get(pk=ids["approvalrequest"])
    client_for(people[role]).post(
        "/admin/trips/approvalrequest/",
        {"action": "grant", "_selected_action": [str(approval.pk)], "apply": "1", "reason": "fine"},
    )
    approval.refresh_from_db()
    granted = approval.status != ApprovalRequest.Status.PENDING
    assert granted is (role in {"approver", "superuser"}), approval.status
