"""IsoVRBench on the leaderboard: two views (ties counted wrong, or decided pairs) and Figure 6's layout.

The figure follows the paper's Figure 6: per intervention, the span of the published judges' accuracies
(a bar from the lowest to the highest), each judge's accuracies as its own marker (a published judge's
dots, the marks of a judge scored here with the intervals its scorer recorded), named in the legend under the plot
with its table rank and listed in the table's order, and the paper's human accuracy as a star.
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
    row_style,
    row_value,
    split_rows,
    whisker,
)
from mmjudge.benchmarks.isovrbench.scoring import DIMENSIONS, HUMAN_ACCURACY, INTERVENTIONS

__all__ = ["VIEWS", "figure"]


def _view(name: str, prefix: str, average: Column) -> View:
    cols = [
        Column(f"{dim}: {iv}", f"{prefix}/{iv}", group=dim) for dim, ivs in DIMENSIONS.items() for iv in ivs
    ]
    return View(name, (*cols, average, Column("Tie rate", "tie_rate", group="ties")), rank_by=average.key)


VIEWS: tuple[View, ...] = (
    _view("ties_wrong", "accuracy", Column("Average", "average")),
    _view("decided", "decided_accuracy", Column("Decided avg. (Table 5)", "decided_average")),
)
"""Ties and no-judgment counted wrong (the paper's rule), or accuracy over decided pairs."""
VIEW_LABEL = "view (ties counted wrong, or accuracy over decided pairs)"
"""Label of the view switch."""


def figure(rows: Sequence[BoardRow]) -> Any:
    """The tab's figure (see the module docstring)."""
    published, verified = split_rows(rows)
    fig = board_figure(4.4)
    ax = fig.add_subplot()
    spans, stars = [], []
    for x, iv in enumerate(INTERVENTIONS):
        values = [v for v in (row_value(r, f"accuracy/{iv}") for r in published) if v is not None]
        if values:
            spans.append(ax.vlines(x, min(values), max(values), color="tab:blue", alpha=0.25, linewidth=10,
                                   gid="span", label=f"span of {len(published)} published judges"))  # fmt: skip
        stars.append(ax.scatter([x], [HUMAN_ACCURACY[iv]], marker="*", s=140, color="tab:red", zorder=4,
                                label="human (45 pairs)"))  # fmt: skip
    handles: list[Any] = [
        stars[0],
        *spans[:1],
        ax.axhline(50.0, color="grey", linestyle=":", linewidth=1, label="chance"),
    ]
    drawn = {id(r) for r in (*published, *verified)}
    nth_verified = 0
    for k, row in enumerate(r for r in rows if id(r) in drawn):  # the table's order
        nth_verified += row.kind != "reported"
        handles.append(_marks(ax, row, k, offset=0.1 * nth_verified if row.kind != "reported" else 0.0))
    ax.set_xticks(
        range(len(INTERVENTIONS)), [iv.replace("_", " ") for iv in INTERVENTIONS], rotation=45, ha="right"
    )
    ax.set_ylim(0, 102)
    ax.set_ylabel("accuracy (%), ties wrong")
    ax.set_title("Per intervention: published judges (Table 2) and their span, judges scored here with 95% CIs",
                 wrap=True)  # fmt: skip
    readable(ax)
    legend_below(fig, handles, [h.get_label() for h in handles])
    return fig


def _marks(ax: Any, row: BoardRow, k: int, offset: float) -> Any:
    """One row's accuracy per intervention: a published judge's dots, a verified judge's CIs (offset right)."""
    shown = [(x, row_value(row, f"accuracy/{iv}"), whisker(row, f"accuracy/{iv}"))
             for x, iv in enumerate(INTERVENTIONS) if row_value(row, f"accuracy/{iv}") is not None]  # fmt: skip
    style = row_style(k)
    xs, ys, err = (list(t) for t in zip(*shown, strict=True)) if shown else ([], [], [])
    if row.kind == "reported":
        return ax.scatter(xs, ys, s=22, color=style["color"], marker=style["marker"], edgecolors="black",
                          linewidths=0.3, zorder=3, label=row_label(row))  # fmt: skip
    return ax.errorbar([x + offset for x in xs], ys, yerr=list(zip(*err, strict=True)) if err else None,
                       fmt=style["marker"], color=style["color"], markersize=5, capsize=2, zorder=5,
                       markeredgecolor="black", label=row_label(row))  # fmt: skip
