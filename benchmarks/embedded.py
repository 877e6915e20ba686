"""Turn latency over the websocket on the embedded default, as ``scripts/run`` serves it.

One ASGI process (uvicorn) on a free loopback port, a fresh SQLite file, the in-memory channel
layer and eager Celery (the turn runs inside the websocket's submit). For each run a new
traveller's trip gets SCENARIOS.md 1; timed from the send to the ``bundles`` widget and to the
turn's ``status`` frame. Runs are sequential: this is the latency one traveller sees on an idle
server, not throughput.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

from .bench_core import SCENARIO_1
from .stack import Stack, bin_path, free_port, python_module
from .stats import summary_ms
from .ws_client import TripSocket, Turn

WARMUP_RUNS = 2


def measure(*, runs: int, log_dir: Path) -> dict[str, Any]:
    """``runs`` sequential scenario-1 turns (after two warm-up turns); the server's log stays in ``log_dir``."""
    with tempfile.TemporaryDirectory(prefix="tripdesk-bench-embedded-") as scratch:
        port = free_port()
        env = {
            "DATABASE_URL": f"sqlite:///{Path(scratch) / 'db.sqlite3'}",
            "REDIS_URL": "",
            "CELERY_TASK_ALWAYS_EAGER": "true",
            "DJANGO_DEBUG": "false",
            "DJANGO_LOG_LEVEL": "WARNING",
        }
        with Stack(env=env, log_dir=log_dir) as stack:
            stack.run(*python_module("django", "migrate", "--noinput", "--settings", "tripdesk.settings"))
            travellers = json.loads(
                stack.run(*python_module("benchmarks.provision", "--travellers", str(runs + WARMUP_RUNS)))
            )
            stack.start(
                "uvicorn",
                bin_path("uvicorn"),
                "tripdesk.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            )
            stack.wait_http(f"http://127.0.0.1:{port}/signin/")
            turns = asyncio.run(_scenario_1_each(f"ws://127.0.0.1:{port}", travellers))
    measured = turns[WARMUP_RUNS:]
    errors = [turn.error or "no bundles widget" for turn in measured if not turn.ok or "bundles" not in turn.widget_s]
    return {
        "runs": len(measured),
        "errors": len(errors),
        "error_samples": errors[:5],
        "to_bundles_ms": summary_ms([t.widget_s["bundles"] for t in measured if "bundles" in t.widget_s]),
        "turn_complete_ms": summary_ms([t.latency_s for t in measured if t.ok]),
    }


async def _scenario_1_each(base_url: str, travellers: list[dict]) -> list[Turn]:
    turns = []
    for traveller in travellers:
        socket = await TripSocket.open(
            base_url=base_url, trip_id=traveller["trip_ids"][0], session_id=traveller["session_id"]
        )
        try:
            turns.append(await socket.say(SCENARIO_1, kind="search"))
        finally:
            await socket.close()
    return turns
