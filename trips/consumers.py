"""The trip chat websocket, ``/ws/trips/<trip_id>/`` (protocol: docs/websocket.md).

The consumer authenticates, checks access with ``trip_get_for_user``, validates every frame
(``trips.web.protocol``) and routes it to one service; it never writes a model itself.

Sequencing: the browser says which ``seq`` it holds; the consumer joins the trip's group
*before* reading the history, then drops live frames it has already sent and fills any gap
from the database — so a connect, reconnect or resume neither loses nor repeats a message.

Submits run off the event loop in a worker thread, one at a time per connection, so a turn
that runs in-process (eager Celery, the embedded default) does not stop this connection, or
any other, from streaming that turn's progress as it happens.
"""

import asyncio
import logging
from importlib import import_module
from typing import Any, Optional
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync, database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError

from trips import twofactor
from trips.access import may_write_in, trip_get_for_user
from trips.models import ChatMessage, Trip
from trips.services.actions import traveller_act
from trips.services.chat import chat_message_frame, trip_group, user_group
from trips.web.labels import itinerary_label, trip_label, trip_status_titled
from trips.web.protocol import ClientFrame, FrameError, TravellerAction, frame_parse
from trips.web.ratelimit import SlidingWindow
from trips.web.socketcap import SocketSlot

logger = logging.getLogger(__name__)


# Live frames only the trip's owner may receive: they carry a secret (none is pushed any more,
# but an ``approval_token`` frame from an older worker during a deploy must still not reach staff).
OWNER_ONLY_FRAMES = frozenset({"approval_token"})


def off_the_shared_thread(func):
    """``database_sync_to_async`` in a pool thread rather than the one thread all sync code shares.

    A turn that runs in-process would otherwise hold that thread — and every page view and
    access check waiting on it — until the turn ends.
    """
    return DatabaseSyncToAsync(func, thread_sensitive=False)


class SecondStepMissing(Exception):
    """The user enrolled a second factor but this session has not proved it."""


class CloseCode:
    """Application close codes (4000-4999), mirroring the HTTP status they resemble."""

    NOT_SIGNED_IN = 4401  # also: the session was ended (signed out elsewhere)
    NO_SUCH_TRIP = 4404  # also someone else's trip: existence is not disclosed
    TOO_MANY_FRAMES = 4408
    TOO_MANY_CONNECTIONS = 4429
    FRAME_TOO_LARGE = 4413


class TripChatConsumer(AsyncJsonWebsocketConsumer):
    rate_limit = 10  # frames per window; beyond it frames are refused with an error frame
    rate_window_seconds = 10.0
    rate_close_at = 20  # frames per window at which the connection is closed (4408)
    oversize_close_at = 3  # oversized frames per connection at which it is closed (4413)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Route a message to its handler, without the thread hop channels adds before each one.

        Channels' ``AsyncConsumer.dispatch`` first runs ``close_old_connections`` through
        ``sync_to_async`` (the process's one shared sync thread) for every message, the trip's
        pushed frames included, several per turn. Here every database read runs in
        ``database_sync_to_async``, which closes old connections around each call itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse_connection(CloseCode.NOT_SIGNED_IN)
            return
        try:
            self.trip = await self.trip_for(user, self.scope["url_route"]["kwargs"]["trip_id"])
        except Trip.DoesNotExist:  # unknown, or someone else's: the same answer, so ids cannot be probed
            await self.refuse_connection(CloseCode.NO_SUCH_TRIP)
            return
        except SecondStepMissing:  # signed in with the password but not yet with the second factor
            await self.refuse_connection(CloseCode.NOT_SIGNED_IN)
            return
        slot = SocketSlot(user.pk, self.channel_name)
        if not await slot.take():  # this user's chats in this process, or in all of them (Redis)
            await self.refuse_connection(CloseCode.TOO_MANY_CONNECTIONS)
            return
        self.slot = slot
        self.counted_for = user.pk
        self.user = user
        self.is_owner = may_write_in(user, self.trip)
        self.group = trip_group(self.trip.pk)
        self.user_group = user_group(user.pk)
        await self.channel_layer.group_add(self.user_group, self.channel_name)
        self.sent_seq = 0
        self.rate = SlidingWindow(seconds=self.rate_window_seconds)
        self.oversize = 0
        self.submit_lock = asyncio.Lock()
        self.submits: set[asyncio.Task] = set()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.title = trip_label(self.trip)
        await self.send_history(after_seq=self.query_after_seq(), status=await self.trip_status())

    async def refuse_connection(self, code: int) -> None:
        """Accept, then close with ``code``: a handshake refused outright reaches browsers as a bare 1006."""
        await self.accept()
        await self.close(code=code)

    async def close(self, code: Optional[int] = None, reason: Optional[str] = None) -> None:
        """Close once: a flood of frames may ask twice, and a second close is a server error."""
        if getattr(self, "closing", False):
            return
        self.closing = True
        await super().close(code=code, reason=reason)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "counted_for", None) is not None:
            await self.slot.give_back()
            self.counted_for = None
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            # Let accepted submits finish: the traveller's message is saved even if the tab closed.
            await asyncio.gather(*self.submits, return_exceptions=True)

    # --- from the browser -------------------------------------------------------------------

    async def receive(self, text_data: Optional[str] = None, bytes_data: Optional[bytes] = None, **kwargs: Any) -> None:
        """Every frame: rate limit, validate, then route (JSON decoding is ``frame_parse``'s job)."""
        if getattr(self, "closing", False):
            return  # closed by us: what is still in flight is dropped
        count = self.rate.hit()
        if count >= self.rate_close_at:
            await self.close(code=CloseCode.TOO_MANY_FRAMES)
            return
        try:
            if count > self.rate_limit:
                raise FrameError(
                    "rate_limited",
                    f"Slow down: at most {self.rate_limit} frames every {self.rate_window_seconds:g} seconds.",
                )
            frame = frame_parse(text_data)
        except FrameError as refusal:
            await self.refuse(refusal)
            return
        await self.route(frame)

    async def route(self, frame: ClientFrame) -> None:
        if frame.type == "ping":
            await self.send_json({"type": "pong"})
        elif frame.type == "resume":
            status = await self.trip_status()
            self.title = status["title"]
            await self.send_history(after_seq=frame.after_seq, status=status)
        elif not self.is_owner:
            await self.refuse(
                FrameError("read_only", "Only the traveller can write in this trip's chat.", client_id=frame.client_id)
            )
        else:
            task = asyncio.create_task(self.submit(frame))
            self.submits.add(task)
            task.add_done_callback(self.submits.discard)

    async def submit(self, frame: ClientFrame) -> None:
        """Hand a message or action to the one door (``traveller_act``), then acknowledge it (or say why not).

        An automatic approval saves no message of the traveller's, so its ``ack`` has no ``seq``:
        the grant arrives as the assistant's message and a ``status`` frame whose ``purchase`` offers to pay.
        """
        async with self.submit_lock:
            try:
                message = await self.act(frame)
            except (PermissionDenied, ValidationError, ValueError) as exc:
                await self.refuse(FrameError("refused", _plain(exc), client_id=frame.client_id))
                return
            except Exception:  # noqa: BLE001 - the browser gets a clear error and the connection stays up
                logger.exception("chat submit failed on trip %s", self.trip.pk)
                await self.refuse(
                    FrameError(
                        "server_error", "Something went wrong on our side. Please try again.", client_id=frame.client_id
                    )
                )
                return
        await self.send_json({"type": "ack", "client_id": frame.client_id, "seq": message.seq if message else None})

    async def refuse(self, refusal: FrameError) -> None:
        """Send the error frame; the third oversized frame also closes the connection (4413)."""
        await self.send_json(refusal.frame())
        if refusal.code == "frame_too_large":
            self.oversize += 1
            if self.oversize >= self.oversize_close_at:
                await self.close(code=CloseCode.FRAME_TOO_LARGE)

    # --- to the browser ---------------------------------------------------------------------

    async def session_ended(self, event: dict[str, Any]) -> None:
        """The user signed out (``trips.web.signals``): their open chats close, nothing more is accepted."""
        await self.close(code=CloseCode.NOT_SIGNED_IN)

    async def factors_changed(self, event: dict[str, Any]) -> None:
        """The user enrolled or removed a second factor (maybe in another browser): this chat stays
        open only while its session would still be let in (``sockets_recheck_on_commit``)."""
        key = getattr(self.scope.get("session"), "session_key", None)
        if key and key == event.get("keep_session"):
            return  # the session that made the change
        if not await self.session_still_admits():
            await self.close(code=CloseCode.NOT_SIGNED_IN)

    async def trip_frames(self, event: dict[str, Any]) -> None:
        """A commit's frames pushed to the trip's group together (``chat.trip_frames_event``), in order."""
        for frame in event["frames"]:
            await self.trip_frame({"frame": frame})

    async def trip_frame(self, event: dict[str, Any]) -> None:
        """A frame pushed to the trip's group (``broadcast_on_commit``).

        An ``approval_token`` frame (pushed by older versions) goes to the owner's connections
        only, never to staff watching the trip.

        ``status`` frames leave with the trip's name, kept current from the ``trip_summary``
        widgets that pass by: no database read here, where a turn may be writing.
        """
        frame = event["frame"]
        seq = frame.get("seq")
        if frame.get("type") in OWNER_ONLY_FRAMES and not self.is_owner:
            return
        if frame.get("type") == "status":
            frame = {**frame, "title": self.title}
        elif (frame.get("widget") or {}).get("type") == "trip_summary":
            self.title = (
                self.trip.title
                or itinerary_label(frame["widget"].get("segments"), frame["widget"].get("stays"))
                or self.title
            )
        if seq is None:
            await self.send_json(frame)
        elif seq > self.sent_seq + 1:
            await self.send_history(after_seq=self.sent_seq)  # a gap: fill it from the database
        elif seq == self.sent_seq + 1:
            self.sent_seq = seq
            await self.send_json(frame)

    async def send_history(self, *, after_seq: int, status: Optional[dict[str, Any]] = None) -> None:
        """Every message after ``after_seq``, in order, then (optionally) the trip's status.

        The client holds everything up to ``after_seq``, so live frames up to there are not due either.
        """
        self.sent_seq = max(self.sent_seq, after_seq)
        for frame in await self.history(after_seq):
            await self.send_json(frame)
            self.sent_seq = max(self.sent_seq, frame["seq"])
        if status is not None:
            await self.send_json(status)

    def query_after_seq(self) -> int:
        values = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("after_seq", ["0"])
        return int(values[0]) if values[0].isdigit() else 0

    # --- database work, off the event loop ----------------------------------------------------

    @database_sync_to_async
    def trip_for(self, user: Any, trip_id: int) -> Trip:
        return _trip_for_session(user, self.scope.get("session"), trip_id)

    @database_sync_to_async
    def session_still_admits(self) -> bool:
        """Read the user and the session afresh and ask what ``connect`` asked."""
        session = self.scope.get("session")
        key = getattr(session, "session_key", None)
        if not key:
            return False
        user = get_user_model().objects.filter(pk=self.user.pk, is_active=True).first()
        if user is None:
            return False
        try:
            _trip_for_session(user, import_module(settings.SESSION_ENGINE).SessionStore(key), self.trip.pk)
        except (Trip.DoesNotExist, SecondStepMissing):
            return False
        return True

    @database_sync_to_async
    def history(self, after_seq: int) -> list[dict[str, Any]]:
        messages = ChatMessage.objects.filter(trip_id=self.trip.pk, seq__gt=after_seq).order_by("seq")
        return [chat_message_frame(message) for message in messages]

    @database_sync_to_async
    def trip_status(self) -> dict[str, Any]:
        trip = Trip.objects.only("pk", "title", "intent", "phase", "state", "version").get(pk=self.trip.pk)
        return trip_status_titled(trip)

    @off_the_shared_thread
    def act(self, frame: ClientFrame) -> Optional[ChatMessage]:
        """No token is returned here: the page pays with the approval's id (``purchase_submit_as_owner``)."""
        act = TravellerAction(client_id=frame.client_id, text=frame.text, action=frame.action)
        return traveller_act(trip=self.trip, user=self.user, act=act).message


def _trip_for_session(user: Any, session: Any, trip_id: int) -> Trip:
    """The trip, as the session's second factor allows (staff read only with it verified)."""
    twofactor.socket_verify(user, session)
    if not user.otp_device and twofactor.enrolled(user):
        raise SecondStepMissing
    return trip_get_for_user(user, trip_id)


class NoSuchRoute(AsyncJsonWebsocketConsumer):
    """A websocket to a path nobody serves: the handshake is refused (HTTP 403), cleanly."""

    async def connect(self) -> None:
        await self.close()


def _plain(exc: Exception) -> str:
    """The human part of a refusal (a ValidationError's messages, or the exception's text)."""
    if isinstance(exc, ValidationError):
        return " ".join(exc.messages)
    return str(exc) or "That request was refused."
