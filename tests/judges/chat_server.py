"""A tiny in-process OpenAI-compatible chat endpoint for tests (a helper module, not a test module).

:class:`ChatServer` runs ``http.server.ThreadingHTTPServer`` on ``127.0.0.1`` (port 0: a free port) in a
daemon thread and implements ``POST /v1/chat/completions``:

- by default it answers from the request: with ``"logprobs": true`` the first token is ``"7"`` and its
  ``top_logprobs`` are :attr:`ChatServer.top_logprobs` (cut to the requested ``top_logprobs``); else the
  text is ``ChatServer.reply(payload)`` (default :func:`default_reply`: a MIST JSON label, ``a2`` for
  EmoPrefer, ``(B)`` for EmoReAlM, recognised from the prompt text);
- :meth:`ChatServer.script` queues canned replies served first, one per request: an HTTP status with
  headers, a raw body (malformed JSON), or a delay (a timeout);
- every request's headers and JSON body are recorded in :attr:`ChatServer.requests`.

Use it as a context manager; :attr:`ChatServer.base_url` is ``http://127.0.0.1:<port>/v1``.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_TOP = [
    ("7", math.log(0.5)),
    ("8", math.log(0.2)),
    ("6", math.log(0.1)),
    (" 7", math.log(0.05)),
    ("The", math.log(0.1)),
    ("9", math.log(0.05)),
]
"""Default top logprobs of the first token: digits carry 0.9 of the mass."""


def prompt_text(payload: dict[str, Any]) -> str:
    """The text parts of the last user message of a request."""
    content = payload["messages"][-1]["content"]
    if isinstance(content, str):
        return content
    return "\n".join(part["text"] for part in content if part.get("type") == "text")


def default_reply(payload: dict[str, Any]) -> str:
    """A plausible text answer for each benchmark's prompt."""
    text = prompt_text(payload)
    if "final_label" in text:
        return 'Thinking about it... {"final_label": "WF"}'
    if "a1:" in text and "a2:" in text:
        return "a2"
    return "(B)"


@dataclass
class Canned:
    """One scripted reply."""

    status: int = 200
    """HTTP status."""
    body: bytes | None = None
    """Raw body (``None``: the default answer for the request)."""
    headers: dict[str, str] = field(default_factory=dict)
    """Extra response headers (e.g. ``Retry-After``)."""
    delay_s: float = 0.0
    """Sleep before answering (longer than the client's timeout: a timeout)."""


class ChatServer:
    """The fake endpoint (see the module docstring)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.top_logprobs: list[tuple[str, float]] = list(DEFAULT_TOP)
        self.reply: Callable[[dict[str, Any]], str] = default_reply
        self.always: Canned | None = None
        self._script: deque[Canned] = deque()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``."""
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def script(self, *replies: Canned) -> None:
        """Queue canned replies, served before the default answers."""
        with self._lock:
            self._script.extend(replies)

    def next_canned(self) -> Canned | None:
        with self._lock:
            if self._script:
                return self._script.popleft()
        return self.always

    def answer(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The default chat completion for ``payload``."""
        if payload.get("logprobs"):
            k = int(payload.get("top_logprobs") or 0)
            top = [{"token": t, "logprob": lp, "bytes": list(t.encode())} for t, lp in self.top_logprobs[:k]]
            first = top[0] if top else {"token": "7", "logprob": 0.0}
            content = first["token"]
            logprobs = {"content": [{"token": content, "logprob": first["logprob"], "top_logprobs": top}]}
        else:
            content, logprobs = self.reply(payload), None
        return {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": 0,
            "model": payload.get("model"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "logprobs": logprobs,
                    "finish_reason": "stop",
                }
            ],
        }

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def _handler(server: ChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            payload = json.loads(self.rfile.read(length) or b"{}")
            with server._lock:
                server.requests.append({"path": self.path, "headers": dict(self.headers), "json": payload})
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send(404, b'{"error": {"message": "not found"}}')
                return
            canned = server.next_canned() or Canned()
            if canned.delay_s:
                time.sleep(canned.delay_s)
            body = canned.body
            if body is None:
                body = (
                    json.dumps(server.answer(payload)).encode()
                    if canned.status == 200
                    else json.dumps({"error": {"message": f"status {canned.status}"}}).encode()
                )
            self._send(canned.status, body, canned.headers)

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
                pass

    return Handler
