"""A live TripDesk for Chromium: a fresh SQLite database, the demo users, daphne on a free port.

pytest-django's ``live_server`` speaks HTTP only; the chat needs websockets, so the real ASGI
server runs in a subprocess on the embedded default (in-memory channel layer, eager Celery).
"""

import base64
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from django_otp.oath import TOTP

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def manage(workdir: Path, *args: str) -> str:
    """Run ``manage.py`` against the live TripDesk's database in ``workdir`` (e.g. to set up a test's data);
    returns what it printed."""
    env = tripdesk_env(workdir)
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


_last_window: dict[str, int] = {}
_keys: dict[str, bytes] = {}  # the keys of authenticator apps set up through the page, by username


def second_step(page, workdir: Optional[Path], username: str) -> None:
    """After the password, give the second factor as a person would.

    A demo staff user types the code ``seed_demo --otp-code`` prints (``workdir``: the live
    TripDesk's); someone without one sets up an authenticator app on the page that asks, its key
    read off the page and its codes computed here.
    """
    page.wait_for_url(re.compile(r"/account/two-factor/"))
    if "/verify/" not in page.url:
        _keys[username] = base64.b32decode(page.get_by_test_id("totp-secret").inner_text().replace(" ", ""))
        page.get_by_label("Code from the app").fill(otp_code(workdir, username))
        page.get_by_role("button", name="Turn on two-factor sign-in").click()
        page.get_by_role("link", name=re.compile("continue")).click()
        return
    page.get_by_label(re.compile("Code from your authenticator app")).fill(otp_code(workdir, username))
    page.get_by_role("button", name="Verify").click()
    page.wait_for_url(lambda url: "/account/two-factor/verify/" not in url)


def otp_code(workdir: Optional[Path], username: str) -> str:
    """The user's current code. A code is good once: after using one, wait for the next 30 s window
    (counted from when the code was read, which may be a window later than when it was asked for)."""
    while _last_window.get(username, -1) >= int(time.time() // 30):
        time.sleep(0.5)
    if username in _keys:
        code = f"{TOTP(_keys[username], step=30, digits=6).token():06d}"
    else:
        assert workdir is not None, f"{username} is no demo user: pass the live TripDesk's workdir"
        code = manage(workdir, "seed_demo", "--otp-code", username).strip()
    _last_window[username] = int(time.time() // 30)
    return code


def tripdesk_env(workdir: Path, *, search_delay: float = 0.0, site_url: str = "", extra: dict | None = None) -> dict:
    """The environment of a TripDesk whose SQLite database lives in ``workdir`` (its emails in ``workdir/emails``)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "tripdesk.settings",
            "DATABASE_URL": f"sqlite:///{workdir / 'browser.sqlite3'}",
            "DJANGO_DEBUG": "true",  # static files straight from static/ (no collectstatic)
            "DJANGO_PASSWORD_HASHERS": "django.contrib.auth.hashers.MD5PasswordHasher",
            "TRIPDESK_TEST_SEARCH_DELAY": str(search_delay),
            "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": str(workdir / "emails"),
            "PYTHONUNBUFFERED": "1",
        }
    )
    if site_url:
        env["TRIPDESK_SITE_URL"] = site_url
    env.update(extra or {})
    return env


@contextmanager
def live_tripdesk(
    workdir: Path, *, search_delay: float = 0.0, extra_env: dict | None = None, port: int | None = None
) -> Iterator[str]:
    """Yield the base URL of a running TripDesk seeded with the demo users (password ``<name>-demo``);
    ``extra_env`` configures the server process (e.g. ``TRIPDESK_SUPPLIER=duffel``); ``port``: a
    free one unless given (to name the server's own origin in ``extra_env``)."""
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    env = tripdesk_env(workdir, search_delay=search_delay, site_url=base, extra=extra_env)
    manage(workdir, "migrate", "--noinput")
    manage(workdir, "seed_demo")
    log = open(workdir / "daphne.log", "wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "tests.browser.server:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_until_up(f"{base}/signin/", server)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def _wait_until_up(url: str, server: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"daphne exited with {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s")


def sign_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/signin/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(f"{username}-demo")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")


def back_office_sign_in(
    page, base: str, next_path: str, username: str, workdir: Optional[Path], password: str = ""
) -> None:
    """Sign a staff member in to the back office on its own sign-in page, on the way to ``next_path``,
    then give the second factor (``second_step``); the demo password unless ``password``."""
    page.goto(f"{base}/admin/login/?next={next_path}")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password or f"{username}-demo")
    page.locator("input[type=submit]").click()
    second_step(page, workdir, username)
