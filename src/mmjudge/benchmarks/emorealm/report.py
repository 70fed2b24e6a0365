"""EmoReAlM report: accuracy per task (plot and table), the yes/no tasks' per-class accuracies, overall."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._figures import bars, bars_caption, report_figure, save
from mmjudge.benchmarks._report_tables import BreakdownTable, TableRow, cells
from mmjudge.benchmarks.emorealm.scoring import TASKS, YES_NO_TASKS

__all__ = ["plot", "tables"]


def plot(
    folder: Path, scores: Mapping[str, Any], records: Sequence[Any], rows: Sequence[Any]
) -> tuple[Path, str]:
    """Draw ``emorealm_accuracy.png`` into ``folder``; returns its path and caption."""
    names = [t for t in TASKS if f"accuracy/{t}" in scores]
    fig, ax = report_figure()
    bars(ax, names, scores, "accuracy")
    ax.set_ylim(0, 105)
    ax.set_ylabel("accuracy (%)")
    caption = f"Accuracy per task (mode `{scores.get('mode')}`, matcher `{scores.get('matcher')}`)."
    caption += bars_caption(scores, [f"accuracy/{t}" for t in names])
    return save(fig, folder / "emorealm_accuracy.png"), caption


def tables(scores: Mapping[str, Any]) -> tuple[BreakdownTable, ...]:
    """Per-task accuracy with the overall mean, and the yes/no tasks' per-class table (result keys only).

    >>> per_task, yes_no = tables({"n/modality_agreement": 2})
    >>> [row.label for row in per_task.rows], [row.label for row in yes_no.rows]
    (['modality_agreement', 'overall'], ['modality_agreement'])
    """
    names = [t for t in TASKS if f"n/{t}" in scores or f"accuracy/{t}" in scores]
    rows = [TableRow(t, cells(f"accuracy/{t}", f"n/{t}", f"n_missing/{t}")) for t in names]
    rows.append(TableRow("overall", cells("overall", "n_items", "n_missing")))
    yes_no = [
        TableRow(t, cells(*(f"{k}/{t}" for k in ("yes_accuracy", "n_yes", "no_accuracy", "n_no", "yes_no_f1", "yes_rate"))))
        for t in names
        if t in YES_NO_TASKS
    ]  # fmt: skip
    return (
        BreakdownTable(
            "Accuracy per task",
            ("task", "accuracy", "n", "no output"),
            tuple(rows),
            "Percent correct; overall: the unweighted mean of the task accuracies. Scoring mode "
            f"`{scores.get('mode', '-')}`, answer matcher `{scores.get('matcher', '-')}`.",
        ),
        BreakdownTable(
            "Yes/no tasks: accuracy per gold class",
            ("task", "Yes accuracy", "n Yes", "No accuracy", "n No", "yes/no F1", "Yes rate"),
            tuple(yes_no),
            "Yes accuracy is the paper's precision, No accuracy its recall; F1 their harmonic mean; Yes rate: "
            "percent of answers read as Yes (neither direction is better).",
        ),
    )
