"""Redaction's fast path: a string that cannot hold a secret is returned untouched, and every
string redacts exactly as the full set of patterns would."""

from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.common import redact as R
from handlers.tools import stored_arguments, stored_result


def full_patterns(text: str) -> str:
    """``redact_text`` without its fast path: every pattern, every time."""
    text = R.TOKEN_RE.sub(R.MASK, text)
    text = R.TOKEN_ASSIGN_RE.sub(lambda m: f"{m.group(1)}={R.MASK}", text)
    text = R.CARD_RE.sub(R._mask_card, text)
    return R.SECRET_RE.sub(R.MASK, text)


SECRETS = [
    "cvv=1",
    "CVC: 123",
    "approval token = tdk_apv_abcdefghijklmnopqrstuvwxyz",
    "card 4111 1111 1111 1111 please",
    "4111-1111-1111-1111",
    "sk-abcdefghijklmnop1234",
    "Authorization: Bearer abcdefghijklmnopqrstuvwxyz",
    "duffel_test_abcdefgh12345",
    "api key: zzz",
    "Password=hunter2",
]


def test_every_kind_of_secret_is_still_masked():
    for text in SECRETS:
        assert R.redact_text(text) == full_patterns(text) != text, text


def test_strings_without_a_secret_are_returned_as_they_are():
    for text in ["EWR", "2027-01-30", "off_3f9a2c1b7d", "Hilton Denver", "USD", "1234.56", ""]:
        assert R.redact_text(text) is text


fragments = st.sampled_from(
    ["token", "=", ":", " ", "-", "4111", "1111", "tdk_apv_", "abcdefgh", "sk-", "Bearer ", "cvv", "7", "x"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(fragments, st.text(max_size=6)), max_size=12).map("".join))
def test_the_fast_path_never_changes_the_outcome(text):
    assert R.redact_text(text) == full_patterns(text)


def test_a_stored_tool_run_keeps_what_replay_reads_and_quotes_by_reference():
    offers = [{"offer_id": f"off_{i}", "price": {"total_amount": "100.00"}} for i in range(30)]
    args = {
        "flight_quotes": [
            {"segment_id": "S1", "args_hash": "h1", "searched_at": "2026-12-01T14:00:00Z", "offers": offers}
        ],
        "hotel_quotes": [{"stay_id": "H1", "args_hash": "h2", "rates": offers[:3]}],
        "top_k": 5,
    }
    kept = stored_arguments(args)
    assert kept["flight_quotes"] == [
        {"segment_id": "S1", "args_hash": "h1", "searched_at": "2026-12-01T14:00:00Z", "offers": 30}
    ]
    assert kept["hotel_quotes"] == [{"stay_id": "H1", "args_hash": "h2", "rates": 3}] and kept["top_k"] == 5
    assert args["flight_quotes"][0]["offers"] is offers  # the call's own arguments are not changed
    assert stored_arguments({"segment_id": "S1"}) == {"segment_id": "S1"}

    inner = {"success": True, "input": args, "output": {"bundles": ["B1"]}, "stack": ["trace"]}
    result = {
        "success": True,
        "input": {"a": 1},
        "output": {"tool_name": "trip_option_ranker", "result": inner},
        "stack": [],
    }
    assert stored_result(result) == {
        "success": True,
        "output": {"tool_name": "trip_option_ranker", "result": {"success": True, "output": {"bundles": ["B1"]}}},
    }
