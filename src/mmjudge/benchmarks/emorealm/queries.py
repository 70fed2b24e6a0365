"""EmoReAlM judge queries: one :class:`EmoRealmQuestion` (kind :class:`~mmjudge.queries.ChoiceQuery`) per question.

A question is a choice among the letters of its choices, about a clip and its audio. The benchmark scores
a free-text reply itself with the official matcher (:attr:`~mmjudge.queries.ChoiceQuery.keeps_text`): the
reply is the verdict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from mmjudge.benchmarks._base import QuerySource
from mmjudge.benchmarks.emorealm.match import explicit_answer
from mmjudge.benchmarks.emorealm.prompts import answer_question, question_prompt
from mmjudge.queries import ChoiceQuery, LabelPrompt, Query, Verdict, choice_letters

__all__ = ["EmoRealmQuestion", "build_queries", "records_from_verdicts"]


@dataclass(frozen=True)
class EmoRealmQuestion(ChoiceQuery):
    """An audio-visual question with lettered choices."""

    keeps_text: ClassVar[bool] = True

    item_id: str
    """Question id."""
    video: Path | None
    """Resolved clip path."""
    audio: Path | None
    """Resolved wav path (same relative path as the clip, ``.wav``)."""
    question: str
    """The question text."""
    choices: tuple[str, ...]
    """Lettered choices, e.g. ``("(A) Yes", "(B) No")``."""
    task: str
    """One of the five EmoReAlM tasks."""
    image = None

    @property
    def labels(self) -> tuple[str, ...]:
        """The distinct answer letters of :attr:`choices`, in order (see :func:`~mmjudge.queries.choice_letters`)."""
        return tuple(dict.fromkeys(choice_letters(self.choices)))

    def prompt(self, *, seed: int = 0) -> LabelPrompt:
        """The official prompt with an answer request
        (:func:`~mmjudge.benchmarks.emorealm.prompts.answer_question`), answered with a letter."""
        return LabelPrompt(answer_question(self.question, self.choices), self.labels)

    def free_prompt(self, *, seed: int = 0) -> str:
        """The official prompt (:func:`~mmjudge.benchmarks.emorealm.prompts.question_prompt`)."""
        return question_prompt(self.question, self.choices)

    def parse(self, text: str) -> str | None:
        """The explicit answer letter of ``text`` (:func:`~mmjudge.benchmarks.emorealm.explicit_answer`)."""
        return explicit_answer(text, self.choices)


def build_queries(rows: Sequence[Mapping[str, Any]], source: QuerySource) -> list[Query]:
    """One query per question of ``rows``; media are resolved against the media root (DFEW)."""
    return [
        EmoRealmQuestion(
            item_id=str(r["id"]),
            video=source.media(r.get("video_path")),
            audio=source.media(r.get("audio_path")),
            question=str(r["question"]),
            choices=tuple(r["choices"]),
            task=str(r["task"]),
        )
        for r in rows
    ]


def records_from_verdicts(
    queries: Sequence[Query], verdicts: Sequence[Verdict], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One record per question, in query order: the raw response as ``prediction``."""
    by_id = {v.item_id: v for v in verdicts}
    return [by_id[item.item_id].record("prediction") for item in queries]
