"""The one door for a traveller's action, whichever way it came in (websocket or API).

``traveller_act`` takes a ``TravellerAction`` already validated by the one schema
(``trips.web.protocol.traveller_action_parse``) and hands it to its service: a purchase to
``purchase_submit`` (it carries an approval token, never stored), an automatic approval to
``approval_auto_grant`` (no message of the traveller's; the token goes back once), everything
else — a message, select, hold, retry, cancel a booking — to ``turn_submit``. Only the trip's
traveller may act: each of those services checks it (``trips.access.may_write_in``) and the
automatic approval audits a refused attempt, so the check is theirs, not repeated here.
"""

from dataclasses import dataclass
from typing import Optional, Protocol

from django.utils import timezone

from trips.models import ChatMessage, Trip

from .approvals import approval_auto_grant
from .purchases import purchase_submit, purchase_submit_as_owner
from .turns import turn_submit


class TravellerAction(Protocol):
    """What ``trips.web.protocol.traveller_action_parse`` returns (the one schema)."""

    client_id: Optional[str]
    text: Optional[str]
    action: Optional[dict[str, str]]

    @property
    def kind(self) -> str: ...


@dataclass(frozen=True)
class ActOutcome:
    message: Optional[ChatMessage] = None  # the traveller's saved message or button press
    approval_token: Optional[str] = None  # an automatic approval's token, returned once (None: a repeated press)


def traveller_act(*, trip: Trip, user, act: TravellerAction) -> ActOutcome:
    if act.kind == "auto_approve":
        return ActOutcome(approval_token=approval_auto_grant(trip=trip, user=user, now=timezone.now()))
    if act.kind == "purchase" and not act.action.get("approval_token"):
        # The chat's Pay button: the approval it named, a token re-issued to the owner on the server.
        message = purchase_submit_as_owner(
            trip=trip,
            user=user,
            approval_id=act.action.get("approval_id", ""),
            payment_method_id=act.action["payment_method_id"],
            client_id=act.client_id,
        )
        return ActOutcome(message=message)
    if act.kind == "purchase":
        message = purchase_submit(
            trip=trip,
            user=user,
            approval_token=act.action["approval_token"],
            payment_method_id=act.action["payment_method_id"],
            client_id=act.client_id,
        )
        return ActOutcome(message=message)
    return ActOutcome(
        message=turn_submit(trip=trip, user=user, text=act.text, action=act.action, client_id=act.client_id)
    )
