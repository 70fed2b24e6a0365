"""``random``: the seeded chance floor of every benchmark (registered as ``random``; no weights, no media).

Each query gets its own generator, ``numpy.random.default_rng([config.seed, item_key(item_id)])``
with :func:`item_key` the first 8 bytes of the SHA-256 of the UTF-8 item id, so a verdict depends only
on the seed and the item id: not on the batch, the rank, the order or the other queries. Then:

- a clip to rate (IsoVRBench): ``rng.random()``, uniform in ``[0, 1)`` (ties have probability ~0);
- a choice (MIST's labels, EmoReAlM's choice letters, EmoPrefer's ``a1, a2, same``): uniform over the
  query's labels, without its tie label (EmoPrefer's ``same``) when ``options.include_same`` is false.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from mmjudge._configs import config_dataclass
from mmjudge.errors import SchemaError
from mmjudge.judges._base import Judge
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.queries import ChoiceQuery, Query, ScoreQuery, Verdict, VerdictValue, choice_letters, item_key

__all__ = ["RandomJudge", "RandomOptions", "choice_letters", "item_key"]


@config_dataclass
class RandomOptions:
    """``options`` of a ``random`` config."""

    include_same: bool = True
    """Draw a choice's tie label too (EmoPrefer's ``same``: three answers), or only the others."""


@register_judge("random")
class RandomJudge(Judge):
    """Seeded uniform answers for every benchmark (the chance floor)."""

    answers: ClassVar[frozenset[type]] = frozenset({ScoreQuery, ChoiceQuery})
    blind: ClassVar[bool] = True
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = RandomOptions
    default_frames: ClassVar[int | None] = None

    def media_request(self, query: Query) -> MediaRequest:
        """Nothing to decode.

        >>> from mmjudge.judges import JudgeConfig
        >>> RandomJudge(JudgeConfig(judge="random")).media_request(None)  # doctest: +ELLIPSIS
        MediaRequest(num_frames=None, target_fps=None, ...)
        """
        return MediaRequest()

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """One uniform draw per query from its own seeded generator (``Verdict.failed`` for a choice without labels).

        >>> from pathlib import Path
        >>> from mmjudge.judges import JudgeConfig, ScoreQuery
        >>> judge = RandomJudge(JudgeConfig(judge="random", seed=1))
        >>> [v] = judge.judge_batch([JudgeInput(ScoreQuery("c1", Path("c1.mp4"), "a cat"))])
        >>> 0.0 <= v.value < 1.0, v.value == judge.judge_batch([JudgeInput(ScoreQuery("c1", Path("x"), ""))])[0].value
        (True, True)
        """
        verdicts = []
        for x in inputs:
            rng = np.random.default_rng([self.config.seed, item_key(x.query.item_id)])
            try:
                verdicts.append(Verdict(x.query.item_id, self.draw(x.query, rng)))
            except SchemaError as exc:
                verdicts.append(Verdict.failed(x.query.item_id, f"SchemaError: {exc}"))
        return verdicts

    @functools.singledispatchmethod
    def draw(self, query: Query, rng: np.random.Generator) -> VerdictValue:
        """The verdict value for ``query`` (a function of ``config.seed`` and ``query.item_id`` only)."""
        raise SchemaError(f"random answers {sorted(k.__name__ for k in self.answers)}, got a {type(query).__name__}")

    @draw.register
    def _score(self, query: ScoreQuery, rng: np.random.Generator) -> VerdictValue:
        return float(rng.random())

    @draw.register
    def _choose(self, query: ChoiceQuery, rng: np.random.Generator) -> VerdictValue:
        labels = [label for label in query.labels if self.options.include_same or label != query.tie]
        if not labels:
            raise SchemaError("the query offers no labels to draw from")
        return str(rng.choice(labels))
