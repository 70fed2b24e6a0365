"""``random``: the seeded chance floor of every benchmark (registered as ``random``; no weights, no media).

Each item gets its own generator, ``numpy.random.default_rng([config.seed, item_key(item_id)])``
with :func:`item_key` the first 8 bytes of the SHA-256 of the UTF-8 item id, so a verdict depends only
on the seed and the item id: not on the batch, the rank, the order or the other items. Then:

- IsoVRBench clip: ``rng.random()``, uniform in ``[0, 1)`` (ties have probability ~0);
- MIST cell: uniform over ``FF, WF, FL, LL``;
- EmoPrefer pair: uniform over ``a1, a2, same`` (``a1, a2`` with ``options.include_same: false``);
- EmoReAlM question: uniform over the question's choice letters (the ``X`` of a leading ``(X)``,
  ``X.`` or ``X:``; the position letter ``A, B, ...`` for a choice without one).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from mmjudge.errors import SchemaError
from mmjudge.judges._base import Judge
from mmjudge.judges._types import (
    ClipItem,
    Item,
    JudgeInput,
    LabelItem,
    MediaRequest,
    PreferenceItem,
    QuestionItem,
    Verdict,
    VerdictValue,
)
from mmjudge.registry import register_judge

__all__ = ["MIST_LABELS", "PREFERENCE_LABELS", "RandomJudge", "RandomOptions", "choice_letters", "item_key"]

MIST_LABELS: tuple[str, ...] = ("FF", "WF", "FL", "LL")
"""MIST labels (as :data:`mmjudge.benchmarks.mist.LABELS`)."""
PREFERENCE_LABELS: tuple[str, ...] = ("a1", "a2", "same")
"""EmoPrefer answers (as :data:`mmjudge.benchmarks.emoprefer.LABELS`)."""

_LETTER = re.compile(r"^\s*(?:\(([A-Za-z])\)|([A-Za-z])[.:])")


@dataclass(frozen=True)
class RandomOptions:
    """``options`` of a ``random`` config."""

    include_same: bool = True
    """EmoPrefer: draw ``same`` too (three answers), or only ``a1``/``a2``."""


def item_key(item_id: str) -> int:
    """A stable 64-bit integer of an item id (first 8 bytes of its SHA-256, big-endian).

    >>> item_key("clip-1") == item_key("clip-1"), item_key("clip-1") == item_key("clip-2")
    (True, False)
    """
    return int.from_bytes(hashlib.sha256(item_id.encode("utf-8")).digest()[:8], "big")


def choice_letters(choices: Sequence[str]) -> list[str]:
    """The answer letter of each choice: ``(X)``, ``X.`` or ``X:`` at the start, else its position letter.

    >>> choice_letters(["(A) Yes", "(B) No"]), choice_letters(["b. sad", "happy"])
    (['A', 'B'], ['B', 'B'])
    """
    letters = []
    for position, choice in enumerate(choices):
        match = _LETTER.match(choice)
        letters.append((match.group(1) or match.group(2)).upper() if match else chr(ord("A") + position))
    return letters


@register_judge("random")
class RandomJudge(Judge):
    """Seeded uniform answers for every benchmark (the chance floor)."""

    benchmarks: ClassVar[frozenset[str]] = frozenset({"isovrbench", "mist", "emoprefer", "emorealm"})
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = RandomOptions
    default_frames: ClassVar[int | None] = None

    def media_request(self, item: Item) -> MediaRequest:
        """Nothing to decode.

        >>> from mmjudge.judges import JudgeConfig
        >>> RandomJudge(JudgeConfig(judge="random")).media_request(None)  # doctest: +ELLIPSIS
        MediaRequest(num_frames=None, target_fps=None, ...)
        """
        return MediaRequest()

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """One uniform draw per item from its own seeded generator (``Verdict.failed`` for a question without choices).

        >>> from pathlib import Path
        >>> from mmjudge.judges import ClipItem, JudgeConfig
        >>> judge = RandomJudge(JudgeConfig(judge="random", seed=1))
        >>> [v] = judge.judge_batch([JudgeInput(ClipItem("c1", Path("c1.mp4"), "a cat"))])
        >>> 0.0 <= v.value < 1.0, v.value == judge.judge_batch([JudgeInput(ClipItem("c1", Path("x"), ""))])[0].value
        (True, True)
        """
        return [self._verdict(x.item) for x in inputs]

    def _verdict(self, item: Item) -> Verdict:
        if isinstance(item, QuestionItem) and not item.choices:
            return Verdict.failed(
                item.item_id, "SchemaError: the question has no choices to draw a letter from"
            )
        return Verdict(item.item_id, self.draw(item))

    def draw(self, item: Item) -> VerdictValue:
        """The verdict value for ``item`` (a function of ``config.seed`` and ``item.item_id`` only)."""
        rng = np.random.default_rng([self.config.seed, item_key(item.item_id)])
        if isinstance(item, ClipItem):
            return float(rng.random())
        if isinstance(item, LabelItem):
            return str(rng.choice(MIST_LABELS))
        if isinstance(item, PreferenceItem):
            return str(rng.choice(PREFERENCE_LABELS if self.options.include_same else PREFERENCE_LABELS[:2]))
        if isinstance(item, QuestionItem):
            if not item.choices:
                raise SchemaError(f"EmoReAlM question {item.item_id!r} has no choices to draw a letter from")
            return str(rng.choice(choice_letters(item.choices)))
        raise SchemaError(
            f"random judges ClipItem, LabelItem, PreferenceItem or QuestionItem, got {type(item).__name__}"
        )
