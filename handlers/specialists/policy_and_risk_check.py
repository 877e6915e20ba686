"""policy_and_risk_check: a bundle against the organisation's travel policy and common travel risks.

Blocking findings stop a hold (the Reducer refuses it); warnings are shown and the traveller
may go on. Every finding has a stable ``code`` and a message a traveller can read: items are
named as the chat names them ("EWR → DEN (Alaska Airlines)", the hotel's name), times are shown
in the organisation's timezone (``org.timezone``, the trip's), and a report never
repeats a message. Policy comes from ``org.policy`` (the host's record) over the ``policy``
argument, over ``DEFAULT_POLICY``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from itertools import count
from typing import Any, Callable, Dict, List, Optional, Sequence

from handlers.common.clock import iso, local_time_text
from handlers.common.defaults import DEFAULT_POLICY
from handlers.common.formats import duration_text, money_text
from handlers.common.shape import budget_limit, nightly_cap, party_size
from handlers.common.types import ok
from handlers.supplier.money import money

from . import SELF_TEST_NOW, SpecialistTool, require

CABIN_ORDER = ("economy", "premium_economy", "business", "first")
EXPIRY_WARNING = timedelta(minutes=15)
DEPARTURE_SOON = timedelta(hours=24)
SHORT_HOLD_MINUTES = 120


class Findings:
    """The report being written; a message already in it is not added again."""

    def __init__(self, timezone: str, *, warns: bool = True) -> None:
        """``warns``: False when only blocking findings are wanted (``item_blocking``), so checks
        skip what only warns."""
        self.timezone, self.warns = timezone, warns
        self.blocking: List[Dict[str, str]] = []
        self.warnings: List[Dict[str, str]] = []

    def block(self, code: str, message: str) -> None:
        self._add(self.blocking, code, message)

    def warn(self, code: str, message: str) -> None:
        if self.warns:
            self._add(self.warnings, code, message)

    def when(self, value: Any) -> str:
        """An instant as the traveller reads it, in the trip's timezone ("Wed Jan 27, 8:00 PM EST")."""
        return local_time_text(value if isinstance(value, str) else iso(value), self.timezone)

    def _add(self, findings: List[Dict[str, str]], code: str, message: str) -> None:
        if all(f["message"] != message for f in self.blocking + self.warnings):
            findings.append({"code": code, "message": message})


def item_name(item: Dict[str, Any]) -> str:
    """How the chat names a bundle item: the hotel, or the leg and its airline."""
    s = item["summary"]
    if s.get("hotel_name"):
        return s["hotel_name"]
    route = " → ".join(part for part in (s.get("origin"), s.get("destination")) if part)
    route = route or item.get("segment_id") or "flight"
    return f"{route} ({s['carrier_name']})" if s.get("carrier_name") else route


class _Name:
    """``item_name(item)``, made only when a message uses it (most offers give none)."""

    def __init__(self, item: Dict[str, Any]) -> None:
        self.item = item

    def __format__(self, spec: str) -> str:
        return format(item_name(self.item), spec)


def allowed_cabin(policy: Dict[str, Any], hours: float) -> Optional[str]:
    for rule in sorted(policy.get("cabin_by_flight_hours") or [], key=lambda r: r["max_hours"]):
        if hours <= rule["max_hours"]:
            return rule["cabin"]
    return None


def _check_flight(f: Dict[str, Any], policy: Dict[str, Any], now: datetime, out: Findings) -> None:
    s, label = f["summary"], _Name(f)
    cabin = allowed_cabin(policy, s["duration_minutes"] / 60)
    if cabin and CABIN_ORDER.index(s["cabin"]) > CABIN_ORDER.index(cabin):
        out.block(
            "cabin_above_policy",
            f"{label}: {s['cabin'].replace('_', ' ')} is above the "
            f"{cabin.replace('_', ' ')} your policy allows for a {duration_text(s['duration_minutes'])} flight.",
        )
    low, high = policy.get("min_connection_minutes"), policy.get("max_connection_minutes")
    for c in s.get("connections") or []:
        if low is not None and c["minutes"] < low:
            out.block(
                "connection_too_short",
                f"{label}: only {duration_text(c['minutes'])} to connect in {c['airport']} (policy minimum {duration_text(low)}).",
            )
        elif high is not None and c["minutes"] > high and out.warns:
            out.warn("long_connection", f"{label}: a {duration_text(c['minutes'])} wait in {c['airport']}.")
    if s["red_eye"]:
        if policy.get("red_eye_allowed", True):
            if out.warns:
                out.warn("red_eye", f"{label} flies overnight (red-eye).")
        else:
            out.block("red_eye", f"{label} flies overnight and your policy does not allow red-eyes.")
    if out.warns and datetime.fromisoformat(s["depart_at"]) - now < DEPARTURE_SOON:
        out.warn("departure_soon", f"{label} leaves within 24 hours: holds will be short and must be paid quickly.")


def _check_hotel(h: Dict[str, Any], policy: Dict[str, Any], constraints: Dict[str, Any], out: Findings) -> None:
    s = h["summary"]
    cap = policy.get("hotel_nightly_cap")
    if cap is not None and money(s["nightly_max"]) > money(cap):
        out.block(
            "hotel_over_cap",
            f"{s['hotel_name']}: {money_text(s['nightly_max'], s['currency'])} a night (its dearest night, per room) "
            f"is above your policy's cap of {money_text(cap, s['currency'])}.",
        )
    own = nightly_cap(constraints)
    if own is not None and money(s["nightly_max"]) > own:
        out.warn(
            "over_nightly_cap",
            f"{s['hotel_name']}: {money_text(s['nightly_max'], s['currency'])} a night is above your cap of "
            f"{money_text(own, s['currency'])} a night.",
        )
    if s.get("refundable_until") and out.warns:
        out.warn(
            "hotel_cancellation_deadline",
            f"{s['hotel_name']}: free cancellation ends {out.when(s['refundable_until'])}.",
        )


def item_blocking(kind: str, item: Dict[str, Any], policy: Dict[str, Any], now: datetime) -> List[str]:
    """Why policy blocks one offer or rate on its own (messages; [] when it may be held).

    The same rules ``check`` applies to a selected bundle, so the ranker can put in-policy options
    first and badge the rest with the very words the check would refuse them with.
    """
    out = Findings("UTC", warns=False)
    if kind == "flight":
        _check_flight(item, policy, now, out)
    else:
        _check_hotel(item, policy, {}, out)  # the traveller's own caps only warn
    if policy.get("refundable_required") and not item["summary"]["refundable"]:
        out.block("refundable_required", f"Your policy requires refundable bookings; {item_name(item)} is not.")
    return [f["message"] for f in out.blocking]


def _blocking_view(kind: str, s: Dict[str, Any]) -> Any:
    """What the blocking rules of ``item_blocking`` read of a summary (names and times in their
    messages aside): a flight's duration, cabin, connection times, red-eye and refundability; a
    rate's dearest night and refundability. A rule that reads another field adds it here
    (``tests/handlers/test_policy_blocked_flags.py`` varies every field against the direct check)."""
    if kind == "flight":
        connections = tuple(c["minutes"] for c in s.get("connections") or [])
        return (s["duration_minutes"], s["cabin"], connections, s["red_eye"], s["refundable"])
    return (s["nightly_max"], s["refundable"])


def flight_blocking_views(column: Callable[[str], Sequence[Any]], minutes: Sequence[Any]) -> List[Any]:
    """:func:`_blocking_view` of each of a leg's flights, read a column at a time (``column(field)``:
    every flight's field; ``minutes``: each one's connections' minutes, as a tuple): the same views."""
    return list(
        zip(column("duration_minutes"), column("cabin"), minutes, column("red_eye"), column("refundable"), strict=True)
    )


def blocked_flags(
    kind: str,
    summaries: Sequence[Dict[str, Any]],
    policy: Dict[str, Any],
    now: datetime,
    views: Optional[Sequence[Any]] = None,
) -> List[bool]:
    """Whether policy blocks each offer (rate) on its own, ``bool(item_blocking(...))`` for each,
    checked once per distinct view of what the rules read (:func:`_blocking_view`, or ``views``
    when read already: :func:`flight_blocking_views`): a search's thousand offers are a few dozen
    durations, cabins and connections. A summary is read only for a view not seen before."""
    if views is not None:
        first: Dict[Any, int] = {}
        try:
            # each item's view's first item (each view hashed once, in C), then each item's flag
            at = list(map(first.setdefault, views, count()))
        except TypeError:  # a view that cannot be a key: item by item, below
            pass
        else:
            flag_of = {i: bool(item_blocking(kind, {"summary": summaries[i]}, policy, now)) for i in first.values()}
            return list(map(flag_of.__getitem__, at))
    seen: Dict[Any, bool] = {}
    flags = []
    for i in range(len(summaries)):
        try:
            view = views[i] if views is not None else _blocking_view(kind, summaries[i])
            flag = seen.get(view)
        except (KeyError, TypeError):  # a summary of another shape: checked on its own
            view, flag = None, None
        if flag is None:
            flag = bool(item_blocking(kind, {"summary": summaries[i]}, policy, now))
            if view is not None:
                seen[view] = flag
        flags.append(flag)
    return flags


def _check_items(items: List[Dict[str, Any]], now: datetime, out: Findings) -> None:
    """What every offer and rate share: price expiry, and whether and how long it can be held."""
    for item in items:
        s, name = item["summary"], item_name(item)
        expires = datetime.fromisoformat(s["expires_at"]) if s.get("expires_at") else None
        if expires and expires <= now:
            out.block("offer_expired", f"The price for {name} has expired; search again.")
        elif expires and expires - now < EXPIRY_WARNING:
            out.warn("offer_expiring", f"The price for {name} expires at {out.when(expires)}; hold soon.")
        if s.get("holdable") is False:  # reserved for approval, bought in one order when paid
            lapses = f"; the offer lapses at {out.when(expires)}" if expires else ""
            out.warn(
                "not_holdable",
                f"{name} cannot be held: the supplier wants payment with the order, so it is bought when you "
                f"pay, at its price then{lapses}.",
            )
            continue
        if s.get("max_hold_minutes") is not None and s["max_hold_minutes"] < SHORT_HOLD_MINUTES:
            out.warn(
                "short_hold",
                f"{name} can be held for only {duration_text(s['max_hold_minutes'])}: the approver must act quickly.",
            )
        if "price_guarantee_minutes" in s and s["price_guarantee_minutes"] is None:
            out.warn(
                "no_price_guarantee",
                f"The price of {name} is not guaranteed while held; it may change before purchase.",
            )
        elif s.get("price_guarantee_minutes") and s["price_guarantee_minutes"] < (s.get("max_hold_minutes") or 0):
            out.warn(
                "price_guarantee_shorter_than_hold",
                f"The price of {name} is guaranteed for "
                f"{duration_text(s['price_guarantee_minutes'])} of the hold; "
                "after that it may change.",
            )


def check(
    *,
    bundle: Dict[str, Any],
    policy: Dict[str, Any],
    constraints: Dict[str, Any],
    now: datetime,
    timezone: str = "UTC",
    party: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]:
    out = Findings(timezone)
    flights, hotels = bundle.get("flights") or [], bundle.get("hotels") or []
    total, currency = money(bundle.get("total") or 0), bundle.get("currency") or policy.get("currency")
    for f in flights:
        _check_flight(f, policy, now, out)
    for h in hotels:
        _check_hotel(h, policy, constraints, out)
    _check_items(flights + hotels, now, out)
    refundable_gaps = [item_name(i) for i in flights + hotels if not i["summary"]["refundable"]]
    if policy.get("refundable_required") and refundable_gaps:
        out.block(
            "refundable_required",
            "Your policy requires refundable bookings; not refundable: " + ", ".join(refundable_gaps) + ".",
        )
    wanted = constraints.get("refundable_preference") or "either"
    wanted_gaps = [
        i
        for kind, group in (("flight", flights), ("hotel", hotels))
        if wanted in (kind, "all")
        for i in group
        if not i["summary"]["refundable"]
    ]
    if wanted_gaps:
        out.warn(
            "not_refundable",
            f"You asked for refundable {'bookings' if wanted == 'all' else wanted + 's'}; "
            f"{len(wanted_gaps)} item(s) in this bundle are not.",
        )
    if policy.get("budget_per_trip") is not None and total > money(policy["budget_per_trip"]):
        out.block(
            "over_policy_budget",
            f"{money_text(total, currency)} is above the policy budget of {money_text(policy['budget_per_trip'], currency)} "
            "per trip.",
        )
    people = party_size(party or {})
    limit, basis = budget_limit(constraints, people)
    if limit is not None and total > money(limit):
        of = (
            f"{money_text(constraints['budget_per_person'], currency)} per person "
            f"({money_text(limit, currency)} for {people} {'person' if people == 1 else 'people'})"
            if basis == "per_person"
            else money_text(limit, currency)
        )
        out.warn("over_budget", f"{money_text(total, currency)} is over your budget of {of}.")
    if policy.get("currency") and currency and currency != policy["currency"]:
        out.warn("currency_mismatch", f"Prices are in {currency}; your policy is set in {policy['currency']}.")
    _approval(total, currency, policy, out)
    return {
        "bundle_id": bundle.get("bundle_id"),
        "ok": not out.blocking,
        "blocking": out.blocking,
        "warnings": out.warnings,
        "checked_at": iso(now),
    }


def _approval(total: Decimal, currency: str, policy: Dict[str, Any], out: Findings) -> None:
    rules = policy.get("rules") or {}
    threshold = money(policy.get("approval_threshold") or 0)
    auto_below = rules.get("auto_approve_below")
    if auto_below is not None and total < money(auto_below):
        return
    if rules.get("require_user_approval_to_purchase", True) or total > threshold:
        out.warn("approval_required", f"Buying this {money_text(total, currency)} trip needs an approver's yes.")


class PolicyAndRiskCheck(SpecialistTool):
    name = "policy_and_risk_check"

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        require(args, "bundle")
        org = payload.get("org") or {}
        policy = {**DEFAULT_POLICY, **(args.get("policy") or {}), **(org.get("policy") or {})}
        return ok(
            payload,
            check(
                bundle=args["bundle"],
                policy=policy,
                constraints=args.get("constraints") or {},
                now=now,
                timezone=org.get("timezone") or "UTC",
                party=args.get("party"),
            ),
        )

    @classmethod
    def run_tests(cls) -> None:
        flight = {
            "segment_id": "s1",
            "offer_id": "o1",
            "summary": {
                "origin": "EWR",
                "destination": "LHR",
                "carrier_name": "United",
                "cabin": "business",
                "duration_minutes": 420,
                "stops": 1,
                "connections": [{"airport": "BOS", "minutes": 30}],
                "red_eye": True,
                "refundable": False,
                "depart_at": "2027-01-30T21:30:00-05:00",
                "expires_at": "2026-12-01T19:05:00+00:00",
                "holdable": True,
            },
        }
        bundle = {"bundle_id": "B1", "total": "900.00", "currency": "USD", "flights": [flight], "hotels": []}
        now = SELF_TEST_NOW.isoformat()
        out = cls().run({"args": {"bundle": bundle}, "now": now, "org": {"policy": {}}})["output"]
        codes = {f["code"] for f in out["blocking"]}
        assert out["ok"] is False and {"cabin_above_policy", "connection_too_short"} <= codes, out
        assert {"red_eye", "offer_expiring", "approval_required"} <= {w["code"] for w in out["warnings"]}
        fine = {**flight, "summary": {**flight["summary"], "cabin": "economy", "connections": [], "stops": 0}}
        out = cls().run({"args": {"bundle": {**bundle, "flights": [fine]}}, "now": now})["output"]
        assert out["ok"] is True and out["blocking"] == [], out
