"""An approval request in words: what the approver's page and the notification emails read out.

Built from the request's snapshot (the server's own record of what is approved, never what
the traveller typed) and the trip: who travels, where and when, each item with its price,
refundability and deadline, the policy's findings as sentences (never their codes), the total
against the organisation's budget. Times carry their zone; money its currency.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Optional
from zoneinfo import ZoneInfo

from django.utils import timezone

from handlers.common.formats import party_text as core_party_text
from handlers.common.geo import place
from trips.formats import money_text, trip_zone, when_text
from trips.models import ApprovalRequest, Trip
from trips.services.travellers import seats_wanted
from trips.web.labels import trip_label

# Findings the page says another way: the approver is already being asked.
UNSAID_FINDINGS = {"approval_required"}


@dataclass
class Item:
    kind: str  # "Flight" / "Hotel"
    title: str
    details: list[str]
    price: str
    refundability: str
    deadline: str
    price_guaranteed_until: str = ""


@dataclass
class Sheet:
    approval: ApprovalRequest
    trip_name: str
    traveller: str
    traveller_email: str
    organisation: str
    route: str
    dates: str
    party: str
    items: list[Item]
    blocking: list[str]
    warnings: list[str]
    total: str
    total_amount: Optional[Decimal]
    currency: str
    budget_lines: list[str]
    deadline: str
    timezone: str
    decided: str = ""
    notes: list[str] = field(default_factory=list)
    # The earliest price guarantee, when it ends before the decision deadline: a yes (and a payment)
    # after it may meet a new price, and one above the approved total needs a new approval.
    price_guarantee: str = ""
    price_guarantee_passed: bool = False
    # Who travels by name, as the supplier gets them ("Ms Ada Lovelace · lead"), and how many of the party are named.
    passengers: list[str] = field(default_factory=list)
    passengers_named: str = ""


def person_name(user) -> str:
    """How the back office names a person: their full name, else their username."""
    if user is None:
        return "—"
    return (user.get_full_name() or "").strip() or user.get_username()


def party_text(travelers: Any) -> str:
    """ "4 adults, 1 child"; "not known" for an empty party."""
    return core_party_text(travelers, nobody="not known")


def route_text(snapshot: dict) -> str:
    """The flights' airports in order ("EWR → DEN → EWR"), else the hotel's city."""
    stops: list[str] = []
    for item in _items(snapshot):
        summary = item.get("summary") or {}
        if summary.get("origin") and summary.get("destination"):
            if not stops or stops[-1] != summary["origin"]:
                stops.append(str(summary["origin"]))
            stops.append(str(summary["destination"]))
    if stops:
        return " → ".join(stops)
    hotels = [(item.get("summary") or {}).get("hotel_name") for item in _items(snapshot)]
    return ", ".join(str(h) for h in hotels if h) or "—"


def dates_text(snapshot: dict) -> str:
    """The first and last day the items cover ("Sat Jan 30 – Tue Feb 2, 2027")."""
    days = sorted(day for item in _items(snapshot) for day in _item_days(item.get("summary") or {}))
    if not days:
        return "—"
    first, last = days[0], days[-1]
    if first == last:
        return f"{first:%a %b} {first.day}, {first.year}"
    year = "" if first.year == last.year else f", {first.year}"
    return f"{first:%a %b} {first.day}{year} – {last:%a %b} {last.day}, {last.year}"


def approval_sheet(approval: ApprovalRequest) -> Sheet:
    """Everything the approver reads before deciding, in words."""
    trip = approval.trip
    snapshot = approval.snapshot or {}
    tz = trip_zone(trip)
    findings = snapshot.get("policy_findings") or {}
    total = _decimal(snapshot.get("total"))
    currency = approval.currency or snapshot.get("currency") or ""
    sheet = Sheet(
        approval=approval,
        trip_name=trip_label(trip),
        traveller=person_name(trip.owner),
        traveller_email=trip.owner.email,
        organisation=trip.organisation.name,
        route=route_text(snapshot),
        dates=dates_text(snapshot),
        party=party_text(snapshot.get("travelers")),
        items=[_item(item, tz=tz, currency=currency) for item in _items(snapshot)],
        blocking=[f["message"] for f in findings.get("blocking") or [] if isinstance(f, dict) and f.get("message")],
        warnings=[
            f["message"]
            for f in findings.get("warnings") or []
            if isinstance(f, dict) and f.get("message") and f.get("code") not in UNSAID_FINDINGS
        ],
        total=money_text(total, currency),
        total_amount=total,
        currency=currency,
        budget_lines=_budget_lines(trip, total, currency),
        deadline=when_text(approval.expires_at, tz) if approval.expires_at else "",
        timezone=tz,
    )
    if approval.decided_at and approval.status != ApprovalRequest.Status.PENDING:
        by = f" by {person_name(approval.decided_by)}" if approval.decided_by else ""
        sheet.decided = f"{approval.get_status_display()}{by}, {when_text(approval.decided_at, tz)}"
    sheet.passengers, sheet.passengers_named = passengers_in_words(trip)
    guarantee = _earliest_guarantee(snapshot)
    if guarantee is not None and (approval.expires_at is None or guarantee < approval.expires_at):
        sheet.price_guarantee = when_text(guarantee, tz)
        sheet.price_guarantee_passed = guarantee <= timezone.now()
    if snapshot.get("held_total") and snapshot.get("held_total") != snapshot.get("total"):
        sheet.notes.append(
            f"The supplier re-priced the trip: held at {money_text(snapshot['held_total'], currency)}, "
            f"now {money_text(total, currency)}."
        )
    return sheet


PASSENGER_KINDS = {"adult": "", "child": "child", "infant": "lap infant"}


def passengers_in_words(trip: Trip) -> tuple[list[str], str]:
    """The trip's passengers as named for the supplier, read now (the request's snapshot keeps no names)."""
    wanted = len(seats_wanted(trip))
    names = []
    for p in trip.passengers.order_by("position"):
        name = " ".join(filter(None, [(p.title or "").capitalize(), p.given_name, p.family_name]))
        kind = PASSENGER_KINDS.get(p.passenger_type, p.passenger_type)
        names.append(" · ".join(filter(None, [name, kind, "lead" if not names else ""])))
    if not names:
        return [], f"Nobody named yet ({wanted} to name): nothing can be held until everyone is"
    if len(names) != wanted:
        return names, f"{len(names)} named for a party of {wanted}: nothing can be held until everyone is"
    return names, f"All {wanted} named as on their documents" if wanted > 1 else "Named as on the document"


def _earliest_guarantee(snapshot: dict) -> Optional[datetime]:
    """When the first held price stops being guaranteed (None: no item says)."""
    found = []
    for item in _items(snapshot):
        try:
            found.append(datetime.fromisoformat(str(item.get("price_guarantee_expires_at"))))
        except ValueError:
            continue
    return min((when for when in found if when.tzinfo is not None), default=None)


def _items(snapshot: dict) -> list[dict]:
    return [item for item in snapshot.get("items") or [] if isinstance(item, dict)]


def _item(item: dict, *, tz: str, currency: str) -> Item:
    summary = item.get("summary") if isinstance(item.get("summary"), dict) else {}
    is_hotel = item.get("item_type") == "hotel" or bool(summary.get("hotel_name"))
    title, details = _hotel(summary) if is_hotel else _flight(summary)
    deadline = item.get("payment_required_by")
    guarantee = item.get("price_guarantee_expires_at")
    return Item(
        kind="Hotel" if is_hotel else "Flight",
        title=title,
        details=details,
        price=money_text(item.get("amount") or summary.get("total"), item.get("currency") or currency),
        refundability=_refundability(summary, tz),
        deadline=_deadline(item, tz),
        price_guaranteed_until=when_text(guarantee, tz) if guarantee and guarantee != deadline else "",
    )


def _deadline(item: dict, tz: str) -> str:
    """When the item must be paid; one that must be paid at once is bought with the purchase,
    so its deadline is its offer's end."""
    deadline = item.get("payment_required_by")
    if not deadline:
        return "—"
    if item.get("instant"):
        return f"Paid at once when bought; the offer lasts until {when_text(deadline, tz)}"
    return f"Pay by {when_text(deadline, tz)}"


def _flight(summary: dict) -> tuple[str, list[str]]:
    carrier = summary.get("carrier_name") or summary.get("carrier") or "Flight"
    numbers = ", ".join(summary.get("flight_numbers") or [])
    origin, destination = summary.get("origin"), summary.get("destination")
    title = " ".join(part for part in (str(carrier), numbers) if part)
    if origin and destination:
        title += f" · {origin} → {destination}"
    details = []
    if summary.get("depart_at"):
        details.append(f"Departs {_at_airport(summary['depart_at'], origin)}")
    if summary.get("arrive_at"):
        details.append(f"arrives {_at_airport(summary['arrive_at'], destination)}")
    stops = summary.get("stops")
    if stops is not None:
        details.append("nonstop" if not stops else f"{stops} stop{'s' if stops != 1 else ''}")
    if summary.get("cabin"):
        details.append(str(summary["cabin"]).replace("_", " "))
    return title, details


def _hotel(summary: dict) -> tuple[str, list[str]]:
    stars = summary.get("stars")
    title = str(summary.get("hotel_name") or "Hotel") + (f" {'★' * int(stars)}" if isinstance(stars, int) else "")
    details = []
    nights = summary.get("nights")
    check_in, check_out = _day(summary.get("check_in")), _day(summary.get("check_out"))
    if check_in and check_out:
        details.append(f"{check_in:%a %b} {check_in.day} → {check_out:%a %b} {check_out.day}")
    if nights:
        details.append(f"{nights} night{'s' if nights != 1 else ''}")
    if summary.get("nightly_avg"):
        details.append(f"{money_text(summary['nightly_avg'], summary.get('currency'))} a night on average")
    if summary.get("board_type"):
        details.append(str(summary["board_type"]).replace("_", " "))
    return title, details


def _refundability(summary: dict, tz: str) -> str:
    if summary.get("refundable") is False:
        return "Non-refundable"
    if summary.get("refundable_until"):
        return f"Free cancellation until {when_text(summary['refundable_until'], tz)}"
    if summary.get("refundable"):
        return "Refundable"
    return "Not stated"


def _at_airport(value: str, code: Optional[str]) -> str:
    """A flight time at its own airport, labelled ("Sat Jan 30, 7:05 PM EST at EWR")."""
    where = place(code) if code else None
    if where is None:
        return when_text(value, None if _has_offset(value) else "UTC")
    local = datetime.fromisoformat(str(value)).astimezone(ZoneInfo(where["tz"]))
    return f"{local:%a %b} {local.day}, {local:%I:%M %p}".replace(" 0", " ") + f" {local.tzname()} at {code}"


def _has_offset(value: str) -> bool:
    return datetime.fromisoformat(str(value)).tzinfo is not None


def _budget_lines(trip: Trip, total: Optional[Decimal], currency: str) -> list[str]:
    """The total against what the organisation and the traveller set, when they set anything."""
    policy = trip.organisation.policy or {}
    lines = []
    cap = _decimal(policy.get("budget_per_trip"))
    if cap is not None and total is not None:
        verdict = "within" if total <= cap else f"{money_text(total - cap, currency)} over"
        lines.append(f"Policy budget per trip: {money_text(cap, policy.get('currency') or currency)} ({verdict})")
    elif cap is None:
        lines.append("Policy budget per trip: none set")
    own = _decimal(((trip.intent or {}).get("constraints") or {}).get("budget_total"))
    if own is not None and total is not None:
        verdict = "within" if total <= own else f"{money_text(total - own, currency)} over"
        lines.append(f"The traveller's own budget: {money_text(own, currency)} ({verdict})")
    auto = _decimal((policy.get("rules") or {}).get("auto_approve_below"))
    if auto is not None:
        lines.append(f"Travellers may approve themselves below {money_text(auto, currency)}")
    return lines


@dataclass(frozen=True)
class PolicyVerdict:
    """The policy and risk check of one request, as the approval queue shows it in a word or three.

    ``kind``: ``outside`` (a policy rule or the organisation's budget per trip is broken),
    ``flagged`` (within policy, with things worth knowing: a red-eye, an expiring price, over the
    traveller's own cap) or ``within``. ``text`` says it; ``details`` are the sentences behind it.
    """

    kind: str
    text: str
    details: tuple[str, ...] = ()
    flags: str = ""  # the findings in a few words each, for a row: "red-eye ×2, price expiring"


# A finding in a few words, for the queue's row (the decision page says each in full).
FINDING_WORDS = {
    "cabin_above_policy": "cabin above policy",
    "connection_too_short": "connection too short",
    "currency_mismatch": "another currency",
    "departure_soon": "leaves within 24 h",
    "hotel_cancellation_deadline": "free cancellation ends",
    "hotel_over_cap": "hotel over the nightly cap",
    "long_connection": "long connection",
    "no_price_guarantee": "price not guaranteed",
    "not_holdable": "paid at once",
    "not_refundable": "not refundable as asked",
    "offer_expired": "price expired",
    "offer_expiring": "price expiring",
    "over_budget": "over the traveller's budget",
    "over_nightly_cap": "over the traveller's nightly cap",
    "over_policy_budget": "over the budget per trip",
    "price_guarantee_shorter_than_hold": "price guarantee ends early",
    "red_eye": "red-eye",
    "refundable_required": "not refundable",
    "short_hold": "short hold",
}


def _in_words(findings: list[dict], *, over_cap: bool) -> str:
    words = ["over the budget per trip"] if over_cap else []
    words += [
        FINDING_WORDS.get(str(f.get("code")), str(f.get("code") or "finding").replace("_", " ")) for f in findings
    ]
    counted = {w: words.count(w) for w in words}  # in order, once each
    return ", ".join(w if n == 1 else f"{w} ×{n}" for w, n in counted.items())


POLICY_VERDICTS = [
    ("outside", "Outside policy or over a cap"),
    ("flagged", "Within policy, with risk flags"),
    ("within", "Within policy, nothing flagged"),
]


def policy_verdict(approval: ApprovalRequest) -> PolicyVerdict:
    """Read from the request's snapshot (what the approver approves) and the organisation's budget
    per trip: the same findings the decision page lists, never what the traveller typed."""
    snapshot = approval.snapshot or {}
    findings = snapshot.get("policy_findings") or {}
    blocking = [f for f in findings.get("blocking") or [] if isinstance(f, dict) and f.get("message")]
    flags = [
        f
        for f in findings.get("warnings") or []
        if isinstance(f, dict) and f.get("message") and f.get("code") not in UNSAID_FINDINGS
    ]
    policy = approval.organisation.policy or {}
    cap, total = _decimal(policy.get("budget_per_trip")), _decimal(snapshot.get("total")) or approval.amount_ceiling
    currency = approval.currency or snapshot.get("currency") or ""
    broken = [f["message"] for f in blocking]
    if cap is not None and total is not None and total > cap:
        broken.insert(0, f"{money_text(total - cap, currency)} over the budget per trip of {money_text(cap, currency)}")
    said = tuple(broken + [f["message"] for f in flags])
    over_cap = len(broken) > len(blocking)
    words = _in_words(
        blocking + flags, over_cap=over_cap and not any(f.get("code") == "over_policy_budget" for f in blocking)
    )
    flagged = f"{len(flags)} risk flag{'s' if len(flags) != 1 else ''}" if flags else ""
    if broken:
        head = "Outside policy" if blocking else "Over budget"
        return PolicyVerdict("outside", " · ".join(filter(None, [head, flagged])), said, words)
    if flags:
        return PolicyVerdict("flagged", f"Within policy · {flagged}", said, words)
    return PolicyVerdict("within", "Within policy", said)


def _item_days(summary: dict) -> list[date]:
    days = []
    for key in ("depart_at", "arrive_at"):
        if summary.get(key):
            try:
                days.append(datetime.fromisoformat(str(summary[key])).date())
            except ValueError:
                pass
    for key in ("check_in", "check_out"):
        day = _day(summary.get(key))
        if day:
            days.append(day)
    return days


def _day(value: Any) -> Optional[date]:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        return None


def _decimal(value: Any) -> Optional[Decimal]:
    if value in (None, ""):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None
