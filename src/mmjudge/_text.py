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

__all__ = ["UnsafeChar", "describe_char", "mixed_scripts", "text_key", "unsafe_char"]

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
    """The key two names are compared by: NFKC, case-folded, outer spaces and trailing ``/`` removed, and
    every character that has an ASCII look-alike in Unicode's confusables data (TR39; the data of
    ``confusable_homoglyphs``) read as that look-alike, so a Cyrillic ``а`` or a Greek ``ο`` in a name
    gives the key of the Latin one.

    >>> text_key(" Org/Model/ ") == text_key("org/model") == text_key("ＯＲＧ/model")
    True
    >>> text_key("KwaiVGI/VideoRew\u0430rd") == text_key("kwaivgi/videoreward") == text_key("KwaiVGI/Vide\u03bfReward")
    True
    """
    folded = unicodedata.normalize("NFKC", text).casefold().strip().rstrip("/").strip()
    return "".join(_look_alike(c) for c in folded).casefold()


def mixed_scripts(text: str) -> tuple[str, ...]:
    """The scripts a text mixes (Unicode script aliases such as ``LATIN``, ``CYRILLIC``; digits, punctuation
    and other common characters belong to none), or ``()`` when it uses one script at most.

    >>> mixed_scripts("KwaiVGI/VideoReward"), mixed_scripts("org/caf\u00e9-2")
    ((), ())
    >>> mixed_scripts("KwaiVGI/VideoRew\u0430rd")
    ('CYRILLIC', 'LATIN')
    """
    from confusable_homoglyphs import categories

    scripts = {categories.alias(c) for c in text} - {"COMMON", "INHERITED"}
    return tuple(sorted(scripts)) if len(scripts) > 1 else ()


def _look_alike(char: str) -> str:
    """``char``'s single ASCII look-alike in the confusables data (``char`` when ASCII or when it has none)."""
    if char.isascii():
        return char
    from confusable_homoglyphs import confusables

    for glyph in confusables.confusables_data.get(char, ()):
        if len(glyph["c"]) == 1 and glyph["c"].isascii() and glyph["c"].isalnum():
            return str(glyph["c"])
    return char
