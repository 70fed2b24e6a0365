"""Orderly shutdown of a Gradio app: count the handler calls in progress, refuse new ones when closing,
and wait for the running ones (no gradio import).

Gradio runs sync handlers in daemon worker threads and closing its server does not wait for them. A
thread still inside C++ code (matplotlib's font reader, pyarrow) when the interpreter exits aborts the
whole process ("terminate called without an active exception"), so every app of mmjudge (the
leaderboard, the human-study annotation app) closes through :meth:`InFlight.close`.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from mmjudge.errors import MmjudgeError

__all__ = ["AppClosingError", "InFlight", "tracked"]


class AppClosingError(MmjudgeError):
    """A handler was called after the app began shutting down."""


class InFlight:
    """Counts handler calls in progress; :meth:`close` refuses new calls and waits for the running ones.

    Args:
        app: what is shutting down, for the refusal message.

    >>> calls = InFlight()
    >>> with calls():
    ...     calls.running
    1
    >>> calls.close(timeout=1.0), calls.running
    (True, 0)
    """

    def __init__(self, app: str = "the leaderboard") -> None:
        self._cond = threading.Condition()
        self._app = app
        self.running = 0
        self.closed = False

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._cond:
            if self.closed:
                raise AppClosingError(f"{self._app} is shutting down: reload the page in a moment")
            self.running += 1
        try:
            yield
        finally:
            with self._cond:
                self.running -= 1
                self._cond.notify_all()

    def close(self, timeout: float) -> bool:
        """Refuse new calls; wait up to ``timeout`` s for running ones. ``True`` when none is left."""
        with self._cond:
            self.closed = True
            return self._cond.wait_for(lambda: self.running == 0, timeout)


F = TypeVar("F", bound=Callable[..., Any])


def tracked(method: F) -> F:
    """Run a handler method inside its owner's ``in_flight`` (:class:`InFlight`) count."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self.in_flight():
            return method(self, *args, **kwargs)

    return cast(F, wrapper)
