"""Who may open what: every URL the resolver knows and every websocket route, for an anonymous
visitor, the trip's traveller (A), another traveller of the same organisation (B), support and
approver staff of the trip's organisation, support staff of another organisation, a superuser,
and two people with roles in two organisations: an approver of Globex who travels for Acme
(``approver_elsewhere``) and a support agent of Globex who travels for Acme (``support_elsewhere``).
Trip A is Acme's: the multi-organisation people must get no more from it than traveller B does —
no staff power crosses from one organisation to another.

Staff sign in with a second factor (``trips.twofactor``); every staff role above has proved one.
Three more people show what happens without it: Acme's own approver and support agent who have
not set one up (``approver_no_2fa``, ``support_no_2fa``: sent to set it up from the admin, and no
more than traveller B elsewhere) and an Acme approver who gave the password but not yet the code
(``approver_half_signed_in``: only the second step and sign-out open).

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

from tests.factories import sign_in, trip_make, user_make
from tests.trips.commerce.helpers import hold_for
from tripdesk.asgi import application
from trips.consumers import CloseCode
from trips.models import ApprovalRequest, AuditEvent, Hold, Membership, PaymentMethod, ToolDefinition, Trip

from .routes import Route, concrete, http_routes, websocket_routes

NOW = datetime(2026, 12, 1, 14, 0, tzinfo=UTC)
ROLES = (
    "anonymous",
    "traveller_a",
    "traveller_b",
    "support",
    "approver",
    "foreign_staff",
    "approver_elsewhere",
    "support_elsewhere",
    "superuser",
    "approver_no_2fa",
    "support_no_2fa",
    "approver_half_signed_in",
)
SEES = frozenset({"traveller_a", "support", "approver", "superuser"})  # may see trip A
MULTI_ORG = frozenset({"approver_elsewhere", "support_elsewhere"})  # staff in Globex, travellers in Acme
NO_2FA = frozenset({"approver_no_2fa", "support_no_2fa"})  # trip A's staff, no second factor set up
HALF = frozenset({"approver_half_signed_in"})  # enrolled, signed in with the password only
BLIND = frozenset({"traveller_b", "foreign_staff"}) | MULTI_ORG | NO_2FA  # signed in, may not
STAFF_ELSEWHERE = frozenset({"foreign_staff"}) | MULTI_ORG  # admin staff, but not of trip A's organisation
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
TWO_FACTOR, VERIFY = "/account/two-factor/", "/account/two-factor/verify/"
# Pages: anonymous visitors to the sign-in page, a half signed-in approver to the second step.
SIGNED_IN_PAGE = {"anonymous": SIGN_IN, **_by(HALF, VERIFY)}
RULES: list[tuple[str, Expect]] = [
    (r"^admin/login/$", Expect.of({200, 302})),
    (r"^admin/logout/$", Expect.of({200, 302, 405})),
    (
        r"^admin/trips/(trip|hold|approvalrequest)/<path:object_id>/change/$",
        Expect.of(
            {200},
            **_by(NOT_STAFF | NO_2FA | HALF, {302}),
            **_by(STAFF_ELSEWHERE, {302, 403, 404}),
            redirect_to={**_by(NOT_STAFF, ADMIN_SIGN_IN), **_by(NO_2FA, TWO_FACTOR), **_by(HALF, VERIFY)},
        ),
    ),
    (
        r"^admin/",
        Expect.of(
            ANY,
            **_by(NOT_STAFF | NO_2FA | HALF, {302}),
            redirect_to={**_by(NOT_STAFF, ADMIN_SIGN_IN), **_by(NO_2FA, TWO_FACTOR), **_by(HALF, VERIFY)},
        ),
    ),
    (r"^api/(schema|docs)/$", Expect.of({200}, **_by(HALF, {403}))),
    (r"^api/\^trips/.*auto-approve", Expect.of({405}, anonymous={401, 403}, **_by(HALF, {403}))),  # POST only
    (
        r"^api/\^(trips|holds|approvals)/\(\?P<pk>",
        Expect.of({200}, anonymous={401, 403}, **_by(BLIND, {404}), **_by(HALF, {403})),
    ),
    (r"^api/", Expect.of({200}, anonymous={401, 403}, **_by(HALF, {403}), hides_trip_a=True)),
    (
        r"^trips/<int:trip_id>/$",
        Expect.of({200}, anonymous={302}, **_by(BLIND, {404}), **_by(HALF, {302}), redirect_to=SIGNED_IN_PAGE),
    ),
    # Naming a trip's travellers is the trip's traveller's alone (staff read them in the admin).
    (
        r"^trips/<int:trip_id>/travellers/$",
        Expect.of({404}, traveller_a={200}, anonymous={302}, **_by(HALF, {302}), redirect_to=SIGNED_IN_PAGE),
    ),
    # One's own travel data: every signed-in person has theirs (erasing is POST only).
    (r"^me/data/erase/$", Expect.of({405}, anonymous={302}, **_by(HALF, {302}), redirect_to=SIGNED_IN_PAGE)),
    (r"^me/data/", Expect.of({200}, anonymous={302}, **_by(HALF, {302}), redirect_to=SIGNED_IN_PAGE)),
    (r"^trips/new/$", Expect.of({405}, anonymous={302}, **_by(HALF, {302}), redirect_to=SIGNED_IN_PAGE)),
    (
        r"^$",
        Expect.of({200}, anonymous={302}, **_by(HALF, {302}), redirect_to=SIGNED_IN_PAGE, hides_trip_a=True),
    ),
    (r"^signin/$", Expect.of({302}, anonymous={200})),
    (r"^signout/$", Expect.of({200}, anonymous={302}, redirect_to={"anonymous": SIGN_IN})),
    # Two-factor sign-in: one's own set-up or management page; the second step is the half signed-in's.
    (
        r"^account/two-factor/$",
        Expect.of({200}, anonymous={302}, **_by(HALF, {302}), redirect_to=SIGNED_IN_PAGE),
    ),
    (
        r"^account/two-factor/verify/$",
        Expect.of({302}, **_by(HALF, {200}), redirect_to={"anonymous": SIGN_IN, **_by(NO_2FA, TWO_FACTOR)}),
    ),
    (
        r"^account/two-factor/(setup|recovery-codes|disable)/$",  # POST only
        Expect.of({405}, anonymous={302}, redirect_to={"anonymous": SIGN_IN}),
    ),
    (r"^account/two-factor/passkeys/jsi18n/$", Expect.of({200})),
    # django-otp-webauthn's ceremony (POST only): refused to anonymous visitors and the half signed-in.
    (r"^account/two-factor/passkeys/registration/", Expect.of({405}, anonymous={401, 403}, **_by(HALF, {403}))),
    (r"^account/two-factor/passkeys/authentication/", Expect.of({405}, anonymous={401, 403})),
]
WEBSOCKET_RULES: list[tuple[str, Dict[str, Optional[int]]]] = [
    # None: accepted and served (history, then status); a code: accepted, then closed with it.
    (
        r"^ws/trips/<int:trip_id>/$",
        {
            **_by(SEES, None),
            "anonymous": CloseCode.NOT_SIGNED_IN,
            **_by(BLIND, CloseCode.NO_SUCH_TRIP),
            **_by(HALF, CloseCode.NOT_SIGNED_IN),
        },
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


def staff_elsewhere(role: str, *, staff_in, travels_for, username: str):
    """Staff (``role``) in ``staff_in``, and a plain traveller in ``travels_for``."""
    user = user_make(organisation=staff_in, role=role, username=username)
    Membership.objects.create(user=user, organisation=travels_for, role=Membership.Role.TRAVELLER)
    return user


@pytest.fixture
def people(traveller, other_traveller, support, approver, globex_support, superuser, acme, globex) -> Dict[str, object]:
    return {
        "anonymous": None,
        "traveller_a": traveller,
        "traveller_b": other_traveller,
        "support": support,
        "approver": approver,
        "foreign_staff": globex_support,
        "approver_elsewhere": staff_elsewhere(
            Membership.Role.APPROVER, staff_in=globex, travels_for=acme, username="multi-approver"
        ),
        "support_elsewhere": staff_elsewhere(
            Membership.Role.SUPPORT, staff_in=globex, travels_for=acme, username="multi-support"
        ),
        "superuser": superuser,
        "approver_no_2fa": user_make(
            organisation=acme, role=Membership.Role.APPROVER, username="ann-no-2fa", second_factor=False
        ),
        "support_no_2fa": user_make(
            organisation=acme, role=Membership.Role.SUPPORT, username="sam-no-2fa", second_factor=False
        ),
        "approver_half_signed_in": half_signed_in(user_make(organisation=acme, role=Membership.Role.APPROVER)),
    }


def half_signed_in(user):
    """An enrolled approver whose sign-in stopped after the password (``client_for`` reads the mark)."""
    user.password_only = True
    return user


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
        "group": str(Group.objects.get_or_create(name="Matrix")[0].pk),
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
        sign_in(client, user, verified=not getattr(user, "password_only", False))
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
    """Grant on the decision page, as each role: only the trip's approver (and a superuser)
    grants; everyone else leaves the request pending."""
    approval = ApprovalRequest.objects.get(pk=ids["approvalrequest"])
    client_for(people[role]).post(
        f"/admin/trips/approvalrequest/{approval.pk}/change/", {"decision": "grant", "reason": "fine"}
    )
    approval.refresh_from_db()
    granted = approval.status != ApprovalRequest.Status.PENDING
    assert granted is (role in {"approver", "superuser"}), approval.status


# --- every staff action, through the admin and through the services ------------------------------

ACTS = {"approver", "superuser"}  # may decide trip A's approval
SUPPORTS = {"support", "superuser"}  # may flag trip A and release its holds


def _admin_action(user, model: str, action: str, pk) -> None:
    client_for(user).post(
        f"/admin/trips/{model}/", {"action": action, "_selected_action": [str(pk)], "apply": "1", "reason": "matrix"}
    )


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_every_admin_staff_action_stays_in_the_trip_s_organisation(role, people, ids, trip, monkeypatch):
    """Flag, release a hold, deny: each as each role, applied with a reason (a recording supplier)."""
    from types import SimpleNamespace

    from tests.trips.commerce.helpers import RecordingSupplier

    monkeypatch.setattr("trips.admin.commerce.tool_deps", lambda **_: SimpleNamespace(supplier=RecordingSupplier()))
    user = people[role]
    _admin_action(user, "trip", "flag_for_attention", trip.pk)
    _admin_action(user, "hold", "release", ids["hold"])
    client_for(user).post(  # the decision page's Deny button
        f"/admin/trips/approvalrequest/{ids['approvalrequest']}/change/", {"decision": "deny", "reason": "matrix"}
    )
    trip.refresh_from_db()
    assert trip.flagged is (role in SUPPORTS), "flag"
    released = Hold.objects.filter(trip=trip).exclude(status=Hold.Status.HELD).exists()
    assert released is (role in SUPPORTS), "release"
    denied = ApprovalRequest.objects.get(pk=ids["approvalrequest"]).status == ApprovalRequest.Status.DENIED
    assert denied is (role in ACTS), "deny"


@pytest.mark.django_db
@pytest.mark.parametrize("role", sorted(BLIND | {"traveller_a"}))
def test_services_refuse_staff_powers_outside_the_role_s_organisation(role, people, ids, trip):
    """Past the admin's own scoping: the services themselves say no (the one rule, ``trips.access``)."""
    from django.core.exceptions import PermissionDenied

    from tests.trips.commerce.helpers import RecordingSupplier
    from trips.services.approvals import approval_deny, approval_grant
    from trips.services.holds import holds_release
    from trips.services.staff import trip_flag

    user, approval = people[role], ApprovalRequest.objects.get(pk=ids["approvalrequest"])
    hold = Hold.objects.get(pk=ids["hold"])
    attempts = [
        lambda: approval_grant(approval=approval, approver=user, now=NOW),
        lambda: approval_deny(approval=approval, approver=user, reason="no", now=NOW),
        lambda: trip_flag(trip=trip, actor=user, reason="matrix"),
        lambda: holds_release(holds=[hold], actor=user, reason="matrix", supplier=RecordingSupplier(), now=NOW),
    ]
    for attempt in attempts:
        with pytest.raises(PermissionDenied):
            attempt()
    approval.refresh_from_db()
    trip.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.PENDING and not trip.flagged
    assert Hold.objects.get(pk=hold.pk).status == Hold.Status.HELD


@pytest.mark.django_db
def test_multi_organisation_staff_keep_their_powers_at_home(people, globex):
    """The other half: the refusals above are about the organisation, not a broken role."""
    from trips.services.staff import trip_flag

    home = trip_make(organisation=globex, title="Globex offsite")
    hold_for(home, now=NOW, suffix="g")
    approval = ApprovalRequest.objects.get(trip=home)
    client_for(people["approver_elsewhere"]).post(
        f"/admin/trips/approvalrequest/{approval.pk}/change/", {"decision": "grant", "reason": "fine"}
    )
    approval.refresh_from_db()
    assert approval.status != ApprovalRequest.Status.PENDING
    trip_flag(trip=home, actor=people["support_elsewhere"], reason="looks odd")
    home.refresh_from_db()
    assert home.flagged


TRIP_ROW_ADMINS = ("trip", "hold", "approvalrequest", "auditevent")  # trip A has rows in each


@pytest.mark.django_db
@pytest.mark.parametrize("role", sorted(STAFF_ELSEWHERE | {"support", "approver"}))
def test_admin_lists_show_trip_a_only_to_its_organisation_s_staff(role, people, ids, trip):
    client = client_for(people[role])
    for model in TRIP_ROW_ADMINS:
        response = client.get(f"/admin/trips/{model}/")
        assert response.status_code == 200, (model, response.status_code)
        rows = response.context["cl"].queryset
        shown = rows.filter(pk=trip.pk).exists() if model == "trip" else rows.filter(trip=trip).exists()
        assert shown is (role not in STAFF_ELSEWHERE), model
        if role in STAFF_ELSEWHERE:  # not even the organisation's name, in a filter or a column
            assert trip.organisation.name not in response.content.decode(), model


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_only_the_traveller_asks_for_auto_approval(role, people, trip):
    response = client_for(people[role]).post(f"/api/trips/{trip.pk}/auto-approve/")
    expected = {"anonymous": {401, 403}, **_by(BLIND, {404})}.get(role, {400, 403})
    assert response.status_code in expected


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("role", sorted(SEES - {"traveller_a"}))
async def test_staff_watching_a_trip_cannot_act_in_it_over_the_websocket(role, people, trip):
    """Support, approvers and superusers may watch trip A's chat; every frame that acts is refused."""
    from trips.models import ChatMessage

    client = await sync_to_async(client_for)(people[role])
    headers = [
        (b"origin", b"http://testserver"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    ws = WebsocketCommunicator(application, f"/ws/trips/{trip.pk}/", headers=headers)
    assert (await ws.connect(timeout=10))[0]
    before = await sync_to_async(ChatMessage.objects.filter(trip=trip).count)()
    frames = [
        {"type": "message", "client_id": "w1", "text": "book it"},
        {"type": "action", "client_id": "w2", "action": {"type": "hold"}},
        {"type": "action", "client_id": "w3", "action": {"type": "select", "bundle_id": "b1"}},
        {"type": "action", "client_id": "w4", "action": {"type": "retry"}},
        {"type": "action", "client_id": "w5", "action": {"type": "auto_approve"}},
        {"type": "action", "client_id": "w6", "action": {"type": "cancel_booking", "booking_id": "x"}},
        {
            "type": "action",
            "client_id": "w7",
            "action": {"type": "purchase", "approval_token": "t", "payment_method_id": "1"},
        },
    ]
    for frame in frames:
        await ws.send_json_to(frame)
    refusals = []
    while len(refusals) < len(frames):
        out = await ws.receive_json_from(timeout=10)
        if out.get("type") == "error":
            refusals.append(out["code"])
    await ws.disconnect()
    assert refusals == ["read_only"] * len(frames)
    assert await sync_to_async(ChatMessage.objects.filter(trip=trip).count)() == before
