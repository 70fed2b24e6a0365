"""EmoReAlM judge items: one :class:`EmoRealmQuestion` (kind *multiple-choice question with media*) per question."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmjudge.benchmarks.emorealm.match import explicit_answer
from mmjudge.benchmarks.emorealm.prompts import answer_question, question_prompt
from mmjudge.data.media_paths import resolve_media
from mmjudge.items import Item, QuestionItem, Verdict

__all__ = ["EmoRealmQuestion", "build_items", "records_from_verdicts"]


@dataclass(frozen=True)
class EmoRealmQuestion(QuestionItem):
    """An audio-visual question with lettered choices."""

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

    def prompt(self) -> str:
        """The official prompt (:func:`~mmjudge.benchmarks.emorealm.prompts.question_prompt`)."""
        return question_prompt(self.question, self.choices)

    def answer_prompt(self) -> str:
        """The official prompt with an answer request (:func:`~mmjudge.benchmarks.emorealm.prompts.answer_question`)."""
        return answer_question(self.question, self.choices)

    def parse_answer(self, text: str) -> str | None:
        """The explicit answer letter of ``text`` (:func:`~mmjudge.benchmarks.emorealm.explicit_answer`)."""
        return explicit_answer(text, self.choices)


def build_items(
    data_dir: str | Path,
    rows: Sequence[Mapping[str, Any]],
    *,
    media_root: str | Path | None = None,
    swap: bool = False,
) -> list[Item]:
    """One item per question of ``rows``; media are resolved against ``media_root`` (DFEW)."""
    root = Path(media_root) if media_root is not None else Path(data_dir)
    return [
        EmoRealmQuestion(
            item_id=str(r["id"]),
            video=resolve_media(r["video_path"], root) if r.get("video_path") else None,
            audio=resolve_media(r["audio_path"], root) if r.get("audio_path") else None,
            question=str(r["question"]),
            choices=tuple(r["choices"]),
            task=str(r["task"]),
        )
        for r in rows
    ]


def records_from_verdicts(
    items: Sequence[Item], verdicts: Sequence[Verdict], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One record per question, in item order: the raw response as ``prediction``."""
    by_id = {v.item_id: v for v in verdicts}
    out = []
    for item in items:
        verdict = by_id[item.item_id]
        record: dict[str, Any] = {"id": item.item_id, "prediction": verdict.value, "no_judgment": verdict.no_judgment}
        if verdict.error:
            record["error"] = verdict.error
        out.append(record)
    return out
