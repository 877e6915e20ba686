"""Refunds: the rules an order keeps from its offer or rate, and what a cancellation returns.

Flights refund before departure when the fare allows it, less the penalty; hotels follow their
cancellation timeline (capped at what was charged, since pay-at-hotel money never arrived).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any, Dict

from .money import amount, money


def refund_rules(item_type: str, item: Dict[str, Any], charged: Decimal) -> Dict[str, Any]:
    """The part of the item's conditions a cancellation needs, frozen at purchase."""
    if item_type == "flight":
        refund = item["conditions"]["refund_before_departure"]
        return {
            "kind": "flight",
            "allowed": refund["allowed"],
            "penalty": refund["penalty_amount"],
            "until": item["slices"][0]["segments"][0]["depart_at"],
        }
    timeline = [
        {"before": t["before"], "refund_amount": amount(min(money(t["refund_amount"]), charged))}
        for t in item.get("cancellation_timeline") or []
    ]
    return {"kind": "hotel", "timeline": timeline}


def refund_due(order: Dict[str, Any], now: datetime) -> Decimal:
    """The refund a cancellation at ``now`` earns under the order's frozen rules."""
    if order["status"] != "confirmed":
        return money(0)
    rules, charged = order["refund_rules"], money(order["charged"]["amount"])
    if rules["kind"] == "flight":
        if not rules["allowed"] or now >= datetime.fromisoformat(rules["until"]):
            return money(0)
        return max(money(0), charged - money(rules["penalty"] or 0))
    for step in rules["timeline"]:
        if now < datetime.fromisoformat(step["before"]):
            return money(step["refund_amount"])
    return money(0)
