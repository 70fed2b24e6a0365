"""Spearman rank correlation with a permutation test: exact enumeration up to n = 10, Monte Carlo beyond."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from mmjudge._checks import check_positive_int, check_same_length, finite_array
from mmjudge._deps import scipy_stats
from mmjudge.errors import SchemaError

__all__ = ["EXACT_MAX_N", "SpearmanResult", "spearman_permutation_test"]

EXACT_MAX_N = 10
"""Largest sample size tested by enumerating all ``n!`` permutations (10! = 3,628,800)."""

_ALTERNATIVES = ("two-sided", "greater", "less")


class SpearmanResult(NamedTuple):
    """Spearman's rho with its permutation p-value."""

    rho: float
    """Spearman's rank correlation (Pearson correlation of average ranks), in [-1, 1]."""
    p_value: float
    """Permutation p-value under the null of exchangeable pairings (scipy's ``permutation_test`` rule)."""
    method: str
    """``"exact"`` (all ``n!`` permutations enumerated) or ``"monte_carlo"`` (random permutations)."""
    n_permutations: int
    """Permutations used: ``n!`` for ``exact``, ``n_resamples`` for ``monte_carlo``."""


def spearman_permutation_test(
    x: Any,
    y: Any,
    *,
    n_resamples: int = 9999,
    seed: int = 0,
    alternative: str = "two-sided",
) -> SpearmanResult:
    """Spearman's rho and a permutation test of no association.

    For ``n <= 10`` every permutation of ``y`` against ``x`` is enumerated and the p-value is the
    exact share of permutations at least as extreme; beyond that ``n_resamples`` random
    permutations are drawn and ``p = (count + 1) / (n_resamples + 1)``. The two-sided p-value is
    twice the smaller one-sided p-value, capped at 1, as in ``scipy.stats.permutation_test``.
    Ranks are compared as exact integers (twice the average ranks), so ties in the statistic
    are counted without floating-point tolerance.

    Args:
        x: first variable, e.g. one benchmark's per-model scores.
        y: second variable, same length.
        n_resamples: random permutations for the Monte Carlo test (``n > 10``).
        seed: seed of the Monte Carlo permutations.
        alternative: ``"two-sided"``, ``"greater"`` (positive association) or ``"less"``.

    >>> r = spearman_permutation_test([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])
    >>> round(r.rho, 2), round(r.p_value, 4), r.method, r.n_permutations
    (0.8, 0.1333, 'exact', 120)
    """
    xs = finite_array("x", x)
    ys = finite_array("y", y)
    n = check_same_length(x=xs, y=ys)
    if alternative not in _ALTERNATIVES:
        raise SchemaError(f"`alternative` must be one of {list(_ALTERNATIVES)}, got {alternative!r}")
    if n < 2:
        raise SchemaError(f"the permutation test needs at least 2 pairs, got {n}")
    rank = scipy_stats().rankdata
    rx, ry = (np.rint(2 * rank(v)).astype(np.int64) for v in (xs, ys))
    for name, r in (("x", rx), ("y", ry)):
        if np.all(r == r[0]):
            raise SchemaError(f"`{name}` is constant ({n} equal values): Spearman's rho is undefined")
    rho = float(np.corrcoef(rx, ry)[0, 1])
    center = int(rx.sum()) * int(ry.sum())
    observed = n * int(rx @ ry) - center
    if n <= EXACT_MAX_N:
        greater, less, total = _exact_counts(rx, ry, observed, center)
        method, adjust = "exact", 0
    else:
        total = check_positive_int("n_resamples", n_resamples)
        greater, less = _monte_carlo_counts(rx, ry, observed, center, total, seed)
        method, adjust = "monte_carlo", 1
    p_greater = (greater + adjust) / (total + adjust)
    p_less = (less + adjust) / (total + adjust)
    p_value = {"greater": p_greater, "less": p_less}.get(alternative, min(1.0, 2 * min(p_greater, p_less)))
    return SpearmanResult(rho, float(p_value), method, total)


def _exact_counts(rx: np.ndarray, ry: np.ndarray, observed: int, center: int) -> tuple[int, int, int]:
    """Counts of permutations with statistic >= and <= the observed one, over all ``n!``."""
    n = rx.size
    rest = _permutations(n - 1)
    greater = less = 0
    for first in range(n):
        others = np.delete(ry, first)
        stat = n * (rx[0] * ry[first] + others[rest] @ rx[1:]) - center
        greater += int(np.count_nonzero(stat >= observed))
        less += int(np.count_nonzero(stat <= observed))
    return greater, less, math.factorial(n)


def _monte_carlo_counts(
    rx: np.ndarray, ry: np.ndarray, observed: int, center: int, total: int, seed: int
) -> tuple[int, int]:
    rng = np.random.default_rng(seed)
    batch = max(1, 2_000_000 // rx.size)
    greater = less = done = 0
    while done < total:
        size = min(batch, total - done)
        shuffled = rng.permuted(np.broadcast_to(ry, (size, ry.size)), axis=1)
        stat = rx.size * (shuffled @ rx) - center
        greater += int(np.count_nonzero(stat >= observed))
        less += int(np.count_nonzero(stat <= observed))
        done += size
    return greater, less


@lru_cache(maxsize=4)
def _permutations(k: int) -> np.ndarray:
    """All ``k!`` permutations of ``range(k)`` as rows of an integer array (read-only, cached)."""
    perms = np.zeros((1, 0), dtype=np.intp)
    for m in range(1, k + 1):
        blocks = [np.hstack([np.full((len(perms), 1), v, np.intp), perms + (perms >= v)]) for v in range(m)]
        perms = np.vstack(blocks)
    perms.setflags(write=False)
    return perms
