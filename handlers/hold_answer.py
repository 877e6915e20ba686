"""Talk about what is held: an answer from the holds and the approval request for text that changed nothing.

While something is on hold, "has my manager approved yet?", "approve it", "how long do we have?"
and "how do I pay?" are about the hold, not about the options still on screen. The answer is
built from the trip alone: the core knows the approval it asked for, not the approver's decision
(that reaches the chat as the approval card changes), so it says where the answer will show. No
text approves or buys anything (the router refuses purchase texts before they get here).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional

from .trip_read import earliest_deadline
from .wording import held_text, money

# "approve it", "can you approve this?", "just approve it for me": asking the desk to approve
_ASKS_TO_APPROVE = re.compile(
    r"^(?:(?:ok(?:ay)?|so|please|pls|just|can|could|would|will)\s+)*(?:you\s+)?(?:please\s+)?(?:just\s+)?approve\b"
    r"|\b(?:can|could|would|will)\s+you\s+(?:just\s+)?approve\b"
)
# "has my manager approved yet?", "any word from the approver?", "what's the status?"
_APPROVAL = re.compile(
    r"\b(?:approv\w*|manager|boss|sign[- ]?off|signed\s+off|heard\s+back|hear\s+back|any\s+(?:news|word|update)s?"
    r"|status|waiting|still\s+pending|pending|what\s+(?:now|next)|what\s+happens\s+(?:now|next))\b"
)
# "how long do we have?", "when does the hold expire?", "until when is it held?"
_DEADLINE = re.compile(
    r"\b(?:how\s+long|until\s+when|till\s+when|deadline|expir\w*|lapse\w*|run\s+out|time\s+left|by\s+when"
    r"|when\s+(?:do|must|should)\s+(?:i|we)\s+pay|pay\s+by)\b"
)
# "how do I pay?", "where do I put my card?"
_PAYING = re.compile(r"\b(?:how\s+(?:do|can|should)\s+(?:i|we)\s+(?:pay|buy|book|check\s*out)|pay\w*|card|checkout)\b")


def held_answer(
    text: str, doc: Dict[str, Any], held: List[Dict[str, Any]], local: Callable[[Optional[str]], str]
) -> Optional[str]:
    """What the holds and the approval request say about ``text``; None when it is not about them."""
    low = re.sub(r"\s+", " ", (text or "").strip().lower())
    if not low:
        return None
    if not held:  # "has my boss approved it yet?" before anything is held: nothing went to the approver
        if (
            _ASKS_TO_APPROVE.search(low)
            or _APPROVAL.search(low)
            and re.search(r"\b(?:approv\w*|sign[- ]?off|signed\s+off)\b", low)
        ):
            return (
                "Nothing is on hold yet, so nothing has gone to your approver. Pick an option and say 'hold': "
                "the hold is what asks your approver, and once they say yes you pay here."
            )
        return None
    deadline = local(earliest_deadline(held))
    approval = doc["working_memory"].get("approval") or {}
    asked = approval.get("status") == "requested"
    amount = money(approval.get("amount"), approval.get("currency")) if asked else ""
    waiting = (
        f"I've asked your approver to approve {amount}; their answer shows on the approval card here as soon as "
        f"they give it, and then you can pay with 'Review and pay' before {deadline}."
    )
    if _ASKS_TO_APPROVE.search(low):
        only = "Only your approver can approve a purchase, not me and not a chat message."
        return f"{only} {waiting}" if asked else f"{only} Nothing is waiting for approval right now."
    if _DEADLINE.search(low):
        return f"{held_text(doc, held, local)} Nothing is bought until you pay; say 'cancel the hold' to let it go."
    if _PAYING.search(low):
        if asked:
            return waiting
        return f"Pay with 'Review and pay' before {deadline}; you'll need your approver's yes on the approval card."
    if _APPROVAL.search(low):
        if asked:
            return f"{waiting} Nothing is bought until then."
        return f"{held_text(doc, held, local)} Nothing is waiting for approval right now."
    return None
