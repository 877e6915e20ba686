"""The organisation's automatic-approval rule, ``policy.rules.auto_approve_below``, in one place.

Off by default (no threshold: every purchase needs an approver). The chat's approval widget
says whether the rule covers a request, so the traveller's page offers the button without
judging policy; ``approval_auto_grant`` applies the same rule again when the button is pressed.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Optional

from trips.models import ApprovalRequest, Organisation


def auto_approve_threshold(organisation: Organisation) -> Optional[Decimal]:
    """Purchases strictly below this total may be approved by the traveller's own request."""
    threshold = ((organisation.policy or {}).get("rules") or {}).get("auto_approve_below")
    if threshold in (None, ""):
        return None
    try:
        return Decimal(str(threshold))
    except InvalidOperation:
        return None  # a malformed policy approves nothing by itself


def auto_approvable(approval: ApprovalRequest) -> bool:
    """Whether the traveller may approve ``approval`` themselves: a pending purchase under the threshold."""
    if approval.kind != ApprovalRequest.Kind.PURCHASE or approval.status != ApprovalRequest.Status.PENDING:
        return False
    threshold = auto_approve_threshold(approval.organisation)
    return threshold is not None and approval.amount_ceiling is not None and approval.amount_ceiling < threshold
