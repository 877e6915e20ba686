"""A small typed client for the Duffel API on httpx (``Duffel-Version: v2``).

Why not the official Python client: it targets API ``v1`` and has no Stays, so this module
speaks the documented HTTP shapes itself (``{"data": …}`` bodies, ``{"errors": [...]}`` on
failure, ``meta.request_id``).

Retries, following the API reference's advice per status:

* 429 (rate limited): always retried after ``Retry-After`` or ``ratelimit-reset`` (seconds, an
  epoch timestamp or an HTTP date), at most ``max_wait`` seconds per wait;
* 503 / 504 and connection failures or timeouts: retried with a short backoff;
* 500 / 502: retried for reads only (Duffel asks not to retry writes after them: the write may
  have happened; the adapter reconciles by reading back instead).

Every write carries an ``Idempotency-Key`` so a retried POST is the same POST.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Dict, List, Optional

import httpx

from ..wire import decode_json

log = logging.getLogger(__name__)

API_URL = "https://api.duffel.com"
API_VERSION = "v2"
TOKEN_PREFIXES = ("duffel_test_", "duffel_live_")


def token_problem(token: Optional[str]) -> Optional[str]:
    """Why ``token`` cannot be a Duffel access token (None when it looks right). Never echoes it."""
    if not token:
        return "DUFFEL_ACCESS_TOKEN is not set."
    if token != token.strip() or any(c.isspace() for c in token):
        return "DUFFEL_ACCESS_TOKEN contains spaces or line breaks."
    if not token.startswith(TOKEN_PREFIXES):
        return "DUFFEL_ACCESS_TOKEN must start with duffel_test_ (test mode) or duffel_live_."
    if len(token) < len("duffel_test_") + 16:
        return "DUFFEL_ACCESS_TOKEN is too short to be a Duffel access token."
    return None


@dataclass
class DuffelApiError(Exception):
    """A refusal from the API: the HTTP status and its ``errors`` list (type, code, title, message)."""

    status: int
    errors: List[Dict[str, Any]] = field(default_factory=list)
    request_id: str = ""
    retry_after: Optional[float] = None

    def __post_init__(self) -> None:
        super().__init__(f"HTTP {self.status} {self.code or ''} {self.request_id}".strip())

    @property
    def code(self) -> str:
        return str((self.errors[0] if self.errors else {}).get("code") or "")

    @property
    def type(self) -> str:
        return str((self.errors[0] if self.errors else {}).get("type") or "")


class DuffelTransportError(Exception):
    """No answer at all (timeout, connection refused) after the retries."""


def wait_seconds(headers: httpx.Headers, now: Callable[[], datetime]) -> Optional[float]:
    """How long a 429 asks us to wait: ``Retry-After`` first, then ``ratelimit-reset``."""
    for name in ("retry-after", "ratelimit-reset"):
        raw = (headers.get(name) or "").strip()
        if not raw:
            continue
        try:
            value = float(raw)
        except ValueError:
            try:
                when = parsedate_to_datetime(raw)
            except (TypeError, ValueError):
                continue
            return max(0.0, (when - now()).total_seconds())
        if value > 1_000_000_000:  # an epoch timestamp
            return max(0.0, value - now().timestamp())
        return max(0.0, value)
    return None


class DuffelClient:
    def __init__(
        self,
        token: str,
        *,
        base_url: str = API_URL,
        version: str = API_VERSION,
        timeout: float = 20.0,
        max_retries: int = 3,
        max_wait: float = 30.0,
        backoff: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        transport: Optional[httpx.BaseTransport] = None,
    ) -> None:
        self.max_retries, self.max_wait, self.backoff = max_retries, max_wait, backoff
        self._sleep, self._now = sleep, now
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)),
            transport=transport,
            headers={
                "Authorization": f"Bearer {token}",
                "Duffel-Version": version,
                "Accept": "application/json",
                "Accept-Encoding": "gzip",
                "Content-Type": "application/json",
                "User-Agent": f"TripDesk Duffel/{version}",
            },
        )

    def close(self) -> None:
        self._http.close()

    # -- verbs ------------------------------------------------------------------------------------

    def get(self, path: str, params: Optional[Dict[str, Any]] = None) -> Any:
        return self._request("GET", path, params=params)

    def post(
        self,
        path: str,
        data: Optional[Dict[str, Any]] = None,
        *,
        idempotency_key: str,
        params: Optional[Dict[str, Any]] = None,
    ) -> Any:
        return self._request("POST", path, body={"data": data or {}}, params=params, idempotency_key=idempotency_key)

    # -- the one loop -------------------------------------------------------------------------------

    def _request(
        self,
        method: str,
        path: str,
        *,
        body: Optional[Dict[str, Any]] = None,
        params: Optional[Dict[str, Any]] = None,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        headers = {"Idempotency-Key": idempotency_key[:255]} if idempotency_key else {}
        write = method != "GET"
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self._http.request(method, path, json=body, params=params, headers=headers)
            except (httpx.TimeoutException, httpx.TransportError) as exc:
                if attempt > self.max_retries:
                    raise DuffelTransportError(f"{method} {path}: {type(exc).__name__}") from exc
                self._sleep(self.backoff * attempt)
                continue
            if response.status_code < 400:
                if response.status_code == 204 or not response.content:
                    return None
                return decode_json(response.content).get("data")  # the collector paused (supplier/wire.py)
            error = self._error(response)
            retry = response.status_code in (429, 503, 504) or (not write and response.status_code >= 500)
            if not retry or attempt > self.max_retries:
                raise error
            wait = error.retry_after if response.status_code == 429 else None
            wait = self.backoff * attempt if wait is None else wait
            if wait > self.max_wait:
                raise error
            log.info("duffel %s %s: HTTP %s, retrying in %.2fs", method, path, response.status_code, wait)
            self._sleep(wait)

    def _error(self, response: httpx.Response) -> DuffelApiError:
        try:
            payload = response.json()
        except ValueError:
            payload = {}
        payload = payload if isinstance(payload, dict) else {}
        return DuffelApiError(
            status=response.status_code,
            errors=[e for e in payload.get("errors") or [] if isinstance(e, dict)],
            request_id=str((payload.get("meta") or {}).get("request_id") or response.headers.get("x-request-id") or ""),
            retry_after=wait_seconds(response.headers, self._now) if response.status_code == 429 else None,
        )
