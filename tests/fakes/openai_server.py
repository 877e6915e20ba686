"""A fake OpenAI-compatible server on loopback, for driving the real SDK in tests.

It serves scripted ``POST /v1/responses`` replies in order (or from a responder function that
sees the request) and records every request it received, so a test can assert on exactly
what left the process: the model, the tools offered, the prompt after redaction.

    with FakeOpenAIServer() as server:
        server.script(Reply.rate_limited(retry_after="2"), Reply.ok(text="hi"))
        client = OpenAIClientWrapper(api_key="sk-test", base_url=server.base_url)
        ...
        assert server.requests[1].json["model"] == "gpt-4.1-nano"
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Deque, Dict, Iterable, List, Optional

from handlers.llm.scripted import response_body


@dataclass
class Reply:
    """One scripted HTTP reply; ``delay`` holds the answer back (for client timeouts)."""

    status: int = 200
    body: Any = None
    headers: Dict[str, str] = field(default_factory=dict)
    delay: float = 0.0

    @classmethod
    def ok(cls, **kwargs: Any) -> Reply:
        """A Responses body (see ``handlers.llm.scripted.response_body`` for the keywords)."""
        return cls(200, response_body(**kwargs))

    @classmethod
    def json_output(cls, value: Any, **kwargs: Any) -> Reply:
        """Structured output: ``value`` serialised as the message text."""
        return cls.ok(text=json.dumps(value), **kwargs)

    # --- errors ----------------------------------------------------------------------------
    @classmethod
    def error(
        cls,
        status: int,
        message: str,
        *,
        code: Optional[str] = None,
        type_: str = "error",
        headers: Optional[Dict[str, str]] = None,
    ) -> Reply:
        body = {"error": {"message": message, "type": type_, "code": code, "param": None}}
        return cls(status, body, dict(headers or {}))

    @classmethod
    def rate_limited(cls, *, retry_after: Optional[str] = None) -> Reply:
        headers = {"retry-after": retry_after} if retry_after is not None else {}
        return cls.error(
            429, "Rate limit reached for requests", code="rate_limit_exceeded", type_="requests", headers=headers
        )

    @classmethod
    def quota_exceeded(cls) -> Reply:
        return cls.error(429, "You exceeded your current quota.", code="insufficient_quota", type_="insufficient_quota")

    @classmethod
    def unauthorized(cls) -> Reply:
        return cls.error(401, "Incorrect API key provided.", code="invalid_api_key", type_="invalid_request_error")

    @classmethod
    def server_error(cls) -> Reply:
        return cls.error(500, "The server had an error while processing your request.", type_="server_error")


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: Dict[str, str]
    raw: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.raw or b"null")


Responder = Callable[[RecordedRequest], Reply]


class FakeOpenAIServer:
    """``ThreadingHTTPServer`` on 127.0.0.1 with an ephemeral port; use as a context manager."""

    def __init__(self) -> None:
        self.requests: List[RecordedRequest] = []
        self._queue: Deque[Reply] = deque()
        self._responder: Optional[Responder] = None
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-openai", daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def script(self, *replies: Reply) -> FakeOpenAIServer:
        """Queue replies, served one per request in order."""
        with self._lock:
            self._queue.extend(replies)
        return self

    def respond_with(self, responder: Optional[Responder]) -> None:
        """Answer from ``responder(request)`` once the scripted queue is empty."""
        self._responder = responder

    @property
    def sent_bodies(self) -> List[Any]:
        return [r.json for r in self.requests if r.path.endswith("/responses")]

    def all_sent_text(self) -> str:
        """Everything the server received, headers excluded, as one string (for leak checks)."""
        return "\n".join(r.raw.decode("utf-8", "replace") for r in self.requests)

    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self._queue:
                return self._queue.popleft()
        if self._responder is not None:
            return self._responder(request)
        return Reply.error(500, "fake server: no scripted reply left", type_="fake_server_exhausted")

    def _handler_class(self) -> type:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 - http.server naming
                length = int(self.headers.get("content-length") or 0)
                request = RecordedRequest("POST", self.path, dict(self.headers.items()), self.rfile.read(length))
                reply = server._next_reply(request)
                if reply.delay:
                    time.sleep(reply.delay)
                payload = json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout tests)
                    pass

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep test output quiet
                return

        return Handler

    def __enter__(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Iterable[Any]) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)
