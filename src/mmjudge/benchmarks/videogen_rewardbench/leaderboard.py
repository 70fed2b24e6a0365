"""VideoGen-RewardBench on the leaderboard: accuracy without ties and with ties per aspect; bars of the Overall
accuracy without ties (the number VideoAlign's paper reports first)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._base import BoardRow, Column, View
from mmjudge.benchmarks._pairwise.present import board_bars
from mmjudge.benchmarks.videogen_rewardbench.scoring import ASPECTS

__all__ = ["HEADLINE", "VIEWS", "figure"]

HEADLINE: tuple[str, ...] = (
    "accuracy_without_ties/overall",
    "accuracy_with_ties/overall",
    "accuracy_with_ties_crossfit/overall",
)
"""The keys a summary shows; the first ranks the board."""

VIEWS: tuple[View, ...] = (
    View(
        "default",
        (
            *(Column(f"{a.name} w/o ties", f"accuracy_without_ties/{a.slug}", group="w/o ties") for a in ASPECTS),
            *(Column(f"{a.name} with ties", f"accuracy_with_ties/{a.slug}", group="with ties (official)") for a in ASPECTS),
            Column("Overall with ties, cross-fitted", "accuracy_with_ties_crossfit/overall", group="with ties (official)"),
        ),
        rank_by=HEADLINE[0],
    ),
)


def figure(rows: Sequence[BoardRow]) -> Any:
    """Bars of the Overall accuracy without ties, rows in the table's order."""
    return board_bars(rows, HEADLINE[0], "Overall accuracy w/o ties (%), rows in the table's order")
