"""EmoPrefer on the leaderboard: 2- and 3-class WAF and accuracy, swap consistency, the strategy.

The figure shows the 2-class WAF per row: published rows grey with the ± std over rounds the paper
prints, verified rows blue with their bootstrap interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._base import BoardRow, Column, View
from mmjudge.benchmarks._figures import board_figure, row_label, row_value, split_rows, whisker

__all__ = ["HEADLINE", "VIEWS", "figure"]

HEADLINE: tuple[str, ...] = ("waf_2class", "acc_3class", "swap_consistency")
"""The keys a summary shows; the first (the paper's reported measure) ranks the leaderboard."""

VIEWS: tuple[View, ...] = (
    View(
        "default",
        (
            Column("2-class WAF", "waf_2class"),
            Column("2-class ACC", "acc_2class"),
            Column("3-class WAF", "waf_3class"),
            Column("3-class ACC", "acc_3class"),
            Column("swap consistency", "swap_consistency"),
            Column("strategy", "strategy", text=True),
        ),
    ),
)


def figure(rows: Sequence[BoardRow]) -> Any:
    """The tab's figure (see the module docstring)."""
    published, verified = split_rows(rows)
    key = HEADLINE[0]
    values = [(r, row_value(r, key)) for r in (*verified, *published)]
    entries = sorted([(r, v) for r, v in values if v is not None], key=lambda e: e[1])
    fig = board_figure(9.0, max(3.0, 0.22 * len(entries) + 1.0))
    ax = fig.add_subplot()
    for i, (sub, value) in enumerate(entries):
        low, high = whisker(sub, key)
        colour = "grey" if sub.kind == "reported" else "tab:blue"
        ax.barh(i, value, color=colour, xerr=[[low], [high]], capsize=2)
    ax.set_yticks(range(len(entries)), [row_label(r) for r, _ in entries], fontsize=6)
    ax.axvline(50.0, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("2-class WAF (%): published (grey, ± std over rounds), verified (blue, 95% CI)")
    if not entries:
        ax.text(0.5, 0.5, "no rows yet", ha="center", va="center", transform=ax.transAxes)
    return fig
