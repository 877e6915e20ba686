"""The ranker's per-item arithmetic made a column at a time gives the very floats and picks of the
plain per-item way: price shares of totals read in cents (``_shares``) against the Decimal
quotient's float, and a leg's pool found past a cost bound (``Leg.best``) against ``nsmallest``."""

import heapq
import math
import random
from decimal import Decimal, localcontext
from operator import truediv

import pytest

from handlers.specialists.trip_option_ranker import Leg, _shares
from handlers.supplier.money import from_cents


def _decimal_shares(cents, cheapest):
    return [float(truediv(from_cents(c), cheapest)) for c in cents]


@pytest.mark.parametrize("seed", range(4))
def test_shares_in_cents_are_the_decimal_quotients_floats(seed):
    rnd = random.Random(seed)
    for _ in range(300):
        cheapest = from_cents(rnd.choice([1, 7, 100, 99_999, rnd.randint(1, 10**6), rnd.randint(1, 2**33 - 1)]))
        cents = [rnd.randint(0, 10 ** rnd.randint(1, 14) - 1) for _ in range(50)]
        cents += [2**32, 2**33 - 1, 10**14 - 1, 0]
        assert _shares(cents, cheapest) == _decimal_shares(cents, cheapest), cheapest


def test_shares_of_another_cheapest_are_left_to_decimals():
    cents = [12345, 67890]
    for cheapest in (Decimal("0.005"), Decimal("0"), Decimal("-3.00"), from_cents(2**33), Decimal("NaN")):
        assert _shares(cents, cheapest) is None, cheapest
    with localcontext() as context:
        context.prec = 20
        assert _shares(cents, Decimal("123.45")) is None


def _leg(costs, ids):
    leg = Leg("flight", "S1", ids, [{"total": "1.00"}] * len(ids), [(0.0,) * 7] * len(ids))
    leg.costs = costs
    leg.prices = [0.0] * len(ids)
    return leg


@pytest.mark.parametrize("seed", range(6))
def test_a_legs_pool_is_the_least_costly_by_cost_then_id_then_place(seed):
    rnd = random.Random(seed)
    for _ in range(40):
        n = rnd.randint(1, 400)
        levels = [round(rnd.random(), 2) for _ in range(rnd.randint(1, 30))]  # many ties
        costs = [rnd.choice(levels) for _ in range(n)]
        if rnd.random() < 0.2:
            costs[rnd.randrange(n)] = math.inf
        if rnd.random() < 0.1:
            costs[rnd.randrange(n)] = math.nan  # (floats no longer order: every item compared, as before)
        ids = [f"o{rnd.randint(0, 40)}" for _ in range(n)]
        pool = rnd.choice([0, 1, 5, 100, n, n + 3])
        expected = [i for _, _, i in heapq.nsmallest(pool, zip(costs, ids, range(n), strict=True))]
        leg = _leg(costs, ids)
        assert leg.best(pool) == [leg.candidate(i) for i in expected]  # (one candidate per item: the same ones)
