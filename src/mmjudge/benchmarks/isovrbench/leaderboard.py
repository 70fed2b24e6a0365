"""IsoVRBench on the leaderboard: two views (ties counted wrong, or decided pairs) and Figure 6's layout.

The figure follows the paper's Figure 6: per intervention, the span of the published judges' accuracies
(a bar from the lowest to the highest, each judge a grey dot), each verified judge as a coloured marker
with its Wilson interval, the paper's human accuracy as a star.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._base import BoardRow, Column, View
from mmjudge.benchmarks._figures import board_figure, row_label, row_value, split_rows, whisker
from mmjudge.benchmarks.isovrbench.scoring import DIMENSIONS, HUMAN_ACCURACY, INTERVENTIONS

__all__ = ["VIEWS", "figure"]


def _view(name: str, prefix: str, average: Column) -> View:
    cols = [Column(f"{dim}: {iv}", f"{prefix}/{iv}") for dim, ivs in DIMENSIONS.items() for iv in ivs]
    return View(name, (*cols, average, Column("Tie rate", "tie_rate")), headline=average.key)


VIEWS: tuple[View, ...] = (
    _view("ties_wrong", "accuracy", Column("Average", "average")),
    _view("decided", "decided_accuracy", Column("Decided avg. (Table 5)", "decided_average")),
)
"""Ties and no-judgment counted wrong (the paper's rule), or accuracy over decided pairs."""
VIEW_LABEL = "view (ties counted wrong, or accuracy over decided pairs)"


def figure(rows: Sequence[BoardRow]) -> Any:
    """The tab's figure (see the module docstring)."""
    published, verified = split_rows(rows)
    fig = board_figure()
    ax = fig.add_subplot()
    for x, iv in enumerate(INTERVENTIONS):
        key = f"accuracy/{iv}"
        values = [v for v in (row_value(r, key) for r in published) if v is not None]
        if values:
            ax.vlines(x, min(values), max(values), color="tab:blue", alpha=0.3, linewidth=8, gid="span",
                      label=f"span of {len(published)} published judges" if x == 0 else None)  # fmt: skip
            ax.scatter([x] * len(values), values, s=12, color="grey", zorder=3,
                       label="published judge" if x == 0 else None)  # fmt: skip
        ax.scatter([x], [HUMAN_ACCURACY[iv]], marker="*", s=140, color="tab:red", zorder=4,
                   label="human (45 pairs)" if x == 0 else None)  # fmt: skip
    for k, sub in enumerate(verified):
        shown = [(x, row_value(sub, f"accuracy/{iv}"), whisker(sub, f"accuracy/{iv}"))
                 for x, iv in enumerate(INTERVENTIONS) if row_value(sub, f"accuracy/{iv}") is not None]  # fmt: skip
        if shown:
            xs, ys, err = zip(*shown, strict=True)
            ax.errorbar([x + 0.08 * (k + 1) for x in xs], ys, yerr=list(zip(*err, strict=True)), fmt="o",
                        markersize=4, capsize=2, zorder=5, label=row_label(sub))  # fmt: skip
    ax.axhline(50.0, color="grey", linestyle=":", linewidth=1, label="chance")
    ax.set_xticks(
        range(len(INTERVENTIONS)), [iv.replace("_", " ") for iv in INTERVENTIONS], rotation=30, ha="right"
    )
    ax.set_ylim(0, 102)
    ax.set_ylabel("accuracy (%), ties wrong")
    ax.set_title(
        "IsoVRBench: span of the published judges (Table 2) per intervention; verified judges with 95% CIs"
    )
    ax.legend(loc="lower left", fontsize="x-small")
    return fig
