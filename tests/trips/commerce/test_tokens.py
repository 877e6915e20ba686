from handlers.common.redact import TOKEN_RE, redact_text
from trips.services import tokens


def test_a_token_is_long_random_and_recognised_by_the_redactor():
    token, digest = tokens.token_issue()
    other, _ = tokens.token_issue()
    assert token.startswith("tdk_apv_") and len(token) == len("tdk_apv_") + 43
    assert token != other
    assert TOKEN_RE.fullmatch(token)
    assert token not in redact_text(f"my token is {token}")
    assert tokens.token_well_formed(token)


def test_only_the_keyed_digest_is_kept_and_it_matches_only_its_token(settings):
    token, digest = tokens.token_issue()
    assert token not in digest and len(digest) == 64
    assert tokens.token_matches(token, digest)
    assert not tokens.token_matches(token[:-1] + ("A" if token[-1] != "A" else "B"), digest)
    assert not tokens.token_matches(token, "")
    settings.SECRET_KEY = "another-key"
    assert not tokens.token_matches(token, digest), "the digest depends on SECRET_KEY"


def test_shapes_that_are_not_tokens_are_rejected_before_any_lookup():
    for junk in ("", "abc", "approval_token=abc", "tdk_apv_short", None, 42, "tdk_apv_" + "x" * 43 + "!"):
        assert not tokens.token_well_formed(junk)
