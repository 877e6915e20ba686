"""The ranker's per-offer policy verdicts, checked once per distinct view of what the rules read,
are those of the check itself for every offer and rate, whatever field differs and whatever
the policy."""

import copy
import random

import pytest

from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.policy_and_risk_check import _blocking_view, blocked_flags, item_blocking
from handlers.supplier import summarize_offer, summarize_rate

SEARCHES = {  # what the sandbox finds for one leg or stay, and how each is summarised
    "flight": (
        "search_flights",
        summarize_offer,
        {"origin": "EWR", "destination": "DEN", "depart_date": "2027-01-30", "passengers": {"adults": 2}},
    ),
    "hotel": (
        "search_hotels",
        summarize_rate,
        {"location_code": "DEN", "check_in": "2027-01-30", "check_out": "2027-02-02", "rooms": 1, "guests_per_room": 2},
    ),
}


def _summaries(kind):
    search, summarize, args = SEARCHES[kind]
    return [summarize(item) for item in getattr(self_test_deps().supplier, search)(**args, now=SELF_TEST_NOW)]


def _varied(summary, rnd):
    """A copy with one field (or a flight's cabin and length together) changed as another offer's might be."""
    out = copy.deepcopy(summary)
    key = rnd.choice(sorted(out))
    value = out[key]
    if key == "cabin" or (key == "duration_minutes" and rnd.random() < 0.5):  # the cabin rule reads both
        out["cabin"] = rnd.choice(["economy", "premium_economy", "business", "first"])
        out["duration_minutes"] = rnd.choice([60, 150, 300, 500])
    elif isinstance(value, bool):
        out[key] = not value
    elif isinstance(value, int):
        out[key] = max(0, value + rnd.choice([-600, -90, -1, 1, 90, 600]))
    elif key == "connections":
        out[key] = [{"airport": "ORD", "minutes": rnd.choice([20, 45, 90, 400])} for _ in range(rnd.randint(0, 2))]
    elif key in ("nightly_max", "nightly_avg", "total"):
        out[key] = f"{float(value) * rnd.uniform(0.5, 2):.2f}"
    elif isinstance(value, str):
        out[key] = value + "x"
    return out


def _policy(rnd):
    return {
        "cabin_by_flight_hours": rnd.choice(
            [
                [],
                [{"max_hours": 4, "cabin": "economy"}, {"max_hours": 99, "cabin": "business"}],
                [{"max_hours": 2, "cabin": "business"}, {"max_hours": 6, "cabin": "premium_economy"}],
            ]
        ),
        "min_connection_minutes": rnd.choice([None, 45, 60]),
        "max_connection_minutes": rnd.choice([None, 240]),
        "red_eye_allowed": rnd.random() < 0.5,
        "refundable_required": rnd.random() < 0.3,
        "hotel_nightly_cap": rnd.choice([None, "150.00", "250.00"]),
    }


@pytest.mark.parametrize("kind", ["flight", "hotel"])
@pytest.mark.parametrize("seed", range(6))
def test_the_flags_are_the_checks_own_verdicts(kind, seed):
    rnd = random.Random(seed)
    base = _summaries(kind)
    summaries = list(base)
    for _ in range(400):  # one to three fields changed
        varied = rnd.choice(base)
        for _ in range(rnd.randint(1, 3)):
            varied = _varied(varied, rnd)
        summaries.append(varied)
    summaries += [copy.deepcopy(s) for s in rnd.sample(summaries, 50)]  # views seen again
    rnd.shuffle(summaries)
    for _ in range(4):
        policy = _policy(rnd)
        expected = [bool(item_blocking(kind, {"summary": s}, policy, SELF_TEST_NOW)) for s in summaries]
        assert blocked_flags(kind, summaries, policy, SELF_TEST_NOW) == expected
        views = [_blocking_view(kind, s) for s in summaries]  # as the ranker reads them of a table's columns
        assert blocked_flags(kind, summaries, policy, SELF_TEST_NOW, views=views) == expected
        unhashable = [[*view] for view in views]  # views that cannot be keys: item by item
        assert blocked_flags(kind, summaries, policy, SELF_TEST_NOW, views=unhashable) == expected
        assert any(expected) or not policy["refundable_required"]
