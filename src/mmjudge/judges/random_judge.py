"""``random``: the seeded chance floor of every benchmark (registered as ``random``; no weights, no media).

Each item gets its own generator, ``numpy.random.default_rng([config.seed, item_key(item_id)])``
with :func:`item_key` the first 8 bytes of the SHA-256 of the UTF-8 item id, so a verdict depends only
on the seed and the item id: not on the batch, the rank, the order or the other items. Then:

- clip (IsoVRBench): ``rng.random()``, uniform in ``[0, 1)`` (ties have probability ~0);
- sentence (MIST): uniform over the item's labels (``FF, WF, FL, LL``);
- description pair (EmoPrefer): uniform over ``a1, a2, same`` (``a1, a2`` with ``options.include_same: false``);
- question (EmoReAlM): uniform over the question's choice letters (the ``X`` of a leading ``(X)``,
  ``X.`` or ``X:``; the position letter ``A, B, ...`` for a choice without one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from mmjudge.errors import SchemaError
from mmjudge.items import (
    ClipItem,
    DescriptionPairItem,
    Item,
    QuestionItem,
    SentenceItem,
    Verdict,
    VerdictValue,
    choice_letters,
    item_key,
)
from mmjudge.judges._base import Judge
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest

__all__ = ["RandomJudge", "RandomOptions", "choice_letters", "item_key"]


@dataclass(frozen=True)
class RandomOptions:
    """``options`` of a ``random`` config."""

    include_same: bool = True
    """EmoPrefer: draw ``same`` too (three answers), or only ``a1``/``a2``."""


@register_judge("random")
class RandomJudge(Judge):
    """Seeded uniform answers for every benchmark (the chance floor)."""

    accepts: ClassVar[frozenset[type]] = frozenset({ClipItem, SentenceItem, DescriptionPairItem, QuestionItem})
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
        if isinstance(item, SentenceItem):
            return str(rng.choice(item.labels))
        if isinstance(item, DescriptionPairItem):
            return str(rng.choice(item.labels if self.options.include_same else item.labels[:2]))
        if isinstance(item, QuestionItem):
            if not item.choices:
                raise SchemaError(f"question {item.item_id!r} has no choices to draw a letter from")
            return str(rng.choice(choice_letters(item.choices)))
        raise SchemaError(
            f"random judges ClipItem, SentenceItem, DescriptionPairItem or QuestionItem, got {type(item).__name__}"
        )
