"""TemporalBench on the leaderboard: ranked by Multiple Binary Accuracy in strict mode (a question without scores
is wrong), Binary Accuracy beside it and per category; the official mode (such questions left out) stored beside."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._base import BoardRow, View
from mmjudge.benchmarks._captions.present import board_figure_of, views
from mmjudge.benchmarks.temporalbench.sample import CATEGORIES

__all__ = ["OPTIONS", "SIDE_SCORINGS", "VIEWS", "figure"]

OPTIONS: dict[str, str] = {"mode": "strict"}
"""The ranked scoring: a question without scores counts wrong."""
SIDE_SCORINGS: dict[str, dict[str, str]] = {"official": {"mode": "official"}}
"""The official script's counting, stored beside the ranked scoring."""
VIEWS: tuple[View, ...] = views(CATEGORIES, per_video=True, category_title="categories")
"""One view, ranked by Multiple Binary Accuracy."""


def figure(rows: Sequence[BoardRow]) -> Any:
    """Multiple Binary Accuracy per category of each shown row."""
    return board_figure_of(rows, CATEGORIES, per_video=True)
