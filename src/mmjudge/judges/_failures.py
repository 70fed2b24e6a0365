"""Which judge failures are transient (retried on resume) and which are verdicts (kept in the cache).

A failure that says nothing about the item (the endpoint was down or timed out, a 5xx reply, the
device ran out of memory) must not be cached as the item's final ``no_judgment``: rerunning into the
same output folder once the cause is gone judges those items again. A failure that belongs to the item
(unreadable media, a reply without an answer) is a verdict and stays cached.
"""

from __future__ import annotations

import re

__all__ = ["is_transient", "looks_transient"]

_TRANSIENT_TYPES = (MemoryError, ConnectionError, TimeoutError)
_TRANSIENT_TEXT = re.compile(
    r"out of memory|OutOfMemoryError|MemoryError|timed out|TimeoutError|ConnectionError|connection (?:to .* )?"
    r"(?:failed|refused|reset|aborted)|cannot reach|HTTP (?:5\d\d|429|408)\b|gave up after \d+ attempts",
    re.IGNORECASE,
)


def is_transient(exc: BaseException) -> bool:
    """Whether a judge failure is transient: connection, timeout, 5xx (``exc.transient``) or out of memory.

    >>> is_transient(ConnectionRefusedError()), is_transient(ValueError("bad label"))
    (True, False)
    >>> class OutOfMemoryError(RuntimeError): ...
    >>> is_transient(OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB"))
    True
    """
    flagged = getattr(exc, "transient", None)
    if isinstance(flagged, bool):
        return flagged
    if isinstance(exc, _TRANSIENT_TYPES) or type(exc).__name__ == "OutOfMemoryError":
        return True
    return "out of memory" in str(exc).lower()


def looks_transient(error: str | None) -> bool:
    """Whether a recorded ``no_judgment`` error (a cache line written before verdicts carried the flag)
    reads as a transient failure.

    >>> looks_transient("ApiError: http://h/v1/chat/completions: gave up after 6 attempts; last error: HTTP 503")
    True
    >>> looks_transient("MediaError: clip.mp4 is not a video file")
    False
    """
    return bool(error) and bool(_TRANSIENT_TEXT.search(str(error)))
