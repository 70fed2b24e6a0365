"""The text steps of EmoPrefer's two-step strategies, shared by every judge that runs them.

S2-S4 first describe the clip (a judge's own media step, with its own model and inputs), then compare that
description with the pair's candidates in text only (:func:`compare_descriptions`): one call with
:meth:`~mmjudge.queries.PairQuery.compare_prompt` (S2: the same model; S3: an external text LLM), and for
S4 the comparison asks for reasoning, then a second call reads the answer out of it
(:meth:`~mmjudge.queries.PairQuery.extract_prompt`). ``ask`` is the comparing model's text-only greedy
generation: prompts and a token budget in, one reply per prompt out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from mmjudge.queries import PairQuery

__all__ = ["Ask", "Compared", "compare_descriptions"]

Ask = Callable[[Sequence[str], int], list[str]]
"""Text-only greedy generation: prompts and ``max_new_tokens`` in, one reply per prompt out."""


class Compared(NamedTuple):
    """What the text steps gave, one entry per pair."""

    answers: list[str]
    """The final answer texts (the verdict values)."""
    extra: list[dict[str, Any]]
    """Per pair: ``description`` (step one's text) and, with reasoning (S4), ``reasoning``."""


def compare_descriptions(
    items: Sequence[PairQuery],
    descriptions: Sequence[str],
    ask: Ask,
    *,
    max_answer_tokens: int,
    max_reasoning_tokens: int | None = None,
) -> Compared:
    """Compare each pair's candidates with its clip's description, in text only.

    ``max_reasoning_tokens`` set: S4 (reason within that budget, then extract the answer); ``None``: one call.

    >>> from mmjudge.benchmarks.emoprefer import EmoPreferPair
    >>> pair = EmoPreferPair("n", "n", None, None, "happy", "sad", "forward")
    >>> asked = []
    >>> def ask(texts, budget):
    ...     asked.append(budget)
    ...     return ["a1" for _ in texts]
    >>> compare_descriptions([pair], ["smiling"], ask, max_answer_tokens=4)
    Compared(answers=['a1'], extra=[{'description': 'smiling'}])
    >>> compare_descriptions([pair], ["smiling"], ask, max_answer_tokens=4, max_reasoning_tokens=9).extra
    [{'description': 'smiling', 'reasoning': 'a1'}]
    >>> asked
    [4, 9, 4]
    """
    reason = max_reasoning_tokens is not None
    prompts = [i.compare_prompt(d, reason=reason) for i, d in zip(items, descriptions, strict=True)]
    replies = ask(prompts, max_reasoning_tokens if max_reasoning_tokens is not None else max_answer_tokens)
    extra: list[dict[str, Any]] = [{"description": d} for d in descriptions]
    if not reason:
        return Compared(replies, extra)
    for e, r in zip(extra, replies, strict=True):
        e["reasoning"] = r
    answers = ask([i.extract_prompt(r) for i, r in zip(items, replies, strict=True)], max_answer_tokens)
    return Compared(answers, extra)
