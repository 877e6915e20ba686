"""Buying what is held: the one path by which money moves, as a queued turn like every other.

``purchase_submit`` is what the traveller's "Buy" action calls (through ``actions.traveller_act``,
the one door of the websocket and the API); ``purchase_submit_as_owner`` is the chat's "Pay"
button, which names the granted approval instead of carrying its token. The approval token lives
only in the submitting call's memory: the saved chat message, its event, the audit trail and the
tool-run rows carry the approval's id and the payment method, never the token.

Order of events, and why:

1. At the door, cheap checks (traveller, token or approval, holds, deadlines, payment method) with
   no turn run, so a wrong or invented token never reaches the core and is refused at once with a
   clear reason, audited as ``purchase.refused`` and counted by the per-trip rate limit.
2. Otherwise the purchase is saved as a queued turn (``USER_APPROVED_PURCHASE`` naming the
   approval) and ``run_turn`` is queued after commit: leased, one turn per trip at a time, never
   in the web server's request thread on the scale-out stack, resumed by the turn sweeps if its
   process dies.
3. The worker's purchase turn (``trips.hosting.turns.purchase_turn``) checks again
   (``purchase_recheck``: the world may have moved while it was queued; a used approval answers
   with its booking, so however often a purchase is submitted, one approval makes one booking),
   then runs the core's purchase tool, which claims the approval under its row lock, re-prices,
   buys with a server-derived idempotency key per item and consumes the approval
   (``approvals.approval_consume`` writes the Booking).
4. The outcome (``purchase_outcome``): a price above the ceiling supersedes the approval with a
   new request; a half-failed purchase flags the trip for staff; any other failure is audited and
   the claim given back so the traveller can retry (another card, say).
5. Later, from the beat: a retryable failure half way keeps what it bought so a resubmission can
   finish the trip. If none comes, ``half_purchases.half_purchases_flag`` flags the trip for
   staff and tells the traveller; a purchase whose process died between the supplier and the
   booking is reconciled with the supplier by ``purchase_reconcile.purchases_reconcile``.

Registering a card is ``payment_methods.payment_method_create``.
"""

from .answers import PURCHASE_EVENT, PURCHASE_TOOL
from .door import purchase_submit, purchase_submit_as_owner
from .turn import is_purchase, purchase_answer, purchase_outcome, purchase_recheck, purchase_shown

__all__ = [
    "PURCHASE_EVENT",
    "PURCHASE_TOOL",
    "is_purchase",
    "purchase_answer",
    "purchase_outcome",
    "purchase_recheck",
    "purchase_shown",
    "purchase_submit",
    "purchase_submit_as_owner",
]
