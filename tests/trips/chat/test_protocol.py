"""The rules for what a browser may send (trips.web.protocol), checked without a socket."""

import json

import pytest

from trips.web.protocol import MAX_FRAME_BYTES, MAX_TEXT_CHARS, FrameError, frame_parse


def refusal(raw):
    with pytest.raises(FrameError) as caught:
        frame_parse(raw)
    return caught.value


def test_a_message_keeps_its_text_and_client_id():
    frame = frame_parse(json.dumps({"type": "message", "text": "  hello  ", "client_id": "c-1"}))
    assert (frame.type, frame.text, frame.client_id) == ("message", "hello", "c-1")


def test_an_action_keeps_only_its_known_fields_as_strings():
    frame = frame_parse(
        json.dumps(
            {
                "type": "action",
                "client_id": "c2",
                "action": {"type": "purchase", "approval_token": "tdk_apv_x", "payment_method_id": 7, "admin": True},
            }
        )
    )
    assert frame.action == {"type": "purchase", "approval_token": "tdk_apv_x", "payment_method_id": "7"}


def test_optional_action_fields_may_be_left_out():
    frame = frame_parse(
        json.dumps({"type": "action", "client_id": "c3", "action": {"type": "cancel_booking", "booking_id": "bk_1"}})
    )
    assert frame.action == {"type": "cancel_booking", "booking_id": "bk_1"}


def test_auto_approve_takes_no_fields_and_drops_any_sent():
    raw = {"type": "action", "client_id": "c4", "action": {"type": "auto_approve", "amount": "0.01", "approved": True}}
    assert frame_parse(json.dumps(raw)).action == {"type": "auto_approve"}


def test_release_holds_names_one_hold_of_its_card():
    raw = {"type": "action", "client_id": "c5", "action": {"type": "release_holds", "hold_id": "hld_1", "all": True}}
    assert frame_parse(json.dumps(raw)).action == {"type": "release_holds", "hold_id": "hld_1"}
    with pytest.raises(FrameError, match="release_holds needs hold_id"):
        frame_parse(json.dumps({"type": "action", "client_id": "c6", "action": {"type": "release_holds"}}))


def test_resume_and_ping():
    assert frame_parse('{"type": "resume", "after_seq": 12}').after_seq == 12
    assert frame_parse('{"type": "ping"}').type == "ping"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (None, "binary_not_supported"),
        ("not json", "bad_json"),
        ("[1, 2]", "bad_frame"),
        ('{"type": "shout"}', "unknown_type"),
        ('{"text": "no type"}', "unknown_type"),
        ('{"type": "message", "text": "hi"}', "bad_frame"),  # no client_id
        ('{"type": "message", "text": "hi", "client_id": "has space"}', "bad_frame"),
        ('{"type": "message", "text": 42, "client_id": "c"}', "bad_frame"),
        ('{"type": "message", "text": "   ", "client_id": "c"}', "bad_frame"),
        ('{"type": "action", "action": "hold", "client_id": "c"}', "bad_frame"),
        ('{"type": "action", "action": {"type": "approve"}, "client_id": "c"}', "unknown_action"),
        ('{"type": "action", "action": {"type": "select"}, "client_id": "c"}', "bad_frame"),
        ('{"type": "action", "action": {"type": "select", "bundle_id": ["B1"]}, "client_id": "c"}', "bad_frame"),
        ('{"type": "action", "action": {"type": "select", "bundle_id": true}, "client_id": "c"}', "bad_frame"),
        ('{"type": "resume", "after_seq": -1}', "bad_frame"),
        ('{"type": "resume", "after_seq": "3"}', "bad_frame"),
        ('{"type": "message", "text": "a \\ud800 b", "client_id": "c"}', "bad_frame"),  # a lone surrogate
        ('{"type": "message", "text": "a \\u0000 b", "client_id": "c"}', "bad_frame"),  # NUL
        ('{"type": "action", "action": {"type": "select", "bundle_id": "\\udfff"}, "client_id": "c"}', "bad_frame"),
        ('{"type": "action", "action": {"type": "select", "bundle_id": "B\\u0000"}, "client_id": "c"}', "bad_frame"),
        ("[" * 5000 + "]" * 5000, "bad_json"),  # deep, inside 16 KB: refused before parsing
        ('{"type": "message", "text": ' + "[" * 9 + "]" * 9 + ', "client_id": "c"}', "bad_json"),
    ],
)
def test_malformed_frames_are_refused_with_a_code(raw, code):
    assert refusal(raw).code == code


def test_text_over_the_limit_is_refused_and_names_the_message():
    error = refusal(json.dumps({"type": "message", "text": "x" * (MAX_TEXT_CHARS + 1), "client_id": "c9"}))
    assert (error.code, error.frame()["client_id"]) == ("text_too_long", "c9")
    assert frame_parse(json.dumps({"type": "message", "text": "x" * MAX_TEXT_CHARS, "client_id": "c9"})).text


def test_frames_over_the_byte_limit_are_refused_before_parsing():
    # Multi-byte text: the limit counts bytes on the wire, not characters.
    raw = json.dumps({"type": "message", "text": "é" * (MAX_FRAME_BYTES // 2), "client_id": "c"}, ensure_ascii=False)
    assert len(raw) < MAX_FRAME_BYTES < len(raw.encode())
    assert refusal(raw).code == "frame_too_large"


def test_an_error_frame_carries_the_client_id_only_when_known():
    assert "client_id" not in refusal("nope").frame()
    assert refusal('{"type": "action", "action": {}, "client_id": "k"}').frame() == {
        "type": "error",
        "code": "unknown_action",
        "client_id": "k",
        "message": "Unknown action; expected one of select, hold, retry, purchase, cancel_booking, auto_approve, release_holds.",
    }


def test_text_is_normalised_once_to_nfc():
    frame = frame_parse(json.dumps({"type": "message", "text": "Cafe\u0301 ", "client_id": "c"}))
    assert frame.text == "Caf\u00e9"


def test_the_api_and_the_websocket_share_one_schema():
    """The API's serializer refuses what the websocket refuses, with the same limit."""
    from trips.api.serializers import MessageCreateSerializer

    too_long = {"text": "x" * (MAX_TEXT_CHARS + 1)}
    serializer = MessageCreateSerializer(data=too_long)
    assert not serializer.is_valid() and serializer.errors["code"] == "text_too_long"
    assert MessageCreateSerializer(data={"text": "x" * MAX_TEXT_CHARS}).is_valid()
