"""GenAI-Bench (video) report: the official and strict accuracies (plot and table) and the votes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._figures import bars, bars_caption, report_figure, save
from mmjudge.benchmarks._report_tables import BreakdownTable, TableRow, cells

__all__ = ["plot", "tables"]

_KEYS = (
    ("w/o ties (official)", "accuracy_without_ties"),
    ("with ties (official)", "accuracy_with_ties"),
    ("with ties (VideoScore v1)", "videoscore_accuracy_with_ties"),
    ("w/o ties, missing wrong", "strict_accuracy_without_ties"),
    ("with ties, missing wrong", "strict_accuracy_with_ties"),
)
_COUNTS = (
    ("pairs", "n"),
    ("tie votes", "n_tie_votes"),
    ("both-bad votes", "n_bothbad_votes"),
    ("pairs without a judgment", "n_no_judgment"),
)


def plot(folder: Path, scores: Mapping[str, Any], records: Sequence[Any], rows: Sequence[Any]) -> tuple[Path, str]:
    """Draw ``genai_bench_video_accuracy.png`` into ``folder``; returns its path and caption."""
    fig, ax = report_figure()
    present = [(h, k) for h, k in _KEYS if k in scores]
    bars(ax, [k for _, k in present], {f"r/{k}": v for k, v in scores.items()}, "r")
    ax.set_xticks(range(len(present)), [h for h, _ in present], rotation=20, ha="right", fontsize=8)
    ax.axhline(50.0, color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(0, 105)
    ax.set_ylabel("accuracy (%)")
    caption = "Pairwise accuracy by rule; dashed: 50%." + bars_caption(scores, [k for _, k in present])
    return save(fig, folder / "genai_bench_video_accuracy.png"), caption


def tables(scores: Mapping[str, Any]) -> tuple[BreakdownTable, ...]:
    """The accuracies by rule and the votes (result keys only).

    >>> [t.title for t in tables({})]
    ['Pairwise accuracy (VideoScore, VideoScore2)', 'Votes and missing judgments']
    """
    return (
        BreakdownTable(
            "Pairwise accuracy (VideoScore, VideoScore2)",
            ("rule", "accuracy"),
            tuple(TableRow(h, cells(k)) for h, k in _KEYS),
            "Official: pairs whose clip has no score skipped, as the scripts do; 'missing wrong': mmjudge's count. "
            "With ties: the judge's tie is |difference| <= tie_threshold (VideoScore2), < 0.5 (VideoScore v1).",
        ),
        BreakdownTable(
            "Votes and missing judgments",
            ("count", "value"),
            tuple(TableRow(h, cells(k, ci=False, digits=0)) for h, k in _COUNTS),
            "A pair without a judgment (a clip missing or unscored) is skipped by the official keys.",
        ),
    )
