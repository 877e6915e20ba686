"""The embedded default's own turn sweeper: nothing stays queued after the one server restarts.

On the embedded default (``./scripts/run``: one process, SQLite, eager Celery) there is no
worker pool and no beat. A server killed mid-turn leaves the turn queued and the trip's lease
held by a process that no longer exists; nothing would run it until the lease lapsed and the
traveller wrote again. So the serving process starts this sweeper: at startup it reclaims every
turn lease (the embedded server is the only process, so every lease left is a dead one's) and
runs what is queued; then, every ``EMBEDDED_TURN_SWEEP_SECONDS``, it runs turns queued that long
on a trip nobody leases. Running a turn twice is safe: a done turn is skipped. Each round then
reconciles purchases left claimed with no turn to finish them (``purchases_reconcile``), as the
stack's beat does.
"""

import logging
import os
import sys
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

logger = logging.getLogger(__name__)
_started = threading.Event()


def wanted(argv: list[str], environ: dict) -> bool:
    """Whether this process is the embedded server: ``runserver``'s serving process, on eager Celery."""
    serving = argv[1:2] == ["runserver"] and (environ.get("RUN_MAIN") == "true" or "--noreload" in argv)
    return serving and settings.CELERY_TASK_ALWAYS_EAGER and settings.TRIPDESK["EMBEDDED_TURN_SWEEP_SECONDS"] > 0


def start_if_wanted() -> bool:
    if wanted(sys.argv, dict(os.environ)):
        return turn_sweeper_start()
    return False


def turn_sweeper_start() -> bool:
    """Start the sweeper thread once per process; ``False`` if it was already running."""
    if _started.is_set():
        return False
    _started.set()
    threading.Thread(target=_sweep_forever, name="embedded-turn-sweeper", daemon=True).start()
    return True


def sweep_once(*, after: timedelta) -> int:
    """Run every turn queued for ``after`` or longer on a trip nobody leases; returns how many trips."""
    from trips.services.dispatch import turn_enqueue_on_commit
    from trips.services.turns import turns_stalled

    stalled = turns_stalled(now=timezone.now(), after=after)
    for trip_id, message_id in stalled.items():
        turn_enqueue_on_commit(trip_id, message_id)  # no transaction here, eager: runs now, in this thread
    return len(stalled)


def reconcile_once() -> int:
    """Reconcile interrupted purchases with the supplier (see ``purchases_reconcile``); returns how many."""
    from trips.services.purchase_reconcile import purchases_reconcile, reconcile_grace

    from .factory import tool_deps

    supplier = tool_deps(clock=timezone.now).supplier
    return purchases_reconcile(supplier=supplier, now=timezone.now(), grace=reconcile_grace())


def startup_round() -> tuple[int, int, int]:
    """What the sweeper does once the server starts: (leases reclaimed, trips resumed, purchases reconciled)."""
    from trips.services.turns import turn_leases_reclaim

    reclaimed = turn_leases_reclaim()
    resumed = sweep_once(after=timedelta(0))
    return reclaimed, resumed, reconcile_once()


def _sweep_forever() -> None:
    interval = settings.TRIPDESK["EMBEDDED_TURN_SWEEP_SECONDS"]
    time.sleep(0.5)  # let the server finish starting
    try:
        reclaimed, resumed, reconciled = startup_round()
        logger.info(
            "embedded turn sweeper: %s leases reclaimed, %s trips resumed, %s purchases reconciled",
            reclaimed,
            resumed,
            reconciled,
        )
    except Exception:  # noqa: BLE001 - a sweeper must outlive one bad round
        logger.exception("embedded turn sweeper: startup round failed")
    finally:
        close_old_connections()
    while True:
        time.sleep(interval)
        try:
            sweep_once(after=timedelta(seconds=interval))
            reconcile_once()
        except Exception:  # noqa: BLE001
            logger.exception("embedded turn sweeper: round failed")
        finally:
            close_old_connections()
