"""MJ-Bench-Video report: accuracy per aspect without and with ties (plot and table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._pairwise.present import accuracy_plot, accuracy_table
from mmjudge.benchmarks._report_tables import BreakdownTable
from mmjudge.benchmarks.mj_bench_video.scoring import ASPECTS

__all__ = ["plot", "tables"]

_COLUMNS = (
    ("w/o ties", "accuracy_without_ties"),
    ("with ties", "accuracy_with_ties"),
    ("w/o ties, missing wrong", "strict_accuracy_without_ties"),
    ("with ties, missing wrong", "strict_accuracy_with_ties"),
)


def plot(folder: Path, scores: Mapping[str, Any], records: Sequence[Any], rows: Sequence[Any]) -> tuple[Path, str]:
    """Draw ``mj_bench_video_accuracy.png`` into ``folder``; returns its path and caption."""
    return accuracy_plot(folder, scores, prefixes=[(p, h) for h, p in _COLUMNS[:2]], aspects=ASPECTS,
                         name="mj_bench_video")  # fmt: skip


def tables(scores: Mapping[str, Any]) -> tuple[BreakdownTable, ...]:
    """Accuracy per aspect (result keys only).

    >>> [t.title for t in tables({})]
    ['Accuracy per aspect (VideoScore2 rule)']
    """
    return (
        accuracy_table(
            "Accuracy per aspect (VideoScore2 rule)",
            _COLUMNS,
            ASPECTS,
            "w/o ties: pairs labelled Same dropped, a zero difference wrong; with ties: |difference| <= tie_threshold is "
            "the judge's Same. Pairs without a judgment skipped, or counted wrong (missing wrong); Hard to judge left out.",
        ),
    )
