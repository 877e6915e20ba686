"""Per-user connection caps, and signing out closing the user's open chats."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tests.factories import sign_in
from trips.consumers import CloseCode
from trips.web.socketcap import OPEN_BY_USER

from .conftest import drain, is_status, refused_with, socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_user_may_hold_only_so_many_chats_open(traveller, other_traveller, trip, settings):
    settings.TRIPDESK = {**settings.TRIPDESK, "WEBSOCKETS_PER_USER": 2}
    async with socket(traveller, trip.pk) as one, socket(traveller, trip.pk) as two:
        assert any(is_status(f) for f in await drain(one)) and any(is_status(f) for f in await drain(two))
        async with socket(traveller, trip.pk) as three:
            assert await refused_with(three) == CloseCode.TOO_MANY_CONNECTIONS
        async with socket(other_traveller, trip.pk) as theirs:  # someone else is not held up by it
            assert await refused_with(theirs) == CloseCode.NO_SUCH_TRIP
    assert traveller.pk not in OPEN_BY_USER, "closed connections are counted out"
    async with socket(traveller, trip.pk) as again:
        assert any(is_status(f) for f in await drain(again))


async def test_signing_out_closes_the_user_s_open_chats(traveller, trip):
    async with socket(traveller, trip.pk) as ws:
        await drain(ws)
        browser = Client()
        await sync_to_async(sign_in)(browser, traveller)
        await sync_to_async(browser.logout)()
        closed = await ws.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": CloseCode.NOT_SIGNED_IN}
