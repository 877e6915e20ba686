"""Select, hold, buy and cancel: the Reducer's steps once bundles are on screen."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any, Dict, List, Optional, Tuple

from ..options_answer import choice_line
from ..patcher import EMPTY_SELECTION
from ..tool_calls import hold_args
from ..trip_read import earliest_deadline, expire_lapsed, live_holds, offers_lapsed, unbooked_purchases, unheld_items
from ..wording import describe_items, error_message, findings, money
from .intake import Intake


class Commerce(Intake):
    """Commerce steps of a Reducer pass: they build on quoting (an expired offer is searched again)."""

    def _show_risk(self, report: Dict[str, Any], *, holding: bool = False, buying: bool = False) -> None:
        """The policy check's card; ``holding``: the traveller asked to hold it too, which follows;
        ``buying``: they asked to book it ("book B2"), so the card says how booking goes on, once."""
        widget = {"type": "risk", **{k: report.get(k) for k in ("bundle_id", "ok", "blocking", "warnings")}}
        if report.get("ok"):
            # The card lists what is worth knowing (the terminal chat prints the same list under
            # the line): the sentence counts the notes rather than running them together with ";".
            notes = len([w for w in report.get("warnings") or [] if isinstance(w, dict) and w.get("message")])
            before = "on the card" if holding else "before you hold it"
            worth = f", with {notes} thing{'s' if notes != 1 else ''} worth knowing {before}" if notes else ""
            then = "Holding it now." if holding else "Say 'hold' to hold it."
            if buying and holding:
                then = "I'm holding it now, which is how booking starts; nothing is bought from a chat message."
            elif buying:
                then = (
                    "To book it: say 'hold' and I hold it while your approver decides; once they say yes, you pay "
                    "here with the button that names the amount. Nothing is bought from a chat message."
                )
            chosen = " is chosen and" if buying else ""
            text = f"{report.get('bundle_id')}{chosen} is within policy{worth}. {then}"
        else:
            blocking = findings(report.get("blocking"))
            text = f"{report.get('bundle_id')} can't be held: {blocking}. Pick another bundle or change the trip."
        self.say(text, widget)

    def _cancel_text(self, doc: Dict[str, Any], output: Dict[str, Any]) -> str:
        """A cancellation in money: what comes back, and before confirming, what is lost."""
        currency = output.get("currency")
        refund = money(output.get("refund_amount"), currency)
        if output.get("status") == "cancelled" or output.get("cancelled"):
            return f"Cancelled. {refund} will be refunded."
        lost = output.get("lost_amount")
        if lost is not None and float(lost) > 0:
            what = (
                f"Cancelling now refunds {refund} of the {money(output.get('paid_amount'), currency)} paid; "
                f"you would lose {money(lost, currency)} (non-refundable fares and cancellation fees)."
            )
        elif lost is not None:
            what = f"Cancelling now refunds everything paid, {refund}; you lose nothing."
        else:
            what = f"Cancelling now refunds {refund}."
        until = (
            f" This quote is valid until {self.local(doc, output['expires_at'])}." if output.get("expires_at") else ""
        )
        return f"{what}{until} Confirm to cancel."

    # -- failures -----------------------------------------------------------------------------
    def _requote(self, doc: Dict[str, Any], now: datetime) -> None:
        """Offers live minutes, holds hours: an offer that lapsed can't be held again, so search again.

        The fresh bundles replace the old ones, so a hold still live from the old bundle belongs
        to nothing on screen any more: it is released rather than left to block space.
        """
        wm = doc["working_memory"]
        stale = live_holds(doc, now)
        if stale:
            wm["holds"] = [h for h in wm["holds"] if h not in stale]
            self.call(
                "reservation_hold_release", {"hold_ids": [h["hold_id"] for h in stale], "reason": "offers_expired"}
            )
        wm.update(
            flight_quotes=[],
            hotel_quotes=[],
            ranked_bundles=[],
            ranking=None,
            risk_report=None,
            selected=dict(EMPTY_SELECTION),
            last_error=None,
        )
        released = f", so I released {describe_items(stale)} hold and" if stale else ", so"
        self.say(
            f"The prices I had for this trip have expired at the supplier{released} I'm searching again for current prices.",
            kind="status",
        )
        self.plan(doc, now, user_asked=False)

    def _purchase_error(self, doc: Dict[str, Any], code: str, error: Dict[str, Any]) -> None:
        """Say what the purchase left behind. The tool's own words when it bought, voided or found a
        hold ended (they name the items and what happened to each); short fixed words otherwise."""
        texts = {
            "price_changed": "The price went up above what your approver approved, so nothing was bought. A new approval is needed for the new total.",
            "approval_invalid": "That approval token isn't valid for these holds, so nothing was bought.",
            "approval_expired": "That approval has expired, so nothing was bought. Ask your approver for a new one.",
            "approval_used": "That approval token has already been used, so nothing was bought.",
            "payment_invalid": "That payment method can't be used for this trip, so nothing was bought.",
            "partial_failure": "Part of the purchase failed. Support staff have been alerted and will sort it out; you won't be left with half a trip.",
        }
        retryable = bool(error.get("retryable"))
        told = code != "partial_failure" and any(error.get(k) for k in ("voided_orders", "bought_orders", "ended"))
        text = (
            error.get("message") if told else texts.get(code)
        ) or f"The purchase didn't go through: {error.get('message') or code}."
        if error.get("voided_orders") and code not in ("partial_failure", "hold_expired"):
            text += " Pick an option and say 'hold' to start again."
        self.out["ui_messages"].append(error_message(code, text, retryable))
        if code == "price_changed":
            self.out["audit"].append({"type": "approval_needs_renewal", "new_total": error.get("new_total")})

    def _bundle(self, doc: Dict[str, Any], bundle_id: Any) -> Optional[Dict[str, Any]]:
        return next((b for b in doc["working_memory"]["ranked_bundles"] if b.get("bundle_id") == bundle_id), None)

    def on_user_message(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        if data.get("purchase_text_refused") and data.get("buy_wish"):
            # "book B2": nothing typed buys (recorded as refused), but the pick is taken and the way on told
            self.out["audit"].append({"type": "purchase_text_refused", "text": (data.get("text") or "")[:500]})
            self._buy_in_words(doc, data, now)
            return
        super().on_user_message(doc, data, now)

    def _buy_in_words(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        """A traveller's "book B2" / "buy it": the option named is chosen (and held when they said
        hold), and they are told how booking goes on: a hold, their approver's yes, then the pay
        button. No purchase is ever made from these words."""
        bundle_id = data.get("bundle_id")
        held = live_holds(doc, now)
        chosen = (doc["working_memory"].get("selected") or {}).get("bundle_id")
        if bundle_id and held and bundle_id != chosen:
            # "book B3" while B1 is held: B3 replaces B1 (said), and is held in its place
            self.on_user_selected_bundle(doc, {"bundle_id": bundle_id, "hold": True}, now)
            return
        if bundle_id and not held:
            # the policy check's card says how booking goes on (one answer, not a second "say 'hold'")
            doc["working_memory"]["buy_after_check"] = bundle_id
            self.on_user_selected_bundle(doc, {"bundle_id": bundle_id, "hold": data.get("hold")}, now)
            return
        self.say(self.next_step(doc, now, thanked=False))

    def on_user_selected_bundle(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        if self._purchase_unfinished(doc):
            return
        bundle_id = data.get("bundle_id")
        bundle = self._bundle(doc, bundle_id)
        if bundle is None:
            self.say(f"{bundle_id} isn't one of the bundles on screen, so nothing changed.")
            return
        wm = doc["working_memory"]
        if isinstance(data.get("because"), dict):  # chosen by words: "a cheaper hotel", "only in-policy options"
            before = self._bundle(doc, data["because"].get("instead_of"))
            self.say(choice_line(data["because"], bundle, before), kind="status")
        report = wm.get("risk_report") or {}
        # "hold B2", "lets do B3 and hold it": the hold follows the policy check if it passes
        wm["hold_after_check"] = bundle_id if data.get("hold") else None
        if wm["selected"].get("bundle_id") == bundle_id and report.get("bundle_id") == bundle_id:
            self.after_check(doc, report, now)
            return
        stale = [h for h in wm["holds"] if h.get("status") == "held"]
        if stale and wm["selected"].get("bundle_id") != bundle_id:
            wm["holds"] = [h for h in wm["holds"] if h not in stale]
            asked, wm["approval"] = bool(wm.get("approval")), None
            self.call(
                "reservation_hold_release", {"hold_ids": [h["hold_id"] for h in stale], "reason": "selection_changed"}
            )
            # a switch is said with what it gives up: "B3 instead of B1: released B1's hold on the 2 flights…"
            was = str(wm["selected"].get("bundle_id") or "")
            self.say(
                (f"{bundle_id} instead of {was}: released {was}'s hold on " if was else "Released the hold on ")
                + f"{describe_items(stale)}; nothing was bought"
                + (" and the approval asked for it is withdrawn" if asked else "")
                + (f". Say 'hold {was}' to go back to it." if was else "."),
                kind="status",
            )
        wm["selected"] = {
            "bundle_id": bundle_id,
            "flight_option_id": [f.get("offer_id") for f in bundle.get("flights") or []] or None,
            "hotel_option_id": [h.get("rate_id") for h in bundle.get("hotels") or []] or None,
        }
        wm["risk_report"] = None
        wm["discussed"] = None  # "is that refundable?" now means the chosen one
        doc["status"].update(phase="selected", state="running")
        self.call(
            "policy_and_risk_check",
            {
                "bundle": bundle,
                "policy": copy.deepcopy(doc.get("policy") or {}),
                "constraints": copy.deepcopy(doc.get("constraints") or {}),
                "party": copy.deepcopy(doc.get("party") or {}),
            },
        )

    def after_check(self, doc: Dict[str, Any], report: Dict[str, Any], now: datetime) -> None:
        """The policy check's card, then the hold the traveller asked for with the pick (if it passed)."""
        wm = doc["working_memory"]
        holding = wm.pop("hold_after_check", None) == report.get("bundle_id") and bool(report.get("ok"))
        buying = wm.pop("buy_after_check", None) == report.get("bundle_id")
        self._show_risk(report, holding=holding, buying=buying)
        if holding:
            self.on_user_request_hold(doc, {}, now)

    def _hold_blocker(self, doc: Dict[str, Any], now: datetime) -> Tuple[Optional[str], Optional[Dict[str, Any]]]:
        """Why a hold can't be placed now (None if it can), and the selected bundle."""
        wm = doc["working_memory"]
        if wm["bookings"] and any(b.get("status") != "cancelled" for b in wm["bookings"]):
            return "This trip is already booked.", None
        bundle = self._bundle(doc, wm["selected"].get("bundle_id"))
        if bundle is None:
            return "Pick a bundle first (say 'B1' or tap one), then say 'hold'.", None
        report = wm.get("risk_report") or {}
        if report.get("bundle_id") != bundle["bundle_id"]:
            return f"The policy check for {bundle['bundle_id']} isn't current; select it again to re-check it.", bundle
        if not report.get("ok"):
            blocking = findings(report.get("blocking"))
            return f"{bundle['bundle_id']} can't be held: {blocking or 'it failed the policy check'}.", bundle
        return None, bundle

    def _purchase_unfinished(self, doc: Dict[str, Any]) -> bool:
        """Items an interrupted purchase bought pin the trip to that purchase until it is submitted again."""
        paid = unbooked_purchases(doc)
        if paid:
            self.say(
                f"A purchase is half done: {describe_items(paid)} {'is' if len(paid) == 1 else 'are'} already bought. "
                "Pay again from the approval card to finish it; nothing is charged twice."
            )
        return bool(paid)

    def on_user_request_hold(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        if self._purchase_unfinished(doc):
            return
        reason, bundle = self._hold_blocker(doc, now)
        if reason or bundle is None:  # no reason always comes with a bundle
            self.say(reason or "")
            return
        wm = doc["working_memory"]
        held = live_holds(doc, now)
        items = unheld_items(bundle, held)
        if not items:
            deadline = earliest_deadline(held)
            self.say(
                f"{bundle['bundle_id']} is already on hold, until {self.local(doc, deadline)}.",
                {"type": "holds", "holds": held, "earliest_deadline": deadline},
            )
            return
        expire_lapsed(doc, now)
        if offers_lapsed(bundle, items, now):
            if held:
                wm["approval"] = {**(wm.get("approval") or {}), "status": "void"}
            self._requote(doc, now)
            return
        if held:
            self._rehold_note(doc, bundle, held, items)
        rules = (doc.get("policy") or {}).get("rules") or {}
        if rules.get("holds_allowed_without_approval") is False:
            wm["hold_request"] = {"bundle_id": bundle["bundle_id"], "status": "pending"}
            doc["status"].update(phase="awaiting_hold_approval", state="blocked")
            self.say(
                f"Your organisation needs an approver's yes before holds. I've sent {bundle['bundle_id']} "
                f"({money(bundle.get('total'), bundle.get('currency'))}) to the approver queue.",
                {
                    "type": "hold_request",
                    "bundle_id": bundle["bundle_id"],
                    "total": bundle.get("total"),
                    "currency": bundle.get("currency"),
                    "items": items,
                },
            )
            self.out["audit"].append({"type": "hold_approval_requested", "bundle_id": bundle["bundle_id"]})
            return
        self.call("reservation_hold_create", hold_args(doc, bundle, items))

    def _rehold_note(
        self, doc: Dict[str, Any], bundle: Dict[str, Any], held: List[Dict[str, Any]], items: List[Dict[str, Any]]
    ) -> None:
        """Part of the bundle is still held: keep it (never give up space we have) and hold the rest again.

        The approval covered the old set of holds, so it is void: the new set needs a new yes.
        """
        doc["working_memory"]["approval"] = {**(doc["working_memory"].get("approval") or {}), "status": "void"}
        kept, gone = describe_items(held), describe_items(items)
        self.say(
            f"{gone[0].upper() + gone[1:]} in {bundle['bundle_id']} {'is' if len(items) == 1 else 'are'} no longer held, but "
            f"{kept} {'is' if len(held) == 1 else 'are'} still held until {self.local(doc, earliest_deadline(held))}, so I'm keeping "
            f"{'it' if len(held) == 1 else 'them'} and holding {gone} again. The approval for the old holds no longer works; "
            "the new set needs your approver's yes.",
            kind="status",
        )

    def on_hold_approval_decided(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        wm = doc["working_memory"]
        request = wm.get("hold_request") or {}
        if request.get("status") != "pending":
            self.say("There is no hold request waiting for a decision.")
            return
        if not data.get("approved"):
            wm["hold_request"] = {**request, "status": "denied", "reason": data.get("reason")}
            doc["status"].update(phase="selected", state="needs_input")
            self.say(
                f"Your approver declined the hold{': ' + data['reason'] if data.get('reason') else ''}. Pick another bundle or change the trip."
            )
            return
        reason, bundle = self._hold_blocker(doc, now)
        if reason or bundle is None or bundle["bundle_id"] != request.get("bundle_id"):
            wm["hold_request"] = {**request, "status": "stale"}
            self.say(
                f"Your approver said yes, but the trip changed since the request, so no hold was placed. {reason or ''}".strip()
            )
            return
        wm["hold_request"] = {**request, "status": "approved"}
        self.call("reservation_hold_create", hold_args(doc, bundle, unheld_items(bundle, live_holds(doc, now))))

    def on_user_release_holds(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        """ "cancel the hold": the traveller gives the held space back; nothing was bought, so nothing is lost.

        The holds are written down as released at once (as support's release is), the approval asked
        for them no longer works, and the supplier is told; the options stay on screen to hold again.
        """
        wm = doc["working_memory"]
        held = live_holds(doc, now)
        if not held:
            self.say("Nothing is on hold right now, so there is nothing to release.")
            return
        for hold in held:
            hold["status"] = "released"
        if (wm.get("approval") or {}).get("status") not in (None, "used"):
            wm["approval"] = {**wm["approval"], "status": "void"}
        if doc["status"].get("phase") in ("held", "approved", "awaiting_hold_approval"):
            doc["status"].update(phase="selected", state="needs_input")
        self.call(
            "reservation_hold_release", {"hold_ids": [h["hold_id"] for h in held], "reason": "traveller_released"}
        )
        bundle_id = wm["selected"].get("bundle_id")
        again = (
            f" Say 'hold' to hold {bundle_id} again, or pick another option." if self._bundle(doc, bundle_id) else ""
        )
        self.say(
            f"Released {describe_items(held)}. Nothing was bought, and the approval asked for them is withdrawn.{again}",
            {"type": "holds", "holds": held, "earliest_deadline": None},
        )

    def on_holds_changed(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        """The host released or expired holds outside a turn (staff, the deadline task): write it down and say so.

        Holds past their deadline are written down in the same pass, so the events for a
        trip's other lapsed holds find nothing left to change and stay quiet.
        """
        wm = doc["working_memory"]
        status = data.get("status") if data.get("status") in ("released", "expired") else "released"
        named = set(data.get("hold_ids") or [])
        changed = [h for h in wm["holds"] if h.get("hold_id") in named and h.get("status") == "held"]
        for hold in changed:
            hold["status"] = status
        changed += expire_lapsed(doc, now)
        if not changed:
            return
        if (wm.get("approval") or {}).get("status") not in (None, "used"):
            wm["approval"] = {**wm["approval"], "status": "void"}
        if doc["status"].get("phase") in ("held", "approved"):
            doc["status"].update(phase="selected", state="needs_input")
        what = describe_items(changed)
        verb = "is" if len(changed) == 1 else "are"
        why = (
            f"support released {'it' if len(changed) == 1 else 'them'}"
            if status == "released"
            else "the hold deadline passed"
        )
        reason = str(data.get("reason") or "").strip()
        text = f"{what[0].upper() + what[1:]} {verb} no longer on hold: {why}{' (' + reason + ')' if reason and status == 'released' else ''}."
        text += " Nothing was bought, and the approval for these holds no longer works."
        bundle_id = wm["selected"].get("bundle_id")
        if bundle_id and self._bundle(doc, bundle_id):
            text += f" Say 'hold' to hold {bundle_id} again."
        self.say(
            text,
            {"type": "holds", "holds": changed, "earliest_deadline": earliest_deadline(live_holds(doc, now))},
            kind="status",
        )

    def on_user_approved_purchase(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        wm = doc["working_memory"]
        lapsed = expire_lapsed(doc, now)
        paid = unbooked_purchases(doc)
        if paid:  # an interrupted purchase: only the tool can finish it (or, if a hold lapsed, undo it)
            self._purchase(doc, data, [h for h in wm["holds"] if h in paid or h in lapsed or h in live_holds(doc, now)])
            return
        held = live_holds(doc, now) or self._bought_holds(doc)
        bundle = self._bundle(doc, wm["selected"].get("bundle_id"))
        if held and not self._bought_holds(doc) and (bundle is None or unheld_items(bundle, held)):
            wm["approval"] = {**(wm.get("approval") or {}), "status": "void"}
            doc["status"].update(phase="selected", state="needs_input")
            text = (
                f"Only part of {bundle['bundle_id']} is on hold ({describe_items(held)}), so nothing was bought: I never buy half "
                f"a trip. Say 'hold' to hold {describe_items(unheld_items(bundle, held))} again."
                if bundle
                else "What's on hold no longer matches an option on screen, so nothing was bought. Pick an option and say 'hold'."
            )
            self.out["ui_messages"].append(error_message("hold_incomplete", text))
            return
        if lapsed or not held:
            if lapsed or any(h.get("status") == "expired" for h in wm["holds"]):
                wm["approval"] = {**(wm.get("approval") or {}), "status": "void"}
                doc["status"].update(phase="selected", state="needs_input")
                gone = f"Your hold on {describe_items(lapsed)} has" if held else "Your holds have"
                self.out["ui_messages"].append(
                    error_message(
                        "hold_expired",
                        f"{gone} expired, so nothing was bought and that approval no longer works. Say 'hold' to hold again.",
                    )
                )
            else:
                self.say("There's nothing on hold to buy. Pick a bundle and say 'hold' first.")
            return
        self._purchase(doc, data, held)

    def _purchase(self, doc: Dict[str, Any], data: Dict[str, Any], holds: List[Dict[str, Any]]) -> None:
        if not data.get("approval_token") or not data.get("payment_method_id"):
            self.say("To buy, enter your approver's token and choose a payment method in the purchase form.")
            return
        total = sum(float((h.get("held_total") or {}).get("amount") or 0) for h in holds)
        self.call(
            "booking_confirm_and_purchase",
            {
                "trip_id": doc.get("trip_id"),
                "hold_ids": [h["hold_id"] for h in holds],
                "approval_token": data["approval_token"],
                "payment_method_id": data["payment_method_id"],
                "expected_total": f"{total:.2f}",
                "currency": next(((h.get("held_total") or {}).get("currency") for h in holds), None)
                or doc["constraints"].get("currency"),
            },
        )

    @staticmethod
    def _bought_holds(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
        """The holds of an active booking: submitting its purchase again replays the same booking."""
        if not any(b.get("status") != "cancelled" for b in doc["working_memory"]["bookings"]):
            return []
        return [h for h in doc["working_memory"]["holds"] if h.get("status") == "purchased"]

    def on_user_cancel_booking(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        booking_id = data.get("booking_id")
        if not any(
            b.get("booking_id") == booking_id and b.get("status") != "cancelled"
            for b in doc["working_memory"]["bookings"]
        ):
            self.say(f"There's no active booking {booking_id} on this trip.")
            return
        args = {"booking_id": booking_id, "action": "confirm" if data.get("quote_id") else "quote"}
        if data.get("quote_id"):
            args["quote_id"] = data["quote_id"]
        self.call("booking_cancel", args)
