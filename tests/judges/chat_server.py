"""A tiny in-process OpenAI-compatible chat endpoint for tests (a helper module, not a test module).

:class:`ChatServer` runs ``http.server.ThreadingHTTPServer`` on ``127.0.0.1`` (port 0: a free port) in a
daemon thread and implements ``POST /v1/chat/completions``:

- by default it answers from the request: with ``"logprobs": true`` the first token is ``"7"`` and its
  ``top_logprobs`` are :attr:`ChatServer.top_logprobs` (cut to the requested ``top_logprobs``); else the
  text is ``ChatServer.reply(payload)`` (default :func:`default_reply`: a MIST JSON label, ``a2`` for
  EmoPrefer, ``(B)`` for EmoReAlM, recognised from the prompt text);
- it behaves as vLLM's OpenAI server does where the tests need it:

  - :attr:`ChatServer.max_images` is ``--limit-mm-per-prompt``: a request with more ``image_url`` parts
    gets HTTP 400 with vLLM's body (``{"object": "error", "message": "At most N image(s) may be provided
    in one request.", "type": "BadRequestError", "param": null, "code": 400}``);
  - tokens are words: a reply longer than ``max_tokens`` (one more token for the end of the turn) is cut
    there with ``finish_reason: "length"``; :attr:`ChatServer.reasoning` makes it a reasoning model served
    with ``--reasoning-parser``: that text comes first, in ``message.reasoning_content``
    (:attr:`ChatServer.reasoning_field`), and a budget spent inside it gives ``content: null``;
  - :attr:`ChatServer.choice_field` is the guided-choice field the simulated vLLM version honours
    (``structured_outputs``: ``{"choice": [...]}``, 0.10.2 and later; ``guided_choice``: a list, before
    0.12; ``None``: neither): the reply is then exactly one choice (the one the free reply names last,
    else the first). A field the version does not know is ignored without an error, as vLLM does;
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


def image_count(payload: dict[str, Any]) -> int:
    """The ``image_url`` parts of all messages of a request."""
    contents = [m.get("content") for m in payload.get("messages", [])]
    return sum(p.get("type") == "image_url" for c in contents if isinstance(c, list) for p in c)


def pick_choice(choices: list[str], text: str) -> str:
    """The choice named last in ``text``, else the first (the simulated guided choice)."""
    named = [(text.rfind(c), c) for c in choices if c in text]
    return max(named)[1] if named else choices[0]


class ChatServer:
    """The fake endpoint (see the module docstring)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.top_logprobs: list[tuple[str, float]] = list(DEFAULT_TOP)
        self.reply: Callable[[dict[str, Any]], str] = default_reply
        self.always: Canned | None = None
        self.max_images: int | None = None
        """vLLM's ``--limit-mm-per-prompt`` image count (``None``: no limit)."""
        self.reasoning: str | None = None
        """Reasoning written before every answer (a reasoning model; ``None``: a model that answers)."""
        self.reasoning_field = "reasoning_content"
        """Message field of the reasoning (vLLM; newer versions: ``reasoning``)."""
        self.choice_field: str | None = "structured_outputs"
        """Guided-choice field honoured (see the module docstring)."""
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

    def refusal(self, payload: dict[str, Any]) -> dict[str, Any] | None:
        """vLLM's 400 body for a request over :attr:`max_images`, else ``None``."""
        if self.max_images is None or image_count(payload) <= self.max_images:
            return None
        message = f"At most {self.max_images} image(s) may be provided in one request."
        return {"object": "error", "message": message, "type": "BadRequestError", "param": None, "code": 400}

    def constraint(self, payload: dict[str, Any]) -> list[str] | None:
        """The guided choices of a request in the field this server honours (``None``: none)."""
        if self.choice_field == "structured_outputs":
            outputs = payload.get("structured_outputs")
            return outputs.get("choice") if isinstance(outputs, dict) else None
        return payload.get("guided_choice") if self.choice_field == "guided_choice" else None

    def generate(self, answer: str, budget: int) -> tuple[str | None, str | None, str]:
        """``(content, reasoning, finish_reason)`` of a model writing :attr:`reasoning` then ``answer``, one
        token per word and one for the end of the turn, within ``budget`` tokens."""
        thought = self.reasoning.split(" ") if self.reasoning else []
        if len(thought) >= budget:
            return None, " ".join(thought[:budget]), "length"
        reasoning = " ".join(thought) if thought else None
        words, left = answer.split(" "), budget - len(thought)
        if len(words) + 1 > left:
            return " ".join(words[:left]), reasoning, "length"
        return answer, reasoning, "stop"

    def answer(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The default chat completion for ``payload``."""
        budget = int(payload.get("max_tokens") or 10**6)
        logprobs = None
        if payload.get("logprobs"):
            k = int(payload.get("top_logprobs") or 0)
            top = [{"token": t, "logprob": lp, "bytes": list(t.encode())} for t, lp in self.top_logprobs[:k]]
            first = top[0] if top else {"token": "7", "logprob": 0.0}
            if self.reasoning:  # the first generated token is a reasoning token
                first = {"token": self.reasoning.split(" ")[0], "logprob": 0.0}
                top = [first]
            text = first["token"]
            logprobs = {
                "content": [{"token": first["token"], "logprob": first["logprob"], "top_logprobs": top}]
            }
        else:
            text = self.reply(payload)
            choices = self.constraint(payload)
            if choices:
                text = pick_choice(list(choices), text)
        content, reasoning, finish = self.generate(text, budget)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if self.reasoning:
            message[self.reasoning_field] = reasoning
        return {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": 0,
            "model": payload.get("model"),
            "choices": [{"index": 0, "message": message, "logprobs": logprobs, "finish_reason": finish}],
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
            refusal = server.refusal(payload)
            if refusal is not None:
                self._send(400, json.dumps(refusal).encode())
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
