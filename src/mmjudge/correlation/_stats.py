"""Rank and linear correlations over judges, with an exact permutation test and a bootstrap interval over judges.

Over a handful of judges a correlation is fragile: one judge moved can flip its sign. So each Spearman ρ comes with

- the exact permutation p-value: every one of the ``n!`` pairings of the judges' two columns (362,880 for nine
  judges; :data:`EXACT_MAX` judges at most, a Monte Carlo draw of :data:`MONTE_CARLO_DRAWS` pairings beyond),
  ``p = P(|ρ*| >= |ρ|)`` under the null of no association; the enumeration is ``scipy.stats.permutation_test``'s
  (``permutation_type="pairings"``), done once per pattern of tied ranks and reused across cells;
- a percentile interval from a bootstrap over judges (:data:`BOOTSTRAP_RESAMPLES` resamples of the judges with
  replacement; a resample on which a column is constant has no ρ and is left out, and counted). It says how much
  ρ depends on which judges were evaluated, not how precisely each judge's numbers were measured. Where every
  resample gives ``|ρ| = 1`` (the judges are in exactly the same order on both columns) the bootstrap cannot bound
  ρ, and the cell says so instead of printing a zero-width interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from mmjudge._deps import scipy_stats

__all__ = [
    "BOOTSTRAP_RESAMPLES",
    "EXACT_MAX",
    "MONTE_CARLO_DRAWS",
    "Correlation",
    "pearson",
    "spearman",
]

EXACT_MAX = 10
"""The most judges whose pairings are enumerated (10! = 3,628,800); beyond, :data:`MONTE_CARLO_DRAWS` are drawn."""
MONTE_CARLO_DRAWS = 200_000
"""Random pairings of the permutation test beyond :data:`EXACT_MAX` judges."""
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


def _ranks(values: np.ndarray) -> np.ndarray:
    return np.asarray(scipy_stats().rankdata(values), dtype=float)


def _centred(values: np.ndarray) -> np.ndarray:
    return values - values.mean(axis=-1, keepdims=True)


def _pearson_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson r of each row of ``a`` with each row of ``b`` (NaN where one is constant)."""
    a, b = _centred(a), _centred(b)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray((a * b).sum(axis=-1) / np.sqrt((a * a).sum(axis=-1) * (b * b).sum(axis=-1)))


@lru_cache(maxsize=64)
def _null(x_ranks: tuple[float, ...], y_ranks: tuple[float, ...]) -> np.ndarray:
    """``|ρ*|`` over every pairing of the ranks ``x_ranks`` with ``y_ranks``: its distribution depends only on the two
    multisets of ranks (the callers pass them sorted), so one enumeration serves every cell with the same ties."""
    y = _centred(np.asarray(y_ranks))

    def statistic(x: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.abs(_pearson_rows(x, np.broadcast_to(y, x.shape)))

    exact = len(x_ranks) <= EXACT_MAX
    result = scipy_stats().permutation_test((np.asarray(x_ranks),), statistic, permutation_type="pairings", vectorized=True,
                              n_resamples=np.inf if exact else MONTE_CARLO_DRAWS, batch=100_000,
                              alternative="greater", random_state=0)  # fmt: skip
    return np.asarray(result.null_distribution)


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
    exact = n <= EXACT_MAX
    method = (f"Spearman; {'exact' if exact else f'Monte Carlo ({MONTE_CARLO_DRAWS:,} pairings)'} permutation test "
              f"over {n} judges; {confidence:.0%} percentile interval from {resamples:,} bootstrap resamples of the judges")  # fmt: skip
    if n < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        why = f"{n} judges with both numbers" if n < 3 else "a column is constant over the judges"
        return Correlation(math.nan, math.nan, math.nan, math.nan, n, method, f"no ρ: {why}")
    rho = float(scipy_stats().spearmanr(a, b).statistic)
    ra, rb = _ranks(a), _ranks(b)
    null = _null(tuple(sorted(ra)), tuple(sorted(rb)))
    p_value = float(np.mean(null >= abs(rho) - _TOLERANCE))
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
