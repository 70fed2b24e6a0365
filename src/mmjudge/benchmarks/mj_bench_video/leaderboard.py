"""MJ-Bench-Video on the leaderboard: overall and per-aspect accuracy; bars of the overall accuracy without ties."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._base import BoardRow, Column, View
from mmjudge.benchmarks._pairwise.present import board_bars
from mmjudge.benchmarks.mj_bench_video.scoring import ASPECTS

__all__ = ["HEADLINE", "VIEWS", "figure"]

HEADLINE: tuple[str, ...] = ("accuracy_without_ties/overall", "accuracy_with_ties/overall")
"""The keys a summary shows; the first ranks the board."""

VIEWS: tuple[View, ...] = (
    View(
        "default",
        (
            *(Column(f"{a.name} w/o ties", f"accuracy_without_ties/{a.slug}", group="w/o ties") for a in ASPECTS),
            *(Column(f"{a.name} with ties", f"accuracy_with_ties/{a.slug}", group="with ties") for a in ASPECTS),
            Column("Overall w/o ties, missing wrong", "strict_accuracy_without_ties/overall", group="missing counted"),
        ),
        rank_by=HEADLINE[0],
    ),
)


def figure(rows: Sequence[BoardRow]) -> Any:
    """Bars of the overall accuracy without ties, rows in the table's order."""
    return board_bars(rows, HEADLINE[0], "overall accuracy w/o ties (%), rows in the table's order")
