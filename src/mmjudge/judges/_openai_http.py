"""A small client for OpenAI-compatible ``/chat/completions`` endpoints (standard library only).

:class:`ChatClient` posts one JSON request and returns the decoded reply. Transient failures are
retried with exponential backoff: HTTP 429 and 5xx replies, timeouts and connection errors. A
``Retry-After`` header (seconds or an HTTP date) sets the wait when present; every wait is capped by
``max_backoff_s``. Anything else (another 4xx, a reply that is not a JSON object) fails at once.
A request that still fails after ``max_retries`` retries raises :class:`ApiError` with the last cause;
the judge records it as ``no_judgment``. An HTTP error keeps its status and the server's own error message
(:attr:`ApiError.status`, :attr:`ApiError.detail`; vLLM's ``{"message": ...}`` and OpenAI's
``{"error": {"message": ...}}`` bodies), so the judge can tell a refusal of too many images
(:func:`refuses_image_count`) from other 400s.

The API key is sent in the ``Authorization`` header only; it never appears in an error message.
"""

from __future__ import annotations

import email.utils
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mmjudge.errors import MmjudgeError

__all__ = [
    "ApiError",
    "ChatClient",
    "backoff_delay",
    "image_limit_error",
    "image_limit_flag",
    "refuses_image_count",
    "retry_after_seconds",
]

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504}) | frozenset(range(505, 600))
"""HTTP statuses that are retried."""


class ApiError(MmjudgeError):
    """A chat request failed for good (after retries, or at once for a non-retryable reply).

    ``transient`` says whether the failure is the endpoint's rather than the item's (unreachable,
    timeouts, 429/5xx after the retries, an auth or not-found reply), so a later run should ask again.
    """

    def __init__(
        self, message: str, *, transient: bool = False, status: int | None = None, detail: str = ""
    ) -> None:
        super().__init__(message)
        self.transient = transient
        self.status = status
        """HTTP status of the reply (``None``: no HTTP reply, or a reply that was not JSON)."""
        self.detail = detail
        """The server's error message (the body's ``message``), or the start of the body."""


ENDPOINT_STATUSES = frozenset({401, 403, 404, 408})
"""Non-retried statuses that are about the endpoint or account, not the item (transient for the cache)."""

_IMAGE_LIMIT = re.compile(
    r"At most \d+ image\(s\) may be provided|limit[-_]mm[-_]per[-_]prompt|image items in the same prompt",
    re.IGNORECASE,
)


def refuses_image_count(exc: ApiError) -> bool:
    """Whether ``exc`` is a server's HTTP 400 for too many images in one request (vLLM's
    ``--limit-mm-per-prompt``: "At most N image(s) may be provided in one request.", or, in newer
    versions, "You set image=N (or defaulted to 1) in `--limit-mm-per-prompt`, but passed M image items ...").

    >>> refuses_image_count(ApiError("x", status=400, detail="At most 2 image(s) may be provided in one ..."))
    True
    >>> refuses_image_count(ApiError("x", status=400, detail="maximum context length is 4096 tokens"))
    False
    """
    return exc.status == 400 and bool(_IMAGE_LIMIT.search(exc.detail))


def image_limit_flag(images: int) -> str:
    """The ``vllm serve`` flag that lets ``images`` images into one request (vLLM 0.10 and later; older
    versions write ``--limit-mm-per-prompt image=N``).

    >>> print(image_limit_flag(8))
    --limit-mm-per-prompt '{"image": 8}'
    """
    return f"--limit-mm-per-prompt '{{\"image\": {images}}}'"


def image_limit_error(exc: ApiError, images: int) -> ApiError:
    """The error for a server's refusal (:func:`refuses_image_count`) of ``images`` images in one request:
    what to change, not retried, and transient for the cache (the item is not at fault, so a rerun asks again).
    """
    return ApiError(
        f"the server refuses {images} images in one request (HTTP 400: {exc.detail[:200]!r}); that is the "
        f"server's setting or the config's, not the item's: serve with a higher limit (vLLM: "
        f"`{image_limit_flag(images)}`) or lower `frames`, and set `options.max_images_per_request` to the "
        "server's limit so the config is checked before a run (not retried; not cached, a rerun asks again)",
        transient=True,
        status=exc.status,
        detail=exc.detail,
    )


def backoff_delay(attempt: int, base_s: float, max_s: float) -> float:
    """Wait before retry ``attempt`` (0-based): ``base_s * 2**attempt``, capped at ``max_s``.

    >>> [backoff_delay(a, 0.5, 3.0) for a in range(4)]
    [0.5, 1.0, 2.0, 3.0]
    """
    return float(min(max_s, base_s * 2.0**attempt))


def retry_after_seconds(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta seconds or an HTTP date), ``None`` if absent.

    >>> retry_after_seconds("2"), retry_after_seconds(None), retry_after_seconds("soon")
    (2.0, None, None)
    >>> retry_after_seconds("Thu, 01 Jan 1970 00:00:10 GMT", now=4.0)
    6.0
    """
    if value is None:
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


@dataclass
class ChatClient:
    """POST JSON to ``<base_url>/chat/completions`` with retries.

    Args:
        base_url: endpoint root, e.g. ``"https://api.openai.com/v1"`` or ``"http://127.0.0.1:8000/v1"``.
        api_key: bearer token (``None``: no ``Authorization`` header).
        timeout_s: per-request timeout (connect and read), seconds.
        max_retries: retries after the first attempt for retryable failures.
        backoff_s: first backoff wait; doubles on every retry.
        max_backoff_s: cap on any wait, ``Retry-After`` included.
        sleep: the sleep function (tests pass a recorder).
    """

    base_url: str
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 60.0
    max_retries: int = 5
    backoff_s: float = 1.0
    max_backoff_s: float = 60.0
    sleep: Callable[[float], None] = time.sleep

    @property
    def url(self) -> str:
        """The chat completions URL."""
        return self.base_url.rstrip("/") + "/chat/completions"

    def chat(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """Send ``payload``; return the decoded JSON reply or raise :class:`ApiError`."""
        body = json.dumps(payload).encode("utf-8")
        last = "no attempt made"
        for attempt in range(self.max_retries + 1):
            try:
                return self._once(body)
            except _Retryable as exc:
                last = str(exc)
                if attempt == self.max_retries:
                    break
                wait = exc.retry_after
                if wait is None:
                    wait = backoff_delay(attempt, self.backoff_s, self.max_backoff_s)
                self.sleep(min(wait, self.max_backoff_s))
        raise ApiError(
            f"{self.url}: gave up after {self.max_retries + 1} attempts; last error: {last}", transient=True
        )

    def _once(self, body: bytes) -> dict[str, Any]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            message = f"HTTP {exc.code} from {self.url}: {_snippet(raw)}"
            if exc.code in RETRY_STATUSES:
                raise _Retryable(message, retry_after_seconds(exc.headers.get("Retry-After"))) from exc
            transient = exc.code in ENDPOINT_STATUSES
            raise ApiError(message, transient=transient, status=exc.code, detail=_error_message(raw)) from exc
        except TimeoutError as exc:
            raise _Retryable(f"timed out after {self.timeout_s} s waiting for {self.url}") from exc
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise _Retryable(f"timed out after {self.timeout_s} s waiting for {self.url}") from exc
            raise _Retryable(f"cannot reach {self.url}: {exc.reason}") from exc
        except (ConnectionError, OSError) as exc:
            raise _Retryable(f"connection to {self.url} failed: {exc}") from exc
        return _decode(raw, self.url)


class _Retryable(Exception):
    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _decode(raw: bytes, url: str) -> dict[str, Any]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ApiError(f"malformed reply from {url}: not JSON ({exc}); body starts {_snippet(raw)}") from exc
    if not isinstance(data, dict):
        raise ApiError(f"malformed reply from {url}: expected a JSON object, got {type(data).__name__}")
    return data


def _error_message(raw: bytes) -> str:
    """The ``message`` of an error body (vLLM: top level; OpenAI: under ``error``), else the body's start."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        data = None
    if isinstance(data, dict):
        inner = data.get("error")
        for source in (inner, data) if isinstance(inner, dict) else (data,):
            if isinstance(source.get("message"), str):
                return str(source["message"])
    return raw.decode("utf-8", errors="replace").strip()[:500]


def _snippet(raw: bytes, limit: int = 200) -> str:
    text = raw.decode("utf-8", errors="replace").strip()
    return repr(text[:limit] + ("..." if len(text) > limit else ""))
