"""How a pairwise video preference benchmark shows its results: the report's bars and tables, the board's figure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._base import BoardRow
from mmjudge.benchmarks._figures import (
    bars_caption,
    board_figure,
    errors,
    legend_below,
    number,
    readable,
    report_figure,
    row_label,
    row_value,
    save,
    split_rows,
    whisker,
)
from mmjudge.benchmarks._pairwise.scoring import Aspect
from mmjudge.benchmarks._report_tables import BreakdownTable, TableRow, cells

__all__ = ["accuracy_plot", "accuracy_table", "board_bars"]


def accuracy_plot(
    folder: Path, scores: Mapping[str, Any], *, prefixes: Sequence[tuple[str, str]], aspects: Sequence[Aspect], name: str
) -> tuple[Path, str]:
    """Grouped bars: per aspect, one bar per ``(prefix, label)`` (``<prefix>/<slug>``), with stored CIs."""
    present = [a for a in aspects if any(f"{p}/{a.slug}" in scores for p, _ in prefixes)]
    fig, ax = report_figure()
    width = 0.8 / len(prefixes)
    drawn: list[str] = []
    for j, (prefix, text) in enumerate(prefixes):
        keys = [f"{prefix}/{a.slug}" for a in present]
        xs = [k + (j - (len(prefixes) - 1) / 2) * width for k in range(len(present))]
        ax.bar(xs, [number(scores.get(k)) for k in keys], width, yerr=errors(scores, keys), capsize=3, label=text)
        drawn += keys
    ax.set_xticks(range(len(present)), [a.name for a in present], rotation=20, ha="right", fontsize=8)
    ax.axhline(50.0, color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(0, 105)
    ax.set_ylabel("accuracy (%)")
    ax.legend(fontsize=7, loc="lower right")
    caption = "Accuracy per aspect; dashed: 50%." + bars_caption(scores, drawn)
    return save(fig, folder / f"{name}_accuracy.png"), caption


def accuracy_table(
    title: str, columns: Sequence[tuple[str, str]], aspects: Sequence[Aspect], note: str, count: str = "n"
) -> BreakdownTable:
    """One row per aspect, one column per ``(header, prefix)`` (``<prefix>/<slug>``), then ``<count>/<slug>``."""
    return BreakdownTable(
        title,
        ("aspect", *(h for h, _ in columns), count),
        tuple(
            TableRow(a.name, (*cells(*(f"{p}/{a.slug}" for _, p in columns)), *cells(f"{count}/{a.slug}", ci=False)))
            for a in aspects
        ),
        note,
    )


def board_bars(rows: Sequence[BoardRow], key: str, xlabel: str) -> Any:
    """Horizontal bars of ``key`` per row in the table's order: published grey, scored here blue with its CI."""
    published, verified = split_rows(rows)
    drawn = {id(r) for r in (*published, *verified)}
    entries = [(r, v) for r in rows if id(r) in drawn and (v := row_value(r, key)) is not None]
    fig = board_figure(max(2.4, 0.28 * len(entries) + 1.0))
    ax = fig.add_subplot()
    top = len(entries) - 1
    colours = {"reported": "grey", "verified": "tab:blue"}
    for i, (sub, value) in enumerate(entries):
        low, high = whisker(sub, key)
        ax.barh(top - i, value, color=colours.get(sub.kind, "tab:blue"), xerr=[[low], [high]], capsize=2)
    ax.set_yticks([top - i for i in range(len(entries))], [row_label(r) for r, _ in entries])
    ax.axvline(50.0, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel(xlabel)
    from matplotlib.patches import Patch

    readable(ax)
    legend_below(fig, [Patch(color=c) for c in colours.values()], ["published", "scored here (95% CI)"])
    if not entries:
        ax.text(0.5, 0.5, "no rows yet", ha="center", va="center", transform=ax.transAxes)
    return fig
