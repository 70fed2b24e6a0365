"""EmoPrefer judge queries: one :class:`EmoPreferPair` (kind :class:`~mmjudge.queries.PairQuery`) per pair and order.

A pair carries the benchmark's protocol: the S1-S4 prompts (:mod:`mmjudge.benchmarks.emoprefer.prompts`)
and the official response parser (:func:`mmjudge.benchmarks.emoprefer.parse_response`). The benchmark
scores a free-text reply itself (:attr:`~mmjudge.queries.ChoiceQuery.keeps_text`): the reply is the verdict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, cast

from mmjudge.benchmarks._base import QuerySource
from mmjudge.benchmarks.emoprefer import prompts
from mmjudge.benchmarks.emoprefer.scoring import parse_response
from mmjudge.queries import LabelPrompt, PairQuery, Query, Verdict

__all__ = ["EmoPreferPair", "build_queries", "records_from_verdicts"]


@dataclass(frozen=True)
class EmoPreferPair(PairQuery):
    """A clip with two emotion descriptions; the judge answers a1, a2 or same."""

    keeps_text: ClassVar[bool] = True

    item_id: str
    """``name`` for the forward order, ``name::reversed`` for the swapped pair."""
    name: str
    """The clip name of the release."""
    video: Path | None
    """Resolved ``video/{name}.mp4`` (``None`` when media are missing)."""
    audio: Path | None
    """Resolved ``audio/{name}.wav`` (``None`` when media are missing)."""
    a1: str
    """First description as shown to the judge."""
    a2: str
    """Second description as shown to the judge."""
    order: str
    """``forward`` or ``reversed`` (a1/a2 swapped, the label flipped)."""
    image = None

    def prompt(self, *, seed: int = 0) -> LabelPrompt:
        """S1 (the clip and both descriptions) with the answers a1, a2, same."""
        return LabelPrompt(self.free_prompt(seed=seed), self.labels)

    def free_prompt(self, *, seed: int = 0) -> str:
        """S1: the clip and both descriptions; a1, a2 or same."""
        return prompts.choose(self.a1, self.a2)

    def describe_prompt(self) -> str:
        """S2-S4 step one."""
        return prompts.DESCRIBE

    def compare_prompt(self, description: str, *, reason: bool = False) -> str:
        """S2-S4 step two (S4: with a reasoning step)."""
        return prompts.compare(description, self.a1, self.a2, reason=reason)

    def extract_prompt(self, analysis: str) -> str:
        """S4 step three."""
        return prompts.extract(analysis)

    def parse(self, text: str) -> str:
        """The official parser's reading of ``text``."""
        return parse_response(text)


def build_queries(rows: Sequence[Mapping[str, Any]], source: QuerySource) -> list[Query]:
    """Every pair of ``rows`` (forward), then, with ``swap``, every pair with a1/a2 swapped."""
    queries: list[Query] = [_pair(r, source, "forward") for r in rows]
    if source.swap:
        queries += [_pair(r, source, "reversed") for r in rows]
    return queries


def _pair(row: Mapping[str, Any], source: QuerySource, order: str) -> EmoPreferPair:
    a1, a2 = (row["a1"], row["a2"]) if order == "forward" else (row["a2"], row["a1"])
    name = str(row["name"])
    return EmoPreferPair(
        item_id=name if order == "forward" else f"{name}::reversed",
        name=name,
        video=source.media(row.get("video_path")),
        audio=source.media(row.get("audio_path")),
        a1=str(a1),
        a2=str(a2),
        order=order,
    )


def records_from_verdicts(
    queries: Sequence[Query], verdicts: Sequence[Verdict], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One record per pair and order, in query order."""
    by_id = {v.item_id: v for v in verdicts}
    pairs = cast("Sequence[EmoPreferPair]", queries)
    return [by_id[pair.item_id].record("prediction", name=pair.name, order=pair.order) for pair in pairs]
