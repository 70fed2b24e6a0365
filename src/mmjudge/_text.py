"""Checks on short text given by users (names, ids) and the key two such texts are compared by.

A leaf module: it imports nothing from mmjudge. :func:`unsafe_char` finds the first character that
must not appear in one line of displayed text (controls, invisible format characters such as
right-to-left overrides and zero-width spaces, line and paragraph separators, lone surrogates,
private-use and unassigned code points). :func:`text_key` is what duplicate checks compare: the same
name typed with another case, width or a trailing ``/`` gives the same key.
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

__all__ = ["UnsafeChar", "describe_char", "text_key", "unsafe_char"]

_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories refused in one-line text: control, format, surrogate, private use, unassigned,
line and paragraph separators."""


class UnsafeChar(NamedTuple):
    """The first refused character of a text."""

    position: int
    """0-based index in the text."""
    char: str
    """The character."""


def unsafe_char(text: str) -> UnsafeChar | None:
    """The first character that must not appear in one line of displayed text, or ``None``.

    >>> unsafe_char("org/model") is None
    True
    >>> unsafe_char("abc\\u202edef")
    UnsafeChar(position=3, char='\\u202e')
    >>> unsafe_char("zero\\u200bwidth").position
    4
    """
    for position, char in enumerate(text):
        if unicodedata.category(char) in _UNSAFE_CATEGORIES:
            return UnsafeChar(position, char)
    return None


def describe_char(char: str) -> str:
    """``U+XXXX (NAME)`` for messages.

    >>> describe_char("\\u202e")
    'U+202E (RIGHT-TO-LEFT OVERRIDE)'
    >>> describe_char("\\x00")
    'U+0000 (control character)'
    """
    code = f"U+{ord(char):04X}"
    name = unicodedata.name(char, "")
    if not name:
        kind = {"Cc": "control character", "Cs": "lone surrogate", "Co": "private-use character"}
        name = kind.get(unicodedata.category(char), "unassigned code point")
    return f"{code} ({name})"


def text_key(text: str) -> str:
    """The key two names are compared by: NFKC, case-folded, outer spaces and trailing ``/`` removed.

    >>> text_key(" Org/Model/ ") == text_key("org/model") == text_key("ＯＲＧ/model")
    True
    """
    return unicodedata.normalize("NFKC", text).casefold().strip().rstrip("/").strip()
