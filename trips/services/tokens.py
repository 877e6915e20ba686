"""Approval tokens: issued once, stored only as a keyed hash, compared in constant time.

A token is ``tdk_apv_`` followed by 32 random bytes (``secrets.token_urlsafe``), about 256 bits
of entropy, so guessing one is hopeless and the rate limit only has to stop noise. The
database keeps ``HMAC-SHA256(SECRET_KEY, token)``: a leaked table cannot be turned back into
tokens, and without the key a digest cannot even be checked. The prefix matches
``handlers.common.redact.TOKEN_RE``, so every redaction pass in the core recognises it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from django.conf import settings

TOKEN_PREFIX = "tdk_apv_"
_TOKEN_SHAPE = re.compile(r"^tdk_apv_[A-Za-z0-9_\-]{43}$")


def token_issue() -> tuple[str, str]:
    """A fresh token and its digest: show the token once, store only the digest."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return token, token_digest(token)


def token_digest(token: str) -> str:
    """The keyed hash stored in ``ApprovalRequest.token_hash`` (64 hex characters)."""
    return hmac.new(settings.SECRET_KEY.encode(), token.encode(), hashlib.sha256).hexdigest()


def token_matches(token: str, digest: str) -> bool:
    """Whether ``token`` hashes to ``digest``; constant time so timing reveals nothing."""
    if not digest or not isinstance(token, str):
        return False
    return hmac.compare_digest(token_digest(token), digest)


def token_well_formed(token: object) -> bool:
    """Cheap shape check before any lookup: text typed into chat or junk never gets further."""
    return isinstance(token, str) and bool(_TOKEN_SHAPE.match(token))
