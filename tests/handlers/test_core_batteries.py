"""``python run_handler_tests.py`` runs every handler's battery and reports honestly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import run_handler_tests

ROOT = Path(__file__).resolve().parents[2]


def test_every_handler_battery_passes():
    done = subprocess.run(
        [sys.executable, "run_handler_tests.py"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert lines[-1].endswith(" passed, 0 failed")
    ran = {line.split()[1] for line in lines[:-1]}
    assert {"handlers.runner.Runner", "handlers.reducer.Reducer", "handlers.patcher.Patcher"} <= ran


def test_a_failing_battery_is_counted_and_fails_the_run(monkeypatch, capsys):
    class Broken:
        @classmethod
        def run_tests(cls):
            raise AssertionError("broken on purpose")

    monkeypatch.setattr(run_handler_tests, "handler_classes", lambda: iter([("x.Broken", Broken)]))
    assert run_handler_tests.main() == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("FAIL x.Broken") and out[-1] == "0 passed, 1 failed"
