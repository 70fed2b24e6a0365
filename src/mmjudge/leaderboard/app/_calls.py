"""Handler plumbing of the leaderboard UI: in-flight counting for an orderly shutdown (from
:mod:`mmjudge._inflight`), row numbers, Markdown escaping of submitter text (no gradio import)."""

from __future__ import annotations

import math
import string
from typing import Any

from mmjudge._inflight import AppClosingError, InFlight, tracked
from mmjudge.leaderboard.store import SubmissionRejected

__all__ = ["EXPORT_TTL_S", "AppClosingError", "InFlight", "error_message", "md", "row_id", "tracked"]


_PUNCTUATION = frozenset(string.punctuation)


def md(text: str) -> str:
    """Submitter text for a Markdown message, shown literally: every ASCII punctuation character becomes
    its numeric character reference (``*`` -> ``&#42;``). A reference is never Markdown syntax nor HTML,
    and the renderer's link detection, which reads the raw source, finds no ``http://``, ``www.`` or
    ``@`` in it, so a name can neither inject a tag nor render as emphasis, code or a live link; the
    browser shows each character as typed (backslash escapes, by contrast, stay visible inside the URLs
    the renderer links).

    >>> md("[x](http://a.example) <b>")
    '&#91;x&#93;&#40;http&#58;&#47;&#47;a&#46;example&#41; &#60;b&#62;'
    """
    return "".join(f"&#{ord(c)};" if c in _PUNCTUATION else c for c in text)


def error_message(exc: Exception) -> str:
    return f"**Rejected.** {md(str(exc))}"


_MAX_ROW_ID = 2**63 - 1
EXPORT_TTL_S = 3600.0
"""Exports older than this are removed (gradio has copied them to its own cache by then)."""


def row_id(value: Any) -> int:
    """A row number from a ``gr.Number`` or an API call: a whole number from 1 up.

    >>> row_id(7.0)
    7
    >>> row_id(float("nan"))
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: row # must be a whole number from 1 to 9223372036854775807, got nan
    """
    number = _whole_number(value)
    if number is None or not 1 <= number <= _MAX_ROW_ID:
        raise SubmissionRejected(
            f"row # must be a whole number from 1 to {_MAX_ROW_ID}, got {str(value)[:40]}"
        )
    return number


def _whole_number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None
