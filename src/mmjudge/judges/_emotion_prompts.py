"""Prompts and answer parsing for the two emotion benchmarks (EmoReAlM, EmoPrefer), shared by the backends.

- EmoReAlM (:func:`emorealm_prompt`): the official zero-shot audio-visual prompt is the question
  followed by the lettered choices, joined by single spaces (``"<question> (A) ... (B) ..."``). No
  subtitles or transcript are added (REFERENCE.md: "No subtitles in the prompt").
- EmoPrefer S1 (:func:`emoprefer_prompt`): the clip plus two descriptions, answer ``a1``, ``a2`` or
  ``same``: :func:`mmjudge.judges._emoprefer_prompts.choose`, the S1 prompt every backend shares
  (mmjudge's wording: the paper's exact S1 text is not available to this project; results with it are
  not the paper's numbers).

The responses are scored later by the benchmarks' official matchers; :func:`parsed_answer` gives the
answer those matchers read (EmoPrefer's official parser; EmoReAlM's explicit-letter parser), for the
verdict's diagnostics.
"""

from __future__ import annotations

from mmjudge.errors import SchemaError
from mmjudge.judges._emoprefer_prompts import choose
from mmjudge.judges._types import Item, PreferenceItem, QuestionItem

__all__ = ["emoprefer_prompt", "emorealm_prompt", "emotion_prompt", "parsed_answer"]


def emorealm_prompt(item: QuestionItem) -> str:
    """The official EmoReAlM prompt: the question, then the choices, joined by spaces.

    (:func:`mmjudge.judges._emoprefer_prompts.emorealm_question` appends an answer request to it; the
    official zero-shot prompt has none, and the official matcher reads free text.)

    >>> q = QuestionItem("q1", None, None, "Is the person happy?", ("(A) Yes", "(B) No"), "modality_agreement")
    >>> emorealm_prompt(q)
    'Is the person happy? (A) Yes (B) No'
    """
    return " ".join([item.question, *item.choices])


def emoprefer_prompt(item: PreferenceItem) -> str:
    """The EmoPrefer S1 prompt for ``item`` (its a1/a2 as shown, i.e. already swapped for reversed items).

    >>> p = PreferenceItem("n1", "n1", None, None, "She is happy.", "She is sad.", "forward")
    >>> "a1: She is happy." in emoprefer_prompt(p) and "a2: She is sad." in emoprefer_prompt(p)
    True
    """
    return choose(item.a1, item.a2)


def emotion_prompt(item: Item) -> str:
    """:func:`emorealm_prompt` or :func:`emoprefer_prompt`, by item type; other items raise SchemaError."""
    if isinstance(item, QuestionItem):
        return emorealm_prompt(item)
    if isinstance(item, PreferenceItem):
        return emoprefer_prompt(item)
    raise SchemaError(
        f"expected an EmoReAlM QuestionItem or an EmoPrefer PreferenceItem, got a {type(item).__name__}"
    )


def parsed_answer(item: Item, text: str) -> str | None:
    """The answer a response gives: a1/a2/same (EmoPrefer's official parser) or a letter (or ``None``).

    >>> p = PreferenceItem("n1", "n1", None, None, "x", "y", "forward")
    >>> parsed_answer(p, "I prefer a2.")
    'a2'
    >>> q = QuestionItem("q1", None, None, "Happy?", ("(A) Yes", "(B) No"), "modality_agreement")
    >>> parsed_answer(q, "(B) No"), parsed_answer(q, "hmm")
    ('B', None)
    """
    if isinstance(item, PreferenceItem):
        from mmjudge.benchmarks.emoprefer import parse_response

        return parse_response(text)
    if isinstance(item, QuestionItem):
        from mmjudge.benchmarks.emorealm import explicit_answer

        return explicit_answer(text, item.choices)
    return None
