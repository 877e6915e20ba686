"""Intake and quoting: ask for what is missing, run the searches and the ranker, present the bundles."""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any, Callable, Dict, List, Sequence, Tuple

from ..applier import MAX_BUNDLES_ON_SCREEN, MAX_BUNDLES_WITH_MORE
from ..common.clock import day_text, local_today
from ..common.question_form import is_question
from ..echo import echo_line
from ..extract.origins import origins_question
from ..extract.party import UM_FROM_AGE, ages_question, children_named
from ..extract.patch import ELIDED, REVERTIBLE
from ..extract.prefs import (
    asks_for_assistance,
    asks_for_car,
    asks_for_hotel,
    asks_for_past_trip,
    asks_for_seats,
    bags_wished,
    dates_flexible,
    unsearchable_hotel_features,
)
from ..hold_answer import held_answer
from ..language import ENGLISH_ONLY, ENGLISH_PARTLY, looks_non_english
from ..options_answer import (
    ABOUT_ME,
    COMPLAINED,
    HINT,
    PAUSED,
    REJECTED,
    acknowledged,
    answer_about_options,
    answered_pick,
    asks_about_me,
    asks_to_see_options,
    cancel_note,
    complains,
    hotels_in,
    mix_answer,
    named_options,
    no_airline_answer,
    no_flight_at_answer,
    nothing_cheaper,
    options_again,
    paid_at_once,
    referent,
    rejects_options,
    remember_discussed,
    thanked,
    unseen_answer,
    what_is_wrong,
    whole_message,
)
from ..patcher import value_at
from ..quotes import found
from ..quotes import items as quote_items
from ..router import says_wrong
from ..tool_calls import failed_before, pending_searches, ranker_args, ranking_key, tool_call, work_pending
from ..trip_read import earliest_deadline, live_holds, missing_slots, segments_of, stays_of, travellers
from ..wording import (
    ADULTS_FOR_A_CHILD,
    ADULTS_FOR_A_SMALL_CHILD,
    ASSISTANCE_CANNOT,
    BAGS_CANNOT,
    CAR_CANNOT,
    PAST_TRIP_CANNOT,
    PURCHASE_REFUSAL,
    QUESTIONS,
    SEATS_CANNOT,
    amenities_line,
    area_kind_line,
    bundle_line,
    bundles_line,
    bundles_widget,
    error_message,
    findings,
    flexible_dates_line,
    hotel_already_line,
    known_so_far,
    preference_words,
    segment_route,
    stay_place,
    trip_summary,
    unknown_place_line,
)
from .base import DecisionBase

MAX_QUESTIONS = 3
ORDINAL_WORDS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
MAX_TEXT_CHARS = 20000  # the extractor's schema limit


# Wishes no search can meet ("aisle seats", "2 checked bags each", "same hotel as last time", "she uses
# a wheelchair", "and a rental car"): each detector with the sentence that says so.
_CANNOT: Tuple[Tuple[Callable[[str], bool], str], ...] = (
    (asks_for_seats, SEATS_CANNOT),
    (bags_wished, BAGS_CANNOT),
    (asks_for_past_trip, PAST_TRIP_CANNOT),
    (asks_for_assistance, ASSISTANCE_CANNOT),
    (asks_for_car, CAR_CANNOT),
)


class Intake(DecisionBase):
    """Intake and quoting steps of a Reducer pass."""

    def on_user_message(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        text = data.get("text") or ""
        if data.get("purchase_text_refused"):
            self.out["ui_messages"].append(error_message("purchase_text_refused", PURCHASE_REFUSAL))
            self.out["audit"].append({"type": "purchase_text_refused", "text": text[:500]})
            return
        if data.get("unknown_bundle_id"):
            shown = doc["working_memory"]["ranked_bundles"]
            on_screen = ", ".join(b["bundle_id"] for b in shown)
            named = data["unknown_bundle_id"]
            if named.startswith("Option "):  # a letter: the cards are "Option B1", "Option B2"...
                nth = "ABCDEFGHIJ".find(named[-1]) + 1
                guess = f" If you mean the {ORDINAL_WORDS[nth]} one, say 'B{nth}'." if 0 < nth <= len(shown) else ""
                self.say(f"There is no {named} on screen: the options are {on_screen}. Which one do you mean?{guess}")
                return
            self.say(f"{named} isn't one of the bundles on screen ({on_screen}). Nothing changed.")
            return
        bundles = doc["working_memory"]["ranked_bundles"]
        if data.get("which_one") and bundles:  # "perfect, that one" with nothing chosen yet
            self.say(f"Which one do you mean? {options_again(bundles)}")
            return
        if bundles and whole_message("pause", text):
            # "hold on a sec", "we need to check with our manager": nothing to read (an aside is no party
            # change); with something held, where it stands
            self.say(f"Take your time. {self.next_step(doc, now, thanked=False)}" if live_holds(doc, now) else PAUSED)
            return
        if data.get("about_options") and bundles:  # "how far is the hotel from downtown?"
            if is_question(text):  # "which one includes a checked bag?": the followup collaborator may answer it
                self.out["followup"] = {"question": text}
            self._answer_about_options(doc, text)
            return
        if data.get("put_down") and bundles:  # "b2 is too expensive": said, and the others answered about
            others = [b for b in bundles if b.get("bundle_id") != data["put_down"]]
            people = sum(travellers(doc).values())
            offers = {str(o.get("offer_id")): o for o in quote_items(doc["working_memory"], "flight_quotes")}
            answer = answer_about_options(text, others, people=people, offers=offers) if others else ""
            answer = re.sub(r"^Nothing changed\.\s*", "", answer)  # said once, in the first words
            self.say(f"Noted: not {data['put_down']}; nothing is chosen or changed. {answer}".strip())
            return
        if data.get("no_airline_on_screen") and bundles:  # "the delta one" and none flies Delta
            self.say(no_airline_answer(str(data["no_airline_on_screen"]), bundles))
            return
        if data.get("no_flight_at") and bundles:  # "the 10:55 one" and no flight leaves then
            self.say(no_flight_at_answer(str(data["no_flight_at"]), bundles))
            return
        if data.get("not_on_screen") and bundles:  # "the one with the marriott" and none is
            self.say(unseen_answer(str(data["not_on_screen"]), bundles))
            return
        if isinstance(data.get("mix"), dict) and bundles:  # "B1's flights with B2's hotel", no such option
            self.say(mix_answer(data["mix"], bundles))
            return
        if data.get("in_policy") == "none":
            self.say(_none_in_policy(doc["working_memory"]["ranked_bundles"]))
            return
        cheaper = data.get("cheaper_none")
        if isinstance(cheaper, dict):
            on_screen = doc["working_memory"]["ranked_bundles"]
            bundle = next((b for b in on_screen if b.get("bundle_id") == cheaper.get("bundle_id")), None)
            if bundle is not None:
                self.say(nothing_cheaper(str(cheaper.get("part")), bundle))
                return
        if data.get("back"):  # "undo that", "show me the first list again"
            self._put_back(doc, text, str(data["back"]), now)
            return
        if data.get("read_as"):  # "a cheaper hotel", nothing cheaper on screen: "hotels under 82.00 USD a night"
            text = str(data["read_as"])
        if data.get("other_time"):  # "a later flight" searched: if none leaves later, the options stay
            doc["working_memory"]["other_time"] = {
                "chosen": (doc["working_memory"].get("selected") or {}).get("bundle_id")
            }
        if not text.strip():
            self.say(
                "I didn't get any text. Tell me where you're flying from and to, when, and how many of you are going."
            )
            return
        if len(text) > MAX_TEXT_CHARS:
            self.say(
                f"That message is too long for me ({len(text):,} characters). Please describe the trip in a few sentences."
            )
            return
        self._extract(doc, text, data, now, **({"what_if": True} if data.get("what_if") else {}))

    def _extract(self, doc: Dict[str, Any], text: str, data: Dict[str, Any], now: datetime, **extra: Any) -> None:
        self.call(
            "trip_requirements_extract",
            {
                "text": text,
                "pending_question": doc["status"].get("pending_question"),
                "today": local_today(now, doc["request"].get("timezone") or "UTC").isoformat(),
                "timezone": doc["request"].get("timezone") or "UTC",
                "current": {
                    k: copy.deepcopy(doc.get(k)) for k in ("party", "itinerary", "preferences", "constraints", "status")
                },
                # Recent turns the host passes along (already redacted); the model path reads them.
                "conversation": list(data.get("conversation") or [])[-12:],
                **extra,
            },
        )

    def _put_back(self, doc: Dict[str, Any], text: str, which: str, now: datetime) -> None:
        """ "Undo that": the last change made while options were on screen, put back; "show me the first
        list again": every one of them (the trip as it was searched first). With none made, the options
        are those of the first search already."""
        wm = doc["working_memory"]
        made = [step for step in wm.get("changes_made") or [] if isinstance(step, list) and step]
        if made:
            revert = made[-1] if which == "last" else [c for step in reversed(made) for c in step]
            self._extract(doc, text, {}, now, revert=revert)
            return
        bundles = wm["ranked_bundles"]
        if bundles and which == "first":
            first = bundles[:MAX_BUNDLES_ON_SCREEN]
            self.say(
                f"Nothing has changed since these options were found. {options_again(first)}", bundles_widget(first)
            )
            return
        self.say("There's no change of mine to undo. Tell me what you'd like to change.")

    def on_intent_ready(self, doc: Dict[str, Any], data: Dict[str, Any], now: datetime) -> None:
        self.plan(doc, now, user_asked=True)

    def plan(
        self,
        doc: Dict[str, Any],
        now: datetime,
        *,
        user_asked: bool,
        just_ranked: bool = False,
        date_doubts: Sequence[Dict[str, Any]] = (),
        lead: str = "",
    ) -> None:
        """Ask what is missing, else run the next searches, else rank, else present.

        ``lead`` opens the questions' message ("Hi!", "Sorry, I didn't understand that as an answer")."""
        status, wm = doc["status"], doc["working_memory"]
        missing = missing_slots(doc)
        status["missing_required"] = missing
        if missing:
            asked = missing[:MAX_QUESTIONS]
            # a date asked by its readings stays asked so until answered, though other answers come first
            kept = (status.get("pending_question") or {}).get("date_doubts") or {}
            texts, doubts = _questions(asked, date_doubts, kept, doc)
            question: Dict[str, Any] = {"slots": asked, "text": " ".join(texts[s] for s in asked)}
            if doubts:
                question["date_doubts"] = doubts
            status.update(phase="intake", state="needs_input", pending_question=question)
            questions = [{"slot": s, "text": texts[s]} for s in asked]
            said = f"{lead} {question['text']}" if lead else question["text"]
            widget = {"type": "questions", "questions": questions, "known": known_so_far(doc, asked)}
            if lead:
                widget["lead"] = lead  # the card says it above the questions (the text says both)
            self.say(said, widget)
            return
        status["pending_question"] = None
        searches = pending_searches(doc)
        blocked = [c for c in searches if failed_before(doc, c)]
        if searches:
            for c in searches:
                if c not in blocked:
                    self.out["tool_calls"].append(c)
            if blocked and user_asked and len(blocked) == len(searches):
                self.say(f"The {blocked[0]['name'].replace('_', ' ')} failed earlier. Say 'try again' to retry it.")
            if not blocked:
                status.update(phase="quoting", state="running")
            return
        empty = [q for q in wm["flight_quotes"] if not found(q, "flight_quotes")] + [
            q for q in wm["hotel_quotes"] if not found(q, "hotel_quotes")
        ]
        tried = wm.pop("other_time", None)
        if empty and isinstance(tried, dict) and self._kept_options(doc, empty, tried, now):
            return
        if empty:
            self._no_results(doc, empty)
            return
        ranking = wm.get("ranking") or {}
        # a change cleared the options and another put the trip back as it was ranked ("stops are
        # fine" after "nonstop only" found nothing): the same ranking, but its options are gone
        gone = ranking.get("shown") and not wm["ranked_bundles"]
        if ranking.get("key") != ranking_key(doc) or gone:
            call = tool_call("trip_option_ranker", ranker_args(doc))
            if not failed_before(doc, call):
                self.out["tool_calls"].append(call)
            elif user_asked:
                self.say("Ranking the options failed earlier. Say 'try again' to retry it.")
            return
        bundles = wm["ranked_bundles"]
        if not bundles:
            status.update(phase="intake", state="needs_input")
            self.say(
                "I couldn't put together any flight and hotel combination for this trip. Try other dates or drop a preference."
            )
        elif just_ranked and "added" in (wm.get("ranking") or {}):
            self._more_shown(doc, bundles, int(wm["ranking"]["added"]))
        elif just_ranked:
            self.out["ui_messages"].append(trip_summary(doc, len(bundles)))
            line = bundles_line(doc, bundles, (wm.get("ranking") or {}).get("was")) + _none_holdable(doc, bundles)
            self.say(line, bundles_widget(bundles))
        elif user_asked:
            self.say(
                "Nothing changed. Your options are on screen: "
                + ", ".join(map(bundle_line, bundles))
                + ". Pick one, or tell me what to change."
            )

    def _kept_options(
        self, doc: Dict[str, Any], empty: List[Dict[str, Any]], tried: Dict[str, Any], now: datetime
    ) -> bool:
        """ "What about a later flight" searched, and no flight that day leaves later (earlier): said,
        and the change put back so the options are those on screen before; False when something
        else emptied the search (then ``_no_results`` says what)."""
        made = [step for step in doc["working_memory"].get("changes_made") or [] if isinstance(step, list) and step]
        timed = [q for q in empty if q.get("found") and set(q.get("ruled_out") or {}) == {"time_window"}]
        if not made or len(timed) != len(empty):
            return False
        segs = {s["segment_id"]: s for s in segments_of(doc)}
        said = [
            f"no flight {segment_route(segs[q['segment_id']])} {preference_words(doc, 'time_window', _leg_of(doc, q['segment_id']))}"
            for q in timed
            if q.get("segment_id") in segs
        ]
        again = (
            f" {tried['chosen']} was chosen: say '{tried['chosen']}' to choose it again." if tried.get("chosen") else ""
        )
        self.say(f"There is {'; '.join(said) or 'no such flight'}, so your options stay as they were.{again}")
        self._extract(doc, "", {}, now, revert=made[-1])
        return True

    def _no_results(self, doc: Dict[str, Any], empty: List[Dict[str, Any]]) -> None:
        doc["status"].update(phase="intake", state="needs_input")
        segs = {s["segment_id"]: s for s in segments_of(doc)}
        stays = {s["stay_id"]: s for s in stays_of(doc)}
        lines: List[str] = []
        filters: List[Tuple[str, Any]] = []
        for q in empty:
            if "segment_id" in q and q["segment_id"] in segs:
                what = f"flights {segment_route(segs[q['segment_id']])}"
            elif q.get("stay_id") in stays:
                s = stays[q["stay_id"]]
                what = f"hotels in {stay_place(s)} from {day_text(s['check_in'])} to {day_text(s['check_out'])}"
            else:
                continue
            leg = _leg_of(doc, q.get("segment_id"))
            named = [
                f"{preference_words(doc, k, leg)} rules out {n}" for k, n in (q.get("ruled_out") or {}).items() if n
            ]
            if q.get("found") and named:
                # the supplier had some: say which of the traveller's own filters emptied it
                lines.append(f"{q['found']} {what}, but {' and '.join(named)}")
                filters += [(k, leg) for k in q["ruled_out"] if q["ruled_out"][k]]
            else:
                lines.append(f"no {what}")
        if filters:
            legs: Dict[str, set] = {}
            for k, leg in filters:  # a filter that emptied one leg's search is named for that leg
                legs.setdefault(k, set()).add(leg)
            drop = " or ".join(
                f'"{preference_words(doc, k, next(iter(v)) if len(v) == 1 else None)}"' for k, v in legs.items()
            )
            say = " or ".join(f'"{RELAX_HINTS[k]}"' for k in legs if k in RELAX_HINTS)
            self.say(f"I found {'; '.join(lines)}. Shall I drop {drop}? Say {say} and I'll search again.")
            return
        self.say(
            "I found " + "; ".join(lines or ["nothing"]) + ". Try other dates, another airport or fewer preferences."
        )

    def _after_extract(self, doc: Dict[str, Any], data: Dict[str, Any], applied: Dict[str, Any], now: datetime) -> None:
        if applied.get("change_after_purchase"):
            self._booked_change(doc)
            return
        text = ((data.get("call") or {}).get("arguments") or {}).get("text") or ""
        changed = [p for p in applied.get("changed_paths") or [] if not p.startswith(("request.", "status."))]
        asked = (data.get("output") or {}).get("days_asked")
        if isinstance(asked, dict) and asked and doc["working_memory"]["ranked_bundles"]:
            self._offer_days(doc, asked)  # "anything cheaper if we leave the 13th": asked, the trip kept
            if not changed:
                return
        if changed and looks_non_english(text):
            self.say(ENGLISH_PARTLY, kind="status")
        # "a hotel with a gym", "aisle seats", "same hotel as last time": said so
        for cannot in (
            amenities_line(unsearchable_hotel_features(text)),
            *(sentence for wished, sentence in _CANNOT if wished(text)),
            flexible_dates_line(bool(changed) and bool(dates_flexible(text)), doc),
            unknown_place_line(doc) if "preferences.hotel.near" in changed else "",
            area_kind_line(doc) if "preferences.hotel.near" in changed else "",
        ):
            if cannot:
                self.say(cannot, kind="status")
        doubts = (data.get("output") or {}).get("date_doubts") or []
        revert = ((data.get("call") or {}).get("arguments") or {}).get("revert")
        if isinstance(revert, list) and not changed:
            self.say("I couldn't put that change back. Tell me what you'd like instead.")
            return
        if changed:
            before = ((data.get("call") or {}).get("arguments") or {}).get("current") or {}
            _remember_change(doc, applied, revert, before)
            on_screen = "ranked_bundles" in (applied.get("invalidations") or []) or bool(
                doc["working_memory"]["ranked_bundles"]
            )
            line = echo_line(applied.get("changes") or [], doc, options_on_screen=on_screen)
            if line:
                self.say(line, kind="status")
            self.plan(doc, now, user_asked=True, date_doubts=doubts)
            return
        if work_pending(doc):
            self.plan(doc, now, user_asked=True)
            return
        if doubts and missing_slots(doc):
            self.plan(doc, now, user_asked=True, date_doubts=doubts)  # "03/04": the two days it could be
            return
        bundles = doc["working_memory"]["ranked_bundles"]
        if applied.get("understood") is False and looks_non_english(text):
            self.say(ENGLISH_ONLY)
            return
        if bundles and says_wrong(text):  # "hold on, the dates are wrong": what to fix
            wm = doc["working_memory"]
            meant = named_options(text, bundles) or referent("is it?", bundles, wm)  # the option named, else chosen
            self.say(what_is_wrong(text, known_so_far(doc, ()) + hotels_in(meant)))
            return
        asked = applied.get("understood") is False or is_question(text)
        held = live_holds(doc, now) if asked else []
        about_hold = held_answer(text, doc, held, lambda at: self.local(doc, at)) if asked and bundles else None
        if about_hold:
            self.say(about_hold)  # "has my manager approved yet?", "approve it", "how long do we have?"
            return
        if applied.get("understood") is False and bundles and acknowledged(text):
            # "thanks!", "go ahead": what happens next, not the options again ("You're welcome" only for thanks)
            self.say(self.next_step(doc, now, thanked=thanked(text)))
            return
        if applied.get("understood") is False and asks_about_me(text):
            self.say(ABOUT_ME)  # "who are you? a real person?"
            return
        if bundles and whole_message("next_step", text):
            self.say(self.next_step(doc, now, thanked=False))  # "ok, what now?", "how do I book this?"
            return
        if applied.get("understood") is False and bundles and complains(text):
            self.say(COMPLAINED)  # "youre not very helpful": an apology and what can change
            return
        if bundles and rejects_options(text):
            self.say(REJECTED)  # "none of these work": what to change, not the same options again
            return
        flexible = flexible_dates_line(not changed and bool(dates_flexible(text)), doc)
        if flexible:
            self.say(flexible)  # "flexible by a day or two": the trip kept, and how to compare other days
            return
        already = hotel_already_line(asks_for_hotel(text), doc) if not changed and bundles else ""
        if already:
            self.say(already)  # "add a hotel" when every option has one: said, not "Nothing changed"
            return
        if applied.get("understood") is False and bundles and whole_message("more", text):
            self._more_options(doc)  # "any other options?"
            return
        if applied.get("understood") is False and bundles and asks_to_see_options(text):
            self.say(options_again(bundles), {"type": "bundles", "bundles": bundles})  # "show me the options"
            return
        if bundles and (applied.get("understood") is False or is_question(text)):
            # options on screen: whatever was said, the answer is about them, never the intake prompt;
            # a question that read as something the trip already holds ("how much is the hotel per
            # night in the first one") is answered too, not met with "Nothing changed"
            if is_question(text):
                self.out["followup"] = {"question": text}
            self._answer_about_options(doc, text)
            return
        if applied.get("understood") is False:
            if missing_slots(doc) and (doc["status"].get("pending_question") or GREETING_RE.match(text)):
                # "yes", "idk yet", "hello??": said so, and what is still needed asked again, answerable
                self.plan(doc, now, user_asked=True, lead=_not_an_answer(text))
                return
            pending = doc["status"].get("pending_question")
            again = (
                f" {pending['text']}"
                if pending
                else " Tell me where you're flying from and to, when, and how many of you are going."
            )
            self.say("Sorry, I didn't understand that as trip details, so nothing changed." + again)
            return
        self.plan(doc, now, user_asked=True)

    def _offer_days(self, doc: Dict[str, Any], asked: Dict[str, str]) -> None:
        """Offer to search the days a "what if" question named; a "yes" next searches them (the
        question keeps what it proposes: ``extract.context.confirmed_proposal``)."""
        segments = segments_of(doc)
        legs = [("depart_date", 0, "leaving"), ("return_date", len(segments) - 1, "coming back")]
        offered, proposal = [], []
        for key, index, verb in legs:
            now_on = segments[index].get("depart_date") if segments and (index or key == "depart_date") else None
            if key in asked and now_on and asked[key] != now_on and not (key == "return_date" and index == 0):
                offered.append(f"{verb} {day_text(asked[key])} instead of {day_text(now_on)}")
                proposal.append(f"{verb} {day_text(asked[key])}")
        if not offered:
            self.say("That is the day the options on screen are for already. Pick one, or tell me what to change.")
            return
        question = (
            f'Shall I search {" and ".join(offered)}? Say "yes" and I\'ll show what it costs; '
            "your options stay on screen until then."
        )
        doc["status"]["pending_question"] = {"text": question, "proposal": " and ".join(proposal), "yes_only": True}
        self.say(question)

    def _answer_about_options(self, doc: Dict[str, Any], text: str) -> None:
        """The options' answer to ``text``, about the options it names or points at ("is that
        refundable?" after "what's in the fourth one?"), which are then the ones discussed."""
        wm = doc["working_memory"]
        bundles = wm["ranked_bundles"]
        focus = named_options(text, bundles) or referent(text, bundles, wm)
        offers = {str(o.get("offer_id")): o for o in quote_items(wm, "flight_quotes")}
        people, chosen = sum(travellers(doc).values()), bool((wm.get("selected") or {}).get("bundle_id"))
        infants = int(((doc.get("party") or {}).get("travelers") or {}).get("infants") or 0)
        answer = answer_about_options(
            text, bundles, people=people, offers=offers, focus=focus, chosen=chosen, infants=infants
        )
        self.say(" ".join(filter(None, (answer, cancel_note(text) if not wm.get("bookings") else ""))))
        put_forward = answered_pick(text, bundles)  # "I'd pick B1": "ok, go with that" next chooses it
        remember_discussed(wm, [put_forward] if put_forward else focus)

    def next_step(self, doc: Dict[str, Any], now: datetime, *, thanked: bool = True) -> str:
        """Where the trip stands and what the traveller does next, for an acknowledgement (``thanked``)
        or for "what now?"."""
        held = live_holds(doc, now)
        chosen = (doc["working_memory"].get("selected") or {}).get("bundle_id")
        welcome = "You're welcome. " if thanked else ""
        if held:
            deadline = self.local(doc, earliest_deadline(held))
            return (
                f"{welcome}{chosen or 'Your choice'} is on hold until {deadline}; once your approver says "
                "yes, you can pay here. Nothing is bought until you press the button that names the amount."
            )
        if chosen:
            return f"{chosen} is chosen. Say 'hold' to hold it; nothing is bought from a chat message."
        if thanked:
            return f"{welcome}{HINT}"
        return (
            f"{HINT} Then say 'hold' (or 'hold B2' in one go): I hold it while your approver decides, "
            "and once they say yes you pay here. Nothing is bought from a chat message."
        )

    def _more_options(self, doc: Dict[str, Any]) -> None:
        """What "any other options?" gets: the next best of what the searches found, added after the
        options on screen (which keep their names, so a choice stays chosen), up to
        ``MAX_BUNDLES_WITH_MORE`` in all; past that, or with nothing else to add, these are the best of
        what was found, and a change (price, times, stops, airline, hotel, dates) finds others."""
        wm = doc["working_memory"]
        shown = len(wm["ranked_bundles"])
        if shown < MAX_BUNDLES_WITH_MORE and not (wm.get("ranking") or {}).get("added") == 0:
            call = tool_call("trip_option_ranker", {**ranker_args(doc), "top_k": MAX_BUNDLES_WITH_MORE})
            if not failed_before(doc, call) and (wm.get("ranking") or {}).get("key") == ranking_key(doc):
                self.out["tool_calls"].append(call)
                return
        flights = sum(found(q, "flight_quotes") for q in wm["flight_quotes"] if isinstance(q, dict))
        hotels = sum(found(q, "hotel_quotes") for q in wm["hotel_quotes"] if isinstance(q, dict))
        counted = " and ".join(f"{n} {what}" for n, what in ((flights, "flight offers"), (hotels, "hotel rates")) if n)
        self.say(
            f"These {len(wm['ranked_bundles'])} are the best of what I found{f' ({counted})' if counted else ''}, "
            "balancing price, time and comfort. To see different ones, tell me what to change: a lower price, "
            "other times, fewer stops, another airline, a different hotel or other dates."
        )

    def _more_shown(self, doc: Dict[str, Any], bundles: List[Dict[str, Any]], added: int) -> None:
        """The options "show me more" added, after those already on screen."""
        if not added:
            self._more_options(doc)
            return
        new = bundles[-added:]
        names = f"{new[0]['bundle_id']}–{new[-1]['bundle_id']}" if added > 1 else new[0]["bundle_id"]
        cheapest = min(new, key=lambda b: float(b.get("total") or "inf"))
        self.say(
            f"{added} more option{'s' if added != 1 else ''} ({names}), from {bundle_line(cheapest).split(': ')[1]}; "
            f"{bundles[0]['bundle_id']}–{bundles[-added - 1]['bundle_id']} are still the ones I'd pick first.",
            bundles_widget(bundles),
        )

    def _booked_change(self, doc: Dict[str, Any]) -> None:
        active = [b for b in doc["working_memory"]["bookings"] if b.get("status") != "cancelled"]
        booking = active[-1] if active else {}
        refs = ", ".join(str(code) for code in booking.get("record_locators") or [])
        self.say(
            f"This trip is already booked{f' (booking references {refs})' if refs else ''}, so I left it unchanged. "
            "To change it, cancel the booking first: I'll show the refund before anything is cancelled.",
            {"type": "cancellation", "booking_id": booking.get("booking_id"), "action": "quote"},
        )


CHANGES_KEPT = 10  # changes "undo" can put back, one at a time


def _remember_change(doc: Dict[str, Any], applied: Dict[str, Any], revert: Any, before: Dict[str, Any]) -> None:
    """Keep what a change made while options were on screen replaced, so "undo that" can put it back;
    a change put back is forgotten (all of them, for "the first list again"). ``before``: the trip's
    requirements the extractor was given, for a value too large for the change's echo (a list of legs)."""
    wm = doc["working_memory"]
    made = [step for step in wm.get("changes_made") or [] if isinstance(step, list)]
    if isinstance(revert, list):
        wm["changes_made"] = made[:-1] if made and made[-1] == revert else []
        return
    if "ranked_bundles" not in (applied.get("invalidations") or []) and not wm["ranked_bundles"]:
        return  # still gathering the trip: nothing was shown to go back to
    step = [
        {"path": c["path"], "before": value_at(before, c["path"]) if c.get("before") == ELIDED else c.get("before")}
        for c in applied.get("changes") or []
        if isinstance(c, dict) and str(c.get("path") or "").split(".")[0] in REVERTIBLE
    ]
    if step:
        wm["changes_made"] = (made + [step])[-CHANGES_KEPT:]


def _leg_of(doc: Dict[str, Any], segment_id: Any) -> Any:
    """ "outbound" / "return" for a round trip's first / last flight (whose time wishes are its own), else None."""
    ids = [s.get("segment_id") for s in segments_of(doc)]
    if segment_id is None or segment_id not in ids:
        return None
    if segment_id == ids[0]:
        return "outbound"
    return "return" if doc["itinerary"].get("trip_type") == "round_trip" and segment_id == ids[-1] else None


# A message that answers none of the questions asked: a greeting, a "not sure yet", anything else.
GREETING_RE = re.compile(
    r"^\W*(?:hi+|hello+|hey+|hiya|howdy|yo|good\s+(?:morning|afternoon|evening)|greetings)(?:\s+there)?\W*$", re.I
)
UNSURE_RE = re.compile(
    r"\b(?:not\s+sure|unsure|i\s+don'?t\s+know|dunno|idk|no\s+idea|not\s+(?:decided|yet)|haven'?t\s+decided"
    r"|undecided|still\s+(?:deciding|figuring|thinking|working)|tbd|to\s+be\s+decided|depends)\b",
    re.I,
)


def _not_an_answer(text: str) -> str:
    """What a message that answered no question gets before the questions again."""
    if GREETING_RE.match(text):
        return "Hi! Happy to help with your trip."
    if UNSURE_RE.search(text):
        return "No problem, nothing changed; I need these before I can search, so tell me when you know."
    return "Sorry, I didn't understand that as an answer, so nothing changed."


_DATE_SLOTS = ("depart_date", "return_date", "check_in", "check_out")
# What to say to let go of a filter that emptied a search (the extractor reads each as ``relax``).
RELAX_HINTS = {
    "max_stops": "stops are fine",
    "airlines": "any airline",
    "red_eye": "red-eyes are fine",
    "time_window": "any time",
    "min_stars": "any stars",
    "refundable": "non-refundable is fine",
    "max_nightly": "no hotel cap",
    "board": "room only is fine",
}


def _none_holdable(doc: Dict[str, Any], bundles: List[Dict[str, Any]]) -> str:
    """Every option on screen has a fare or room that must be paid at once: said up front, with the
    wishes that narrowed the search to let go of for options that can be held."""
    if not bundles or not all(paid_at_once(b) for b in bundles):
        return ""
    wm = doc["working_memory"]
    narrowed = dict.fromkeys(
        k for q in wm["flight_quotes"] + wm["hotel_quotes"] for k, n in (q.get("ruled_out") or {}).items() if n
    )
    hints = " or ".join(f'"{RELAX_HINTS[k]}"' for k in narrowed if k in RELAX_HINTS)
    offer = (
        f" Say {hints} and I'll look for options you can hold."
        if hints
        else " Other dates may have options you can hold."
    )
    return f" None of them can be held in full: each has a fare or room that must be paid at once.{offer}"


_END_SLOTS = ("return_date", "check_out")
_DOING = {"depart_date": "leave", "return_date": "come back", "check_in": "check in", "check_out": "check out"}


def _questions(
    asked: List[str],
    date_doubts: Sequence[Dict[str, Any]],
    kept: Dict[str, Any],
    doc: Dict[str, Any],
) -> Tuple[Dict[str, str], Dict[str, Dict[str, Any]]]:
    """Each slot's question, and the date doubts asked (by slot, kept for the next questions).

    A date the traveller wrote that could be two days is asked by naming both ("Do you mean Tue
    Mar 4 or Thu Apr 3?"), in the order the dates were written; an end date that would make the
    trip implausibly long is asked by naming it and the nights. A doubt asked before and still
    open is asked the same way again, without the readings the trip's start now rules out."""
    texts = {s: QUESTIONS[s] for s in asked}
    if (
        "adults" in texts
        and (travellers(doc)["children"] or travellers(doc)["infants"])
        and not travellers(doc)["adults"]
    ):
        # a child alone: the airline's unaccompanied-minor service, which takes no child under 5
        ages = [a for a in (doc.get("party") or {}).get("child_ages") or [] if isinstance(a, int)]
        small = travellers(doc)["infants"] or any(a < UM_FROM_AGE for a in ages)
        texts["adults"] = ADULTS_FOR_A_SMALL_CHILD if small else ADULTS_FOR_A_CHILD
    leaving = origins_question(doc["request"].get("user_message") or "") if "origin" in texts else ""
    if leaving:  # "3 of us from NYC and 3 from Chicago": the towns named, one searched at a time
        texts["origin"] = leaving
    going = travellers(doc)["children"]
    named = children_named(doc["request"].get("user_message") or "", going) if "child_ages" in texts else None
    if named:  # "me and my nephew": "How old is your nephew?"
        texts["child_ages"] = texts["child_ages"].replace("How old are the children?", ages_question(named, going))
    if "check_out" in texts and (doc.get("itinerary") or {}).get("flights_needed", True) is not False:
        texts["check_out"] += " (Say 'no hotel' if you don't need one.)"  # a one-way flight may need none
    date_slots = [s for s in asked if s in _DATE_SLOTS]
    fresh = [d for d in date_doubts if isinstance(d, dict) and d.get("readings")]
    paired: Dict[str, Dict[str, Any]] = {}
    for doubt in sorted(fresh, key=lambda d: not d.get("slot")):  # the ones that know their date first
        ends = doubt.get("kind") == "long"
        slot = doubt.get("slot") if doubt.get("slot") in date_slots and doubt.get("slot") not in paired else None
        slot = slot or next((s for s in date_slots if s not in paired and (s in _END_SLOTS or not ends)), None)
        if slot:
            paired[slot] = doubt
    for slot, doubt in kept.items():
        if slot in date_slots and slot not in paired and isinstance(doubt, dict):
            paired[slot] = _still_possible(doubt, slot, doc)
    paired = {s: d for s, d in paired.items() if d.get("readings")}
    for slot, doubt in paired.items():
        texts[slot] = _doubt_question(slot, doubt)
    return texts, paired


def _still_possible(doubt: Dict[str, Any], slot: str, doc: Dict[str, Any]) -> Dict[str, Any]:
    """The doubt without readings before the trip's start (asked about an end date)."""
    start = _start_day(doc, slot)
    if start is None:
        return doubt
    readings = [r for r in doubt.get("readings") or [] if isinstance(r, str) and r > start]
    return {**doubt, "readings": readings, "since": start}


def _start_day(doc: Dict[str, Any], slot: str) -> Any:
    if slot == "return_date":
        segments = segments_of(doc)
        return segments[0].get("depart_date") if segments else None
    if slot == "check_out":
        stays = stays_of(doc)
        return stays[0].get("check_in") if stays else None
    return None


def _doubt_question(slot: str, doubt: Dict[str, Any]) -> str:
    said = str(doubt.get("text") or "")[:40]
    readings = doubt["readings"]
    if len(readings) >= 2 and doubt.get("kind") == "event":  # "a hockey game jan 9, back the 10th"
        verb = "check in" if slot == "check_in" else "fly out"
        return (
            f"Do you {verb} {day_text(readings[0])}, the day before your {said}, or {day_text(readings[1])}, its day?"
        )
    if len(readings) >= 2:
        return f'Do you mean {day_text(readings[0])} or {day_text(readings[1])} by "{said}"?'
    since = doubt.get("since")
    nights = (date.fromisoformat(readings[0]) - date.fromisoformat(since)).days if since else 0
    long = f" That is {nights} nights after {day_text(since)}." if since and nights > 0 else ""
    return f'Do you mean {day_text(readings[0])} by "{said}"?{long} Say "yes" or the day you {_DOING[slot]}.'


def _none_in_policy(bundles: List[Dict[str, Any]]) -> str:
    """Why no option on screen is within policy, option by option."""
    reasons = [
        f"{b.get('bundle_id')}: {findings((b.get('policy') or {}).get('blocking')) or 'outside policy'}"
        for b in bundles
        if isinstance(b.get("policy"), dict)
    ]
    return (
        "None of the options on screen is within your company's policy ("
        + "; ".join(reasons)
        + "). Tell me what to change (a lower hotel cap, other dates or airlines) and I'll search again."
    )
