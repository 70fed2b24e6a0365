"""TempCompass on the leaderboard: ranked by caption-matching accuracy, with the accuracy per dimension."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._base import BoardRow, View
from mmjudge.benchmarks._captions.present import board_figure_of, views
from mmjudge.benchmarks.tempcompass.release import DIMENSIONS

__all__ = ["VIEWS", "figure"]

VIEWS: tuple[View, ...] = views(DIMENSIONS, per_video=False, category_title="dimensions")
"""One view, ranked by accuracy."""


def figure(rows: Sequence[BoardRow]) -> Any:
    """Accuracy per dimension of each shown row."""
    return board_figure_of(rows, DIMENSIONS, per_video=False)
