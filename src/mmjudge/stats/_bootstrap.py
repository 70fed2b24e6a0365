"""Percentile bootstrap over items, and the paired bootstrap for two judges on the same items.

Resampling draws item indices with replacement, chunk by chunk, so memory stays bounded
(about :data:`CHUNK_ELEMENTS` indices at a time) whatever the number of resamples.

For the mean of data with few distinct values (at most ``n / MULTINOMIAL_RATIO`` distinct values or
rows, e.g. 0/1 correctness), the number of times each distinct value is drawn is sampled directly
from its multinomial distribution, which is exactly the distribution that resampling items gives
the mean, at a fraction of the cost. The two paths use different random streams, so their intervals
differ by Monte Carlo noise only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import numpy as np

from mmjudge._checks import check_positive_int, check_probability, check_same_length, finite_array
from mmjudge.errors import SchemaError

__all__ = [
    "ConfidenceInterval",
    "PairedBootstrapResult",
    "bootstrap_ci",
    "bootstrap_cis",
    "paired_bootstrap_diff",
]

CHUNK_ELEMENTS = 4_000_000
"""Resampled values held in memory at once (32 MB of float64)."""

MULTINOMIAL_RATIO = 100
"""The mean is resampled through multinomial counts when ``distinct values * MULTINOMIAL_RATIO <= n``."""

Statistic = Callable[..., Any]


class ConfidenceInterval(NamedTuple):
    """A point estimate with a two-sided percentile interval."""

    estimate: Any
    """The statistic on the full sample (a float, or an array when several columns were bootstrapped)."""
    low: Any
    """Lower bound: the ``(1 - confidence) / 2`` quantile of the bootstrap distribution."""
    high: Any
    """Upper bound: the ``(1 + confidence) / 2`` quantile of the bootstrap distribution."""
    confidence: float
    """Coverage of the interval, e.g. 0.95."""


class PairedBootstrapResult(NamedTuple):
    """Difference of two judges' means on the same items, with interval and two-sided p-value."""

    estimate: float
    """``mean(a) - mean(b)`` on the full sample."""
    low: float
    """Lower percentile bound of the difference."""
    high: float
    """Upper percentile bound of the difference."""
    confidence: float
    """Coverage of the interval, e.g. 0.95."""
    p_value: float
    """Two-sided bootstrap p-value for "no difference": ``min(1, 2 (min(#{d* <= 0}, #{d* >= 0}) + 1) / (B + 1))``."""


def bootstrap_ci(
    values: Any,
    statistic: str | Statistic = "mean",
    *,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> ConfidenceInterval:
    """Percentile bootstrap interval of a statistic over items (axis 0), seeded and vectorised.

    Args:
        values: item-level values, shape ``(n,)`` or ``(n, k)`` for ``k`` columns bootstrapped
            with the same resamples.
        statistic: ``"mean"`` or a callable ``f(resampled, axis=1)`` reducing a batch of resamples
            of shape ``(batch, n)`` or ``(batch, n, k)`` along the item axis 1.
        n_resamples: number of bootstrap resamples ``B``.
        confidence: interval coverage, strictly between 0 and 1.
        seed: seed of ``numpy.random.default_rng``; the same seed gives the same interval.

    Returns:
        A :class:`ConfidenceInterval`; its fields are floats for 1-D ``values`` and arrays of
        length ``k`` for 2-D ``values``.

    >>> ci = bootstrap_ci([0, 1, 1, 1, 0, 1, 1, 1], n_resamples=2000, seed=1)
    >>> ci.estimate, ci.low <= ci.estimate <= ci.high, ci.confidence
    (0.75, True, 0.95)
    """
    data = finite_array("values", values, ndims=(1, 2))
    return _interval(data, _resolve(statistic), n_resamples, confidence, seed)


def bootstrap_cis(
    values: Any,
    statistic: str | Statistic = "mean",
    *,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> list[ConfidenceInterval]:
    """One :class:`ConfidenceInterval` per column of a 2-D ``(n, k)`` array (same resamples for all).

    >>> [round(ci.estimate, 2) for ci in bootstrap_cis([[1, 0], [0, 0], [1, 1]], n_resamples=100)]
    [0.67, 0.33]
    """
    data = finite_array("values", values, ndims=(2,))
    ci = _interval(data, _resolve(statistic), n_resamples, confidence, seed)
    return [
        ConfidenceInterval(float(e), float(lo), float(hi), ci.confidence)
        for e, lo, hi in zip(ci.estimate, ci.low, ci.high, strict=True)
    ]


def paired_bootstrap_diff(
    a: Any,
    b: Any,
    *,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> PairedBootstrapResult:
    """Bootstrap the difference of means of two judges scored on the same items.

    Both judges are resampled with the same item indices, so the interval reflects the paired
    design. The p-value inverts the percentile interval: twice the smaller tail share of
    resampled differences at or beyond zero, with the usual ``+1`` correction, capped at 1.

    >>> r = paired_bootstrap_diff([1, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 0], n_resamples=2000)
    >>> round(r.estimate, 3), r.low > 0, r.p_value < 0.2
    (0.5, True, True)
    """
    first = finite_array("a", a)
    second = finite_array("b", b)
    check_same_length(a=first, b=second)
    diff = first - second
    n_resamples = check_positive_int("n_resamples", n_resamples)
    confidence = check_probability("confidence", confidence)
    boot = _replicates(diff, _mean, n_resamples, seed)
    low, high = _percentiles(boot, confidence)
    return PairedBootstrapResult(float(diff.mean()), float(low), float(high), confidence, two_sided_p(boot))


TIE_TOLERANCE = 1e-9
"""Resampled differences within ``TIE_TOLERANCE * (1 + max |d*|)`` of 0 are ties: a difference of two
means of the same integer counts is exactly 0 in arithmetic but comes out as +-1e-15 in floating point."""


def two_sided_p(differences: np.ndarray) -> float:
    """Bootstrap p-value: ``min(1, 2 (min(#{d* <= 0}, #{d* >= 0}) + 1) / (B + 1))`` (NaN for ``B = 0``).

    A resampled difference at 0 (within :data:`TIE_TOLERANCE`, scaled to the data) counts in both tails.

    >>> two_sided_p(np.array([1.0, 2.0, 3.0]))
    0.5
    >>> two_sided_p(np.array([0.1 + 0.2 - 0.3, 1.0, 2.0]))  # 5.6e-17 is a tie
    1.0
    """
    if differences.size == 0:
        return float("nan")
    tol = TIE_TOLERANCE * (1.0 + float(np.max(np.abs(differences))))
    tail = min(int(np.sum(differences <= tol)), int(np.sum(differences >= -tol)))
    return min(1.0, 2.0 * (tail + 1) / (differences.size + 1))


def resample_indices(n: int, n_resamples: int, seed: int, width: int = 1) -> Iterator[np.ndarray]:
    """Yield chunks of bootstrap item indices, shape ``(chunk, n)``, ``n_resamples`` rows in all.

    The chunk size keeps ``chunk * n * width`` under :data:`CHUNK_ELEMENTS`; the stream of
    indices depends only on ``seed``, ``n`` and the chunk size.
    """
    rng = np.random.default_rng(seed)
    chunk = max(1, CHUNK_ELEMENTS // max(1, n * width))
    done = 0
    while done < n_resamples:
        size = min(chunk, n_resamples - done)
        yield rng.integers(0, n, size=(size, n), dtype=np.intp)
        done += size


def _interval(
    data: np.ndarray, statistic: Statistic, n_resamples: int, confidence: float, seed: int
) -> ConfidenceInterval:
    n_resamples = check_positive_int("n_resamples", n_resamples)
    confidence = check_probability("confidence", confidence)
    estimate = np.asarray(statistic(data[np.newaxis], axis=1))[0]
    boot = _replicates(data, statistic, n_resamples, seed)
    low, high = _percentiles(boot, confidence)
    if data.ndim == 1:
        return ConfidenceInterval(float(estimate), float(low), float(high), confidence)
    return ConfidenceInterval(estimate, low, high, confidence)


def _replicates(data: np.ndarray, statistic: Statistic, n_resamples: int, seed: int) -> np.ndarray:
    """Bootstrap replicates of ``statistic``, shape ``(B,)`` or ``(B, k)``."""
    if statistic is _mean:
        values, counts = np.unique(data, axis=0, return_counts=True)
        if len(values) * MULTINOMIAL_RATIO <= data.shape[0]:
            return _multinomial_means(values, counts, n_resamples, seed)
    width = data.shape[1] if data.ndim == 2 else 1
    parts = [
        np.asarray(statistic(np.take(data, idx, axis=0), axis=1), dtype=np.float64)
        for idx in resample_indices(data.shape[0], n_resamples, seed, width)
    ]
    return np.concatenate(parts, axis=0)


def _multinomial_means(values: np.ndarray, counts: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    """Means of resamples drawn as multinomial counts of each distinct value (or row)."""
    rng = np.random.default_rng(seed)
    n = int(counts.sum())
    chunk = max(1, CHUNK_ELEMENTS // len(values))
    parts = []
    for start in range(0, n_resamples, chunk):
        draws = rng.multinomial(n, counts / n, size=min(chunk, n_resamples - start))
        parts.append(draws @ values / n)
    return np.concatenate(parts, axis=0)


def _percentiles(boot: np.ndarray, confidence: float) -> tuple[Any, Any]:
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(boot, [alpha, 1.0 - alpha], axis=0)
    return low, high


def _mean(resampled: np.ndarray, axis: int) -> np.ndarray:
    return resampled.mean(axis=axis)


def _resolve(statistic: str | Statistic) -> Statistic:
    if statistic == "mean":
        return _mean
    if callable(statistic):
        return statistic
    raise SchemaError(f'`statistic` must be "mean" or a callable f(resampled, axis=1), got {statistic!r}')
