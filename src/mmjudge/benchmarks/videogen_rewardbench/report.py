"""VideoGen-RewardBench report: the three accuracies per aspect (plot and table) and the tie thresholds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._pairwise.present import accuracy_plot, accuracy_table
from mmjudge.benchmarks._report_tables import BreakdownTable, TableRow, cells
from mmjudge.benchmarks.videogen_rewardbench.scoring import ASPECTS

__all__ = ["plot", "tables"]

_COLUMNS = (
    ("w/o ties", "accuracy_without_ties"),
    ("with ties (official)", "accuracy_with_ties"),
    ("with ties (cross-fitted)", "accuracy_with_ties_crossfit"),
)


def plot(folder: Path, scores: Mapping[str, Any], records: Sequence[Any], rows: Sequence[Any]) -> tuple[Path, str]:
    """Draw ``videogen_rewardbench_accuracy.png`` into ``folder``; returns its path and caption."""
    return accuracy_plot(folder, scores, prefixes=[(p, h) for h, p in _COLUMNS], aspects=ASPECTS,
                         name="videogen_rewardbench")  # fmt: skip


def tables(scores: Mapping[str, Any]) -> tuple[BreakdownTable, ...]:
    """Accuracies per aspect and the tie thresholds (result keys only).

    >>> [t.title for t in tables({})]
    ['Accuracy per aspect (VideoAlign)', 'Tie threshold and ties']
    """
    return (
        accuracy_table(
            "Accuracy per aspect (VideoAlign)",
            _COLUMNS,
            ASPECTS,
            "w/o ties: over pairs humans did not tie, a zero difference wrong. With ties (official): epsilon tuned on "
            "these pairs by VideoAlign's sweep. Cross-fitted: epsilon fitted on the other folds of prompts.",
        ),
        BreakdownTable(
            "Tie threshold and ties",
            ("aspect", "official epsilon", "human ties", "no judgment"),
            tuple(
                TableRow(
                    a.name,
                    (
                        *cells(f"epsilon/{a.slug}", digits=4, ci=False),
                        *cells(f"n_human_ties/{a.slug}", f"n_no_judgment/{a.slug}", ci=False),
                    ),
                )
                for a in ASPECTS
            ),
            "The epsilon VideoAlign's sweep picks on the test pairs; pairs labelled same; pairs without a judgment.",
        ),
    )
