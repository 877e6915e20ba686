"""Redaction's fast path: a string that cannot hold a secret is returned untouched, and every
string redacts exactly as the full set of patterns would."""

import enum
import hashlib
import json
import math
import uuid
from collections import OrderedDict
from datetime import date
from decimal import Decimal
from unittest import mock

import pytest
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


def stored(value):
    """What a JSON column keeps of ``value``."""
    return json.loads(json.dumps(value))


CLEAN = {
    "offer_id": "off_3f9a2c1b7d",
    "price": {"total_amount": "763.60", "currency": "USD"},
    "segments": [{"origin": "EWR", "depart_at": "2027-01-30T22:20:00-05:00", "flight_number": "B61302"}],
    "seats_remaining": 4,
    "lat": 39.87067,
    "refundable": False,
    "hotel": "Denver City Hostel, 284 Station Street",
    "phone": None,
}


def test_a_value_with_nothing_to_mask_is_stored_as_it_is_and_copied():
    kept = R.redact_json(CLEAN)
    assert kept == CLEAN and kept is not CLEAN and kept["segments"][0] is not CLEAN["segments"][0]
    assert not R._text_may_hold_secret(json.dumps(CLEAN, ensure_ascii=False))


def test_what_the_one_pass_skips_cannot_hold_a_secret():
    """Numbers, codes, ids and ISO times never reach a pattern; a value only skips ``redact`` when
    its whole text has no word, no sensitive key and no card-length digit run."""
    for value in [
        {"n": 12345678901, "at": "2027-01-30T22:20:00-05:00", "id": "off_626110ce94dd274f", "code": "B6"},
        ["USD", "763.60", 4, 0.5, None, True, "PT5H50M", "2027-02-02"],
    ]:
        assert not R._text_may_hold_secret(json.dumps(value, ensure_ascii=False))
        assert R.redact_json(value) == stored(R.redact(value)) == stored(value)


def test_secrets_anywhere_in_a_stored_value_are_still_masked():
    cases = [{"note": text} for text in SECRETS]
    cases += [
        {"passengers": [{"born_on": "1980-01-02", "given_name": "Ann"}]},
        {"Card_Number": "4111111111111111"},
        {"deep": [{"x": ["card 4111 1111 1111 1111"]}]},
        {"TO\u212aEN": "x"},  # a Kelvin sign lower-cases to "k": still a sensitive key
        {"note": "\u017fecret=hunter2"},  # a long s matches "s" when case is ignored
        {"note": "ap\u0130 key: zzz"},
        ("tuple", "cvv=123"),
        {1: "sk-abcdefghijklmnop1234"},
    ]
    for value in cases:
        assert stored(R.redact_json(value)) == stored(R.redact(value)) != stored(value), value
    numbers = {"ids": [4111111111111111]}  # not strings: nothing to mask, though the text is looked at
    assert R._text_may_hold_secret(json.dumps(numbers)) and R.redact_json(numbers) == numbers


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.one_of(fragments, st.text(max_size=8))),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(sorted(R.SENSITIVE_KEYS)), st.text(max_size=6)), children, max_size=4
        ),
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(json_values, max_size=3).map(lambda items: {"items": items}))
def test_the_one_pass_stores_exactly_what_redact_would(value):
    assert stored(R.redact_json(value)) == stored(R.redact(value))


def test_a_ranker_call_is_fingerprinted_by_its_quotes_searches_not_by_every_offer():
    """``args_hash`` (the ranker's call id, the host's attempt count) reads quotes by reference: a
    new search, another time or another number of offers is another call; the same search is not."""
    from handlers.tools import args_hash

    def ranker(offers, searched_at="2026-12-01T14:00:00Z", search="h1", top_k=5):
        quote = {"segment_id": "S1", "args_hash": search, "searched_at": searched_at, "offers": offers}
        return {"flight_quotes": [quote], "hotel_quotes": [], "top_k": top_k}

    offers = [{"offer_id": f"off_{i}", "price": {"total_amount": f"{100 + i}.00"}} for i in range(3)]
    same = [dict(o) for o in offers]
    assert args_hash(ranker(offers)) == args_hash(ranker(same))
    assert (
        len(
            {
                args_hash(ranker(offers)),
                args_hash(ranker(offers[:2])),
                args_hash(ranker(offers, searched_at="2026-12-01T15:00:00Z")),
                args_hash(ranker(offers, search="h2")),
                args_hash(ranker(offers, top_k=3)),
            }
        )
        == 5
    )
    search = {"segment_id": "S1", "origin": "EWR", "passengers": {"adults": 4}}
    assert args_hash(search) == args_hash(dict(reversed(list(search.items()))))
    assert args_hash(search) != args_hash({**search, "origin": "JFK"})
    # Searches hash exactly as before, so the fingerprints stored with a trip's quotes still match.
    blob = json.dumps(search, sort_keys=True, default=str, separators=(",", ":"))
    assert args_hash(search) == hashlib.sha256(blob.encode()).hexdigest()[:16]


def old_text_may_hold_secret(blob):
    """The one-pass check before the byte-translated digit test and bare key names."""
    low = blob.casefold()
    if not low.isascii():
        low = low.replace("\u0131", "i").replace("\u0307", "")
    keys = tuple(f'"{key}": ' for key in sorted(R.SENSITIVE_KEYS))
    if any(word in low for word in R.MAYBE_SECRET_WORDS) or any(key in low for key in keys):
        return True
    return R.DIGIT_RUN_RE.search(blob) is not None


texts = st.lists(
    st.one_of(
        fragments,
        st.sampled_from(['"born_on": ', '"Card_Number":', "٤١١١ ١١١١ ١١١١ ١١١١", "-" * 14, " " * 14, "1 2 3 4 5 6 7"]),
        st.text(max_size=6),
    ),
    max_size=12,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(texts)
def test_the_faster_text_check_finds_whatever_the_former_one_found(text):
    if old_text_may_hold_secret(text):
        assert R._text_may_hold_secret(text)
        with mock.patch.object(R, "DEDUPE_ABOVE", 0):  # searched as distinct pieces between quotes
            assert R._text_may_hold_secret(text)


SECRET_VALUES = [
    {"note": "card 4111 1111 1111 1111"},
    {"note": "4111-1111-1111-1111"},
    {"passengers": [{"born_on": "1980-01-02"}]},
    {"Phone_Number": "+1 555 0100"},
    {"remarks": "api key: zzz"},
    {"x": "Bearer abcdefghijklmnopqrstuvwxyz"},
]


def test_a_secret_among_many_repeated_offers_is_still_found_and_masked():
    """Long texts are searched as their distinct pieces between quotes: one secret among a
    thousand copies of a clean offer, first, last or in the middle, is still found."""
    offers = [dict(CLEAN, offer_id=f"off_{i % 7}") for i in range(1000)]
    assert not R._text_may_hold_secret(R.redact_json_text(offers))
    for secret in SECRET_VALUES:
        for at in (0, 500, 999):
            value = {"offers": offers[:at] + [dict(CLEAN, **secret)] + offers[at:]}
            text = R.redact_json_text(value)
            assert len(text) > R.DEDUPE_ABOVE and json.loads(text) == stored(R.redact(value)) != stored(value)
            assert R.MASK in text, secret


def test_ids_with_a_long_run_of_digits_are_stored_as_they_are_and_cards_still_masked():
    """A run of thirteen digits or more with no word a secret needs is masked only as a card number
    (Luhn); ids that merely hold such a run (hex ids now and then) keep the one-pass text."""
    offers = [dict(CLEAN, offer_id=f"off_{i:04d}a1234567890123b") for i in range(300)]  # 13 digits inside a word
    assert R._text_may_hold_secret(json.dumps(offers))
    with mock.patch.object(R, "redact", side_effect=AssertionError("walked")):
        assert R.redact_json_text(offers) == json.dumps(offers, ensure_ascii=False, separators=(",", ":"))
    for value in [
        {"offers": offers, "note": "card 4111 1111 1111 1111"},  # a card: masked
        {"offers": offers, "ids": [4111111111111111]},  # a card-like number: through redact, kept
        {"offers": offers, "4111111111111111": "key"},  # a card-like key: through redact, kept
        {"offers": offers, "n": "4111111111111112 (no card: Luhn)"},
        {"offers": offers, "n": "id 1234567890123 é"},  # not ASCII: through redact
        {"offers": offers, "n": "line\n4111111111111111"},  # an escape: through redact
    ]:
        assert json.loads(R.redact_json_text(value)) == stored(R.redact(value))
    assert R.MASK in R.redact_json_text({"offers": offers, "note": "card 4111 1111 1111 1111"})


def test_card_numbers_are_found_by_the_byte_test_and_in_other_scripts_by_the_regex():
    for blob in ['{"n":"card 4111 1111 1111 1111"}', '{"n":"4111-1111-1111-1111"}', '{"ids":[4111111111111111]}']:
        assert R._text_may_hold_secret(blob), blob
    arabic_indic = "\u0664" + "\u0661" * 15  # 4111 1111 1111 1111 in Arabic-Indic digits (\\d)
    assert R._text_may_hold_secret(json.dumps({"n": arabic_indic}, ensure_ascii=False))
    masked = json.loads(R.redact_json_text({"n": f"card {arabic_indic}"}))
    assert masked == stored(R.redact({"n": f"card {arabic_indic}"})) and arabic_indic not in masked["n"]
    for blob in ['{"at":"2027-01-30T22:20:00-05:00","n":123456789012}', '{"line":"-------------- ok"}']:
        assert not R._text_may_hold_secret(blob), blob


def test_the_stored_text_is_compact_and_sensitive_keys_are_masked_without_spaces_after_colons():
    assert R.redact_json_text(CLEAN) == json.dumps(CLEAN, ensure_ascii=False, separators=(",", ":"))
    for value in [
        {"passengers": [{"born_on": "1980-01-02", "given_name": "Ann"}]},
        {"p": {"Passport_Number": "X1234567"}},
        {"p": {"unique_identifier": "A1"}},
        {"h": {"authorization": "abc"}},
    ]:
        text = R.redact_json_text(value)
        assert json.loads(text) == stored(R.redact(value)) != stored(value) and R.MASK in text, value


def test_values_json_cannot_encode_are_not_stored_silently():
    from decimal import Decimal

    with pytest.raises(TypeError):
        R.redact_json_text({"price": Decimal("1.00")})
    assert json.loads(R.redact_json_text({"x": float("nan")}).replace("NaN", "null")) == {"x": None}


def former_redact_json_text(value):
    """``redact_json_text`` before this change: json looking for cycles, long texts searched as
    their distinct comma-separated pieces."""
    if isinstance(value, (dict, list)):
        try:
            blob = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=R.COMPACT)
        except (TypeError, ValueError):
            pass
        else:
            if not former_text_may_hold_secret(blob):
                return blob
    return json.dumps(R.redact(value), ensure_ascii=False, separators=R.COMPACT)


def former_text_may_hold_secret(blob):
    low = blob.casefold()
    ascii_only = low.isascii()
    if not ascii_only:
        low = low.replace("\u0131", "i").replace("\u0307", "")
    if len(low) > R.DEDUPE_ABOVE:
        low = ",".join(set(low.split(",")))
    if any(word in low for word in R.MAYBE_SECRET_WORDS) or any(key in low for key in R.SENSITIVE_KEY_TEXTS):
        return True
    if ascii_only and R.DIGIT_RUN_MARKED not in low.encode("ascii").translate(R.DIGIT_RUN_MARKS):
        return False
    return R.DIGIT_RUN_RE.search(blob) is not None


class Colour(enum.Enum):
    RED = "red"


class Seats(enum.IntEnum):
    TWO = 2


class Code(str):
    pass


def _nested(depth):
    value = "bottom"
    for _ in range(depth):
        value = [value]
    return value


CLEAN_OFFERS = [dict(CLEAN, offer_id=f"off_{i}", seats_remaining=i % 9) for i in range(400)]
TRICKY = [
    {"text": 'Düsseldorf ✈ 東京 "quoted" \\ back\\slash \n\t\x00\x1f\x7f \u2028\u2029 😀', "empty": ""},
    {"lone": "\ud800 surrogate", "also": ["\udfff"]},
    {"big": [2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, -(2**63), 2**64, -(2**63) - 1, 10**30]},
    {
        "floats": [
            1e16,
            1.5e16,
            1e22,
            -0.0,
            0.0,
            0.1,
            0.30000000000000004,
            1e-05,
            2.5e-08,
            5e-324,
            1.7976931348623157e308,
        ]
    },
    {"nested": [{"a": [{"b": [{"c": None}]}]}, [], {}], "bools": [True, False, None], "t": (1, ("x", [2]))},
    {"order": {"z": 1, "a": 2, "m": {"y": 1, "b": 2}}},
    {1: "int key", 2.5: "float key", False: "bool key", None: "none key"},
    {"deep": _nested(300), "shared": [CLEAN, CLEAN]},
    {"sub": Code("not a plain str"), "od": OrderedDict(b=1, a=2), "seats": Seats.TWO},
    [("a", "tuple"), "list at the top"],
    {"nan": float("nan")},
    {"inf": [1, float("inf")], "minus": -float("inf")},
    {"offers": CLEAN_OFFERS},  # long: searched as pieces
    {"offers": CLEAN_OFFERS + [dict(CLEAN, note="pay with 4111 1111 1111 1111")]},
    {"offers": CLEAN_OFFERS, "rows": [("off_1", "cvv=123"), ("off_2", "Bearer abcdefghijklmnopqrstuvwxyz")]},
]


def finite(value):
    """``value`` as it is stored now: NaN and the infinities as None (json wrote ``NaN``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def former_with_nulls(value):
    """What ``former_redact_json_text`` stored, with its NaN and infinities as null."""
    return json.dumps(finite(json.loads(former_redact_json_text(value))), ensure_ascii=False, separators=R.COMPACT)


def test_the_stored_text_is_exactly_what_it_was():
    """Non-ASCII, escapes, lone surrogates, integers beyond 64 bits, floats, keys that are not
    strings, subclasses, deep nesting, shared values, tuples, long texts with and without a secret:
    the same text, character for character; NaN and infinities are stored as null."""
    for value in TRICKY:
        assert R.redact_json_text(value) == former_with_nulls(value), value
    assert R.redact_json_text({"nan": float("nan")}) == '{"nan":null}'  # json wrote NaN: PostgreSQL refused it
    assert R.redact_json_text({"inf": [1, float("inf")], "k": {1: -float("inf")}}) == '{"inf":[1,null],"k":{"1":null}}'
    masked = json.loads(R.redact_json_text(TRICKY[-1]))
    assert masked["rows"] == [["off_1", f"cvv={R.MASK}"], ["off_2", R.MASK]]
    assert "4111 1111 1111 1111" not in R.redact_json_text(TRICKY[-2])


def test_values_json_refuses_are_still_refused_and_enums_and_uuids_are_stored_as_their_values():
    for value in [{"on": date(2027, 1, 30)}, [{"price": Decimal("1.00")}], {"ids": {1, 2}}, {"b": b"x"}]:
        with pytest.raises(TypeError):
            former_redact_json_text(value)
        with pytest.raises(TypeError):
            R.redact_json_text(value)
    assert R.redact_json_text({"c": Colour.RED, "id": uuid.UUID(int=1)}) == (
        '{"c":"red","id":"00000000-0000-0000-0000-000000000001"}'
    )
    assert R.redact_json_text([Colour.RED, {"k": Seats.TWO}]) == '["red",{"k":2}]'
    holds_itself = {"offers": []}
    holds_itself["offers"].append(holds_itself)
    with pytest.raises(RecursionError):
        former_redact_json_text(holds_itself)
    with pytest.raises(RecursionError):
        R.redact_json_text(holds_itself)


any_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8), fragments),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=3).map(tuple),
        st.dictionaries(
            st.one_of(st.text(max_size=6), st.integers(), st.sampled_from(sorted(R.SENSITIVE_KEYS))),
            children,
            max_size=4,
        ),
    ),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.lists(any_values, max_size=3), st.dictionaries(st.text(max_size=4), any_values, max_size=3)))
def test_any_value_is_stored_as_it_was(value):
    with mock.patch.object(R, "DEDUPE_ABOVE", 0):  # every text searched as its pieces
        assert R.redact_json_text(value) == former_with_nulls(value)
    assert R.redact_json_text(value) == former_with_nulls(value)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=8))
def test_floats_are_written_as_json_wrote_them(floats):
    """orjson writes the same shortest digits; below 0.0001 (other forms) json writes them."""
    value = {"f": floats, "t": [f"{x}" for x in floats]}
    assert R.json_text(value) == json.dumps(value, ensure_ascii=False, separators=R.COMPACT)


def test_a_search_of_many_offers_is_encoded_once_without_json():
    offers = {"offers": [dict(CLEAN, offer_id=f"off_{i:04d}a1234567890123b") for i in range(300)]}
    with mock.patch.object(R.json, "dumps", side_effect=AssertionError("json")):
        text = R.redact_json_text(offers)
    assert text == json.dumps(offers, ensure_ascii=False, separators=R.COMPACT)
    assert R.redact_json(offers) == offers


def test_integers_beyond_64_bits_read_back_exactly():
    """json writes them (orjson cannot); reading the text back must not turn them into floats."""
    value = {"n": [2**70, -(2**63) - 1, 2**64 - 1]}
    assert R.redact_json(value) == value
    assert all(type(n) is int for n in R.redact_json(value)["n"])
