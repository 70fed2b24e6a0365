"""``constant``: always the same configured answer (MIST, EmoPrefer, EmoReAlM); no weights, no media.

Options: ``label`` for MIST (default ``"FF"``), ``choice`` for EmoPrefer (default ``"a1"``), ``letter``
for EmoReAlM (default ``"A"``, given whatever the question's choices are; a letter the question does
not offer is scored wrong by the official matcher).

There is deliberately no ``majority`` judge. The most frequent gold label of the evaluated split is a
statistic of the answers, which a judge does not have at judge time; a judge emitting it would be a
constant judge whose constant was chosen by looking at the test labels. A prior taken from elsewhere
(another split, a paper's training distribution) is a ``constant`` config with that answer, and the
card of that config says where the answer came from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from mmjudge.errors import ConfigError, SchemaError
from mmjudge.items import DescriptionPairItem, Item, QuestionItem, SentenceItem, Verdict
from mmjudge.judges._base import Judge
from mmjudge.judges._config import check_option
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest

__all__ = ["ConstantJudge", "ConstantOptions"]

_MIST_LABELS = ("FF", "WF", "FL", "LL")
_PREFERENCE_LABELS = ("a1", "a2", "same")


@dataclass(frozen=True)
class ConstantOptions:
    """``options`` of a ``constant`` config: the answer given on each benchmark."""

    label: str = "FF"
    """MIST label, one of ``FF``, ``WF``, ``FL``, ``LL``."""
    choice: str = "a1"
    """EmoPrefer answer, one of ``a1``, ``a2``, ``same``."""
    letter: str = "A"
    """EmoReAlM answer letter, one upper-case letter ``A``-``Z``."""

    def __post_init__(self) -> None:
        check_option("constant", "label", self.label, _MIST_LABELS)
        check_option("constant", "choice", self.choice, _PREFERENCE_LABELS)
        if not re.fullmatch(r"[A-Z]", self.letter):
            raise ConfigError(
                f"constant option `letter` must be one upper-case letter A-Z, got {self.letter!r}"
            )


@register_judge("constant")
class ConstantJudge(Judge):
    """The configured label / choice / letter for every item."""

    accepts: ClassVar[frozenset[type]] = frozenset({SentenceItem, DescriptionPairItem, QuestionItem})
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = ConstantOptions
    default_frames: ClassVar[int | None] = None

    def media_request(self, item: Item) -> MediaRequest:
        """Nothing to decode (not even a sentence's image)."""
        return MediaRequest()

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """The configured answer for each item.

        >>> from mmjudge.judges import JudgeConfig
        >>> ConstantJudge(JudgeConfig(judge="constant", options={"letter": "B"})).options.letter
        'B'
        """
        return [Verdict(x.item.item_id, self.answer(x.item)) for x in inputs]

    def answer(self, item: Item) -> str:
        """The configured answer for ``item``'s benchmark."""
        if isinstance(item, SentenceItem):
            return str(self.options.label)
        if isinstance(item, DescriptionPairItem):
            return str(self.options.choice)
        if isinstance(item, QuestionItem):
            return str(self.options.letter)
        raise SchemaError(
            f"constant judges sentence, description-pair and question items, got a {type(item).__name__}; "
            "use `random`, `frame_smoothness` or `sharpness` for clips (IsoVRBench)"
        )
