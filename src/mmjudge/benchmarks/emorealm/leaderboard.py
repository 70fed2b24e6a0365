"""EmoReAlM on the leaderboard: ranked in strict mode (missing answers wrong), the official mode beside it.

The paper's official code skips missing outputs; ranked that way, marking answers ``no_judgment`` could
raise a score, so the leaderboard ranks the strict average and shows the official-mode average (a side
scoring of the same file) beside it. The figure shows the accuracy per task of each row scored here (there
are no published rows), the tasks' colour key under the plot.
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
from mmjudge.benchmarks.emorealm.scoring import TASKS, YES_NO_TASKS

__all__ = ["OPTIONS", "SIDE_SCORINGS", "VIEWS", "figure"]

OPTIONS: dict[str, str] = {"mode": "strict"}
"""The ranked scoring: strict mode (an answer the strict matcher cannot read counts wrong)."""
SIDE_SCORINGS: dict[str, dict[str, str]] = {"official": {"mode": "official"}}
"""The official mode, stored beside the ranked scoring."""

VIEWS: tuple[View, ...] = (
    View(
        "default",
        (
            Column("Average (strict)", "overall", mode="strict"),
            Column("Average (official)", "overall", mode="official", group="official mode"),
            *(Column(task, f"accuracy/{task}", group="tasks") for task in TASKS),
            *(
                column
                for task in YES_NO_TASKS
                for column in (
                    Column(f"{task} yes-acc.", f"yes_accuracy/{task}", group="yes/no"),
                    Column(f"{task} no-acc.", f"no_accuracy/{task}", group="yes/no"),
                )
            ),
            Column("mode", "mode", text=True, group="official mode"),
        ),
    ),
)
"""One view, ranked by the strict average."""


def figure(rows: Sequence[BoardRow]) -> Any:
    """The tab's figure (see the module docstring)."""
    _, shown = split_rows(rows)
    fig = board_figure()
    ax = fig.add_subplot()
    width = 0.8 / len(TASKS)
    for k, task in enumerate(TASKS):
        key = f"accuracy/{task}"
        heights = [row_value(r, key) or 0.0 for r in shown]
        errors = list(zip(*(whisker(r, key) for r in shown), strict=True)) or None
        ax.bar(
            [i + k * width for i in range(len(shown))],
            heights,
            width=width,
            yerr=errors,
            capsize=2,
            label=task,
        )
    ax.set_xticks([i + width * (len(TASKS) - 1) / 2 for i in range(len(shown))], [row_label(r) for r in shown],
                  rotation=30, ha="right")  # fmt: skip
    ax.set_ylabel("accuracy (%), 95% CI")
    readable(ax)
    handles, labels = ax.get_legend_handles_labels()
    legend_below(fig, handles, labels)
    if not shown:
        ax.text(0.5, 0.5, "no rows yet", ha="center", va="center", transform=ax.transAxes)
    return fig
