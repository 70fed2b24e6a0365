"""Two-sided Welch t-test and the Benjamini–Yekutieli false-discovery-rate procedure."""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np

from mmjudge._checks import check_probability, finite_array
from mmjudge._deps import scipy_stats
from mmjudge.errors import SchemaError, summarize

__all__ = ["MultipleTestResult", "TTestResult", "benjamini_yekutieli", "by_rejections", "welch_t_test"]


class TTestResult(NamedTuple):
    """Outcome of a t-test."""

    statistic: float
    """The t statistic, ``(mean(a) - mean(b)) / sqrt(var(a)/n_a + var(b)/n_b)``."""
    p_value: float
    """Two-sided p-value from the t distribution with ``df`` degrees of freedom."""
    df: float
    """Welch–Satterthwaite degrees of freedom (not an integer in general)."""


class MultipleTestResult(NamedTuple):
    """Decisions and adjusted p-values of a multiple-testing procedure (unpacks as a pair)."""

    rejected: np.ndarray
    """Boolean array, True where the null hypothesis is rejected at the chosen ``q``."""
    adjusted: np.ndarray
    """Adjusted p-values, in the input order, capped at 1."""


def welch_t_test(a: Any, b: Any) -> TTestResult:
    """Two-sided Welch t-test for different means with unequal variances (``scipy.stats.ttest_ind``).

    Both samples need at least two values. When both samples are constant the statistic is
    ``±inf`` (p = 0) for different means and NaN for equal means, with a warning.

    >>> r = welch_t_test([1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0, 10.0])
    >>> round(r.statistic, 4), round(r.p_value, 4), round(r.df, 3)
    (-2.2514, 0.0691, 5.521)
    """
    first = finite_array("a", a)
    second = finite_array("b", b)
    for name, sample in (("a", first), ("b", second)):
        if sample.size < 2:
            raise SchemaError(f"`{name}` needs at least 2 values for a t-test, got {sample.size}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = scipy_stats().ttest_ind(first, second, equal_var=False)
    if np.ptp(first) == 0 and np.ptp(second) == 0:
        warnings.warn(
            "both samples are constant: the Welch t statistic is infinite (different means) or undefined (NaN)",
            RuntimeWarning,
            stacklevel=2,
        )
    return TTestResult(float(res.statistic), float(res.pvalue), float(res.df))


def benjamini_yekutieli(p_values: Any, q: float = 0.05) -> MultipleTestResult:
    """Benjamini–Yekutieli step-up procedure, valid under arbitrary dependence.

    Sorted p-values ``p_(1) <= ... <= p_(m)`` are compared with ``(i / m) * (q / H_m)``, where
    ``H_m = 1 + 1/2 + ... + 1/m``; every hypothesis up to the largest ``i`` that passes is
    rejected. Adjusted p-values are ``min_{k >= i} p_(k) m H_m / k``, capped at 1 (statsmodels'
    ``multipletests(method="fdr_by")``).

    >>> rejected, adjusted = benjamini_yekutieli([0.001, 0.02, 0.04, 0.5])
    >>> rejected.tolist(), adjusted.round(4).tolist()
    ([True, False, False, False], [0.0083, 0.0833, 0.1111, 1.0])
    """
    p = _p_value_array(p_values)
    q = check_probability("q", q)
    m = p.size
    order = np.argsort(p, kind="stable")
    harmonic = float(np.sum(1.0 / np.arange(1, m + 1)))
    ranks = np.arange(1, m + 1)
    adjusted_sorted = np.minimum.accumulate((p[order] * m * harmonic / ranks)[::-1])[::-1]
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(adjusted_sorted, 1.0)
    return MultipleTestResult(by_rejections(p, q), adjusted)


def by_rejections(p: np.ndarray, q: float) -> np.ndarray:
    """Rejection mask of the BY step-up rule, thresholds computed as ``(i / m) * (q / H_m)``."""
    m = p.size
    order = np.argsort(p, kind="stable")
    harmonic = np.sum(1.0 / np.arange(1, m + 1))
    thresholds = (np.arange(1, m + 1) / m) * (q / harmonic)
    passing = np.flatnonzero(p[order] <= thresholds)
    rejected = np.zeros(m, dtype=bool)
    if passing.size:
        rejected[order[: passing[-1] + 1]] = True
    return rejected


def _p_value_array(p_values: Any) -> np.ndarray:
    p = finite_array("p_values", p_values)
    outside = p[(p < 0.0) | (p > 1.0)]
    if outside.size:
        raise SchemaError(
            f"`p_values` has {outside.size} values outside [0, 1]: {summarize(outside.tolist())}"
        )
    return p
