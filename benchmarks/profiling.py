"""Where the load test's ASGI and Celery processes spend their CPU, when ``TRIPDESK_BENCH_PROFILE_DIR`` is set.

A sampler thread in each process (every uvicorn worker, every Celery pool process, the Celery
worker's main process) wakes ``SAMPLE_HZ`` times a second and takes each thread's Python stack
(``sys._current_frames``), then lets the other threads run for a moment (it gives up the GIL)
and reads each thread's CPU clock before and after: the CPU a thread used in that moment is
charged to the stack it had just before, which is where it ran from. A thread blocked on a
socket, a lock or the broker uses none and is charged nothing, so waiting never looks like work
and the CPU spent before a database call is not charged to the call's wait. Threads that used no
CPU since the last sample are not walked. No tracing hook runs between samples, so the process
runs at nearly its normal speed (a deterministic profiler — cProfile, yappi — multiplied this
stack's CPU per turn by 2.5 to 8, which changes what is measured).

Each process writes ``<role>-<pid>.stacks`` every few seconds and when it exits: one line per
distinct stack, ``frame;frame;…;frame <microseconds>`` (the "collapsed" format flame graph tools read).

    TRIPDESK_BENCH_PROFILE_DIR=/tmp/prof python -m benchmarks.run --only load --travellers 200
    python -m benchmarks.profiling /tmp/prof celery            # the pool processes summed
    python -m benchmarks.profiling /tmp/prof asgi 40 handlers/  # 40 rows, frames whose name has handlers/

Switching threads happens between bytecodes, so a long C call that holds the GIL is charged to
its Python caller (right at function level, not at line level).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from types import CodeType, FrameType
from typing import Optional

PROFILE_DIR_ENV = "TRIPDESK_BENCH_PROFILE_DIR"
SAMPLE_HZ = 200.0
WRITE_EVERY_S = 10.0
_stops: list = []  # this process's final write, once started


def start(*, role: str) -> None:
    """Sample this process from now on (nothing unless ``TRIPDESK_BENCH_PROFILE_DIR`` is set)."""
    directory = os.environ.get(PROFILE_DIR_ENV)
    if not directory or _stops:
        return
    path = Path(directory) / f"{role}-{os.getpid()}.stacks"
    path.parent.mkdir(parents=True, exist_ok=True)
    sampler = _Sampler(path)
    threading.Thread(target=sampler.run, name="profile-sampler", daemon=True).start()

    def stop() -> None:
        sampler.running = False
        sampler.write()

    atexit.register(stop)
    _stops.append(stop)


def stop() -> None:
    """Write this process's samples now (Celery's pool processes leave with ``os._exit``: no atexit)."""
    for done in _stops:
        done()


def _cpu_ns(ident: int) -> Optional[int]:
    try:
        return time.clock_gettime_ns(time.pthread_getcpuclockid(ident))
    except (OSError, ProcessLookupError):
        return None


class _Sampler:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.running = True
        self.stacks: Counter[str] = Counter()
        self.names: dict[CodeType, str] = {}
        self.lock = threading.Lock()

    def run(self) -> None:
        me = threading.get_ident()
        interval = 1.0 / SAMPLE_HZ
        written = time.monotonic()
        last: dict[int, int] = {}
        while self.running:
            time.sleep(interval)
            stacks: dict[int, str] = {}
            for ident, frame in sys._current_frames().items():
                if ident == me:
                    continue
                now = _cpu_ns(ident)
                if now is not None and now != last.get(ident):  # ran since the last look: walk it
                    stacks[ident] = self._stack(frame)
            before = {ident: _cpu_ns(ident) for ident in stacks}
            time.sleep(0)  # give up the GIL: the threads run on from the stacks just taken
            time.sleep(interval / 10)
            with self.lock:
                for ident, stack in stacks.items():
                    after, start_ns = _cpu_ns(ident), before[ident]
                    if after is not None and start_ns is not None and after > start_ns:
                        self.stacks[stack] += (after - start_ns) // 1000
            last = {ident: n for ident in sys._current_frames() if (n := _cpu_ns(ident)) is not None}
            if time.monotonic() - written > WRITE_EVERY_S:  # some servers' workers end without atexit
                self.write()
                written = time.monotonic()

    def _stack(self, frame: Optional[FrameType]) -> str:
        names = []
        while frame is not None:
            code = frame.f_code
            name = self.names.get(code)
            if name is None:
                name = self.names[code] = f"{_short(code.co_filename)}:{code.co_name}"
            names.append(name)
            frame = frame.f_back
        return ";".join(reversed(names))

    def write(self) -> None:
        with self.lock:
            lines = [f"{stack} {us}" for stack, us in self.stacks.items()]
        scratch = self.path.with_suffix(".tmp")
        scratch.write_text("\n".join(lines) + "\n")
        scratch.replace(self.path)


def _short(filename: str) -> str:
    for marker in ("/site-packages/", "/lib/python3.11/", "/lib/python3"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    root = str(Path(__file__).resolve().parents[1]) + "/"
    return filename[len(root) :] if filename.startswith(root) else filename


def _read(directory: str, role: str) -> Counter[str]:
    stacks: Counter[str] = Counter()
    for path in Path(directory).glob(f"{role}-*.stacks"):
        for line in path.read_text().splitlines():
            stack, _, us = line.rpartition(" ")
            if stack:
                stacks[stack] += int(us)
    return stacks


def report(directory: str, role: str, limit: int = 50, only: str = "") -> str:
    """The heaviest frames of ``role``'s processes: by own CPU and by inclusive CPU (each frame
    counted once per stack), in ms and as a share of all the CPU sampled."""
    stacks = _read(directory, role)
    total = sum(stacks.values()) or 1
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    for stack, us in stacks.items():
        frames = stack.split(";")
        own[frames[-1]] += us
        for frame in set(frames):
            inclusive[frame] += us
    out = [f"{role}: {total / 1e6:.1f} s of CPU sampled"]
    for title, counts in (("own", own), ("inclusive", inclusive)):
        out.append(f"-- {title}")
        rows = [(f, us) for f, us in counts.most_common() if only in f][:limit]
        out += [f"{100 * us / total:6.1f}% {us / 1e3:10.0f} ms  {f}" for f, us in rows]
    return "\n".join(out)


if __name__ == "__main__":
    args = sys.argv[1:]
    print(report(args[0], args[1], int(args[2]) if len(args) > 2 else 50, args[3] if len(args) > 3 else ""))
