"""How a caption-ranking benchmark's results are shown: the report's figure and tables, the leaderboard's
views and figure. The categories are the benchmark's (its ``CATEGORIES``); a result holds the keys of those its
questions had."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._base import BoardRow, Column, View
from mmjudge.benchmarks._captions.scoring import category_key
from mmjudge.benchmarks._figures import (
    bars,
    bars_caption,
    board_figure,
    legend_below,
    readable,
    report_figure,
    row_label,
    row_value,
    save,
    split_rows,
    whisker,
)
from mmjudge.benchmarks._report_tables import BreakdownTable, TableRow, cells

__all__ = ["board_figure_of", "report_plot", "report_tables", "views"]

MBA = "multiple_binary_accuracy"


def _present(categories: Sequence[str], scores: Mapping[str, Any]) -> list[str]:
    return [c for c in categories if f"accuracy/{category_key(c)}" in scores]


def views(categories: Sequence[str], *, per_video: bool, category_title: str) -> tuple[View, ...]:
    """One view ranked by the headline (the per-video accuracy where there is one, else the accuracy), with the
    other accuracy and the per-category accuracies as a column group."""
    head = [Column("Multiple binary acc.", MBA), Column("Binary acc.", "accuracy", group="binary accuracy")] if per_video else [
        Column("Accuracy", "accuracy")]  # fmt: skip
    by_category = [Column(c, f"{MBA if per_video else 'accuracy'}/{category_key(c)}", group=category_title)
                   for c in categories]  # fmt: skip
    return (View("default", (*head, *by_category)),)


def board_figure_of(rows: Sequence[BoardRow], categories: Sequence[str], *, per_video: bool) -> Any:
    """Bars of each shown row's accuracy per category (the per-video accuracy where there is one)."""
    _, shown = split_rows(rows)
    prefix = MBA if per_video else "accuracy"
    fig = board_figure()
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(shown))
    for k, row in enumerate(shown):
        keys = [f"{prefix}/{category_key(c)}" for c in categories]
        heights = [row_value(row, key) or 0.0 for key in keys]
        error = list(zip(*(whisker(row, key) for key in keys), strict=True)) or None
        ax.bar([i + k * width for i in range(len(categories))], heights, width=width, yerr=error, capsize=2,
               label=row_label(row))  # fmt: skip
    ax.set_xticks([i + width * (len(shown) - 1) / 2 for i in range(len(categories))], list(categories),
                  rotation=30, ha="right")  # fmt: skip
    ax.set_ylabel(("multiple binary accuracy" if per_video else "accuracy") + " (%), 95% CI")
    readable(ax)
    handles, labels = ax.get_legend_handles_labels()
    legend_below(fig, handles, labels)
    if not shown:
        ax.text(0.5, 0.5, "no rows yet", ha="center", va="center", transform=ax.transAxes)
    return fig


def report_plot(folder: Path, scores: Mapping[str, Any], categories: Sequence[str], name: str) -> tuple[Path, str]:
    """Draw ``<name>.png`` (accuracy per category, and the per-video accuracy where there is one) into ``folder``."""
    present = _present(categories, scores)
    fig, ax = report_figure()
    keys = [category_key(c) for c in present]
    bars(ax, keys, scores, "accuracy")
    ax.set_xticks(range(len(keys)), present, rotation=30, ha="right")
    ax.set_ylim(0, 105)
    ax.set_ylabel("accuracy (%)")
    ax.axhline(100.0 / 2, color="grey", linewidth=0.8, linestyle="--")
    caption = ("Accuracy per category: a question is right when its right caption alone has the highest score "
               "(a tie for the highest is wrong); dashed: chance with two captions.")  # fmt: skip
    caption += bars_caption(scores, [f"accuracy/{k}" for k in keys])
    return save(fig, folder / f"{name}.png"), caption


def report_tables(scores: Mapping[str, Any], categories: Sequence[str], category_title: str) -> tuple[BreakdownTable, ...]:
    """Accuracy (and the per-video accuracy where there is one) per category and overall.

    >>> [t.header for t in report_tables({"accuracy/a": 50.0, MBA: 0.0}, ["a"], "category")]
    [('category', 'accuracy', 'multiple binary accuracy')]
    """
    per_video = MBA in scores
    rows = [TableRow(c, cells(f"accuracy/{category_key(c)}", *([f"{MBA}/{category_key(c)}"] if per_video else [])))
            for c in _present(categories, scores)]  # fmt: skip
    rows.append(TableRow("all", cells("accuracy", *([MBA] if per_video else []))))
    header = (category_title, "accuracy", *(["multiple binary accuracy"] if per_video else []))
    note = ("Percent of questions whose right caption alone scores highest (ties wrong)"
            + ("; multiple binary accuracy: percent of videos whose every question is right." if per_video else ".")
            + f" Mode `{scores.get('mode', '-')}`; {scores.get('n_ties', 0)} ties, {scores.get('n_missing', 0)} "
            "questions without scores.")  # fmt: skip
    return (BreakdownTable(f"Accuracy per {category_title}", header, tuple(rows), note),)
