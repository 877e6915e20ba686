"""The offline extractor: one message (plus the pending question) -> requirements fields.

Deterministic and local: readers find places, dates, lengths, counts and preferences; this
module decides what each one is (origin or destination, departure or return, stay or flight)
from the words around it, the pending question and what the trip already holds. Nothing is
invented: a field the message does not speak to stays ``None``.
"""

from __future__ import annotations

import copy
import functools
import re
from datetime import date, timedelta
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..common import geo
from ..common.clock import day_text
from ..common.shape import time_wish_text
from . import (
    events,  # "the kentucky derby": Louisville
    lodging_kind,  # "just need airfare", "going home for christmas": no hotel
    origins,  # "3 of us from NYC and 3 from Chicago": a party leaving from several towns
    stopovers,  # "a 3 night stopover in reykjavik", "via chicago"
)
from . import landmark_near as landmarks_read  # "a conference at McCormick Place, hotel close by"
from . import places as towns  # the town another question offered ("maine"): other_town_named
from .board import read_board
from .changes import aside_spans, instead_of, place_roles, read_shift, shifted
from .context import (
    STAY_SLOTS,
    THERE,
    confirmed_proposal,
    doubt_answer,
    event_day_answer,
    hotel_alone,
    known_dates,
    place_referred_to,
    stay_mode_of,
    trip_has_flights,
    trip_has_stays,
    unfilled_first,
)
from .corrections import self_corrected
from .cues import (
    BAGS_CHECKED,
    CHECK_IN_OUT,
    FLIGHT_WORDS,
    HOTEL_WORDS,
    airport_stay_spans,
    flight_next_morning,
    own_flight_spans,
)
from .dates import (
    MONTHS,
    DateMention,
    Doubt,
    after_next_said,
    asap_said,
    find_dates,
    find_durations,
    next_month_day,
    next_weekday_said,
    order_for,
)
from .journeys import read_journey, towns_left_out
from .party import (
    AGES_SAID,
    FOR_ME,
    MORE_PEOPLE,
    PLUS_PEOPLE,
    UM_FROM_AGE,
    UNACCOMPANIED,
    adding,
    adults_leaving,
    alone_notice,
    asks_about_those_going,
    children_as_before,
    children_stay_home,
    couple_trip,
    family_unsplit,
    read_party,
    their_trip,
    total_said,
    unaccompanied,
    visited_masked,
    writer_goes_along,
)
from .patch import ASSUMED_HOTEL_ONLY
from .places import find_places, lookup
from .prefs import (
    NO_HOTEL,
    carriers_against,
    clock_words_read,
    dates_flexible,
    hotel_area,
    hotel_class_said,
    money_mentions,
    read_airlines,
    read_budgets,
    read_preferences,
    read_relax,
    stay_caps_nightly,
)
from .questions import pending_slots
from .roles import assign_dates, assign_places, complete_stay, hotels_named, read_legs
from .schema import FIELD_NAMES, empty_fields
from .stays import apply_partial_stay, hotel_day, hotel_days, partial_stay, split_stays
from .text import MAX_CHARS, NUMBER_RE, accented_words, clean, mask, to_int
from .topics import conversation_places, message_topic, names_route

_BARE_NUMBER = re.compile(
    rf"^\W*(?:just\s+|only\s+|about\s+|maybe\s+)?(?P<n>{NUMBER_RE})\b(?:\s+(?:please|thanks|thank\s+you|of\s+us))?\W*$",
    re.I,
)
_BARE_WORDS = 7
_NEXT_MONTH = re.compile(r"\bnext\s+month\b", re.I)
# "in january", "sometime in feb": the month the bare days said ("the 12th", "the 18th") are in
_IN_MONTH = re.compile(
    rf"\b(?:in|of|during|this|next)\s+(?P<month>{'|'.join(m for m in MONTHS if len(m) > 3 or m == 'may')})\b", re.I
)


def _month_said(msg: str, today: date) -> Optional[date]:
    """The first day of the one month the message names for its days, else None."""
    if _NEXT_MONTH.search(msg):
        return (today.replace(day=1) + timedelta(days=32)).replace(day=1)
    named = {MONTHS[m.group("month").lower()] for m in _IN_MONTH.finditer(msg)}
    if len(named) != 1:
        return None
    (month,) = named
    return date(today.year + (month < today.month), month, 1)


# Events the traveller goes to that are usually someone else's: "the day before the wedding", not "your wedding"
_SOMEONES_EVENTS = frozenset({"wedding", "funeral", "graduation", "ceremony", "memorial"})


def extract_fields(
    *,
    text: Any,
    today: date,
    pending_question: Any = None,
    current: Optional[Dict[str, Any]] = None,
    conversation: Any = None,
    locale: Any = "en-US",
    doubts: Optional[List[Doubt]] = None,
    assumptions: Optional[List[str]] = None,
) -> Tuple[Dict[str, Any], List[str]]:
    """The fields this message states, and notes on what was dropped (never raises on odd text).

    ``conversation`` (earlier turns, ``{"role", "content"}``) tells whether the talk is about
    flights or a stay and what "there" points at when the trip does not say. ``locale`` says
    how "03/04" reads; dates that could mean two days are left out and listed in ``doubts``.
    A name several towns share is read as the biggest, and ``assumptions`` gets a line saying so.
    """
    doubts = doubts if doubts is not None else []
    fields = empty_fields()
    notes: List[str] = []
    if isinstance(text, str) and len(text) > MAX_CHARS:
        notes.append(f"Only the first {MAX_CHARS} characters were read.")
    msg = self_corrected(clean(text))  # "Jan 8 - sorry, Jan 9": read as "Jan 9"
    as_typed = msg  # (before any words are masked: "any time between" is also "any time")
    if not msg.strip():
        return fields, notes
    relax, relax_spans = read_relax(msg)
    msg = mask(msg, relax_spans)  # "drop the nonstop", "no hotel cap": not read again as wishes
    msg = mask(msg, dates_flexible(msg))  # "flexible by a day or two": no day, no one-day trip (said so: intake)
    slots = pending_slots(pending_question)
    current = current if isinstance(current, dict) else {}
    chosen = doubt_answer(msg, pending_question) or event_day_answer(msg, current)  # "same day"
    if chosen:  # "the first one", "April", "yes" to "Do you mean Thu Mar 4 or Sat Apr 3 by "03/04"?"
        for slot, day in chosen.items():
            if slot in ("check_in", "check_out"):
                fields["stays"] = fields["stays"] or [{"location": None, "check_in": None, "check_out": None}]
                fields["stays"][0][slot] = day
            else:
                fields[slot] = day
        return fields, notes
    # "breakfast pls", "can we get one with breakfast": meals with the room, not a meal out
    if message_topic(msg, pending_question, conversation) != "trip" and not read_board(msg):
        # a rental car, a bus, an event: the trip is not changed (its places are read when the
        # traveller later asks for a flight or a hotel "there"); the party is the same people
        fields.update(read_party(msg))
        return fields, notes

    airlines, airline_spans = read_airlines(msg)
    # "does the 2nd one have a layover", "compare the first two": options named, never a day of the month
    dates, masked = find_dates(mask(msg, _options_named(msg)), today, order=order_for(locale), doubts=doubts)
    # "kids aged 3/5/8": ages, not a day (nor a day to ask about)
    spans = [(d.start, d.end) for d in dates] + [(d.start, d.end) for d in doubts]
    aged = [(a, b) for a, b in spans if AGES_SAID.search(msg[:a])]
    if aged:
        dates = [d for d in dates if (d.start, d.end) not in aged]
        doubts[:] = [d for d in doubts if (d.start, d.end) not in aged]
        masked = "".join(msg[i] if any(a <= i < b for a, b in aged) else c for i, c in enumerate(masked))
    anchor = _trip_start(current)
    month = _month_said(msg, today) if dates and not anchor else None
    if month:
        # "next month, the 14th to 17th", "home on the 18th, out on the 12th, in january": days of that month
        if all(d.day_only or (d.value.year, d.value.month) == (month.year, month.month) for d in dates):
            dates = [d.in_month_of(month, today) for d in dates]
    if anchor:  # "actually make it the 9th", "fly out thursday instead": in the trip's month / week, not from today
        # ("book it asap" on a trip with days: soon, not a new day)
        dates = [
            _weekday_day_near(d.in_month_of(anchor, today).near(anchor, today), anchor, today)
            for d in dates
            if not asap_said(d)
        ]
    for doubt in doubts:
        notes.append(f"'{doubt.text}' could be two different days; asked instead of guessed.")
    # places named for the weather, a bus ride or someone else's plans are not the trip's, nor is
    # "I'll take the bus to Providence" beside a flight a trip without flights
    asides = aside_spans(msg, trip_exists=_has_dates(current) or trip_has_flights(current))
    # "a hotel near lax on jan 7, i have an early flight next morning": a flight had, not one to search
    own_flight = [] if trip_has_flights(current) else own_flight_spans(msg)
    own_flight = [] if own_flight and names_route(msg) else own_flight  # (a route named: the flight is asked for)
    asides += own_flight
    money_text = mask(masked, asides)
    money = money_mentions(money_text)
    # "what's the total for the refundable one": an option named by its label, not a wish
    named = [m.span() for m in _LABEL_NAMED.finditer(msg)]
    part_stay = partial_stay(msg)  # "hotel only for the first 3 nights": no "hotel only", no 3-night trip
    part_span = [part_stay[3]] if part_stay else []
    # "only need the hotel from the 11th": one end of the stay, not a hotel-only trip
    part_span += [said[2]] if (said := hotel_day(msg, dates)) else []
    prefs = read_preferences(
        mask(msg, asides + named + part_span), money=money
    )  # amounts from the text without its dates
    if not prefs.get("hotel_near"):  # "hotel on South Beach": a part of town, not a town of its own
        prefs["hotel_near"] = hotel_area(mask(msg, asides), lambda name: lookup(name) is not None)
    dates = [d for d in dates if not any(a <= d.start < b for a, b in asides)]
    if not prefs.get("hotel_near"):  # "a conference at McCormick Place, hotel close by", "4 star on the strip"
        prefs["hotel_near"] = landmarks_read.landmark_near(mask(msg, asides))
    kind = landmarks_read.area_kind_said(mask(msg, asides))  # "by the water", "in the old town": no town
    if kind and not prefs.get("hotel_near"):
        prefs["hotel_near"] = kind[0]
    # "500 a person" is a budget, not one traveller
    people_text = mask(masked, asides + [span for *_, span in money])
    shift = read_shift(masked) if _has_dates(current) else None
    # "leave a day earlier and come back a day later": the other end moved too
    again = read_shift(mask(masked, [shift[2]])) if shift and shift[0] != "both" else None
    again = again if again and shift and again[0] not in (shift[0], "both") else None
    replaced = instead_of(msg)
    masked = mask(masked, asides + ([shift[2]] if shift else []) + ([again[2]] if again else []))
    # "stopping over in honolulu for 3 days": the stopover's nights, not the trip's
    stop = stopovers.stopover_said(masked)
    masked = mask(masked, stop.spans if stop else ())
    durations = find_durations(mask(masked, part_span))
    masked = mask(masked, airline_spans + [(d.start, d.end) for d in durations])
    # "no hotel", "already have a hotel": hotel words that do not make the message about a stay
    said_about_stay = mask(
        msg,
        [m.span() for rx in (NO_HOTEL, BAGS_CHECKED) for m in rx.finditer(msg)] + airport_stay_spans(msg) + own_flight,
    )
    # "near the orange county convention center", "something in the old town": no route
    masked = mask(masked, landmarks_read.landmark_spans(msg) + ([kind[1]] if kind else []))

    found = find_places(masked)  # read once: whether a route is named, and (mostly) the places themselves
    stay_mode = prefs["flights_needed"] is False or (
        not names_route(masked, found=found) and stay_mode_of(said_about_stay, slots, current, conversation)
    )
    if stay_mode:
        slots = [STAY_SLOTS.get(s, s) for s in slots]
        if prefs.get("budget_total") is not None and prefs.get("hotel_max_per_night") is None:
            caps = read_budgets(money_text, stay_caps_nightly(money_text, money))  # "hotel ..., under 150"
            prefs.update({key: caps[key] for key in ("budget_total", "hotel_max_per_night")})
    else:
        slots = unfilled_first([s for s in slots if s != "hotel_location"], current)
    bare = len(msg.split()) <= _BARE_WORDS
    place_question = any(s in slots for s in ("origin", "destination", "hotel_location"))
    cue_all, accented = bare and place_question, accented_words(text)
    places = find_places(masked, cue_all=cue_all, accented=accented) if cue_all or accented else found
    chosen_town = [] if places else towns.other_town_named(msg, current, pending_question)
    places = places or chosen_town  # "maine" to "say if you meant Portland, Maine (PWM)"
    places = landmarks_read.venue_placed(mask(msg, asides), places)  # "a conference at moscone center": SF
    stop_town = stopovers.stopover_place(stop, places)  # the trip is read without it, then the stopover put in
    via = stopovers.connections(masked, places)  # "via chicago", "a layover in dallas is fine": no end of the trip
    places = [p for p in places if p is not stop_town and p not in via]
    # "3 of us from NYC and 3 from Chicago": no one of them searched silently (the origin question names them)
    leaving = origins.several_origins(masked, places)
    places = [p for p in places if p not in leaving]
    if assumptions is not None:
        assumptions.extend(
            f"Took {_typed_name(masked, p)} as where a flight connects, not a stop of the trip; "
            "each option shows its connections"
            for p in via
        )

    fields.update(prefs)
    unwanted = None if trip_has_flights(current) else lodging_kind.hotel_unwanted(msg)
    if unwanted and fields["hotel_needed"] is None:
        fields["hotel_needed"] = False
    fields.update(carriers_against(msg, airlines, (current.get("preferences") or {}).get("flight")))
    fields["relax"] = relax
    if fields["flights_needed"] and ((current.get("itinerary") or {}).get("flights_needed", True)) is not False:
        fields["flights_needed"] = None  # flights are the default: only news when the trip had none
    alone = stay_mode and fields["flights_needed"] is None and hotel_alone(said_about_stay, current, conversation)
    counted = ((current.get("party") or {}).get("travelers") or {}).values()
    fields.update(read_party(people_text, going=any(isinstance(n, int) and n > 0 for n in counted)))
    if _solo_request(people_text, places, dates, current, fields):
        fields["adults"] = 1
    elif _i_travel(people_text, places, dates, current, fields):
        fields["adults"] = 1
        if assumptions is not None:
            assumptions.append(ASSUMED_ALONE)
    if asks_about_those_going(people_text, current):  # "does the baby need a seat?": the party stays
        fields.update(adults=None, children=None, infants=None, child_ages=None)
    _added_to_party(people_text, current, fields)
    if fields.get("adults") and writer_goes_along(people_text, current):
        fields["adults"] += ((current.get("party") or {}).get("travelers") or {}).get("adults") or 0
    if fields.get("adults") is None:  # "one less person", "mike can't make it"
        going = ((current.get("party") or {}).get("travelers") or {}).get("adults")
        fields["adults"] = adults_leaving(people_text, going if isinstance(going, int) else 0)
    children_as_before(people_text, current, fields)
    children_stay_home(people_text, current, fields)
    _bare_number(msg, slots, fields)
    _count_of_what(msg, pending_question, fields)

    # "3 nights lisbon then 2 in porto": a stay in each town, one after the other
    first_day = dates[0].value if dates else known_dates(current, stay_mode)[0]
    # (the days masked: "denver jan 10 for 3 nights then vegas for 2")
    split = split_stays(mask(msg, asides + [(d.start, d.end) for d in dates]), _stay_town, first_day)
    if split and len(dates) > 1 and dates[1].value.isoformat() != split[-1]["check_out"]:
        split = None  # "jun 1-10, 4 nights rome then 3 florence": the nights do not fill the days said
    home = _home_of_split(places, split) if split and not stay_mode and fields["flights_needed"] is not False else None
    legs = _split_legs(msg, home, split, assumptions) if split and home else None
    legs = (
        legs
        or read_legs(msg, places, dates)
        or read_journey(msg, places, dates, assumptions, durations[-1].nights if len(durations) == 1 else None)
    )
    if legs:
        fields["legs"] = legs
        if not split:
            hotels_named(msg, places, fields)
    else:
        assign_places(msg, places, slots, current, stay_mode, fields)
        _event_town(msg, stay_mode, current, fields, assumptions)
        _fly_to_the_stay(stay_mode, current, fields)
        # "check in on the 10th" is about the hotel even on a trip with flights
        dates_of_stay = stay_mode or _checks_in_or_out(msg)
        known = known_dates(current, dates_of_stay)
        stay_days = [] if dates_of_stay else hotel_days(msg, dates)  # "jan 20-25, hotel jan 20-23"
        # "dec 3-7, keep the hotel from the 4th": one end of the stay, the flights' days as said
        stay_end = None if dates_of_stay or stay_days else hotel_day(msg, dates)
        stay_days_said = stay_days + ([stay_end[1]] if stay_end else [])
        assign_dates(msg, [d for d in dates if d not in stay_days_said], slots, dates_of_stay, known, fields, doubts)
        if stay_days:
            first = (fields["stays"] or [{"location": None}])[0]
            first["check_in"], first["check_out"] = (d.value.isoformat() for d in stay_days)
            fields["stays"] = [first] + (fields["stays"] or [])[1:]
        elif stay_end and fields["depart_date"] and fields["return_date"]:
            first = (fields["stays"] or [{"location": None}])[0]
            first["check_in"], first["check_out"] = fields["depart_date"], fields["return_date"]
            first[stay_end[0]] = stay_end[1].value.isoformat()
            fields["stays"] = [first] + (fields["stays"] or [])[1:]
            fields["hotel_needed"] = True
        if replaced:
            _instead(msg, replaced, places, dates, current, known, dates_of_stay, fields)
        said_end = _end_said(fields, known, dates_of_stay)
        for moved in (shift, again):
            # "return on the 17th and add a night": the day said is the return, not a day after it
            if moved and not (moved[0] == "end" and said_end):
                _shift(moved, known, dates_of_stay, fields)
        if not dates and not shift:
            _month_moved(masked, known, today, dates_of_stay, fields)
        _implausibly_long(dates, known, dates_of_stay, fields, doubts)
        _referred_place(msg, said_about_stay, stay_mode, current, conversation, fields, assumptions)
    if stop and stop_town and not legs:
        legs = stopovers.stopover_legs(stop, stop_town, fields, assumptions)
        if legs:
            fields["legs"] = legs
            for key in ("origin", "destination", "depart_date", "return_date", "stays"):
                fields[key] = None
    if split:  # the stays said, whatever the flights' days; the trip's end is the last check-out
        for stay in split:
            stay["location"].pop("_fly", None)
        fields["stays"], fields["hotel_needed"] = split, True
        if not legs and fields["flights_needed"] is None and hotel_alone(said_about_stay, current, conversation):
            fields["flights_needed"] = False  # "hotels only: 2 nights in orlando then 3 in miami"
            if assumptions is not None:
                assumptions.append(ASSUMED_HOTEL_ONLY)
        elif not legs and not stay_mode and fields["return_date"] is None:
            fields["return_date"] = split[-1]["check_out"]
    if ABOUT_SHOWN.search(msg) or ((_ANY_SHOWN.match(msg) or _WHICH_SHOWN.match(msg)) and not places and not dates):
        for key in _WISHES:  # "are any of these refundable?", "is it business class?": asked, not wished
            fields[key] = None
    _same_places(current, fields)
    _airport_of_the_destination(current, fields)
    if not durations and not legs:
        _weekend_back(dates, stay_mode, fields)
    if durations and not split:  # each of several stays has its own nights
        fields["nights"] = durations[-1].nights_from(_start_said(fields, current))
    elif stay_mode and len(dates) == 1 and (_ONE_NIGHT.search(msg) or flight_next_morning(msg, own_flight)):
        fields["nights"] = 1  # "a hotel in boston tonight", "a room friday night", "my flight is next morning"
    elif "nights" in slots and fields["nights"] is None:
        n = _BARE_NUMBER.match(msg)
        if n and to_int(n.group("n")):
            fields["nights"] = to_int(n.group("n"))
    proposal = None if chosen_town else confirmed_proposal(msg, pending_question)  # one of two offered, no "yes"
    if proposal:
        # "Yes" to "Do you want a hotel in Paris?" says what the question said.
        proposed, _ = extract_fields(text=proposal, today=today, current=current, conversation=conversation)
        _not_from_offers(proposed)
        if read_party(proposal)["adults"] is None:
            proposed["adults"] = None  # "confirm the following for me": the assistant's "me", not a traveller
        for key, value in proposed.items():
            if fields[key] is None:
                fields[key] = value
            elif key == "stays" and value:  # a stay's date or place the message left open
                first = fields["stays"][0]
                for part, proposed_part in value[0].items():
                    first[part] = first[part] or proposed_part
    if alone and any(s.get("location") for s in fields["stays"] or []):
        if not _travel_said(said_about_stay, places):
            fields["flights_needed"] = False
            if assumptions is not None:
                assumptions.append(ASSUMED_HOTEL_ONLY)
        elif not legs:
            _flights_for_the_stay(current, fields)  # "a family trip to Orlando ... a hotel near Disney"
    apply_partial_stay(part_stay, fields, current)
    town_stay = _stay_in_the_town(places, fields)  # (a stay only the town's airport made is no wish for a hotel)
    if assumptions is not None:
        used = _codes_used(fields)
        assumptions.extend(m.assumed for m in places if m.assumed and m.place["code"] in used)
        assumptions.extend(_weekdays_read(dates, fields))
        if fields.get("hotel_needed") is not False:
            stays = fields["stays"] or []
            first = (stays[0] if stays else {}).get("location") or ((fields["legs"] or [{}])[0].get("destination"))
            assumptions.extend(towns_left_out(msg, places, used, stays, first or fields["destination"]))
        assumptions.extend(
            f'Took "{phrase}" as {"arriving" if key.startswith("arrive") else "leaving"} {time_wish_text(wish)}; '
            "say the time if it is another"
            for phrase, key, wish in clock_words_read(msg)
            if fields.get(key) == wish
        )
        family = family_unsplit(msg)
        if family and fields.get("adults") == family:
            assumptions.append(
                f"Counted your family of {family} as {family} adults; say how many are children (and their ages)"
            )
        small = fields.get("infants") or any(a < UM_FROM_AGE for a in fields.get("child_ages") or [])
        if fields.get("adults") == 0 and unaccompanied(people_text) and not small:  # (under 5: the question says)
            assumptions.append(UNACCOMPANIED)
        elif fields.get("adults") and not fields.get("children") and (notice := alone_notice(people_text)):
            assumptions.append(notice)  # "my 16-year-old flies by herself": a passenger of her own
        if unwanted and fields.get("hotel_needed") is False:
            assumptions.append(lodging_kind.told(unwanted))
        couple = couple_trip(people_text)
        if couple and fields.get("adults") == 2:
            article = "an" if couple[0].lower() in "aeiou" else "a"
            assumptions.append(f"Counted 2 travellers for {article} {couple.lower()}; say if more are coming")
        theirs = their_trip(people_text) if fields.get("adults") == 2 and not couple else None
        if theirs:
            assumptions.append(theirs)  # "my parents' 40th": the two of them, not the writer
        said_class = hotel_class_said(msg)
        if said_class and fields["hotel_min_stars"] == said_class[1]:
            assumptions.append(f'Took "{said_class[0]}" as {said_class[1]}★ or better; say the stars you want')
    complete_stay(fields)
    if fields["stays"] and fields["hotel_needed"] is None and not town_stay:
        fields["hotel_needed"] = True
    _same_day_trip(msg, fields, len(dates))
    _nights_in_window(as_typed, fields, assumptions)  # "sometime between may 10 and 20, 6 nights"
    return fields, notes


def _event_town(
    msg: str, stay_mode: bool, current: Dict[str, Any], fields: Dict[str, Any], assumptions: Optional[List[str]]
) -> None:
    """ "the kentucky derby! flying from charlotte": an event held in one town is where the trip goes, when
    nothing else says where (told, so another town can be said)."""
    if stay_mode or fields["destination"] or trip_has_flights(current):
        return
    said = events.event_town(msg, lookup)
    if not said or (fields["origin"] or {}).get("code") == said[1]["code"]:
        return
    fields["destination"] = dict(said[1])
    if assumptions is not None:
        assumptions.append(events.town_told(*said))


def _typed_name(text: str, mention: Any) -> str:
    """A place as the traveller wrote it ("dallas": Dallas, not Dallas-Fort Worth)."""
    typed = text[mention.start : mention.end]
    return typed.title() if typed.islower() else typed


def _stay_in_the_town(places: Sequence[Any], fields: Dict[str, Any]) -> bool:
    """A town flown to through another town's airport ("Boulder": Denver) keeps its hotel in the town:
    a stay said there moves to it, and a trip there that has a hotel gets it there. True when the stay
    was added only for that."""
    plain = {m.place["code"] for m in places if not m.stay}  # "Denver or Boulder?": Denver's own DEN is Denver
    towns = {m.place["code"]: m.stay for m in places if m.stay and m.place["code"] not in plain}
    if not towns or fields.get("hotel_needed") is False:
        return False
    for stay in fields["stays"] or []:
        code = (stay.get("location") or {}).get("code")
        if code in towns:
            stay["location"] = dict(towns[code])
    destination = (fields.get("destination") or {}).get("code")
    if destination not in towns or (fields.get("one_way") and not fields.get("hotel_needed")):
        return False
    if not fields["stays"]:
        fields["stays"] = [{"location": dict(towns[destination]), "check_in": None, "check_out": None}]
        return True
    if not fields["stays"][0].get("location"):
        fields["stays"][0]["location"] = dict(towns[destination])
    return False


# "a day trip to DC", "back the same evening", "there and back in a day": home again the day it leaves
SAME_DAY = re.compile(
    r"\b(?:(?:a\s+)?(?:same[\s-]?day|day)\s+trip|(?:back|home|return(?:ing)?)\b[^,.;!?\d]{0,12}(?:\d{1,2}(?::\d\d)?\s*[ap]m\s+\w+\s+)?(?:the\s+)?same\s+(?:day|evening|night)"
    r"|there\s+and\s+back\s+(?:in\s+(?:a|one)\s+day|the\s+same\s+day))\b",
    re.I,
)


def _same_day_trip(msg: str, fields: Dict[str, Any], days_said: int = 0) -> None:
    """ "day trip boston to dc jan 6", "there and back in a day", "back on the 5pm shuttle same day": the way home on the day out (a
    trip of no night then searches no hotel, and brings it back when it grows: ``handlers.extract.patch``);
    so too two flights said by their hours on one day ("fly to chicago at 7am and back at 6pm on the 9th")."""
    if fields.get("depart_date") and not fields.get("return_date") and SAME_DAY.search(msg):
        fields["return_date"] = fields["depart_date"]
    out, back = _clock(fields.get("time_out")), _clock(fields.get("time_return"))
    if (
        days_said == 1
        and out
        and back
        and out < back
        and bool(fields.get("depart_date")) != bool(fields.get("return_date"))
    ):
        fields["depart_date"] = fields["return_date"] = fields.get("depart_date") or fields.get("return_date")


def _clock(wish: Any) -> Optional[str]:
    """ "07:00" for a time wished at a clock hour ("around 07:00", "after 17:00"), else None."""
    found = re.search(r"\b\d\d:\d\d\b", wish) if isinstance(wish, str) else None
    return found.group(0) if found else None


# A yes/no question about what is on screen ("are any of these refundable?", "is the second one
# nonstop", "is it business class?"): its wishes are asked about, not asked for; "is it possible to
# get a refundable hotel?" and "can you make it refundable?" still ask for them.
ABOUT_SHOWN = re.compile(
    r"^(?:(?:and|so|also|ok(?:ay)?|hmm+|wait|btw|quick\s+question|just\s+checking)[,:]?\s+)*"
    r"(?:is|are|does|do|did|has|have|will|would|was|were)\s+"
    r"(?:(?:any|all|either|both|none|each|one)\s+of\s+)?"
    r"(?:these|those|they|them|any(?!\s+(?:others?|more)\b)|either|both|all|none"
    r"|(?:it|this|that)(?!\s+(?:possible|ok|okay|fine|alright|too|better|cheaper|worth))"
    r"|the\s+(?:options?|bundles?|choices?|hotels?|flights?|rooms?|fares?|tickets?|rates?|prices?|first|second|third"
    r"|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|cheapest|fastest|outbound|return|\d(?:st|nd|rd|th)\s+(?:one|option))"
    r"|(?:b|option\s*|bundle\s*|#)\d)\b",
    re.I,
)
# "any direct flights?", "are there any refundable ones?": asked of what is shown, unless it names a trip
_ANY_SHOWN = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|hmm+)[,:]?\s+)*(?:(?:are|is)\s+there\s+)?any\b(?!\s+(?:others?|more)\b)[^.!;,?]*\?\s*$",
    re.I,
)
# what such a question leaves as said: the trip itself (places, dates, who) is still read
_TRIP_FIELDS = ("origin", "destination", "depart_date", "return_date", "nights", "legs", "stays", "flights_needed")
# "which is the cheapest refundable option?", "which ones are nonstop": asked of what is shown
_WHICH_SHOWN = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|hmm+)[,:]?\s+)*which\b[^.!;]*\?\s*$|^which\s+(?:one|ones|of)\b", re.I
)
_WISHES = tuple(
    f
    for f in FIELD_NAMES
    if f not in _TRIP_FIELDS and f not in ("adults", "children", "infants", "child_ages", "rooms")
)


_OPTION_NAMED = re.compile(
    r"\b(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|last)\s+(?:ones?|options?|bundles?|choices?)\b"
    r"|\b(?:first|top)\s+(?:two|three|four|five|few|2|3|4|5)\b(?!\s+(?:days?|nights?|weeks?|people|adults|stops?|of\b))"
    r"|\b(?:second|2nd|third|3rd)\s+(?:cheapest|fastest|best|quickest)\b",
    re.I,
)


_LABEL_NAMED = re.compile(
    r"\bthe\s+(?:fully\s+)?(?:refundable|flexible|non[\s-]?stop|direct|business|first\s+class)\s+(?:one|option|bundle|choice)s?\b",
    re.I,
)


def _options_named(msg: str) -> List[Tuple[int, int]]:
    """Where ``msg`` names options by their place ("the 2nd one", "the first two"): not dates."""
    if not re.search(r"(?:st|nd|rd|th|first|second|third|fourth|fifth|last|top)\b", msg, re.I):
        return []
    return [m.span() for m in _OPTION_NAMED.finditer(msg)]


def _same_places(current: Dict[str, Any], fields: Dict[str, Any]) -> None:
    """ "what time do we land in sf?" on a trip to SFO: a city that holds the trip's airport is the
    same place said again, not a move to the whole metro ("fly into Oakland" still moves it)."""
    first = next(iter((current.get("itinerary") or {}).get("segments") or []), None)
    if not isinstance(first, dict):
        return
    for key in ("origin", "destination"):
        said, now = fields.get(key), first.get(key)
        if not (isinstance(said, dict) and isinstance(now, dict)) or said.get("type") != "city":
            continue
        metro = geo.METRO_CODES.get(str(said.get("code"))) or {}
        if now.get("type") == "airport" and now.get("code") in metro.get("airports", ()):
            fields[key] = None


def _airport_of_the_destination(current: Dict[str, Any], fields: Dict[str, Any]) -> None:
    """ "need to go to chicago" — "where from?" — "ord": an airport of the city the trip goes to is
    where it lands, not where it leaves from (a flight from Chicago to Chicago is no trip)."""
    first = next(iter((current.get("itinerary") or {}).get("segments") or []), None)
    said = fields.get("origin")
    if not isinstance(first, dict) or fields.get("destination") or not isinstance(said, dict):
        return
    going = first.get("destination")
    if first.get("origin") or not isinstance(going, dict) or said.get("type") != "airport":
        return
    metro = geo.METRO_CODES.get(str(going.get("code"))) or {}
    if said.get("code") == going.get("code") or said.get("code") in metro.get("airports", ()):
        fields["destination"], fields["origin"] = said, None


def _added_to_party(text: str, current: Dict[str, Any], fields: Dict[str, Any]) -> None:
    """ "add my daughter (5)", "can you add my wife", "2 more adults": the people named join those
    already going (it replaced them: two adults became one adult and a child)."""
    party = current.get("party") or {}
    going = party.get("travelers") or {}
    if not adding(text) or not any(going.get(k) for k in ("adults", "children", "infants")):
        return
    if fields.get("adults") is None and re.search(r"\banother\s+(?:adult|person|travell?er|passenger)\b", text, re.I):
        fields["adults"] = 1  # "add another adult"
    more = MORE_PEOPLE.search(text) or PLUS_PEOPLE.match(text)
    if fields.get("adults") is None and not fields.get("children") and not fields.get("infants") and more:
        fields["adults"] = to_int(more.group("n") or more.group("m"))  # "two more people are coming", "plus one more"
    total, size = total_said(text)  # "my sister is coming too, so 3 of us": three in all
    for key in ("adults", "children", "infants"):
        if fields.get(key) and not (key == "adults" and total):
            fields[key] += int(going.get(key) or 0)
    little = sum(int(fields.get(k) or going.get(k) or 0) for k in ("children", "infants"))
    if size and size > little and (fields.get("adults") or 0) <= size - little:
        fields["adults"] = size - little  # "my colleague wants to join, that makes 4"
    if fields.get("child_ages"):
        fields["child_ages"] = list(party.get("child_ages") or []) + fields["child_ages"]


def _solo_request(
    text: str, places: List[Any], dates: List[DateMention], current: Dict[str, Any], fields: Dict[str, Any]
) -> bool:
    """ "boston from philly jan 15-17 for me": one traveller, when "for me" closes a request that names
    where and when and nobody else, on a trip with no party yet ("that works for me" says nothing)."""
    said = any(fields.get(k) for k in ("adults", "children", "infants"))
    known = ((current.get("party") or {}).get("travelers") or {}).get("adults")
    for m in FOR_ME.finditer(text):
        clause = re.split(r"[.!?;]", text[: m.start()])[-1]
        if places and dates and not said and not known and not _JUDGED.search(clause):
            return True
    return False


# "book me a flight atl to lga monday", "I need to fly to Seattle for work on 12/8": the writer
# travels, and no one else is named or implied, so one traveller is assumed (and said).
_I_TRAVEL = re.compile(
    r"\b(?:book|get|find|fly|send|put)\s+me\b|\bi(?:'m|\s+am|m)\s+(?:flying|travell?ing|going|heading|based|leaving|off)\b"
    r"|\bi\s+(?:need|want|have|got|must|gotta|wanna|would\s+like|'d\s+like)\s+(?:to\s+(?:fly|go|travel|get|be|head|visit|see)\b"
    r"|an?\s+(?:[a-z-]+\s+){0,2}?(?:flight|ticket|one[- ]way|round[- ]?trip|return)\b)|\bmy\s+(?:flight|ticket)\b"
    r"|\b(?:flights?|tickets?|seats?|trip)\s+for\s+(?:me|myself)\b"
    # a trip only the writer makes: "business trip", "for work", "flying home", "visiting my parents"
    r"|\b(?:business|work)\s+trip\b|^\W*(?:a\s+|the\s+)?(?:conference|convention|trade\s*show|training)\s+(?:in|at)\b|\b(?:client|business|sales|board)\s+(?:meeting|visit|dinner|presentation|pitch)\b|\bfor\s+(?:work|business|an?\s+(?:conference|meeting|interview|job\s+interview))\b"
    r"|\b(?:flying|heading|going|coming)\s+(?:back\s+)?home\b|\b(?:visit(?:ing)?|see(?:ing)?)\s+my\b|^\s*need\s+to\s+(?:get|fly|go|be)\b"
    r"|^\W*(?:flying|heading|travell?ing)\b"  # "flying boston to tampa dec 18-22": the writer, the subject left out
    # the writer's own appointment: "I have a job interview in Charlotte", "I've got a conference in Denver"
    r"|\bi(?:\s+have|'ve\s+got|\s+got|'ve)\s+an?\s+(?:job\s+)?(?:interview|conference|exam|training|appointment|work\s+meeting)\b",
    re.I,
)
_OTHERS = re.compile(
    r"\b(?:we|us|our|ours|we'?re|we'?ll|we'?d|they|them|their|he|she|him|her|family|group|team|everyone|both|all\s+of"
    r"|wife|husband|partner|spouse|girlfriend|boyfriend|gf|bf|fianc[eé]e?|people|guests?|passengers?|travell?ers|adults?|pax|persons?)\b"
    # someone whose occasion the writer goes to is not travelling: "for my grandmother's 90th", "my sister's wedding"
    r"|\b(?:kids?|children|child|baby|infant|toddler|son|daughter|friends?|buddies|colleagues?|co-?workers?|boss"
    r"|client(?!\s+(?:meeting|visit|dinner|lunch|presentation|pitch|site|call|event|workshop)s?\b)|mom|mum|dad|parents?|sister|brother)\b(?!['’]s\b)"
    r"|\bfor\s+(?:a|an|my|our)\s+(?!\w+['’]s\b)(?!work\b|job\b|business\b|company\b|conference\b|meeting\b|interview\b|birthday\b"
    r"|trip\b|vacation\b|holiday\b|wedding\b"
    # what the writer goes for ("for a funeral", "for a 9am meeting", "for a few days"), not whom
    r"|\d|funeral\b|graduation\b|reunion\b|concert\b|game\b|match\b|show\b|festival\b|race\b|marathon\b|tournament\b"
    r"|course\b|class\b|visit\b|week(?:end)?\b|few\b|couple\s+(?:of\s+)?(?:days|nights|weeks)\b|day\b|night\b|quick\b"
    r"|short\b|long\b|retreat\b|ceremony\b|event\b|training\b|workshop\b|seminar\b|summit\b|presentation\b)\w+",
    re.I,
)
ASSUMED_ALONE = "Assumed you're travelling alone (say if anyone is coming with you)"


def _i_travel(
    text: str, places: List[Any], dates: List[DateMention], current: Dict[str, Any], fields: Dict[str, Any]
) -> bool:
    """The writer asks to travel ("book me", "I need to fly") and names or implies nobody else, on a
    request that says where and when, on a trip with no party yet: one traveller."""
    if any(fields.get(k) for k in ("adults", "children", "infants")) or not (places and dates):
        return False
    if ((current.get("party") or {}).get("travelers") or {}).get("adults"):
        return False
    return bool(_I_TRAVEL.search(text)) and not _OTHERS.search(visited_masked(text))


_JUDGED = re.compile(r"\b(?:works?|perfect|fine|good|great|ok(?:ay)?|suits?|sounds?|best|better|costs?)\b", re.I)


def _weekdays_read(dates: List[DateMention], fields: Dict[str, Any]) -> List[str]:
    """ "Taking next Friday as Fri Dec 4", "Taking mid March as Mon Mar 15": how each "next <weekday>"
    and each part of a month the trip took was read."""
    taken = {fields.get("depart_date"), fields.get("return_date")} | {
        stay.get(k) for stay in fields.get("stays") or [] for k in ("check_in", "check_out")
    }
    taken |= {leg.get("depart_date") for leg in fields.get("legs") or [] if isinstance(leg, dict)}
    said = []
    periods: Dict[Tuple[str, str], List[str]] = {}  # (the day(s) read, what to say if wrong): the words read so
    for d in dates:
        if d.value.isoformat() not in taken:
            continue
        day = day_text(d.value.isoformat())
        words = " ".join(d.text.split())
        if next_weekday_said(d):
            said.append(f"Taking next {d.value.strftime('%A')} as {day}")
        elif after_next_said(d):
            said.append(f"Taking {d.value.strftime('%A')} after next as {day}")
        elif d.before_event:
            event = day_text((d.value + timedelta(days=1)).isoformat())
            whose = "the" if d.before_event in _SOMEONES_EVENTS else "your"  # (the wedding is often a sister's)
            said.append(
                f"Flying out {day}, the day before {whose} {d.before_event} on {event}; say the day if you fly another"
            )
        elif d.period and d.until and fields.get("nights") == (d.until - d.value).days:
            back = day_text(d.until.isoformat())
            periods.setdefault((f"{day} to {back}", "say the days if they are others"), []).append(words)
        elif d.period:
            periods.setdefault((day, "say the day if it is another"), []).append(words)
    # "for mardi gras / fat tuesday": two names of one day read once ("Taking mardi gras (fat tuesday) as ...")
    return said + [f"Taking {_one_name(names)} as {when}; {tail}" for (when, tail), names in periods.items()]


def _one_name(names: List[str]) -> str:
    """ "mardi gras (fat tuesday)": the first name said for a day, the others after it once each."""
    first, *others = dict.fromkeys(names)
    return f"{first} ({', '.join(others)})" if others else first


def _weekend_back(dates: List[DateMention], stay_mode: bool, fields: Dict[str, Any]) -> None:
    """ "vegas this weekend", "MLK weekend": a trip that starts on a weekend said in words ends on its
    last day, unless the message says the way back, a length, or one way."""
    if fields.get("one_way") is True or fields.get("nights") is not None:
        return
    stay = (fields.get("stays") or [None])[0] if stay_mode else None
    start, end = (
        ((stay or {}).get("check_in"), (stay or {}).get("check_out"))
        if stay_mode
        else (fields.get("depart_date"), fields.get("return_date"))
    )
    weekend = next((d for d in dates if d.until and d.value.isoformat() == start), None)
    if weekend is not None and weekend.until is not None and not end:
        fields["nights"] = (weekend.until - weekend.value).days


# A trip or stay longer than this, read from numeric dates whose order the locale decided, is asked.
LONG_TRIP_NIGHTS = 30


def _implausibly_long(
    dates: List[DateMention],
    known: Tuple[Optional[date], Optional[date], bool],
    stay_mode: bool,
    fields: Dict[str, Any],
    doubts: List[Doubt],
) -> None:
    """ "03/04 returning 05/06" read month first is a 63-night trip (day first, too): an end date
    that rests on how numeric dates are read and makes the trip longer than a month is not taken
    but asked ("Do you mean Thu May 6 by "05/06"? That is 63 nights..."); dates written out
    ("March 4 to May 6") are taken as written."""
    stay = (fields["stays"] or [None])[0] if stay_mode else None
    start_raw, end_raw = (
        ((stay or {}).get("check_in"), (stay or {}).get("check_out"))
        if stay_mode
        else (fields["depart_date"], fields["return_date"])
    )
    if not end_raw or not any(d.by_convention for d in dates):
        return
    start = date.fromisoformat(start_raw) if start_raw else known[0]
    end = date.fromisoformat(end_raw)
    if start is None or (end - start).days <= LONG_TRIP_NIGHTS:
        return
    said = next((d for d in dates if (d.value.month, d.value.day) == (end.month, end.day)), None)
    if said is None or not (said.by_convention or any(d.by_convention and d.value == start for d in dates)):
        return
    if stay_mode and stay is not None:
        stay["check_out"] = None
    else:
        fields["return_date"] = None
    doubts.append(Doubt(said.start, said.end, said.text, "long", (end,), start))


def _referred_place(
    msg: str,
    said_about_stay: str,
    stay_mode: bool,
    current: Dict[str, Any],
    conversation: Any,
    fields: Dict[str, Any],
    assumptions: Optional[List[str]],
) -> None:
    """A message that names no place but asks for a hotel or a flight "there" (or anywhere, after
    talk about somewhere): the trip's own place, else the one the conversation is about."""
    hotel = bool(HOTEL_WORDS.search(said_about_stay))
    if (stay_mode or hotel) and fields["stays"] and any(s.get("location") for s in fields["stays"]):
        return  # the message names the hotel's place
    if not (stay_mode or hotel) and (fields["destination"] or fields["legs"]):
        return  # ...or where it flies to
    there = bool(THERE.search(mask(msg, [m.span() for m in _IS_THERE.finditer(msg)])))  # not "is there a..."
    asks_flight = bool(FLIGHT_WORDS.search(msg)) and not trip_has_flights(current)
    if not (there or (stay_mode and hotel and not trip_has_stays(current)) or asks_flight):
        return
    referred = place_referred_to(current)
    start = None
    if referred is None:
        context = conversation_places(conversation)
        if not there and not context.from_errand:
            return  # "find me a flight" on its own: the places are asked
        referred, start = context.area, context.start
    if referred is None:
        return
    if stay_mode or hotel:  # "a hotel there"
        stay = (fields["stays"] or [{"check_in": None, "check_out": None}])[0]
        fields["stays"] = [{**stay, "location": referred}] + (fields["stays"] or [])[1:]
        return
    fields["destination"] = referred  # "a flight there"
    origin = ((current.get("itinerary") or {}).get("segments") or [{}])[0].get("origin")
    if start and start["code"] != referred["code"] and not origin:
        fields["origin"] = start
        if assumptions is not None:
            assumptions.append(f"Assumed flying from {start['name']}, named earlier as where you start")


_IS_THERE = re.compile(r"\b(?:is|are|was|were)\s+there\b|\bthere\s*(?:'s|is|are|was|were|will)\b", re.I)


_PRICE_KEYS = ("budget_total", "budget_per_person", "hotel_max_per_night", "currency")


def _not_from_offers(proposed: Dict[str, Any]) -> None:
    """What a "yes" to another assistant's offer does not say: the offer's price is not the
    traveller's budget."""
    for key in _PRICE_KEYS:
        proposed[key] = None


# Words for getting there: "2 tix", "tickets", "seats", "round trip", "phl to orlando".
_GETTING_THERE = re.compile(
    r"\b(?:tix|tickets?|seats?|round[\s-]?trip|one[\s-]?way|r/t|airport|airlines?|layovers?|nonstop|connecting)\b"
    # a way back ("to denver dec 4 back dec 7 with a hotel"): a hotel alone is not returned from
    r"|\b(?:back|return(?:ing)?|coming home|heading home|home again)\s+(?:(?:on|by|the)\s+)*"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|next|tomorrow)",
    re.I,
)


# A night named for a stay ("tonight", "friday night", "tomorrow night"): one night, when no other day is said
_ONE_NIGHT = re.compile(
    r"\b(?:tonight|(?:tomorrow|mon|tues|wednes|thurs|fri|satur|sun)(?:day)?\s+night|the\s+night\s+of)\b(?!\s+(?:and|through|thru|to|until|till|-))",
    re.I,
)


def _travel_said(msg: str, places: List[Any]) -> bool:
    """A message about a hotel that also speaks of getting there (tickets, a route, two places) is
    not a hotel-only trip, though it names no flight."""
    if _GETTING_THERE.search(msg) or len({m.place["code"] for m in places}) > 1:
        return True
    return any(re.search(r"\b[a-z]{3,}\s*(?:to|->|→|>)\s*$", msg[max(0, m.start - 20) : m.start], re.I) for m in places)


def _flights_for_the_stay(current: Dict[str, Any], fields: Dict[str, Any]) -> None:
    """ "A family trip to Orlando March 14-21 ... a hotel near Disney": a trip that is not a hotel
    alone flies to its one stay for its nights, so only where from is left to ask (never "where are
    you going?" beside a hotel in Orlando)."""
    itinerary = current.get("itinerary") or {}
    if itinerary.get("flights_needed") is False or any(
        isinstance(s, dict) and s.get("destination") for s in itinerary.get("segments") or []
    ):
        return
    stays = [s for s in fields["stays"] or [] if s.get("location")]
    if fields["destination"] or len({s["location"].get("code") for s in stays}) != 1:
        return
    stay = stays[0]
    fields["destination"] = stay["location"]
    if not fields["depart_date"] and stay.get("check_in"):
        fields["depart_date"] = stay["check_in"]
        if not fields["return_date"] and stay.get("check_out"):
            fields["return_date"] = stay["check_out"]


def _fly_to_the_stay(stay_mode: bool, current: Dict[str, Any], fields: Dict[str, Any]) -> None:
    """ "A conference in Vegas. Flying from Portland ... hotel near the convention center": a flight
    from somewhere to nowhere named, beside one stay's place, goes where the stay is."""
    first = ((current.get("itinerary") or {}).get("segments") or [{}])[0]
    if (
        stay_mode
        or not fields["origin"]
        or fields["destination"]
        or (isinstance(first, dict) and first.get("destination"))
    ):
        return
    where = {
        (s.get("location") or {}).get("code"): s.get("location") for s in fields["stays"] or [] if s.get("location")
    }
    where.pop(fields["origin"].get("code"), None)
    if len(where) == 1:
        fields["destination"] = next(iter(where.values()))


_WEEKDAY_DAY = re.compile(
    r"^(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?$", re.I
)


def _weekday_day_near(d: DateMention, anchor: date, today: date) -> DateMention:
    """ "leave thursday the 4th instead" about a trip from Fri Mar 5: the Thursday the 4th nearest the
    trip (Mar 4), not the first one from today (Feb 4)."""
    m = _WEEKDAY_DAY.match(d.text.strip())
    if not m:
        return d
    found = []
    for offset in (-1, 0, 1):
        month = anchor.month + offset
        year = anchor.year + (month - 1) // 12
        try:
            value = date(year, (month - 1) % 12 + 1, int(m.group("day")))
        except ValueError:
            continue
        if value >= today and value.weekday() == d.value.weekday():
            found.append(value)
    best = min(found, key=lambda v: abs((v - anchor).days), default=None)
    return d if best is None else DateMention(d.start, d.end, best, d.text)


def _start_said(fields: Dict[str, Any], current: Dict[str, Any]) -> Optional[date]:
    """The day the trip starts, as this message says it or else as the trip has it."""
    first = (fields.get("stays") or [{}])[0] or {}
    said = fields.get("depart_date") or first.get("check_in")
    return date.fromisoformat(said) if isinstance(said, str) else _trip_start(current)


def _trip_start(current: Dict[str, Any]) -> Optional[date]:
    """The first day the trip has so far: its first flight's, else its first stay's check-in."""
    itinerary = current.get("itinerary") or {}
    firsts = [s.get("depart_date") for s in (itinerary.get("segments") or [])[:1] if isinstance(s, dict)]
    firsts += [
        s.get("check_in") for s in ((itinerary.get("lodging") or {}).get("stays") or [])[:1] if isinstance(s, dict)
    ]
    for value in firsts:
        try:
            return date.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            continue
    return None


def _stay_town(name: str) -> Optional[Dict[str, Any]]:
    """The town ``name`` is, read as where a stay is ("rome" in "4 nights rome" is Rome, not a word)."""
    found = _stay_town_read(name.lower())
    return copy.deepcopy(found) if found else None


@functools.lru_cache(maxsize=4096)
def _stay_town_read(name: str) -> Optional[Dict[str, Any]]:
    found = find_places(f"hotel in {name}")
    if len(found) != 1 or (found[0].start, found[0].end) != (9, 9 + len(name)):
        return None
    # a town flown to through another's airport ("boulder": Denver) is slept in, and flown to there
    return {**found[0].stay, "_fly": found[0].place} if found[0].stay else found[0].place


def _home_of_split(places: List[Any], split: List[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """Where a trip of several stays starts and ends: the first town named that is none of the stays'
    ("boston" in "boston to lisbon may 10, 3 nights lisbon then 2 in porto")."""
    codes = {code for s in split for code in (s["location"].get("code"), (s["location"].get("_fly") or {}).get("code"))}
    return next((p.place for p in places if p.place.get("code") not in codes), None)


_HOME_FROM = re.compile(r"\b(?:home|back|fly(?:ing)?\s+(?:home|back)|return(?:ing)?)\s+(?:from|out\s+of)\s+$", re.I)


def _split_legs(
    msg: str, home: Dict[str, Any], split: List[Dict[str, Any]], assumptions: Optional[List[str]]
) -> List[Dict[str, Any]]:
    """The flights of a trip of several stays: home to the first stay's town on its check-in, and home
    from the town the traveller flies back from ("home from lisbon"), else the last stay's, on the last
    check-out (the towns between are by land, as in "fly into Rome, out of Venice")."""
    flown = [s["location"].get("_fly") or s["location"] for s in split]  # Denver for a stay in Boulder
    towns = {p.get("code"): p for p in flown}
    back = None
    for m in find_places(msg):
        if m.place.get("code") in towns and _HOME_FROM.search(msg[max(0, m.start - 25) : m.start]):
            back = towns[m.place["code"]]
    if back is None:
        back = flown[-1]
        if assumptions is not None:
            name, last = back.get("name") or back.get("code"), split[-1]["location"].get("name")
            stop = "the last stop" if last == name or not last else f"for {last}, the last stop"
            assumptions.append(f'Flying home from {name}, {stop}; say "home from ..." to fly back from elsewhere')
    return [
        {"origin": home, "destination": flown[0], "depart_date": split[0]["check_in"]},
        {"origin": back, "destination": home, "depart_date": split[-1]["check_out"]},
    ]


def _has_dates(current: Dict[str, Any]) -> bool:
    itinerary = current.get("itinerary") or {}
    segments = itinerary.get("segments") or []
    stays = (itinerary.get("lodging") or {}).get("stays") or []
    return any(isinstance(s, dict) and s.get("depart_date") for s in segments) or any(
        isinstance(s, dict) and s.get("check_in") for s in stays
    )


# Days said as a window the trip falls in: "sometime between May 10 and May 20", "any time from the
# 3rd to the 15th", "in the window of june 1-14"
_WINDOW_SAID = re.compile(
    r"\b(?:sometime|some\s+time|anytime|any\s+time|somewhere|whenever)\s+(?:between|from|in)\b|\bwindow\b"
    r"|\b(?:can|could)\s+(?:go|travel|leave)\s+(?:any\s+(?:time|day)\s+)?between\b",
    re.I,
)


def _nights_in_window(msg: str, fields: Dict[str, Any], assumptions: Optional[List[str]]) -> None:
    """ "sometime between May 10 and May 20, about 6 nights": the nights start on the window's first day
    (said in ``assumptions``), not the whole window; days said plainly ("May 10-20, 6 nights") keep
    what they said."""
    depart, back, nights = fields.get("depart_date"), fields.get("return_date"), fields.get("nights")
    if not (depart and back and isinstance(nights, int) and _WINDOW_SAID.search(msg)):
        return
    start, end = date.fromisoformat(depart), date.fromisoformat(back)
    if not 0 < nights < (end - start).days:
        return
    fields["return_date"] = (start + timedelta(days=nights)).isoformat()
    if assumptions is not None:
        assumptions.append(
            f"Assumed {nights} nights from {day_text(start.isoformat())}, the first day of your window"
            f" ({day_text(start.isoformat())} – {day_text(end.isoformat())}); say other days to compare"
        )


def _set_dates(fields: Dict[str, Any], stay: bool, start: Optional[date], end: Optional[date]) -> None:
    if stay:
        stays = fields["stays"] or [{"location": None, "check_in": None, "check_out": None}]
        if start:
            stays[0]["check_in"] = start.isoformat()
        if end:
            stays[0]["check_out"] = end.isoformat()
        fields["stays"] = stays
        return
    if start:
        fields["depart_date"] = start.isoformat()
    if end:
        fields["return_date"] = end.isoformat()


# "oops i meant feb not jan", "make it march instead", "same dates but in april": the trip's days in that month
_MONTH_MOVED = re.compile(
    r"\b(?:meant|make\s+(?:it|that|them)|move\s+(?:it|that|them|everything|the\s+trip)\s+to|change\s+(?:it|that)\s+to"
    r"|same\s+(?:dates|days)\s+(?:but\s+)?in|switch\s+(?:it\s+)?to|actually|it'?s|it\s+is|should\s+(?:be|have\s+been)"
    r"|supposed\s+to\s+be|wrong\s+month[\s,.;:-]*)\s+(?:in\s+)?(?P<month>"
    + "|".join(sorted((m for m in MONTHS if m != "may"), key=len, reverse=True))
    + r"|May)\b\.?(?!\s*\d)(?:\s+(?:instead|not\b.*))?\s*[.!]?\s*$",
    re.I,
)


def _month_moved(msg: str, known: Tuple[Any, Any, bool], today: date, stay: bool, fields: Dict[str, Any]) -> None:
    """ "i meant feb not jan" about a trip Jan 20-23: Feb 20-23 (the same days, the same length)."""
    m = _MONTH_MOVED.search(msg)
    start, end, _ = known
    if m is None or start is None:
        return
    month = MONTHS[m.group("month").lower()]
    if month == start.month:
        return
    new_start = next_month_day(today, month, start.day)  # the next such day ("meant jan" in December: January)
    if new_start is None:
        return
    _set_dates(fields, stay, new_start, new_start + (end - start) if end else None)


def _end_said(fields: Dict[str, Any], known: Tuple[Any, Any, bool], stay: bool) -> bool:
    """Whether the message named a new last day for the trip (a return or check-out date of its own)."""
    said = ((fields.get("stays") or [{}])[0] or {}).get("check_out") if stay else fields.get("return_date")
    end = known[1]
    return bool(said) and (end is None or said != end.isoformat())


def _shift(
    shift: Tuple[str, int, Tuple[int, int]], known: Tuple[Any, Any, bool], stay: bool, fields: Dict[str, Any]
) -> None:
    """ "push the return by two days": the trip's own dates moved, and only those named."""
    which, days, _ = shift
    start, end = shifted(known, which, days)
    if start or end:
        _set_dates(fields, stay, start, end)


def _instead(
    msg: str,
    span: Tuple[int, int],
    places: List[Any],
    dates: List[Any],
    current: Dict[str, Any],
    known: Tuple[Any, Any, bool],
    stay: bool,
    fields: Dict[str, Any],
) -> None:
    """ "Austin instead of Denver", "the 11th instead of the 12th": the new value takes the old one's slot."""
    lo, hi = span
    old_places = [p for p in places if lo <= p.start < hi]
    new_places = [p for p in places if not lo <= p.start < hi]
    roles = place_roles(current)
    if old_places and new_places and old_places[0].place["code"] in roles:
        role = roles[old_places[0].place["code"]]
        for key in ("origin", "destination"):
            if fields[key] and fields[key]["code"] in (old_places[0].place["code"], new_places[0].place["code"]):
                fields[key] = None
        fields[role] = new_places[0].place
    old_dates = [d for d in dates if lo <= d.start < hi]
    new_dates = [d for d in dates if not lo <= d.start < hi]
    start, end, _ = known
    if old_dates and new_dates:
        old, new = old_dates[0].value, new_dates[0]
        for which, day in (("start", start), ("end", end)):
            if day and day.day == old.day and (day.month == old.month or old_dates[0].floating):
                value = new.value
                if new.floating:  # "the 11th" in the month of the date it replaces
                    try:
                        value = day.replace(day=new.value.day)
                    except ValueError:
                        value = new.value
                fields["depart_date" if not stay else "stays"] = None if not stay else fields["stays"]
                fields["return_date"] = None if not stay else fields["return_date"]
                _set_dates(fields, stay, value if which == "start" else None, value if which == "end" else None)
                return


def _codes_used(fields: Dict[str, Any]) -> set:
    places = [fields["origin"], fields["destination"]]
    places += [leg.get(k) for leg in fields["legs"] or [] for k in ("origin", "destination")]
    places += [s.get("location") for s in fields["stays"] or []]
    return {p["code"] for p in places if isinstance(p, dict)}


def _checks_in_or_out(msg: str) -> bool:
    """ "check in on the 10th" (a hotel), not "0 bags to check in" or "check in bags" (a flight)."""
    bags = re.compile(r"\b(?:bags?|luggage|baggage)\b", re.I)
    return any(not bags.search(msg[max(0, m.start() - 25) : m.end() + 12]) for m in CHECK_IN_OUT.finditer(msg))


def understood(fields: Dict[str, Any]) -> bool:
    return any(v is not None for v in fields.values())


def _bare_number(msg: str, slots: Sequence[str], fields: Dict[str, Any]) -> None:
    """ "4" after "How many people?" is the party; after "How many rooms?" the rooms."""
    m = _BARE_NUMBER.match(msg)
    n = to_int(m.group("n")) if m else None
    if not n:
        return
    for slot, key in (("adults", "adults"), ("rooms", "rooms"), ("hotel_min_stars", "hotel_min_stars")):
        if slot in slots and fields[key] is None:
            if key == "hotel_min_stars" and n > 5:
                continue
            fields[key] = n
            return


_NEED_N = re.compile(
    rf"(?:^|[.!?]\s*)(?:i|we)\s*(?:'d|would|will|'ll)?\s*(?:need|want|like|take|have)\s+(?P<n>{NUMBER_RE})"
    r"\s*(?:please|then|instead|now)?\s*(?:[.!?]|$)",
    re.I,
)
_COUNTED = re.compile(
    r"\b(?:(?P<rooms>rooms?|hotels?)|(?P<people>tickets?|seats?|people|persons?|passengers?|travell?ers?|guests?))\b",
    re.I,
)


def _count_of_what(msg: str, pending_question: Any, fields: Dict[str, Any]) -> None:
    """ "hotels in that area? I need 3", "1 room 4 days" / "I want 3": a count on its own counts
    what was just spoken of, in the message or the question before it."""
    m = _NEED_N.search(msg)
    n = to_int(m.group("n")) if m else None
    if not m or not n or n > 20:
        return
    question = pending_question.get("text") if isinstance(pending_question, dict) else pending_question
    said = list(_COUNTED.finditer(msg[: m.start("n")]))
    asked = list(_COUNTED.finditer(question)) if isinstance(question, str) else []
    nouns = said or asked
    if not nouns:
        return
    noun = nouns[-1]
    key = "rooms" if noun.group("rooms") else "adults"
    if fields[key] is None:
        fields[key] = n
