"""EmoPrefer on the leaderboard: 2- and 3-class WAF and accuracy, swap consistency, the strategy.

The figure shows the 2-class WAF per row in the table's order (each bar labelled with its rank and judge):
published rows grey with the ± std over rounds the paper prints, rows scored here blue with the
interval their scorer recorded; the colour key under the plot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._base import BoardRow, Column, View
from mmjudge.benchmarks._figures import (
    board_figure,
    legend_below,
    readable,
    row_label,
    row_value,
    split_rows,
    whisker,
)

__all__ = ["HEADLINE", "VIEWS", "figure"]

HEADLINE: tuple[str, ...] = ("waf_2class", "acc_3class", "swap_consistency")
"""The keys a summary shows; the first (the paper's reported measure) ranks the leaderboard."""

VIEWS: tuple[View, ...] = (
    View(
        "default",
        (
            Column("2-class WAF", "waf_2class", group="2-class"),
            Column("2-class ACC", "acc_2class", group="2-class"),
            Column("3-class WAF", "waf_3class", group="3-class"),
            Column("3-class ACC", "acc_3class", group="3-class"),
            Column("swap consistency", "swap_consistency", group="consistency"),
            Column("strategy", "strategy", text=True, group="consistency"),
        ),
    ),
)


def figure(rows: Sequence[BoardRow]) -> Any:
    """The tab's figure (see the module docstring)."""
    published, verified = split_rows(rows)
    key = HEADLINE[0]
    drawn = {id(r) for r in (*published, *verified)}
    entries = [(r, v) for r in rows if id(r) in drawn and (v := row_value(r, key)) is not None]  # table order
    fig = board_figure(max(2.4, 0.28 * len(entries) + 1.0))
    ax = fig.add_subplot()
    top = len(entries) - 1  # the table's first row at the top
    for i, (sub, value) in enumerate(entries):
        low, high = whisker(sub, key)
        ax.barh(top - i, value, color=_COLOURS[sub.kind], xerr=[[low], [high]], capsize=2)
    ax.set_yticks([top - i for i in range(len(entries))], [row_label(r) for r, _ in entries])
    ax.axvline(50.0, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("2-class WAF (%), rows in the table's order")
    from matplotlib.patches import Patch

    readable(ax)
    legend_below(fig, [Patch(color=c) for c in _COLOURS.values()],
                 ["published (± std over rounds)", "scored here (95% CI)"])  # fmt: skip
    if not entries:
        ax.text(0.5, 0.5, "no rows yet", ha="center", va="center", transform=ax.transAxes)
    return fig


_COLOURS = {"reported": "grey", "verified": "tab:blue"}
