"""Start and stop the app's processes for a benchmark, on loopback, and always clean up.

Every process is started in its own session, so stopping it stops what it forked (uvicorn's
workers, Celery's pool) and nothing else. ``Stack`` is a context manager: leaving it — normally,
on an exception or on Ctrl-C — terminates its processes (SIGTERM, then SIGKILL after a grace
period). Logs go to files in the stack's directory so a failed run can be read afterwards.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def bin_path(name: str) -> str:
    """A console script of this virtualenv (uvicorn, celery), next to the running interpreter."""
    return str(Path(sys.executable).with_name(name))


class Stack:
    """The processes of one benchmark run, sharing one environment and one log directory."""

    def __init__(self, *, env: dict[str, str], log_dir: Path):
        self.env = {**os.environ, **env, "PYTHONUNBUFFERED": "1"}
        self.log_dir = log_dir
        self.processes: list[tuple[str, subprocess.Popen]] = []

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def run(self, *argv: str, timeout_s: float = 300.0) -> str:
        """Run a command to completion in the stack's environment; its stdout, or an error with its log."""
        done = subprocess.run(argv, cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=timeout_s)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
        return done.stdout

    def start(self, name: str, *argv: str) -> subprocess.Popen:
        log = open(self.log_dir / f"{name}.log", "w")  # noqa: SIM115 - closed with the process's pipes
        process = subprocess.Popen(
            argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        self.processes.append((name, process))
        return process

    def check_alive(self) -> None:
        for name, process in self.processes:
            if process.poll() is not None:
                tail = (self.log_dir / f"{name}.log").read_text()[-3000:]
                raise RuntimeError(f"{name} exited with {process.returncode}:\n{tail}")

    def wait_http(self, url: str, *, timeout_s: float = 60.0) -> None:
        """Wait until ``url`` answers (any HTTP status counts: the server is up)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            self.check_alive()
            try:
                urllib.request.urlopen(url, timeout=2).close()
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"{url} did not answer within {timeout_s:.0f} s")

    def cpu_seconds_by_name(self) -> dict[str, float]:
        """CPU time (user + system) used so far by each started process (``uvicorn``, ``celery``)
        and its children.

        Every process the stack starts leads its own session, so its pool's children are found
        by session id in ``/proc`` (Linux; nothing elsewhere).
        """
        names = {process.pid: name for name, process in self.processes}
        ticks = dict.fromkeys(names.values(), 0)
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # the process ended while we looked
            name = names.get(int(fields[3]))  # fields after "(comm)": state, ppid, pgrp, session, …
            if name is not None:
                ticks[name] += int(fields[11]) + int(fields[12])  # utime, stime
        return {name: n / os.sysconf("SC_CLK_TCK") for name, n in ticks.items()}

    def stop(self, grace_s: float = 10.0) -> None:
        for _, process in self.processes:
            _signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + grace_s
        for _, process in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal_group(process, signal.SIGKILL)
                process.wait(timeout=5)
        for _, process in self.processes:
            _signal_group(process, signal.SIGKILL)  # forked children left behind by a parent that exited
        self.processes.clear()


def _signal_group(process: subprocess.Popen, signum: int) -> None:
    """Signal the process group this stack created for ``process`` (its id is the process's)."""
    try:
        os.killpg(process.pid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def python_module(module: str, *args: str) -> tuple[str, ...]:
    return (sys.executable, "-m", module, *args)
