"""GenAI-Bench (video) on the leaderboard: the official accuracies and mmjudge's strict ones; bars of the official
accuracy without ties."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._base import BoardRow, Column, View
from mmjudge.benchmarks._pairwise.present import board_bars

__all__ = ["HEADLINE", "VIEWS", "figure"]

HEADLINE: tuple[str, ...] = ("accuracy_without_ties", "accuracy_with_ties", "strict_accuracy_without_ties")
"""The keys a summary shows; the first ranks the board."""

VIEWS: tuple[View, ...] = (
    View(
        "default",
        (
            Column("w/o ties", "accuracy_without_ties", group="official"),
            Column("with ties", "accuracy_with_ties", group="official"),
            Column("with ties (VideoScore v1)", "videoscore_accuracy_with_ties", group="official"),
            Column("w/o ties, missing wrong", "strict_accuracy_without_ties", group="missing counted"),
            Column("with ties, missing wrong", "strict_accuracy_with_ties", group="missing counted"),
        ),
        rank_by=HEADLINE[0],
    ),
)


def figure(rows: Sequence[BoardRow]) -> Any:
    """Bars of the official accuracy without ties, rows in the table's order."""
    return board_bars(rows, HEADLINE[0], "pairwise accuracy w/o ties (%), rows in the table's order")
