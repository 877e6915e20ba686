"""SIGKILL the embedded default at each step of a purchase, restart it: never a permanent "pending".

One process buys (the traveller's "Buy" through the one door; eager Celery runs the queued
purchase turn in that process) and is killed by ``TRIPDESK_CRASH_AT`` at one named step; a
second process does what the restarted embedded server does first (``embedded.startup_round``:
reclaim the dead lease, run the queued turns, reconcile interrupted purchases with the supplier).
The steps, in the order a purchase passes them:

- ``purchase.started``: the purchase turn began (door passed, message queued, lease taken);
- ``purchase.claimed``: the approval is claimed for this purchase (its single use reserved);
- ``supplier.order_pending``: the supplier created the order, nothing charged yet;
- ``supplier.charged``: the supplier charged the card, the order not yet confirmed;
- ``supplier.order_confirmed``: the first item's order confirmed (the other items not bought);
- ``purchase.booking_written``: the Booking row written, the approval used, its confirmation
  email sent (eager Celery sends it as that transaction commits);
- ``purchase.turn_completed``: the core's result saved and the turn done, the outcome not audited.

After the restart the end state is consistent: one booking carrying the supplier's record
locators, each item charged exactly once, one confirmation email, the approval used and
unclaimed, nothing queued. And
when the approver withdrew the approval while the server was down, the purchase is undone
instead: what was bought is voided and refunded, the traveller is told (chat and email), the
trip is flagged for staff — never a charge without a booking, never a claim left pending.
"""

from __future__ import annotations

import email
import email.header
import json
import shutil
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.browser.live import ROOT, manage, tripdesk_env

from .conftest import FIGURES

STEPS = [
    "purchase.started",
    "purchase.claimed",
    "supplier.order_pending",
    "supplier.charged",
    "supplier.order_confirmed",
    "purchase.booking_written",
    "purchase.turn_completed",
]


def _run(workdir: Path, *args: str, crash_at: str = "", timeout: float = 180) -> subprocess.CompletedProcess:
    extra = {"TRIPDESK_PURCHASE_RECONCILE_AFTER_SECONDS": "0"}
    if crash_at:
        extra["TRIPDESK_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, "-m", "tests.reliability.purchase_kill_driver", *args],
        cwd=ROOT,
        env=tripdesk_env(workdir, extra=extra),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _rows(workdir: Path, sql: str, *args) -> list:
    with sqlite3.connect(workdir / "browser.sqlite3", timeout=10) as connection:
        return connection.execute(sql, args).fetchall()


UNDONE_STEPS = ["purchase.claimed", "supplier.order_confirmed"]
PARALLEL = 3  # scenarios run side by side: each is two short processes on its own database copy


@pytest.fixture(scope="module")
def scenarios(request, tmp_path_factory) -> dict[tuple[str, bool], tuple[Path, dict]]:
    """Every scenario, run once: (step, revoked while down) → (its database's folder, the trip's ids).

    The held, granted two-item trip is made once; each scenario buys on its own copy, is killed at
    its step, (optionally) has the approval revoked, and is restarted.
    """
    template = tmp_path_factory.mktemp("purchase-kill")
    manage(template, "migrate", "--noinput")
    done = _run(template, "setup")
    assert done.returncode == 0, done.stderr[-3000:]
    ids = json.loads(done.stdout.strip().splitlines()[-1])
    wanted = [  # the scenarios of the tests selected in this module
        (item.callspec.params["step"], "revoked" in item.name)
        for item in request.session.items
        if item.module is request.module and hasattr(item, "callspec")
    ]

    def scenario(key: tuple[str, bool]) -> tuple[Path, dict]:
        step, revoke = key
        workdir = tmp_path_factory.mktemp(step.replace(".", "-") + ("-revoked" if revoke else ""))
        shutil.copy(template / "browser.sqlite3", workdir / "browser.sqlite3")
        killed = _run(workdir, "buy", json.dumps(ids), crash_at=step)
        assert killed.returncode == -9, f"not killed at {step}: rc={killed.returncode}\n{killed.stderr[-3000:]}"
        if revoke:
            revoked = _run(workdir, "revoke", json.dumps(ids))
            assert revoked.returncode == 0, revoked.stderr[-3000:]
        restarted = _run(workdir, "restart")
        assert restarted.returncode == 0, restarted.stderr[-3000:]
        return workdir, ids

    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        return dict(zip(wanted, pool.map(scenario, wanted), strict=True))


def _ledger(workdir: Path) -> list[dict]:
    rows = _rows(workdir, "SELECT value FROM trips_supplierstate WHERE key LIKE 'sandbox:ledger:%' AND value != '{}'")
    return [json.loads(value) for (value,) in rows if json.loads(value).get("kind")]


def _subjects(workdir: Path) -> list[str]:
    """The subjects of the emails sent (Django's file backend: one file per connection, 79 dashes apart)."""
    subjects = []
    for path in (workdir / "emails").glob("*.log"):
        for text in path.read_text().split("-" * 79):
            subject = email.message_from_string(text.strip()).get("Subject")
            if subject:
                subjects.append(str(email.header.make_header(email.header.decode_header(subject))))
    return subjects


def _nothing_left_pending(workdir: Path, trip: int) -> None:
    queued = _rows(workdir, "SELECT count(*) FROM trips_chatmessage WHERE trip_id = ? AND turn_status = 'queued'", trip)
    assert queued == [(0,)], "no turn left queued"
    claimed = _rows(workdir, "SELECT count(*) FROM trips_approvalrequest WHERE claimed_until IS NOT NULL")
    assert claimed == [(0,)], "no approval left claimed"
    orders = _rows(workdir, "SELECT value FROM trips_supplierstate WHERE key LIKE 'sandbox:order:%'")
    statuses = [json.loads(value)["status"] for (value,) in orders]
    assert "pending" not in statuses, statuses
    leases = _rows(workdir, "SELECT count(*) FROM trips_trip WHERE turn_lease_until IS NOT NULL")
    assert leases == [(0,)]


@pytest.mark.parametrize("step", STEPS)
def test_killed_at_each_step_the_restart_finishes_with_one_booking(scenarios, step):
    workdir, ids = scenarios[(step, False)]

    trip = ids["trip"]
    _nothing_left_pending(workdir, trip)
    holds = _rows(workdir, "SELECT hold_id FROM trips_hold WHERE trip_id = ? ORDER BY hold_id", trip)
    [(booking_id, locators, orders, status)] = _rows(
        workdir,
        "SELECT b.booking_id, b.record_locators, b.orders, a.status"
        " FROM trips_booking b JOIN trips_approvalrequest a ON a.id = b.approval_id WHERE b.trip_id = ?",
        trip,
    )
    assert status == "used"
    assert len(json.loads(locators)) == len(holds) >= 2, "a record locator per item"
    assert sorted(order["hold_id"] for order in json.loads(orders)) == [hold_id for (hold_id,) in holds]
    charges = [entry for entry in _ledger(workdir) if entry["kind"] == "charge"]
    assert len(charges) == len(holds), f"each item charged exactly once: {charges}"
    assert not [entry for entry in _ledger(workdir) if entry["kind"] == "refund"]
    intent = json.loads(_rows(workdir, "SELECT intent FROM trips_trip WHERE id = ?", trip)[0][0])
    assert [b["booking_id"] for b in intent["working_memory"]["bookings"]] == [booking_id], "the trip shows it"
    told = _rows(
        workdir,
        "SELECT count(*) FROM trips_chatmessage WHERE trip_id = ? AND role = 'assistant'"
        " AND json_extract(widget, '$.type') = 'booking'",
        trip,
    )
    assert told[0][0] >= 1, "the traveller sees the booking"
    booked = [subject for subject in _subjects(workdir) if subject.startswith("Booked:")]
    assert len(booked) == 1, f"one booking confirmation email, whatever the kill: {booked}"
    FIGURES["purchase kill steps ending in one booking"] += 1


@pytest.mark.parametrize("step", UNDONE_STEPS)
def test_killed_then_revoked_the_purchase_is_undone_and_told(scenarios, step):
    """The approver withdrew the approval while the server was down: the restart undoes the purchase."""
    workdir, ids = scenarios[(step, True)]

    trip = ids["trip"]
    _nothing_left_pending(workdir, trip)
    assert _rows(workdir, "SELECT count(*) FROM trips_booking") == [(0,)]
    ledger = _ledger(workdir)
    assert sum(float(entry["amount"]) for entry in ledger) == 0, f"whatever was charged is refunded: {ledger}"
    [(payload,)] = _rows(
        workdir, "SELECT payload FROM trips_auditevent WHERE trip_id = ? AND type = 'purchase.reconciled'", trip
    )
    reconciled = json.loads(payload)
    assert reconciled["outcome"] == "undone"
    assert len(reconciled["voided"]) == (1 if step == "supplier.order_confirmed" else 0)
    assert _rows(workdir, "SELECT flagged FROM trips_trip WHERE id = ?", trip) == [(1,)], "flagged for staff"
    told = _rows(
        workdir,
        "SELECT text FROM trips_chatmessage WHERE trip_id = ? AND text LIKE 'Your purchase was interrupted%'",
        trip,
    )
    assert len(told) == 1
    emails = [path.read_text() for path in (workdir / "emails").glob("*.log")]
    assert any("was undone" in email and "alice@example.test" in email for email in emails), "and emailed"
    FIGURES["purchase kill steps undone after a revocation"] += 1
