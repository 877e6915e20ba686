"""Named crash points: kill this process at one step of a purchase, to prove what survives.

``crash_point("supplier.charged")`` does nothing unless ``TRIPDESK_CRASH_AT`` names that point
(a comma-separated list may name several); then the process sends itself SIGKILL (no ``finally``
runs, no transaction commits: a real crash). With ``TRIPDESK_CRASH_MARK`` set to a path prefix,
each point crashes only once (``<prefix>.<point>`` is created exclusively before dying), so the
process that resumes the work runs through it, and perhaps dies at the next point named.
The reliability tests set these variables on a child process; nothing else does.
"""

from __future__ import annotations

import os
import signal

ENV_POINT = "TRIPDESK_CRASH_AT"
ENV_MARK = "TRIPDESK_CRASH_MARK"


def crash_point(name: str) -> None:
    if name not in os.environ.get(ENV_POINT, "").split(","):
        return
    mark = os.environ.get(ENV_MARK)
    if mark:
        try:
            os.close(os.open(f"{mark}.{name}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return  # crashed here once already: this is the resumed run
    os.kill(os.getpid(), signal.SIGKILL)
