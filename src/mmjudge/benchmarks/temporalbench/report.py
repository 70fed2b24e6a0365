"""TemporalBench report: accuracy per category (plot), and Binary and Multiple Binary Accuracy per category."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._captions.present import report_plot, report_tables
from mmjudge.benchmarks._report_tables import BreakdownTable
from mmjudge.benchmarks.temporalbench.sample import CATEGORIES

__all__ = ["plot", "tables"]


def plot(folder: Path, scores: Mapping[str, Any], records: Sequence[Any], rows: Sequence[Any]) -> tuple[Path, str]:
    """Draw ``temporalbench_accuracy.png`` into ``folder``; returns its path and caption."""
    return report_plot(folder, scores, CATEGORIES, "temporalbench_accuracy")


def tables(scores: Mapping[str, Any]) -> tuple[BreakdownTable, ...]:
    """Binary and Multiple Binary Accuracy per category and overall (result keys only)."""
    return report_tables(scores, CATEGORIES, "category")
