"""The decision class: one Reducer pass, with the results, failures and retry that span intake and commerce."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Dict

from ..tool_calls import SEARCH_TOOLS, work_pending
from ..trip_read import earliest_deadline, live_holds, travellers
from ..wording import booked_text, error_message, held_text
from .commerce import Commerce


class Decision(Commerce):
    """One Reducer pass: the event handlers (``on_<event type>``), collecting calls and messages in ``out``."""

    # -- results ------------------------------------------------------------------------------
    def on_tool_result(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        tool, output, applied = data.get("tool_name"), data.get("output") or {}, data.get("applied") or {}
        if tool == "trip_requirements_extract":
            self._after_extract(doc, data, applied, now)
        elif tool in SEARCH_TOOLS:
            self.plan(doc, now, user_asked=False, just_ranked=tool == "trip_option_ranker")
        elif tool == "policy_and_risk_check":
            self.after_check(doc, doc["working_memory"]["risk_report"] or output, now)
        elif tool == "reservation_hold_create":
            held = live_holds(doc, now)
            deadline = earliest_deadline(held)
            self.say(
                f"{held_text(doc, held, lambda at: self.local(doc, at))} Once your approver says yes, you can pay "
                f"here before {self.local(doc, deadline)}.",
                {"type": "holds", "holds": held, "earliest_deadline": deadline},
            )
        elif tool == "reservation_hold_release":
            args = (data.get("call") or {}).get("arguments") or {}
            n = len(args.get("hold_ids") or [])
            if args.get("reason") not in ("traveller_released", "selection_changed"):  # said when asked
                self.say(f"Released {n} hold{'s' if n != 1 else ''} at the supplier.", kind="status")
        elif tool == "booking_confirm_and_purchase":
            booking = output.get("booking") or {}
            again = " (this purchase was already done; nothing was charged twice)" if output.get("replayed") else ""
            self.say(f"Booked{again}: {booked_text(doc, booking)}", {"type": "booking", "booking": booking})
        elif tool == "booking_cancel":
            self.say(self._cancel_text(doc, output), {"type": "cancellation", **output})

    # -- failures -----------------------------------------------------------------------------
    def on_tool_error(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        tool, error = data.get("tool_name") or "tool", data.get("error") or {}
        code, retryable = error.get("code", "tool_failed"), bool(error.get("retryable"))
        if tool == "booking_confirm_and_purchase":
            self._purchase_error(doc, code, error)
            return
        if tool == "reservation_hold_create" and code == "offer_expired":
            self._requote(doc, now)
            return
        if tool == "reservation_hold_create" and code == "passengers_missing":
            self._ask_travellers(doc, (data.get("call") or {}).get("arguments") or {})
            return
        what = tool.replace("_", " ")
        text = f"The {what} didn't work: {str(error.get('message') or code).rstrip('.')}."
        text += " Say 'try again' to retry." if retryable else " I can't retry that one; tell me what to change."
        self.out["ui_messages"].append(error_message(code, text, retryable))

    def _ask_travellers(self, doc: Dict[str, Any], hold_args: Dict[str, Any]) -> None:
        """The supplier needs everyone's name before it holds: the chat asks with the travellers
        card (the page fills it from the profile and companions; the core never sees a name), and
        the hold the traveller asked for carries on once the card is saved."""
        party = travellers(doc)
        seats = party["adults"] + party["children"] + party["infants"]
        self.say(
            f"Before the airline or hotel can hold anything I need the name of {'everyone' if seats > 1 else 'the traveller'}"
            " exactly as on their passport or ID. Fill in the card below; the hold carries on as soon as you save it.",
            {"type": "travellers", "bundle_id": hold_args.get("bundle_id"), "travelers": party},
        )

    def on_user_retry(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        err = doc["working_memory"].get("last_error")
        if not err:
            if work_pending(doc):
                self.plan(doc, now, user_asked=True)
            else:
                self.say("There's nothing to retry right now.")
            return
        if not err.get("retryable"):
            self.say(f"The last problem ({err.get('message') or err.get('code')}) isn't fixed by retrying.")
            return
        doc["working_memory"]["last_error"] = None
        if err["tool"] in SEARCH_TOOLS:
            self.plan(doc, now, user_asked=True)
        elif err["tool"] == "booking_confirm_and_purchase":
            self.say("Pay again from the approval card to finish the purchase; nothing is charged twice.")
        elif err["tool"] == "booking_cancel":  # a lapsed refund quote is asked for afresh
            booking_id = ((err.get("call") or {}).get("arguments") or {}).get("booking_id")
            self.call("booking_cancel", {"booking_id": booking_id, "action": "quote"})
        else:
            call = err.get("call") or {}
            self.call(err["tool"], call.get("arguments") or {})
