"""Rank and linear correlations over judges, with an exact permutation test and a bootstrap interval over judges.

Over a handful of judges a correlation is fragile: one judge moved can flip its sign. So each Spearman ρ comes with

- the exact permutation p-value of :func:`mmjudge.stats.spearman_permutation_test`: every one of the ``n!``
  pairings of the judges' two columns (362,880 for nine judges; up to :data:`mmjudge.stats.EXACT_MAX_N` judges, a
  Monte Carlo draw of :data:`MONTE_CARLO_DRAWS` pairings beyond), two-sided as twice the smaller one-sided p
  (scipy's ``permutation_test`` rule; on the IsoVRBench paper's 40 cells it equals ``P(|ρ*| >= |ρ|)``);
- a percentile interval from a bootstrap over judges (:data:`BOOTSTRAP_RESAMPLES` resamples of the judges with
  replacement; a resample on which a column is constant has no ρ and is left out, and counted). It says how much
  ρ depends on which judges were evaluated, not how precisely each judge's numbers were measured. Where every
  resample gives ``|ρ| = 1`` (the judges are in exactly the same order on both columns) the bootstrap cannot bound
  ρ, and the cell says so instead of printing a zero-width interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from mmjudge._deps import scipy_stats
from mmjudge.stats import EXACT_MAX_N, spearman_permutation_test

__all__ = [
    "BOOTSTRAP_RESAMPLES",
    "MONTE_CARLO_DRAWS",
    "Correlation",
    "pearson",
    "spearman",
]

MONTE_CARLO_DRAWS = 200_000
"""Random pairings of the permutation test beyond :data:`mmjudge.stats.EXACT_MAX_N` judges."""
BOOTSTRAP_RESAMPLES = 10_000
"""Resamples of the judges for the interval."""
_TOLERANCE = 1e-12


class Correlation(NamedTuple):
    """One correlation over judges."""

    value: float
    """ρ (Spearman) or r (Pearson); NaN when a column is constant or fewer than 3 judges have both numbers."""
    p_value: float
    """Two-sided p-value: the exact permutation test for Spearman, the t test for Pearson."""
    low: float
    """Lower end of the interval (NaN: none; :attr:`note` says why)."""
    high: float
    """Upper end of the interval."""
    n: int
    """Judges with both numbers."""
    method: str
    """How the p-value and the interval were made."""
    note: str = ""
    """Why a number is missing."""


def _centred(values: np.ndarray) -> np.ndarray:
    return values - values.mean(axis=-1, keepdims=True)


def _pearson_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson r of each row of ``a`` with each row of ``b`` (NaN where one is constant)."""
    a, b = _centred(a), _centred(b)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray((a * b).sum(axis=-1) / np.sqrt((a * a).sum(axis=-1) * (b * b).sum(axis=-1)))


def _pairs(x: Sequence[float], y: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(a) & np.isfinite(b)
    return a[keep], b[keep]


def spearman(x: Sequence[float], y: Sequence[float], *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
             confidence: float = 0.95) -> Correlation:  # fmt: skip
    """Spearman's ρ of two columns over judges (pairs with a NaN left out), with the exact permutation p-value and
    a bootstrap-over-judges percentile interval (see the module docstring).

    >>> c = spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])
    >>> round(c.value, 2), round(c.p_value, 4), c.n
    (0.8, 0.1333, 5)
    """
    a, b = _pairs(x, y)
    n = len(a)
    exact = n <= EXACT_MAX_N
    method = (f"Spearman; {'exact' if exact else f'Monte Carlo ({MONTE_CARLO_DRAWS:,} pairings)'} permutation test "
              f"over {n} judges; {confidence:.0%} percentile interval from {resamples:,} bootstrap resamples of the judges")  # fmt: skip
    if n < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        why = f"{n} judges with both numbers" if n < 3 else "a column is constant over the judges"
        return Correlation(math.nan, math.nan, math.nan, math.nan, n, method, f"no ρ: {why}")
    test = spearman_permutation_test(a, b, n_resamples=MONTE_CARLO_DRAWS, seed=seed)
    rho, p_value = test.rho, test.p_value
    low, high, note = _judge_bootstrap(a, b, rho, resamples, seed, confidence)
    return Correlation(rho, p_value, low, high, n, method, note)


def _judge_bootstrap(a: np.ndarray, b: np.ndarray, rho: float, resamples: int, seed: int,
                     confidence: float) -> tuple[float, float, str]:  # fmt: skip
    rankdata = scipy_stats().rankdata
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(a), size=(resamples, len(a)))
    values = _pearson_rows(rankdata(a[picks], axis=1), rankdata(b[picks], axis=1))
    defined = values[np.isfinite(values)]
    dropped = resamples - len(defined)
    if len(defined) == 0 or np.all(np.abs(np.abs(defined) - 1.0) < _TOLERANCE):
        return math.nan, math.nan, (f"no interval: ρ = {rho:+.2f} on every resample of these judges (they are in the "
                                    "same order on both columns), so a bootstrap over judges cannot bound it")  # fmt: skip
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(defined, [tail, 1.0 - tail])
    note = f"{dropped:,} of {resamples:,} resamples had a constant column (no ρ)" if dropped else ""
    return float(low), float(high), note


def pearson(x: Sequence[float], y: Sequence[float], *, confidence: float = 0.95) -> Correlation:
    """Pearson's r over judges, with scipy's two-sided t-test p-value and Fisher-z interval.

    >>> round(pearson([1, 2, 3, 4], [1, 3, 2, 5]).value, 3)
    0.832
    """
    a, b = _pairs(x, y)
    method = f"Pearson; t test and {confidence:.0%} Fisher-z interval over {len(a)} judges"
    if len(a) < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return Correlation(math.nan, math.nan, math.nan, math.nan, len(a), method, "no r: too few judges or a constant column")
    result = scipy_stats().pearsonr(a, b)
    if len(a) > 3:
        ci = result.confidence_interval(confidence)
        low, high, note = float(ci.low), float(ci.high), ""
    else:
        low, high, note = math.nan, math.nan, "no interval: the Fisher-z interval needs 4 judges"
    return Correlation(float(result.statistic), float(result.pvalue), low, high, len(a), method, note)
