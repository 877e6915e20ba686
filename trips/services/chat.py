"""Chat messages and the live push to the trip's websocket group.

Every message (the traveller's, the assistant's, progress and errors) gets the trip's next
``seq``; browsers resume from the last ``seq`` they saw, so nothing is lost or shown twice.
"""

import asyncio
import logging
import os
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Optional, Union

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from handlers.common.redact import redact, redact_json, redact_text
from trips.models import ChatMessage, Trip

logger = logging.getLogger(__name__)


def trip_group(trip_id: int) -> str:
    """The channel-layer group every browser of this trip listens on."""
    return f"trip-{trip_id}"


def chat_message_frame(message: ChatMessage) -> dict[str, Any]:
    """The websocket frame for a chat message (also what history and resume send)."""
    return {
        "type": "message",
        "seq": message.seq,
        "role": message.role,
        "kind": message.kind,
        "text": message.text,
        "widget": message.widget,
        "created_at": message.created_at.isoformat(),
        "client_id": message.client_id or None,
    }


def trip_status_frame(trip: Trip, *, no_approvals: bool = False) -> dict[str, Any]:
    """The frame that tells browsers the trip's phase, state or version changed (no ``seq``).

    ``purchase`` is what the traveller may pay for now (a granted purchase approval), or None:
    the chat offers to pay only while it is set. ``no_approvals``: the caller knows the trip has
    no open approval (its TripIntent implies none: ``intents.implies_rows``), so none is read.
    """
    from trips.services.approvals.requests import approval_purchase_offer  # approvals import chat

    return {
        "type": "status",
        "trip_id": trip.pk,
        "phase": trip.phase,
        "state": trip.state,
        "version": trip.version,
        "purchase": None if no_approvals else approval_purchase_offer(trip_id=trip.pk, now=timezone.now()),
    }


class _Frames:
    """The frames one transaction (or savepoint) pushes, sent together once it commits."""

    def __init__(self) -> None:
        self.frames: list[tuple[int, dict[str, Any]]] = []
        # Django names a failed robust on_commit callback by its __qualname__ when it logs it
        # (an instance has none of its own: without this, the log line itself raised).
        self.__qualname__ = f"{__name__}._Frames"

    def __call__(self) -> None:
        _frames_send_now(self.frames)


def user_group(user_id: int) -> str:
    """Every chat connection of one user: told when that user signs out or changes their second factor."""
    return f"user-{user_id}"


def sockets_recheck_on_commit(user_id: int, *, keep_session: str = "") -> None:
    """After commit, ask each open chat of the user to check its sign-in again (``TripChatConsumer.factors_changed``).

    A second factor enrolled in one tab must end the chats of sessions that never gave it, and a
    factor removed ends the staff powers the chats were opened with. ``robust``: a channel layer
    that is down costs the live close; the next connect checks the session anyway.
    ``keep_session``: the session that made the change (it proves the new factor as soon as the
    change's response is saved), whose chats stay open.
    """

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(
                user_group(user_id), {"type": "factors.changed", "keep_session": keep_session}
            )

    transaction.on_commit(send, robust=True)


def broadcast_on_commit(trip_id: int, frame: dict[str, Any]) -> None:
    """Send ``frame`` to the trip's group once the current transaction commits (at once outside one).

    A transaction's frames leave together, in order, through one event loop and one channel-layer
    connection (a turn's transaction stores several messages): the frame joins the batch the same
    transaction registered last, so a rolled-back savepoint drops its own frames and no others.
    ``robust``: a channel layer that is down costs a live update (the browser catches up on
    resume), never the write that was just committed. Inside ``chat_buffer`` the frame waits for
    the buffer's messages, so it leaves after the messages added before it.
    """
    buffered = _buffer.get()
    if buffered is not None:
        buffered.append((trip_id, frame))
        return
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        savepoints = set(connection.savepoint_ids)
        last = connection.run_on_commit[-1] if connection.run_on_commit else None
        if last is not None and isinstance(last[1], _Frames) and last[0] == savepoints:
            last[1].frames.append((trip_id, frame))
            return
    batch = _Frames()
    batch.frames.append((trip_id, frame))
    transaction.on_commit(batch, robust=True)


PUSH_TIMEOUT_S = 10.0  # a channel layer that hangs costs the live update, not the worker


def _frames_send_now(frames: list[tuple[int, dict[str, Any]]]) -> None:
    """Send a committed transaction's frames, in order, through one event loop.

    A thread that an event loop lent to sync code (``database_sync_to_async`` in the ASGI server)
    sends them on that loop, where its consumers and their channel layer live. Any other thread (a
    Celery worker, the embedded default's eager turns, scripts) sends them on its own push loop
    (``_push_loop``), kept for the next commit: one loop and one channel-layer connection per
    thread, instead of a new thread, event loop and connection for every commit (what
    ``async_to_sync`` does without an outer loop).
    """
    layer = get_channel_layer()
    if layer is None or not frames:
        return

    async def send_all() -> None:
        for trip_id, group_frames in _per_trip_runs(frames):
            await layer.group_send(trip_group(trip_id), trip_frames_event(group_frames))

    if _lent_by_event_loop():
        async_to_sync(send_all)()
        return
    try:
        _push_loop().run_until_complete(asyncio.wait_for(send_all(), PUSH_TIMEOUT_S))
    except TimeoutError:
        # A layer that hangs would hang again: this update is lost (the browser catches up on
        # resume) and the next commit connects afresh, so a worker waits PUSH_TIMEOUT_S once.
        _push_loop_drop()
        raise
    except Exception:  # noqa: BLE001 - a kept connection died (Redis restarted): once more on a new one
        _push_loop_drop()
        _push_loop().run_until_complete(asyncio.wait_for(send_all(), PUSH_TIMEOUT_S))


def trip_frames_event(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The channel-layer message carrying a commit's frames for one trip, in order: one frame as
    ``trip.frame``, several as one ``trip.frames`` (``TripChatConsumer.trip_frames``). Each
    channel-layer message costs the sender and every listening ASGI process several Redis round
    trips, and a turn's commit pushes several frames (its progress lines; its answer, widgets and
    status)."""
    if len(frames) == 1:
        return {"type": "trip.frame", "frame": frames[0]}
    return {"type": "trip.frames", "frames": frames}


def _per_trip_runs(frames: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, list[dict[str, Any]]]]:
    """Consecutive frames of the same trip grouped together, the order kept."""
    runs: list[tuple[int, list[dict[str, Any]]]] = []
    for trip_id, frame in frames:
        if runs and runs[-1][0] == trip_id:
            runs[-1][1].append(frame)
        else:
            runs.append((trip_id, [frame]))
    return runs


def _lent_by_event_loop() -> bool:
    """Whether this thread runs sync code for an event loop of this process (``SyncToAsync``), or
    runs one itself (where ``async_to_sync`` refuses, as it always did)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        return True
    local = SyncToAsync.threadlocal
    return getattr(local, "main_event_loop", None) is not None and (
        getattr(local, "main_event_loop_pid", None) == os.getpid()
    )


_push = threading.local()  # .loop: (the process that made it, the loop)


def _push_loop() -> asyncio.AbstractEventLoop:
    """This thread's push loop, run only while it sends; made on first use, and again in a child
    process after a fork (Celery's prefork workers), which must not share its parent's selector."""
    made = getattr(_push, "loop", None)
    if made is None or made[0] != os.getpid() or made[1].is_closed():
        made = _push.loop = (os.getpid(), asyncio.new_event_loop())
    return made[1]


def _push_loop_drop() -> None:
    """Close this thread's push loop and with it the channel layer's connections made on it (the
    layer closes a loop's pool when the loop closes), so the next send connects afresh. Frames
    sent again are harmless: browsers keep one message per ``seq``."""
    made = getattr(_push, "loop", None)
    _push.loop = None
    if made is not None and made[0] == os.getpid() and not made[1].is_closed():
        try:
            made[1].close()
        except Exception:  # noqa: BLE001 - closing a broken connection may fail; the loop is gone either way
            logger.warning("closing the frame push loop failed", exc_info=True)


def message_seq_next(*, trip_id: int) -> int:
    """Take the trip's next chat ``seq`` inside the caller's transaction (the row stays locked until commit)."""
    return Trip.objects.counter_next(trip_id=trip_id, field="last_message_seq", touch=timezone.now())


def chat_message_add(
    *,
    trip_id: int,
    role: str,
    text: str = "",
    kind: str = ChatMessage.Kind.MESSAGE,
    widget: Optional[dict[str, Any]] = None,
    event: Optional[dict[str, Any]] = None,
    client_id: str = "",
    turn_status: str = ChatMessage.TurnStatus.NONE,
    seq: Optional[int] = None,
) -> ChatMessage:
    """Save a chat message inside the caller's transaction and push it after commit. ``seq``: the
    number the caller took (``Trip.objects.counters_next``, with the audit's in the same statement)."""
    message = ChatMessage(
        trip_id=trip_id,
        role=role,
        kind=kind,
        text=redact_text(text or ""),
        widget=redact_json(widget) if widget is not None else None,  # one pass: bundles are large
        event=redact(event) if event is not None else None,
        client_id=client_id,
        turn_status=turn_status,
    )
    buffered = _buffer.get()
    if buffered is not None and seq is None:
        buffered.append(message)  # numbered, stored and pushed when the buffer closes
        return message
    message.seq = seq if seq is not None else message_seq_next(trip_id=trip_id)
    message.save(force_insert=True)
    broadcast_on_commit(trip_id, chat_message_frame(message))
    return message


_buffer: ContextVar[Optional["Gathered"]] = ContextVar("chat_buffer", default=None)


Gathered = list[Union[ChatMessage, tuple[int, dict[str, Any]]]]


@contextmanager
def chat_gathered() -> Iterator[Optional[Gathered]]:
    """Gather the messages ``chat_message_add`` adds inside, and the frames ``broadcast_on_commit``
    is given, into the list yielded (None: a buffer already open gathers them); ``chat_store``
    stores them."""
    if _buffer.get() is not None:
        yield None
        return
    with chat_set_aside() as added:
        yield added


@contextmanager
def chat_set_aside() -> Iterator[Gathered]:
    """Gather what is said inside into the list yielded, apart from any buffer open around it: the
    caller decides when it is said (``chat_gathered_join``)."""
    added: Gathered = []
    token = _buffer.set(added)
    try:
        yield added
    finally:
        _buffer.reset(token)


def chat_gathered_open() -> Optional[Gathered]:
    """The list the open ``chat_gathered`` (or ``chat_set_aside``) collects into (None outside one)."""
    return _buffer.get()


def chat_gathered_join(added: Gathered) -> None:
    """Add messages and frames gathered earlier (``chat_gathered``) to the buffer open now, in order:
    they are numbered, stored and pushed with its transaction."""
    buffered = _buffer.get()
    if buffered is None:
        raise RuntimeError("chat_gathered_join() must run inside a turn's transaction (atomic_with)")
    buffered.extend(added)


def chat_gathered_messages(added: Gathered) -> list[ChatMessage]:
    return [item for item in added if isinstance(item, ChatMessage)]


def chat_store(added: Gathered, *, last_seq: dict[int, int]) -> None:
    """Number the gathered messages (``last_seq``: per trip the last ``seq`` of the block taken for
    them), insert them in one statement, and push them and the gathered frames, in the order they
    came, after commit."""
    messages = chat_gathered_messages(added)
    taken = {trip_id: last - sum(1 for m in messages if m.trip_id == trip_id) for trip_id, last in last_seq.items()}
    for message in messages:
        taken[message.trip_id] += 1
        message.seq = taken[message.trip_id]
    if messages:
        ChatMessage.objects.bulk_create(messages)
    for item in added:
        if isinstance(item, ChatMessage):
            broadcast_on_commit(item.trip_id, chat_message_frame(item))
        else:
            broadcast_on_commit(*item)


@contextmanager
def chat_buffer() -> Iterator[None]:
    """Gather the messages ``chat_message_add`` adds inside, then store them in order: per trip one
    ``UPDATE … RETURNING`` for the block of ``seq`` numbers and one INSERT; their frames, and those
    ``broadcast_on_commit`` was given inside, leave together after commit in the order they came.
    Inside the caller's transaction; a buffer already open gathers for both."""
    with chat_gathered() as added:
        yield
    if added is None:
        return
    counts: dict[int, int] = {}
    for message in chat_gathered_messages(added):
        counts[message.trip_id] = counts.get(message.trip_id, 0) + 1
    last_seq = {
        trip_id: Trip.objects.counter_next(trip_id=trip_id, field="last_message_seq", touch=timezone.now(), by=n)
        for trip_id, n in counts.items()
    }
    chat_store(added, last_seq=last_seq)


def chat_message_create(*, trip_id: int, message: dict[str, Any]) -> ChatMessage:
    """Save one message the mission core printed (``AGU.print_chat``) and push it after commit."""
    with transaction.atomic(durable=True):
        return chat_message_add(
            trip_id=trip_id,
            role=message.get("role") or ChatMessage.Role.ASSISTANT,
            kind=message.get("kind") or ChatMessage.Kind.MESSAGE,
            text=message.get("text") or "",
            widget=message.get("widget"),
        )


def progress_shown_counts(*, trip_id: int, turn: int) -> Counter[str]:
    """How many progress lines of each label the turn for message ``turn`` has shown already."""
    widgets = ChatMessage.objects.filter(trip_id=trip_id, kind=ChatMessage.Kind.PROGRESS, widget__turn=turn)
    return Counter(str((widget or {}).get("label")) for widget in widgets.values_list("widget", flat=True))
