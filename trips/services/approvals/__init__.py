"""Approval requests: created with the server's snapshot, decided by an approver, checked at purchase.

The life of a request: ``pending`` → ``granted`` (a token, shown once) → ``used`` (one booking),
or ``denied`` / ``revoked`` / ``expired`` / ``superseded`` on the way. Each transition is one
function, guarded by a row lock and a status that must match, with its audit event in the
same transaction and its pushes after commit:

- ``requests``: opening a request with its snapshot, closing and expiring requests;
- ``decisions``: an approver's grant, denial or revocation, and the policy's automatic grant;
- ``verification``: what the purchase tool asks (``check``, ``claim``, ``consume``).
"""

from .decisions import (
    DECIDE_PERMISSION,
    approval_auto_grant,
    approval_deny,
    approval_grant,
    approval_revoke,
    approval_token_for_owner,
    approver_check,
)
from .requests import (
    approval_close,
    approval_purchase_offer,
    approval_request_create,
    approvals_expire_due,
    hold_snapshot,
    purchase_snapshot,
)
from .verification import (
    Verdict,
    approval_attempt_failed,
    approval_check,
    approval_claim,
    approval_claim_queued,
    approval_claim_takeover,
    approval_consume,
    approval_release,
    approval_verdict,
    booking_as_core,
)

__all__ = [
    "DECIDE_PERMISSION",
    "Verdict",
    "approval_attempt_failed",
    "approval_auto_grant",
    "approval_check",
    "approval_claim",
    "approval_claim_queued",
    "approval_claim_takeover",
    "approval_close",
    "approval_consume",
    "approval_deny",
    "approval_grant",
    "approval_purchase_offer",
    "approval_release",
    "approval_request_create",
    "approval_revoke",
    "approval_token_for_owner",
    "approval_verdict",
    "approvals_expire_due",
    "approver_check",
    "booking_as_core",
    "hold_snapshot",
    "purchase_snapshot",
]
