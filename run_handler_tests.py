"""Run every handler's ``run_tests()`` battery (SPEC §B.1): ``python run_handler_tests.py``.

Imports each module of ``handlers/`` and ``handlers/specialists/``, runs ``run_tests()`` of
every class defined there, prints one line per handler and closes with exactly
``N passed, M failed``; the exit status is non-zero when any battery fails.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
import time
import traceback
from pathlib import Path
from typing import Iterator, List, Tuple

ROOT = Path(__file__).resolve().parent
PACKAGES = ("handlers", "handlers.specialists", "handlers.llm")


def handler_classes() -> Iterator[Tuple[str, type]]:
    """(qualified name, class) for every class with ``run_tests`` defined in the scanned modules."""
    for package in PACKAGES:
        pkg = importlib.import_module(package)
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
            name = f"{package}.{info.name}"
            if info.ispkg and name in PACKAGES:
                continue  # scanned on its own
            module = importlib.import_module(name)  # a package: the classes its __init__ defines (handlers.reducer)
            for _, cls in inspect.getmembers(module, inspect.isclass):
                if cls.__module__ == module.__name__ and callable(getattr(cls, "run_tests", None)):
                    yield f"{module.__name__}.{cls.__name__}", cls


def main() -> int:
    sys.path.insert(0, str(ROOT))
    passed, failed = 0, 0
    failures: List[str] = []
    for name, cls in handler_classes():
        started = time.perf_counter()
        try:
            cls.run_tests()
        except Exception:  # noqa: BLE001 - a failing battery is reported, not raised
            failed += 1
            failures.append(f"{name}\n{traceback.format_exc(limit=8)}")
            print(f"FAIL {name} ({time.perf_counter() - started:.3f}s)")
        else:
            passed += 1
            print(f"ok   {name} ({time.perf_counter() - started:.3f}s)")
    for failure in failures:
        print(f"\n--- {failure}", file=sys.stderr)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
