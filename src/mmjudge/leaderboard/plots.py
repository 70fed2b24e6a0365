"""One matplotlib figure per tab, drawn by the benchmark from the stored rows (``Benchmark.leaderboard.figure``).

The published (``reported``) rows give the context, the ``verified`` rows are drawn over it, and every
error bar is an interval the scorer stored (or the spread over rounds a paper prints); nothing is
computed here. Figures use no pyplot state, so nothing accumulates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks import get_benchmark
from mmjudge.leaderboard.store import StoredSubmission

__all__ = ["figure"]


def figure(benchmark: str, rows: Sequence[StoredSubmission]) -> Any:
    """The tab's figure from its visible rows (a ``matplotlib.figure.Figure``)."""
    rows = [r for r in rows if r.benchmark == benchmark and not r.hidden]
    return get_benchmark(benchmark).leaderboard.figure(rows)
