"""Exception types raised by mmjudge.

Every error says what was expected, what arrived and what to do about it. Callers catch
:class:`MmjudgeError` for anything mmjudge raises on purpose.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class MmjudgeError(Exception):
    """Base class of every error mmjudge raises on purpose."""


class MediaError(MmjudgeError):
    """A media file is missing, unreadable, empty, truncated or not of the expected kind."""


class SchemaError(MmjudgeError, ValueError):
    """Input rows, files or predictions do not match the expected schema or label set."""


class ConfigError(MmjudgeError, ValueError):
    """A configuration has unknown keys, values of the wrong type or inconsistent settings."""


class UnknownNameError(MmjudgeError, LookupError):
    """A benchmark, judge or other registered name is not known."""


class MissingDependencyError(MmjudgeError, ImportError):
    """An optional dependency is not installed."""


class MissingFileError(MmjudgeError, FileNotFoundError):
    """A file or folder given as input does not exist (the message says what was expected there)."""


def summarize(values: Iterable[Any], limit: int = 5) -> str:
    """Render at most ``limit`` values of a long input for an error message.

    >>> summarize(range(10))
    '[0, 1, 2, 3, 4, ...] (10 in all)'
    >>> summarize(["a"])
    "['a']"
    """
    items = list(values)
    shown = ", ".join(repr(v) for v in items[:limit])
    if len(items) > limit:
        return f"[{shown}, ...] ({len(items)} in all)"
    return f"[{shown}]"
