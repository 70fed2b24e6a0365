"""EmoReAlM answer matchers: the official whole-word rule, the official ``parse_answer`` and a stricter parser.

The official evaluation (AVERE release, ``evaluate`` folder) lower-cases and strips each response, then
calls ``matches_correct_answer``: the gold letter must occur as a whole word, optionally after ``(`` or
``[`` and before ``)``, ``]``, ``.`` or ``:``, case-insensitively. Because the brackets are optional and
the pattern is bounded by ``\\b``, the rule accepts exactly the responses that contain the gold letter
as a standalone word anywhere: the English article "a" counts as answer A, and a response naming every
letter is correct for any gold. With ``use_parse_answer=True`` the same code calls ``parse_answer``
instead, reproduced here as :func:`official_parse`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

__all__ = [
    "ChoiceLetters",
    "choice_letters",
    "explicit_answer",
    "matches_official",
    "official_parse",
]

_CHOICE = re.compile(r"\s*\(?([A-Z])\)?[.)]?\s*(.*)", re.IGNORECASE)
_BARE = re.compile(r"[\(\[]?([A-Za-z])[\)\]]?[.:]?")
_MARKER = re.compile(
    r"(?i:\banswer\b(?:\s+is)?)\s*[:\-]?\s*(?:(?i:option)\s+)?"
    r"(?:[\(\[]([A-Za-z])[\)\]]|([A-Z])\b|([a-z])(?=[.,;:!]|\s*$))"
)
_BRACKETED = re.compile(r"[\(\[]([A-Za-z])[\)\]]")
_LEADING = re.compile(r"([A-Z])[.):](?:\s|$)")


class ChoiceLetters(NamedTuple):
    """Letters of an item's lettered choices and which of them read Yes and No."""

    text: dict[str, str]
    """Letter -> normalised choice text (lower case, runs of non-alphanumerics as one space)."""
    yes: str | None
    """Letter of the (last) choice whose text contains "yes", as the official parser finds it."""
    no: str | None
    """Letter of the (last) choice whose text contains "no" (a substring, as in the official code)."""


def matches_official(prediction: str, gold: str) -> bool:
    """The official rule: ``gold`` appears as a whole word, optionally bracketed, case-insensitively.

    >>> matches_official("The answer is (B).", "B"), matches_official("Bob smiles", "B")
    (True, False)
    >>> matches_official("a person frowning", "A")  # the English article counts as A
    True
    """
    pattern = rf"\b[\(\[]?{re.escape(gold)}[\)\]\.\:]?\b"
    return re.search(pattern, prediction.strip().lower(), re.IGNORECASE) is not None


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def choice_letters(choices: Sequence[str]) -> ChoiceLetters:
    """Parse lettered choices such as ``["(A) Yes", "(B) No"]`` the way the official parser does.

    >>> choice_letters(["(A) Yes", "(B) No"])
    ChoiceLetters(text={'A': 'yes', 'B': 'no'}, yes='A', no='B')
    """
    text: dict[str, str] = {}
    yes = no = None
    for choice in choices:
        match = _CHOICE.match(choice)
        if match is None:
            continue
        letter, body = match.group(1).upper(), _norm(match.group(2))
        text[letter] = body
        if "yes" in body:
            yes = letter
        if "no" in body:
            no = letter
    return ChoiceLetters(text, yes, no)


def official_parse(prediction: str, gold: str, choices: Sequence[str]) -> bool:
    """The official ``parse_answer`` (used with ``use_parse_answer=True``), step by step.

    1. the first choice letter, in choice order, found as a standalone (optionally bracketed) word;
    2. else the word "yes" or "no" mapped to the choice containing it;
    3. else the first choice whose normalised text occurs in the normalised response;
    4. else wrong.

    >>> official_parse("yes, they agree", "A", ["(A) Yes", "(B) No"])
    True
    >>> official_parse("b is wrong, a is right", "B", ["(A) Yes", "(B) No"])  # letter order, not text order
    False
    """
    parsed = choice_letters(choices)
    lowered = prediction.strip().lower()
    upper, normed, correct = lowered.upper(), _norm(lowered), gold.upper()
    for letter in parsed.text:
        if re.search(rf"\b[\(\[]?{letter}[\)\]\.\:]?\b", upper):
            return letter == correct
    if re.search(r"\byes\b", normed) and parsed.yes:
        return parsed.yes == correct
    if re.search(r"\bno\b", normed) and parsed.no:
        return parsed.no == correct
    for letter, body in parsed.text.items():
        if body and body in normed:
            return letter == correct
    return False


def explicit_answer(prediction: str, choices: Sequence[str] | None = None) -> str | None:
    """The stricter parser: the answer letter in an explicit format, or ``None``.

    Formats, tried in this order (the first match wins; within a format the earliest occurrence):

    1. the whole response is one letter, optionally bracketed, optionally ending in ``.`` or ``:``
       (``"B"``, ``"(b)"``, ``"B."``);
    2. an answer marker: ``"Answer: B"``, ``"the answer is (B)"``, ``"Answer - option B"``; a bare
       letter after the marker must be upper case or end the sentence (``"the answer is b."``), so
       "the answer is a smile" is no answer;
    3. a bracketed letter anywhere: ``"(B)"`` or ``"[B]"``;
    4. an upper-case letter opening the response followed by ``.``, ``)`` or ``:`` (``"B. Happy"``);
    5. with ``choices`` whose texts read Yes/No: a response whose first word is "yes" or "no".

    Only letters of ``choices`` count when they are given (any letter otherwise). Lower-case
    standalone letters in running text never count, so the English article "a" is not answer A.

    >>> explicit_answer("Answer: B"), explicit_answer("(c) because..."), explicit_answer("a person smiles")
    ('B', 'C', None)
    >>> explicit_answer("Yes, they agree.", ["(A) Yes", "(B) No"])
    'A'
    """
    text = prediction.strip()
    parsed = choice_letters(choices) if choices is not None else None
    allowed = set(parsed.text) if parsed is not None else None
    candidates: list[str] = []
    if (bare := _BARE.fullmatch(text)) is not None:
        candidates.append(bare.group(1))
    candidates += [next(g for g in m.groups() if g) for m in _MARKER.finditer(text)]
    candidates += [m.group(1) for m in _BRACKETED.finditer(text)]
    if (lead := _LEADING.match(text)) is not None:
        candidates.append(lead.group(1))
    for letter in (c.upper() for c in candidates):
        if allowed is None or letter in allowed:
            return letter
    return _yes_no_letter(text, parsed)


def _yes_no_letter(text: str, parsed: ChoiceLetters | None) -> str | None:
    words = _norm(text).split()
    if parsed is None or not words:
        return None
    return {"yes": parsed.yes, "no": parsed.no}.get(words[0])
