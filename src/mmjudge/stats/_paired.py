"""Paired comparison of two judges on the same units: a cluster bootstrap of any statistic, McNemar.

:func:`paired_cluster_bootstrap` draws clusters with replacement (the same draw for both judges, so the
interval reflects the paired design), turns each draw into per-unit weights (a unit weighs the number
of times its cluster was drawn) and evaluates each judge's statistic on the weights. Any statistic that
can be written over unit weights fits: a mean, a ratio of sums, a mean of per-stratum rates, a weighted
F1 from a weighted confusion table. :func:`mcnemar_exact` is statsmodels' exact McNemar test on the
paired correct/wrong outcomes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from mmjudge._checks import check_positive_int, check_probability
from mmjudge._deps import require
from mmjudge.errors import SchemaError
from mmjudge.stats._bootstrap import resample_indices, two_sided_p

__all__ = [
    "ClusterBootstrapResult",
    "McNemarResult",
    "WeightStatistic",
    "cluster_weights",
    "mcnemar_exact",
    "paired_cluster_bootstrap",
    "two_sided_p",
]

WeightStatistic = Callable[[np.ndarray], np.ndarray]
"""``f(weights)``: unit weights of shape ``(B, n)`` -> the statistic of each row, shape ``(B,)`` (NaN
where a resample leaves it undefined)."""


class ClusterBootstrapResult(NamedTuple):
    """Difference of a statistic between two judges, with a paired cluster-bootstrap interval."""

    estimate: float
    """``stat_a - stat_b`` at unit weights 1 (the full sample)."""
    low: float
    """Lower percentile bound of the bootstrap differences (NaN when no resample is defined)."""
    high: float
    """Upper percentile bound of the bootstrap differences."""
    confidence: float
    """Coverage of the interval, e.g. 0.95."""
    p_value: float
    """Two-sided bootstrap p-value for "no difference" (:func:`two_sided_p`)."""
    n_resamples: int
    """Resamples drawn."""
    n_valid: int
    """Resamples on which both statistics are defined (the interval and p-value use these)."""
    n_clusters: int
    """Distinct clusters resampled."""


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


def cluster_weights(clusters: Sequence[Any], n_resamples: int, seed: int) -> Iterator[np.ndarray]:
    """Yield chunks of unit weights, shape ``(chunk, n_units)``, ``n_resamples`` rows in all.

    Each row draws ``n_clusters`` clusters with replacement (:func:`resample_indices`, so the stream
    depends only on ``seed`` and the number of clusters); a unit's weight is how often its cluster was
    drawn.

    >>> next(cluster_weights(["a", "a", "b"], 1, seed=0)).shape
    (1, 3)
    """
    codes, n_clusters = _codes(clusters)
    width = max(1, -(-len(codes) // max(1, n_clusters)))
    for idx in resample_indices(n_clusters, n_resamples, seed, width):
        rows = idx.shape[0]
        flat = (idx + n_clusters * np.arange(rows)[:, None]).ravel()
        counts = np.bincount(flat, minlength=rows * n_clusters).reshape(rows, n_clusters)
        yield counts[:, codes].astype(np.float64)


def paired_cluster_bootstrap(
    stat_a: WeightStatistic,
    stat_b: WeightStatistic,
    clusters: Sequence[Any],
    *,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> ClusterBootstrapResult:
    """Paired cluster bootstrap of ``stat_a - stat_b`` over the same units.

    Args:
        stat_a, stat_b: each judge's statistic of unit weights (:data:`WeightStatistic`); weights of 1
            give the statistic on the full sample.
        clusters: the cluster of each unit (units of one cluster are drawn together); give each unit
            its own cluster for the plain paired bootstrap.
        n_resamples: resamples ``B``.
        confidence: interval coverage, strictly between 0 and 1.
        seed: seed of the cluster draws; the same seed gives the same result.

    Returns:
        A :class:`ClusterBootstrapResult`. Resamples where either statistic is undefined (NaN, e.g. a
        stratum with no unit drawn) are left out and counted in ``n_valid``.

    >>> mean = lambda w: w @ np.array([1.0, 1.0, 0.0, 1.0]) / w.sum(axis=1)
    >>> other = lambda w: w @ np.array([0.0, 1.0, 0.0, 0.0]) / w.sum(axis=1)
    >>> r = paired_cluster_bootstrap(mean, other, ["c1", "c1", "c2", "c3"], n_resamples=500)
    >>> r.estimate, r.n_clusters, r.low <= r.estimate <= r.high
    (0.5, 3, True)
    """
    n_resamples = check_positive_int("n_resamples", n_resamples)
    confidence = check_probability("confidence", confidence)
    if len(clusters) == 0:
        raise SchemaError("`clusters` is empty: expected one cluster id per unit, at least one unit")
    ones = np.ones((1, len(clusters)))
    estimate = float(stat_a(ones)[0] - stat_b(ones)[0])
    parts = [stat_a(w) - stat_b(w) for w in cluster_weights(clusters, n_resamples, seed)]
    boot = np.concatenate(parts)
    boot = boot[np.isfinite(boot)]
    low, high = _percentiles(boot, confidence)
    n_clusters = _codes(clusters)[1]
    return ClusterBootstrapResult(
        estimate, low, high, confidence, two_sided_p(boot), n_resamples, int(boot.size), n_clusters
    )


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


def _codes(values: Sequence[Any]) -> tuple[np.ndarray, int]:
    """Integer codes of the distinct values (in order of first appearance) and how many there are."""
    lookup: dict[Any, int] = {}
    codes = np.fromiter((lookup.setdefault(v, len(lookup)) for v in values), dtype=np.intp, count=len(values))
    return codes, len(lookup)


def _percentiles(boot: np.ndarray, confidence: float) -> tuple[float, float]:
    if boot.size == 0:
        return float("nan"), float("nan")
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(boot, [alpha, 1.0 - alpha])
    return float(low), float(high)
