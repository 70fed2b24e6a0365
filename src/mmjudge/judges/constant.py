"""``constant``: always the same answer to a choice (MIST, EmoPrefer, EmoReAlM); no weights, no media.

The answer is ``options.answer`` for every query; without it (the default), each query's first label:
MIST's ``FF``, EmoPrefer's ``a1``, EmoReAlM's first choice letter (``A``). A configured answer that a
query does not offer is given all the same, as a free-text judge would (an official matcher scores it
wrong; MIST's labels are checked against the four when the file is read).

There is deliberately no ``majority`` judge. The most frequent gold label of the evaluated split is a
statistic of the answers, which a judge does not have at judge time; a judge emitting it would be a
constant judge whose constant was chosen by looking at the test labels. A prior taken from elsewhere
(another split, a paper's training distribution) is a ``constant`` config with that answer, and the
card of that config says where the answer came from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError
from mmjudge.judges._base import Judge
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.queries import ChoiceQuery, Query, Verdict

__all__ = ["ConstantJudge", "ConstantOptions"]


@config_dataclass
class ConstantOptions:
    """``options`` of a ``constant`` config: the answer given to every choice."""

    answer: str | None = None
    """The answer to every query (``None``: each query's first label)."""

    def __post_init__(self) -> None:
        if self.answer is not None and not self.answer.strip():
            raise ConfigError("constant option `answer` must be a non-empty label, or left out (each query's first label)")


@register_judge("constant")
class ConstantJudge(Judge):
    """The configured answer, or each query's first label, for every choice."""

    answers: ClassVar[frozenset[type]] = frozenset({ChoiceQuery})
    blind: ClassVar[bool] = True
    version: ClassVar[str] = "2"
    Options: ClassVar[type] = ConstantOptions
    default_frames: ClassVar[int | None] = None

    def media_request(self, query: Query) -> MediaRequest:
        """Nothing to decode (not even an image)."""
        return MediaRequest()

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """The configured answer (or the first label) for each query; a choice without labels fails alone.

        >>> from mmjudge.judges import JudgeConfig
        >>> ConstantJudge(JudgeConfig(judge="constant", options={"answer": "B"})).options.answer
        'B'
        """
        return [self._verdict(cast(ChoiceQuery, x.query)) for x in inputs]  # the kinds it answers

    def _verdict(self, query: ChoiceQuery) -> Verdict:
        if self.options.answer is not None:
            return Verdict(query.item_id, str(self.options.answer))
        if not query.labels:
            return Verdict.failed(query.item_id, "SchemaError: the query offers no labels to answer with")
        return Verdict(query.item_id, query.labels[0])
