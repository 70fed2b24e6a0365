"""Paired comparison of two judges on the same units: McNemar's exact test.

:func:`mcnemar_exact` is statsmodels' exact McNemar test on the paired correct/wrong outcomes. The paired
cluster bootstrap of any metric is :func:`mmjudge.stats.paired_metric_bootstrap`, over the outcomes
tables the scorers produce.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mmjudge._deps import require
from mmjudge.errors import SchemaError

__all__ = [
    "McNemarResult",
    "mcnemar_exact",
]

class McNemarResult(NamedTuple):
    """Exact McNemar test of paired binary outcomes (statsmodels)."""

    both: int
    """Units both judges get right."""
    only_a: int
    """Units only the first judge gets right."""
    only_b: int
    """Units only the second judge gets right."""
    neither: int
    """Units both judges get wrong."""
    p_value: float
    """Exact two-sided p-value (binomial on the discordant units; 1.0 when there are none)."""


def mcnemar_exact(correct_a: Sequence[Any], correct_b: Sequence[Any]) -> McNemarResult:
    """Exact McNemar test (``statsmodels.stats.contingency_tables.mcnemar(table, exact=True)``).

    Args:
        correct_a, correct_b: per-unit outcomes of the two judges, 1/True correct, 0/False wrong; NaN
            marks a unit a judge is not scored on, and the units not scored by both are left out.

    Raises:
        SchemaError: the lengths differ, no unit is scored by both, or an outcome is not 0/1/NaN.

    >>> r = mcnemar_exact([1, 1, 1, 1, 0], [0, 0, 0, 0, 0])
    >>> r.only_a, r.only_b, round(r.p_value, 4)
    (4, 0, 0.125)
    """
    mcnemar = require("statsmodels.stats.contingency_tables", "metrics", purpose="McNemar's test").mcnemar
    a, b = np.asarray(correct_a, dtype=np.float64), np.asarray(correct_b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise SchemaError(
            f"expected two 1-D outcome vectors of one length, got shapes {a.shape} and {b.shape}"
        )
    both_scored = ~(np.isnan(a) | np.isnan(b))
    a, b = a[both_scored], b[both_scored]
    if a.size == 0:
        raise SchemaError("McNemar's test needs at least one unit scored for both judges, got none")
    if not np.all(np.isin(a, (0.0, 1.0)) & np.isin(b, (0.0, 1.0))):
        raise SchemaError("McNemar's test reads correct/wrong outcomes: expected 0, 1 or NaN per unit")
    table = [[int(np.sum((a == 1) & (b == 1))), int(np.sum((a == 1) & (b == 0)))],
             [int(np.sum((a == 0) & (b == 1))), int(np.sum((a == 0) & (b == 0)))]]  # fmt: skip
    p_value = float(mcnemar(table, exact=True).pvalue)
    return McNemarResult(table[0][0], table[0][1], table[1][0], table[1][1], p_value)
