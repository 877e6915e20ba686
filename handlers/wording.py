"""Chat wording: the messages the traveller reads, and how places, routes, money and trips read in them.

``message()`` and ``error_message()`` build the chat message shape every handler emits
(``handlers/README.md``, "Chat messages").
"""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from typing import Any, Callable, Dict, List, Optional, Sequence

from .common import geo
from .common.board import board_words
from .common.clock import day_text
from .common.formats import money_text as money
from .common.formats import party_text
from .common.landmarks import KIND_SAID, area_kind, where_near
from .common.shape import arrival_text, budget_limit, time_wish_text, trip_details
from .extract.patch import hotel_assumption, rooms_assumption
from .trip_read import segments_of, stays_of, travellers

QUESTIONS: Dict[str, str] = {
    "origin": "Where are you flying from?",
    "destination": "Where are you going?",
    "depart_date": "When do you leave?",
    "adults": "How many people are travelling?",
    "return_date": "When do you come back? (Say 'one way' if you don't.)",
    "check_out": "Until when do you need the hotel?",
    "hotel_location": "Which city do you need the hotel in?",
    "check_in": "When do you check in?",
    "child_ages": "How old are the children? (Under 2 can fly on a lap; from 2 they need their own seat.)",
}
# "How many people?" when only a child is going: a child alone flies on the airline's own service.
ADULTS_FOR_A_CHILD = (
    "Will a grown-up fly with them? Airlines let children of 5 to 14 fly alone only with their unaccompanied minor "
    "service, which the airline books itself (for a fee); if an adult comes along, say how many adults are travelling."
)
# ... and when a child is under 5: no airline lets them fly alone
ADULTS_FOR_A_SMALL_CHILD = (
    "Who will fly with them? A child under 5 can't fly alone on any airline, even as an unaccompanied minor; "
    "say how many adults are travelling."
)
PURCHASE_REFUSAL = (
    "I can't buy anything from a chat message. Purchases need your approver's token, entered in the purchase form."
)


def place_label(place: Any, *, compact: bool = False) -> str:
    """How a place reads in chat: "Newark (EWR)", or "EWR" when compact; a metro is its name ("San Francisco", not "QSF")."""
    if not isinstance(place, dict):
        return str(place or "?")
    code, name = place.get("code"), place.get("name")
    if code and name and (geo.place(str(code)) or {}).get("type") == "city":  # a metro code, not an airport
        return str(name)
    if compact or not name or name == code:
        return str(code or name or "?")
    return f"{name} ({code})"


def stay_place(stay: Dict[str, Any]) -> str:
    """Where a hotel stay is, in words: the traveller's own hint, else the city's name (never "QSF")."""
    if stay.get("location_hint"):
        return str(stay["location_hint"])
    if isinstance(stay.get("location"), dict):
        return place_label(stay["location"], compact=True)
    code = stay.get("location_code")
    found = geo.place(str(code)) if code else None
    return str((found or {}).get("city") or code or "")


def describe_items(items: List[Dict[str, Any]]) -> str:
    """ "the 2 flights and the hotel": what a set of holds or items is, in words."""
    counts = Counter(i.get("item_type") or "item" for i in items)
    words = {"flight": ("flight", "flights"), "hotel": ("hotel", "hotel stays")}
    parts = []
    for kind, n in counts.items():
        one, many = words.get(kind, (kind, f"{kind}s"))
        parts.append(f"the {one}" if n == 1 else f"the {n} {many}")
    return " and ".join(parts) or "nothing"


# -- chat messages -------------------------------------------------------------------------
def message(text: str, widget: Optional[Dict[str, Any]] = None, kind: str = "message") -> Dict[str, Any]:
    return {"role": "assistant", "kind": kind, "text": text, "widget": widget}


def error_message(code: str, text: str, retryable: bool = False) -> Dict[str, Any]:
    return message(text, {"type": "error", "code": code, "message": text, "retryable": retryable}, kind="error")


def segment_route(seg: Dict[str, Any]) -> str:
    return f"{place_label(seg.get('origin'))} → {place_label(seg.get('destination'))} on {day_text(seg.get('depart_date'))}"


def describe_trip(widget: Dict[str, Any]) -> str:
    """A ``trip_summary`` widget as one plain sentence (for text-only clients such as the terminal chat)."""
    party = widget.get("travelers") or {}
    people = ", ".join(
        f"{n} {k if n != 1 else k.rstrip('s').replace('children', 'child')}" for k, n in party.items() if n
    )
    stays = widget.get("stays") or []
    parts = [people] + [segment_route(s) for s in widget.get("segments") or []]
    details = [f"{d['label'].lower()}: {d['value']}" for d in widget.get("details") or []]
    said_none = any(d.startswith("hotel:") for d in details)  # "hotel: none: flights only"
    parts += [f"hotel in {stay_place(s)} {s['check_in']} to {s['check_out']}" for s in stays] or (
        [] if said_none else ["no hotel"]
    )
    parts += details
    text = "Your trip: " + "; ".join(p for p in parts if p) + "."
    if widget.get("assumptions"):
        text += " Assumptions: " + "; ".join(widget["assumptions"]) + "."
    return text


def known_so_far(doc: Dict[str, Any], asked: Sequence[str]) -> List[str]:
    """What the traveller has told us, in a few words each, shown beside the questions (so a wrong
    reading is seen before anything is searched): the route, the dates, who travels, the stay.
    Nothing that is being asked (``asked``: the slots of the questions) and nothing assumed."""
    known: List[str] = []
    segs = segments_of(doc)
    if segs:
        first = segs[0]
        origin = first.get("origin") if "origin" not in asked else None
        destination = first.get("destination") if "destination" not in asked else None
        if origin and destination:
            known.append(f"{place_label(origin)} → {place_label(destination)}")
        elif destination:
            known.append(f"To {place_label(destination)}")
        elif origin:
            known.append(f"From {place_label(origin)}")
        if first.get("depart_date") and "depart_date" not in asked:
            known.append(f"leaving {day_text(first['depart_date'])}")
        if len(segs) > 1 and segs[-1].get("depart_date") and "return_date" not in asked:
            home = segs[-1].get("destination") == first.get("origin")
            known.append(f"{'back' if home else 'last flight'} {day_text(segs[-1]['depart_date'])}")
    if "adults" not in asked and travellers(doc)["adults"] >= 1:
        known.append(party_text(travellers(doc)))
    stays = [s for s in stays_of(doc) if s.get("check_in") and s.get("check_out")]
    if stays and "check_out" not in asked:
        stay = stays[0]
        flown = [s.get("depart_date") for s in segs[:1] + segs[1:][-1:]]
        if flown == [stay["check_in"], stay["check_out"]]:  # the nights between the flights
            known.append("a hotel")
        else:
            known.append(f"hotel {day_text(stay['check_in'])} – {day_text(stay['check_out'])}")
    return known


def assumptions_said(doc: Dict[str, Any]) -> List[str]:
    """What was filled in for the traveller that still applies: the hotel and rooms assumed for a trip with no
    hotel (a day trip) are kept (a hotel added back brings them back) but not said."""
    lodging = (doc.get("itinerary") or {}).get("lodging") or {}
    stays = stays_of(doc)
    hotel = lodging.get("needed", True) and bool(stays)
    said = [
        a for a in doc["status"].get("assumptions") or [] if hotel or not (rooms_assumption(a) or hotel_assumption(a))
    ]
    return said + [landing_line(stay) for stay in stays if stay.get("first_night")]


def landing_line(stay: Dict[str, Any]) -> str:
    """Why a stay starts after the day its flight leaves (``trip_read.stays_of``)."""
    return (
        f"Hotel in {stay_place(stay)} from {day_text(stay['first_night'])}: every flight found lands too late"
        " for a night there before, so no night is paid while you fly"
    )


def trip_summary(doc: Dict[str, Any], options: int) -> Dict[str, Any]:
    """The understood trip, shown before the bundles: a short lead-in, the card carries the details."""
    widget = {
        "type": "trip_summary",
        # each end also as the chat names it ("Newark (EWR)"; a metro by its city, never "QSF")
        "segments": [
            {
                **seg,
                "origin_label": place_label(seg.get("origin")),
                "destination_label": place_label(seg.get("destination")),
            }
            for seg in segments_of(doc)
        ],
        "stays": stays_of(doc),
        "travelers": travellers(doc),
        "details": trip_details(doc),
        "assumptions": assumptions_said(doc),
    }
    return message(f"Here's what I understood — {options} option{'s' if options != 1 else ''} below.", widget)


# What the ``bundles`` card shows of a bundle (static/trips/js/widgets.js: the card, the holds'
# names, "choose the option within policy"; the terminal chat): the chat keeps it as it showed
# it. The bundle itself, with what selecting, checking and holding it read (prices per item,
# hold and price-guarantee times, expiry, the score), stays in ``working_memory.ranked_bundles``.
CARD_BUNDLE = ("bundle_id", "rank", "label", "total", "currency", "refundable", "policy", "why")
CARD_FLIGHT = (
    "carrier",
    "carrier_name",
    "flight_numbers",
    "origin",
    "destination",
    "depart_at",
    "arrive_at",
    "stops",
    "connections",
    "duration_minutes",
    "red_eye",
    "cabin",
)
CARD_HOTEL = (
    "hotel_name",
    "stars",
    "board_type",
    "refundable",
    "nights",
    "rooms",
    "nightly_avg",
    "nightly_max",
    "room_charges",
    "taxes_and_fees",
    "total",
    "currency",
    "distance_km",  # from the centre: "which one is closest?" is answered from the card
    "near",  # the place the hotel was wished near ("the Las Vegas Strip") and how far from it
    "near_km",
)


def _picked(value: Dict[str, Any], keys: Sequence[str]) -> Dict[str, Any]:
    return {k: value[k] for k in keys if k in value}


def _card_item(item: Dict[str, Any], summary_keys: Sequence[str]) -> Dict[str, Any]:
    shown = {k: v for k, v in item.items() if k != "summary"}  # ids, segment or stay, the flight's zones
    if isinstance(item.get("summary"), dict):
        shown["summary"] = _picked(item["summary"], summary_keys)
    return shown


def bundles_widget(bundles: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The ``bundles`` widget: each bundle as the card shows it (``CARD_BUNDLE``…)."""
    return {
        "type": "bundles",
        "bundles": [
            {
                **_picked(b, CARD_BUNDLE),
                "flights": [_card_item(f, CARD_FLIGHT) for f in b.get("flights") or []],
                "hotels": [_card_item(h, CARD_HOTEL) for h in b.get("hotels") or []],
            }
            for b in bundles
        ],
    }


def route_label(doc: Dict[str, Any]) -> str:
    """ "EWR ⇄ DEN" for a round trip, "BOS → MIA → ORD" for one way or multi-city, "a hotel in Austin" without flights."""
    segs = segments_of(doc)
    if not segs:
        places = [stay_place(s) for s in stays_of(doc)]
        return f"a hotel in {' and '.join(str(p) for p in places if p) or 'town'}"
    # a flight home from elsewhere starts a new run: "Chicago → Rome, Milan → Chicago"
    runs: List[List[str]] = []
    for i, seg in enumerate(segs):
        start = place_label(seg.get("origin"), compact=True)
        if not i or start != place_label(segs[i - 1].get("destination"), compact=True):
            runs.append([start])
        runs[-1].append(place_label(seg.get("destination"), compact=True))
    if len(runs) == 1 and len(runs[0]) == 3 and runs[0][0] == runs[0][2]:
        return f"{runs[0][0]} ⇄ {runs[0][1]}"
    return ", ".join(" → ".join(run) for run in runs)


def bundles_line(doc: Dict[str, Any], bundles: List[Dict[str, Any]], was: Any = None) -> str:
    """ "Here are 5 options for BOS ⇄ DEN, cheapest $1,073.07 in all for 2 adults (was $1,042.15)." ``was``:
    the cheapest of the options shown before a change (``{"total", "currency"}``), said when it moved."""
    cheapest = min(bundles, key=lambda b: float(b.get("total") or "inf"))
    n = len(bundles)
    party = party_text(travellers(doc))
    limit, _ = budget_limit(doc.get("constraints") or {}, sum(travellers(doc).values()))
    over = limit is not None and Decimal(str(cheapest.get("total") or "0")) > limit
    before = ""
    if isinstance(was, dict) and was.get("total") and was.get("currency") == cheapest.get("currency"):
        if Decimal(str(was["total"])) != Decimal(str(cheapest.get("total") or "0")):
            before = f" (was {money(was['total'], was['currency'])})"
    return (
        f"Here {'are' if n != 1 else 'is'} {n} option{'s' if n != 1 else ''} for {route_label(doc)}, "
        f"cheapest {money(cheapest.get('total'), cheapest.get('currency'))}{before} in all{' for ' + party if party else ''}."
        # "anything under 800?" and nothing is: said, not left to the cards
        + (f" None is within your budget of {money(str(limit), cheapest.get('currency'))}." if over else "")
        + _preferred_unflown(doc, bundles)
    )


def _preferred_unflown(doc: Dict[str, Any], bundles: List[Dict[str, Any]]) -> str:
    """ "can we do delta instead" and no option flies Delta: said, not left to the cards."""
    from .common.carriers import AIRLINE_NAMES
    from .common.shape import carrier_rules

    preferred = carrier_rules((doc.get("preferences") or {}).get("flight") or {})["preferred"]
    flown = {(f.get("summary") or {}).get("carrier") for b in bundles for f in b.get("flights") or []}
    if not preferred or not any(b.get("flights") for b in bundles) or flown & set(preferred):
        return ""
    return f" None of them flies {' or '.join(AIRLINE_NAMES.get(c, c) for c in preferred)}."


def findings(items: Any) -> str:
    """Policy findings as one sentence ("a; b")."""
    return "; ".join(str(i.get("message", "")).rstrip(".") for i in items or [] if isinstance(i, dict))


def bundle_line(b: Dict[str, Any]) -> str:
    return f"{b['bundle_id']}: {money(b.get('total'), b.get('currency'))}"


def held_text(doc: Dict[str, Any], held: List[Dict[str, Any]], local: Callable[[Optional[str]], str]) -> str:
    """ "Held for 4 adults: the 2 flights until Thu Jan 28, 9:00 AM EST and the hotel until …; $2,287.84 in all."

    ``local`` writes a deadline in the traveller's zone, labelled.
    """
    by_deadline: Dict[str, List[Dict[str, Any]]] = {}
    for hold in held:
        if not hold.get("instant"):
            by_deadline.setdefault(str(hold.get("payment_required_by") or ""), []).append(hold)
    parts = [f"{describe_items(group)} until {local(at or None)}" for at, group in sorted(by_deadline.items())]
    parts += [  # paid at once: nothing is held, the item is bought with the rest when the traveller pays
        f"{describe_items([h])} not held but kept for approval: it is paid at once, so it is bought when you pay, "
        f"at its price then (the offer lasts until {local(h.get('payment_required_by'))})"
        for h in held
        if h.get("instant")
    ]
    currencies = {(h.get("held_total") or {}).get("currency") for h in held}
    total = sum(float((h.get("held_total") or {}).get("amount") or 0) for h in held)
    party = party_text(travellers(doc))
    amount = f"; {money(f'{total:.2f}', currencies.pop())} in all" if len(currencies) == 1 else ""
    return f"Held{' for ' + party if party else ''}: {' and '.join(parts)}{amount}."


def booked_text(doc: Dict[str, Any], booking: Dict[str, Any]) -> str:
    """What a traveller quotes to an airline or hotel: each item's record locator, what was paid and
    for whom ("flight ABC123, hotel HX4411; $2,287.84 paid for 4 adults with Visa •• 4242.").
    The booking's internal id is never shown."""
    orders = [o for o in booking.get("orders") or [] if o.get("record_locator")]
    refs = [f"{o.get('item_type') or 'item'} {o['record_locator']}" for o in orders] or [
        str(code) for code in booking.get("record_locators") or []
    ]
    card = booking.get("payment_method") or {}
    paid_with = f" with {str(card.get('brand') or 'card').title()} •• {card['last4']}" if card.get("last4") else ""
    party = party_text(travellers(doc))
    lead = f"booking references {', '.join(refs)}; " if refs else ""
    return (
        f"{lead}{money(booking.get('total'), booking.get('currency'))} paid"
        f"{' for ' + party if party else ''}{paid_with}."
    )


def preference_words(doc: Dict[str, Any], name: str, leg: Optional[str] = None) -> str:
    """A search filter as the traveller set it ("nonstop only", "avoiding Delta", "at most $150 a night");
    times for one ``leg`` ("outbound" / "return") when it is given (a leg's search names its own wish)."""
    from .common.carriers import AIRLINE_NAMES
    from .common.shape import carrier_rules, nightly_cap

    flight = (doc.get("preferences") or {}).get("flight") or {}
    hotel = (doc.get("preferences") or {}).get("hotel") or {}
    if name == "max_stops":
        stops = flight.get("max_stops")
        return "nonstop only" if not stops else f"at most {stops} stop{'s' if stops != 1 else ''}"
    if name == "airlines":
        rules = carrier_rules(flight)
        names = lambda codes: " or ".join(AIRLINE_NAMES.get(c, c) for c in codes)  # noqa: E731
        if rules["required"]:
            return f"only {names(rules['required'])}"
        return f"avoiding {names(rules['avoid'])}" if rules["avoid"] else "your airline choice"
    if name == "red_eye":
        return "no red-eyes"
    if name == "time_window":
        mine = lambda wishes: [t for k, t in (wishes or {}).items() if t and leg in (None, k)]  # noqa: E731
        times = [f"leaving {time_wish_text(t)}" for t in mine(flight.get("time_of_day"))]
        times += [arrival_text(t) for t in mine(flight.get("arrival"))]
        return " / ".join(dict.fromkeys(times)) if times else "your flight times"
    if name == "min_stars":
        return f"{hotel.get('min_stars')}+ stars"
    if name == "refundable":
        return "refundable rooms only"
    if name == "board":
        return board_words(hotel.get("board"))
    if name == "max_nightly":
        cap = nightly_cap(doc.get("constraints") or {})
        currency = (doc.get("constraints") or {}).get("currency")
        return f"at most {money(cap, currency)} a night" if cap is not None else "your nightly cap"
    return name.replace("_", " ")


def amenities_line(named: Sequence[str]) -> str:
    """For hotel features the searches cannot see (``extract.prefs.unsearchable_hotel_features``:
    "a hotel with a gym", "w/ pool"): one line saying the options are not filtered by them; ""
    when none is named."""
    beds = [n for n in named if _BEDS.search(n)]
    rest = [n for n in named if n not in beds]
    lines = []
    if beds:  # the card says each room's beds ("2 queen beds"), so the traveller can compare
        lines.append(
            f"I can't search hotels by {' or '.join(beds)}, but each option below says its beds,"
            " and those that have them come first."
        )
    if rest:
        lines.append(
            f"I can't search hotels by {' or '.join(rest)}: the options show stars, beds, price, meals, "
            "refundability and area only, so check the hotel's page for that."
        )
    return " ".join(lines)


_BEDS = re.compile(r"\b(?:queen|king|twin|double|single)\b", re.I)


def unknown_place_line(doc: Dict[str, Any]) -> str:
    """For a hotel wished near a place the desk cannot place in the stay's city ("near the client's
    office on elm st"): one line saying the options are measured from the centre instead; "" when
    the place is known (``common.landmarks``) or no place is wished."""
    near = ((doc.get("preferences") or {}).get("hotel") or {}).get("near")
    stays = stays_of(doc)
    code = stays[0].get("location_code") if stays else None
    place = geo.place(code) if code else None
    if not near or not place or where_near(near, place):
        return ""
    kind = area_kind(near)
    if kind:  # "near the beach" in Denver: no beach the desk knows there
        return (
            f"I don't know which hotels in {place['city']} are {KIND_SAID[kind]}, so the options are not ranked by it: "
            f"each shows its distance from the centre. Name a beach, street or landmark and I'll rank by that."
        )
    return (
        f"I don't know where {near} is, so I can't measure the hotels from it: each option shows its "
        f"distance from the centre of {place['city']}. Name a landmark or a well-known street nearby and I'll rank by that."
    )


def area_kind_line(doc: Dict[str, Any]) -> str:
    """For a kind of area wished ("near the beach", "by the water", "in the old town") that the desk
    places in the stay's city (``common.landmarks.area_kind``): one line naming the place the options
    are measured from, so the reading can be corrected; "" otherwise."""
    near = ((doc.get("preferences") or {}).get("hotel") or {}).get("near")
    kind = area_kind(near)
    stays = stays_of(doc)
    place = geo.place(stays[0].get("location_code")) if kind and stays and stays[0].get("location_code") else None
    found = where_near(near, place) if place else None
    if not kind or not found or not place:
        return ""
    return (
        f"For a hotel {KIND_SAID[kind]} in {place['city']} I'm measuring from {found['name']}: each option "
        "shows its distance from there. Name another spot if you meant somewhere else."
    )


# What the desk cannot do, said once when a message wishes it (the detectors are in
# ``extract.prefs``; ``reducer.intake`` pairs each with its sentence).
SEATS_CANNOT = "I can't choose seats: pick them with the airline after booking (the options are not filtered by seat)."
ASSISTANCE_CANNOT = (
    "Wheelchair help, a service animal or oxygen is arranged with the airline once the trip is booked "
    "(free, best at least 48 hours before the flight); the options below are not filtered by it."
)
CAR_CANNOT = "I can't book rental cars: I book flights and hotels only, so book the car with a rental company."
BAGS_CANNOT = (
    "I can't filter fares by bags: each option comes with its own allowance; "
    'ask "what bags are included?" to compare them.'
)
PAST_TRIP_CANNOT = (
    "I can't see your past trips, so I can't find the hotel or flights you had before: "
    "tell me the hotel's name or area, or the airline, and I'll look near that."
)


def flexible_dates_line(flexible: bool, doc: Dict[str, Any]) -> str:
    """For dates said to be flexible (``extract.prefs.dates_flexible``: "flexible by a day or two",
    "+/- 2 days"): one line saying the options are for the days said and how to compare others (a
    "what if" question, which the desk prices on a yes); "" when nothing is said of it."""
    segs = segments_of(doc)
    days = [day_text(s["depart_date"]) for s in (segs[:1] + segs[1:][-1:]) if s.get("depart_date")]
    if not flexible or not days:
        return ""  # (no day yet: the day is asked for)
    which = f" ({' – '.join(days)})"
    later = "come back a day later" if len(segs) > 1 else "leave a day later"
    return (
        f"Noted that your dates can move. The options are for the days you gave{which}; to compare, ask "
        f'"what if we leave a day earlier?" or "what if we {later}?" and I\'ll show what it costs.'
    )


# "add a hotel", "i'll need a hotel too", "can you include a room": a hotel asked for
def hotel_already_line(asked: bool, doc: Dict[str, Any]) -> str:
    """For a hotel asked for (``extract.prefs.asks_for_hotel``) that every option already has ("add a
    hotel" on a trip whose options include one): one line naming the stays, so "Nothing changed" is
    never the answer; "" otherwise."""
    stays = [s for s in stays_of(doc) if s.get("check_in") and s.get("check_out")]
    if not stays or not asked:
        return ""
    said = "; ".join(f"{stay_place(s)}, {day_text(s['check_in'])} – {day_text(s['check_out'])}" for s in stays)
    return f"The options already include a hotel ({said}). Say 'no hotel' to see flights only."
