"""Paired comparison of judges on the same items (``mmjudge compare``, the leaderboard's significance).

>>> from mmjudge.comparison import compare_units
>>> callable(compare_units)
True
"""

from mmjudge.comparison._compare import COMPARE_VERSION, Comparison, compare_runs
from mmjudge.comparison._core import CORRECTION, KeyComparison, McNemar, adjust, compare_units
from mmjudge.comparison._runs import Run, RunSet, load_runs
from mmjudge.comparison._write import comparison_record, format_difference, summary_lines, write_comparison

__all__ = [
    "COMPARE_VERSION",
    "CORRECTION",
    "Comparison",
    "KeyComparison",
    "McNemar",
    "Run",
    "RunSet",
    "adjust",
    "compare_runs",
    "compare_units",
    "comparison_record",
    "format_difference",
    "load_runs",
    "summary_lines",
    "write_comparison",
]
