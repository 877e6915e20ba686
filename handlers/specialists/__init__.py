"""The tool implementations that ``handlers/tools.py`` wraps, one module per tool.

Each is ``Cls(deps: ToolDeps)`` with ``run({"args", "now", "org", "trip_id"})``. The base class
below gives them the handler contract once: never raise (``guarded``), time from the payload
or the injected clock, and supplier refusals as failed results with the supplier's code.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Dict, Iterable

from handlers.common.clock import FrozenClock, parse_now
from handlers.common.host import ToolDeps
from handlers.common.stores import InMemoryKeyValueStore
from handlers.common.types import fail, guarded
from handlers.supplier import SandboxSupplier, SupplierError


class MissingArguments(Exception):
    def __init__(self, names: Iterable[str]) -> None:
        self.names = sorted(names)
        super().__init__(", ".join(self.names))


class SpecialistTool:
    name = ""

    def __init__(self, deps: ToolDeps | None = None) -> None:
        self.deps = deps or ToolDeps()

    def run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        return guarded(self.name, payload, lambda: self._run(payload))

    def _run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        try:
            now = parse_now(payload.get("now"), self.deps.clock)
            return self.execute(payload, payload.get("args") or {}, now)
        except MissingArguments as exc:
            return fail(payload, "invalid_arguments", f"Missing: {', '.join(exc.names)}.")
        except SupplierError as exc:
            return fail(payload, exc.code, exc.message, retryable=exc.retryable, **exc.details)

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        raise NotImplementedError


def require(args: Dict[str, Any], *names: str) -> None:
    missing = [n for n in names if args.get(n) in (None, "", [])]
    if missing:
        raise MissingArguments(missing)


SELF_TEST_NOW = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)


def self_test_deps(**settings: Any) -> ToolDeps:
    """A fresh in-memory sandbox at a frozen clock, the harness's approver and one card (``pm_1``
    of trip ``t1``), for the ``run_tests()`` class methods."""
    from handlers.testing import InMemoryApprovals, InMemoryBookings, InMemoryPaymentMethods  # lazily: loads the core

    clock = FrozenClock(SELF_TEST_NOW)
    supplier = SandboxSupplier(InMemoryKeyValueStore(), seed=7, clock=clock, faults=settings.pop("faults", None))
    payments = InMemoryPaymentMethods({"t1": [{"id": "pm_1", "brand": "visa", "last4": "4242"}]})
    approvals = InMemoryApprovals()
    return ToolDeps(
        supplier=supplier,
        clock=clock,
        approvals=approvals,
        payments=payments,
        bookings=InMemoryBookings(approvals),
        settings=settings,
    )
