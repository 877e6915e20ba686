"""Hostile input at both doors: lone surrogates, NUL, 10 MB fields and depth-10,000 JSON sent to
every API action and every websocket frame type, and websocket upgrades to paths nobody serves.

What must hold: no response is a 5xx, every refusal is the documented 4xx or ``error`` frame,
the websocket stays open where the protocol says so (answers a ``ping`` afterwards), nothing
is stored (no message, no event, no trip), and every page that shows the trip still loads.
The same module runs on PostgreSQL from ``tests/reliability/integration`` (NUL is what breaks
there; lone surrogates are what breaks SQLite).
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from tests.factories import sign_in
from tripdesk.asgi import application
from tripdesk.celery import app as celery_app
from trips.models import AuditEvent, ChatMessage, Trip
from trips.web.protocol import ACTION_FIELDS

from .conftest import FIGURES

DEEP = "[" * 10_000 + "]" * 10_000  # raw JSON, depth 10,000
DEEP_SMALL = "[" * 5_000 + "]" * 5_000  # depth 5,000 inside the websocket's 16 KB
HOSTILE = {
    "lone surrogate": json.dumps("hi \ud800 there"),  # "\\ud800": valid JSON, not storable text
    "NUL": json.dumps("hi \x00 there"),
    "10 MB": json.dumps("x" * 10 * 1024 * 1024),
    "depth 10,000": DEEP,
    "depth 5,000": DEEP_SMALL,
}
VALID = {
    "bundle_id": '"B1"',
    "approval_token": '"tok"',
    "approval_id": '"1"',
    "payment_method_id": '"1"',
    "booking_id": '"bk1"',
    "quote_id": '"q1"',
    "hold_id": '"hld_1"',
}
API_4XX = {400, 403, 413}
WS_CODES = {"bad_json", "bad_frame", "frame_too_large", "text_too_long", "unknown_type", "unknown_action"}


def obj(**members: str) -> str:
    """A JSON object from raw JSON member values (so a value may be any hostile JSON text)."""
    return "{" + ", ".join(f'"{name}": {raw}' for name, raw in members.items()) + "}"


def action_bodies(value: str, **frame: str) -> dict[str, str]:
    """Every traveller action (and every field of each) with ``value`` in one place, as raw JSON.

    ``frame`` adds members to each body (the websocket's ``type``)."""
    bodies = {
        "text": obj(**frame, client_id='"h1"', text=value),
        "client_id": obj(**frame, client_id=value, text='"hello"'),
        "action.type": obj(**frame, client_id='"h1"', action=obj(type=value)),
        "action": obj(**frame, client_id='"h1"', action=value),
    }
    for kind, fields in ACTION_FIELDS.items():
        for name in fields or ["extra"]:
            members = {other: VALID[other] for other in fields}
            members[name] = value
            bodies[f"{kind}.{name}"] = obj(**frame, client_id='"h1"', action=obj(type=f'"{kind}"', **members))
    return bodies


def stored(trip) -> tuple:
    return (
        ChatMessage.objects.filter(trip=trip).count(),
        AuditEvent.objects.count(),
        Trip.objects.count(),
    )


def nothing_invalid_stored() -> list[str]:
    """Rows whose text a database or a page would choke on."""
    bad = []
    for model, fields in ((ChatMessage, ["text", "client_id"]), (Trip, ["title"])):
        for row in model.objects.all():
            for name in fields:
                value = getattr(row, name) or ""
                if "\x00" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
                    bad.append(f"{model.__name__} {row.pk}.{name}")
    for event in AuditEvent.objects.all():
        text = json.dumps(event.payload, ensure_ascii=False)
        if "\\u0000" in text or any(0xD800 <= ord(c) <= 0xDFFF for c in text):
            bad.append(f"AuditEvent {event.pk}")
    return bad


@pytest.fixture
def queued(monkeypatch):
    """Turns are queued, not run: an accepted input would show up as a stored message."""
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)


@pytest.mark.django_db
@pytest.mark.parametrize("payload", list(HOSTILE))
def test_every_api_action_refuses_hostile_input_with_a_4xx_and_stores_nothing(
    payload, traveller, trip, superuser, queued
):
    client = Client(raise_request_exception=False)
    sign_in(client, traveller)
    before = stored(trip)
    value, wrong = HOSTILE[payload], []
    targets = [(f"/api/trips/{trip.pk}/messages/", body, where) for where, body in action_bodies(value).items()]
    targets += [
        ("/api/trips/", obj(title=value), "trip title"),
        (f"/api/trips/{trip.pk}/auto-approve/", value, "auto-approve body"),
        (f"/api/trips/{trip.pk}/messages/", value, "whole body"),
    ]
    # An unknown field is dropped, not refused (as on the websocket), and auto-approve reads no
    # body (a parseable one is ignored; its policy refusal is audited): those go last.
    ignored = lambda where: where.endswith(".extra") or where == "auto-approve body"  # noqa: E731
    targets.sort(key=lambda target: ignored(target[2]))
    checked = False
    for path, body, where in targets:
        if ignored(where) and not checked:
            assert (wrong, stored(trip)) == ([], before), "nothing stored from the refused inputs"
            checked = True
        response = client.post(path, body, content_type="application/json")
        FIGURES["hostile api requests"] += 1
        FIGURES["hostile api 5xx"] += response.status_code >= 500
        allowed = API_4XX | ({202} if ignored(where) else set())
        if response.status_code not in allowed:
            wrong.append(f"{where}: {response.status_code}")
    assert wrong == []
    assert nothing_invalid_stored() == []
    staff = Client(raise_request_exception=False)
    sign_in(staff, superuser)
    pages = [
        client.get(f"/api/trips/{trip.pk}/messages/"),
        client.get(f"/api/trips/{trip.pk}/events/"),
        client.get(f"/trips/{trip.pk}/"),
        staff.get(f"/admin/trips/trip/{trip.pk}/change/"),
        staff.get("/admin/trips/auditevent/"),
    ]
    assert [page.status_code for page in pages] == [200] * len(pages)


def websocket_frames(value: str) -> dict[str, str]:
    messages = action_bodies(value, type='"message"')
    frames = {f"message/{where}": messages[where] for where in ("text", "client_id")}
    frames.update({f"action/{where}": body for where, body in action_bodies(value, type='"action"').items()})
    frames.update(
        {
            "type": obj(type=value),
            "resume/after_seq": obj(type='"resume"', after_seq=value),
            "ping/extra": obj(type='"ping"', extra=value),
            "whole frame": value,
        }
    )
    return frames


async def _connect(user, path: str) -> WebsocketCommunicator:
    client = await sync_to_async(Client)()
    await sync_to_async(sign_in)(client, user)
    headers = [
        (b"origin", b"http://testserver"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    return WebsocketCommunicator(application, path, headers=headers)


async def _drain_until_status(ws) -> None:
    """The history and status every connection starts with."""
    while (await ws.receive_json_from(timeout=10)).get("type") != "status":
        pass


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("payload", list(HOSTILE))
async def test_every_websocket_frame_type_refuses_hostile_input_and_stays_open(payload, traveller, trip, queued):
    before = await sync_to_async(stored)(trip)
    frames, wrong, checked = websocket_frames(HOSTILE[payload]), [], False
    # Unknown fields are dropped, not refused: a hold or ping with a hostile extra is served.
    for where, raw in sorted(frames.items(), key=lambda item: item[0].endswith("extra")):
        served = where.endswith("extra")
        if served and not checked:
            assert (wrong, await sync_to_async(stored)(trip)) == ([], before), "nothing stored from refused frames"
            checked = True
        ws = await _connect(traveller, f"/ws/trips/{trip.pk}/")
        connected, _ = await ws.connect(timeout=10)
        assert connected
        await _drain_until_status(ws)
        await ws.send_to(text_data=raw)
        answer = await ws.receive_output(timeout=10)
        FIGURES["hostile websocket frames"] += 1
        if answer["type"] != "websocket.send":
            wrong.append(f"{where}: {answer}")
            continue
        frame = json.loads(answer["text"])
        refused = frame.get("type") == "error" and frame.get("code") in WS_CODES
        # A served frame may answer first with the trip's status push (on the stack it comes from another process).
        if not refused and not (
            served and (frame.get("type") in {"pong", "message", "ack", "status"} or frame.get("code") == "refused")
        ):
            wrong.append(f"{where}: {frame}")
        await ws.send_json_to({"type": "ping"})
        while (reply := await ws.receive_json_from(timeout=10)).get("type") != "pong":
            if reply.get("type") == "error" and not (served and reply.get("code") == "refused"):
                wrong.append(f"{where}: {reply}")
                break
        await ws.disconnect()
    assert wrong == []
    assert await sync_to_async(nothing_invalid_stored)() == []


UNROUTED = ["/", "/ws/", "/ws/nope/", "/ws/trips/abc/", "/ws/trips/1/extra/", "/ws/trips/%00/", "/admin/"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("signed_in", [False, True])
async def test_websocket_upgrades_to_unrouted_paths_are_refused_cleanly(signed_in, traveller):
    """Refused at the handshake (the server answers 403), not a router exception (an HTTP 500)."""
    for path in UNROUTED:
        if signed_in:
            ws = await _connect(traveller, path)
        else:
            ws = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver")])
        connected, _ = await ws.connect(timeout=10)
        FIGURES["unrouted websocket upgrades"] += 1
        assert not connected, path
        await ws.wait()
