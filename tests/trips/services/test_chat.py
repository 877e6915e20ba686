import asyncio

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from trips.models import ChatMessage
from trips.services.chat import chat_message_create, chat_message_frame, trip_group


def test_messages_get_the_next_seq_and_are_pushed_after_commit(trip, django_capture_on_commit_callbacks):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(trip_group(trip.pk), channel)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        first = chat_message_create(trip_id=trip.pk, message={"role": "assistant", "kind": "progress", "text": "one"})
        second = chat_message_create(
            trip_id=trip.pk,
            message={"role": "assistant", "text": "two", "widget": {"type": "questions", "questions": []}},
        )
    assert (first.seq, second.seq) == (1, 2)
    assert len(callbacks) == 2
    received = [async_to_sync(layer.receive)(channel) for _ in range(2)]
    assert [r["type"] for r in received] == ["trip.frame", "trip.frame"]
    assert [r["frame"]["seq"] for r in received] == [1, 2]
    assert received[1]["frame"] == chat_message_frame(ChatMessage.objects.get(pk=second.pk))
    assert received[1]["frame"]["widget"] == {"type": "questions", "questions": []}


def test_nothing_is_pushed_before_commit(trip, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": "hi"})
    assert len(callbacks) == 1  # queued for commit, not sent


def test_printed_text_is_redacted(trip):
    message = chat_message_create(
        trip_id=trip.pk, message={"role": "assistant", "text": "token tdk_apv_abcdefghijkl123 received"}
    )
    assert "tdk_apv_" not in ChatMessage.objects.get(pk=message.pk).text


def test_frame_shape(trip):
    message = chat_message_create(trip_id=trip.pk, message={"role": "assistant", "kind": "error", "text": "oops"})
    frame = chat_message_frame(message)
    assert set(frame) == {"type", "seq", "role", "kind", "text", "widget", "created_at", "client_id"}
    assert frame["type"] == "message" and frame["kind"] == "error" and frame["client_id"] is None


def test_a_widget_is_stored_and_pushed_redacted_in_one_pass(trip):
    """Widgets are redacted as one JSON text (``redact_json``): a large clean bundles widget comes
    back as it was; a secret anywhere in a widget, in a string or under a sensitive key, is masked."""
    bundles = [
        {"bundle_id": f"B{i}", "total": f"{1000 + i}.00", "flight": {"offer_id": f"off_{i:016x}"}, "hotel": "Hilton"}
        for i in range(60)
    ]
    clean = chat_message_create(
        trip_id=trip.pk, message={"role": "assistant", "text": "x", "widget": {"type": "bundles", "bundles": bundles}}
    )
    assert ChatMessage.objects.get(pk=clean.pk).widget == {"type": "bundles", "bundles": bundles}
    secret = {"type": "note", "items": [{"text": "card 4111 1111 1111 1111"}, {"password": "hunter2"}]}
    message = chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": "x", "widget": secret})
    for widget in (message.widget, ChatMessage.objects.get(pk=message.pk).widget):
        assert "4111 1111" not in str(widget) and "hunter2" not in str(widget)
        assert widget["items"][1]["password"] == "[REDACTED]" and "[REDACTED]" in widget["items"][0]["text"]


def test_commits_outside_an_event_loop_push_through_one_loop_kept_per_thread(trip, django_capture_on_commit_callbacks):
    """A worker's commits send their frames on the thread's push loop, made once and kept (not a
    new loop, thread and channel-layer connection per commit); each commit's frames arrive in order."""
    from trips.services import chat

    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(trip_group(trip.pk), channel)
    loops = []
    for text in ("one", "two"):
        with django_capture_on_commit_callbacks(execute=True):
            chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": text})
        loops.append(chat._push_loop())
    assert loops[0] is loops[1] and not loops[0].is_closed()
    received = [async_to_sync(layer.receive)(channel)["frame"]["text"] for _ in range(2)]
    assert received == ["one", "two"]


def test_a_push_whose_kept_connection_died_is_sent_again_on_a_new_one(
    trip, django_capture_on_commit_callbacks, monkeypatch
):
    """After Redis restarts, the push loop's kept connection fails: the loop (and the layer's
    connections on it) is dropped and the frames go once more on a new loop, so live updates
    survive a broker restart (tests/reliability/integration/test_redis_restart.py on the stack)."""
    from trips.services import chat

    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(trip_group(trip.pk), channel)
    with django_capture_on_commit_callbacks(execute=True):
        chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": "before"})
    first_loop = chat._push_loop()
    real_send, failures = layer.group_send, []

    async def dies_once(group, message):
        if not failures:
            failures.append(group)
            raise ConnectionError("Connection closed by server.")
        await real_send(group, message)

    monkeypatch.setattr(layer, "group_send", dies_once)
    with django_capture_on_commit_callbacks(execute=True):
        chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": "after"})
    assert failures and first_loop.is_closed() and chat._push_loop() is not first_loop
    received = [async_to_sync(layer.receive)(channel)["frame"]["text"] for _ in range(2)]
    assert received == ["before", "after"]


def test_a_push_that_hangs_is_given_up_once_not_tried_again(trip, django_capture_on_commit_callbacks, monkeypatch):
    """A channel layer that hangs would hang again: the frames are tried once for PUSH_TIMEOUT_S,
    then the live update is given up (the browser catches up on resume) and the loop dropped so the
    next commit connects afresh; the committed message stays."""
    from trips.services import chat

    layer = get_channel_layer()
    monkeypatch.setattr(chat, "PUSH_TIMEOUT_S", 0.05)
    first_loop, attempts = chat._push_loop(), []

    async def hangs(group, message):
        attempts.append(group)
        await asyncio.sleep(10)

    monkeypatch.setattr(layer, "group_send", hangs)
    with django_capture_on_commit_callbacks(execute=True):
        message = chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": "kept"})
    assert len(attempts) == 1
    assert first_loop.is_closed() and chat._push_loop() is not first_loop
    assert ChatMessage.objects.get(pk=message.pk).text == "kept"


def test_a_channel_layer_that_is_down_costs_the_live_update_not_the_commit(
    trip, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    """Both tries fail (Redis down): the failure is logged and goes no further, so the turn that
    committed carries on; the message is stored for the browser to catch up on resume."""
    layer = get_channel_layer()

    async def down(group, message):
        raise ConnectionError("Connection refused")

    monkeypatch.setattr(layer, "group_send", down)
    with django_capture_on_commit_callbacks(execute=True):
        message = chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": "stored"})
    assert ChatMessage.objects.get(pk=message.pk).text == "stored"
    assert any("on_commit" in record.getMessage() for record in caplog.records)


def test_one_commits_frames_for_a_trip_leave_as_one_channel_layer_message_in_order(
    trip, django_capture_on_commit_callbacks
):
    """A turn's commit stores several messages (progress lines; the answer, its widgets, the
    status): they reach the trip's group as one ``trip.frames`` message, not one message each."""
    from django.db import transaction

    from trips.services.chat import broadcast_on_commit, chat_message_add

    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(trip_group(trip.pk), channel)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        for text in ("one", "two", "three"):
            chat_message_add(trip_id=trip.pk, role="assistant", kind="progress", text=text)
        broadcast_on_commit(trip.pk, {"type": "status", "trip_id": trip.pk})
    received = async_to_sync(layer.receive)(channel)
    assert received["type"] == "trip.frames"
    assert [f.get("text") for f in received["frames"]] == ["one", "two", "three", None]
    assert [f.get("seq") for f in received["frames"]] == [1, 2, 3, None]
