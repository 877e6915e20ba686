"""Code run in a fresh interpreter: settings are read, and a process settles, once per process."""

import json
import os
import subprocess
import sys
from typing import Any

CHOSEN_BY_ENVIRONMENT = {"DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER"}


def printed_by_fresh_process(code: str, env: dict) -> Any:
    """What ``code`` prints last, as JSON, run with the settings module and ``env`` alone deciding
    the database, Redis and eagerness (the test run's own choices removed)."""
    clean = {k: v for k, v in os.environ.items() if k not in CHOSEN_BY_ENVIRONMENT}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**clean, "DJANGO_SETTINGS_MODULE": "tripdesk.settings", **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])
