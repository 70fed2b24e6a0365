"""Intervals for proportions and resampling from category counts.

The Wilson score interval is the one every rate of the four benchmarks carries: unlike a bootstrap
it does not collapse to a point at 0 or n successes (a bootstrap of 2/2 gives [1, 1], which reads
as certainty; Wilson gives [0.34, 1]). The formula is that of ``statsmodels.stats.proportion.
proportion_confint(count, nobs, method="wilson")``, with the bounds clipped to [0, 1] (rounding can
leave them a few ulp outside).

:func:`multinomial_counts` resamples items that fall into a few categories (a verdict, a cell of a
confusion matrix) by drawing the category counts directly: resampling ``n`` items with replacement
gives exactly ``Multinomial(n, counts / n)`` counts, so statistics that depend on the items only
through those counts (accuracy, weighted F1) get the item bootstrap at a fraction of the cost.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np

from mmjudge._checks import check_positive_int, check_probability
from mmjudge.errors import SchemaError
from mmjudge.stats._bootstrap import ConfidenceInterval

__all__ = ["multinomial_counts", "wilson_interval"]


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not float(value).is_integer() or value < 0:
        raise SchemaError(f"`{name}` must be a whole number >= 0, got {value!r}")
    return int(value)


def wilson_interval(successes: int, n: int, *, confidence: float = 0.95) -> ConfidenceInterval:
    """Wilson score interval of a proportion ``successes / n`` (fractions in [0, 1]).

    Args:
        successes: number of successes ``k`` (0 <= k <= n).
        n: number of trials (at least 1).
        confidence: coverage, strictly between 0 and 1.

    Returns:
        A :class:`ConfidenceInterval` with ``estimate = k / n``.

    >>> ci = wilson_interval(2, 2)
    >>> ci.estimate, round(ci.low, 4), ci.high
    (1.0, 0.3424, 1.0)
    >>> wilson_interval(3, 2)
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: `successes` must lie between 0 and n=2, got 3
    """
    k, trials = _count("successes", successes), _count("n", n)
    check_positive_int("n", trials)
    if k > trials:
        raise SchemaError(f"`successes` must lie between 0 and n={trials}, got {k}")
    confidence = check_probability("confidence", confidence)
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    p, z2 = k / trials, z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2.0 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)) / denom
    low = 0.0 if k == 0 else min(max(centre - half, 0.0), 1.0)
    high = 1.0 if k == trials else min(max(centre + half, 0.0), 1.0)
    return ConfidenceInterval(p, low, high, confidence)


def multinomial_counts(counts: Any, n_resamples: int, seed: int = 0) -> np.ndarray:
    """Bootstrap resamples of category counts: shape ``(n_resamples, *counts.shape)``.

    ``counts`` holds how many items fall in each category (any shape; a confusion matrix, say); each
    resample redraws the same total from those shares, which is what resampling items with replacement
    gives. Independent strata are resampled by calling this once per stratum.

    >>> draws = multinomial_counts([[3, 1], [0, 4]], n_resamples=5, seed=0)
    >>> draws.shape, set(draws.sum(axis=(1, 2)).tolist())
    ((5, 2, 2), {8})
    """
    table = np.asarray(counts, dtype=np.int64)
    if table.size == 0 or (table < 0).any() or table.sum() == 0:
        raise SchemaError(
            f"`counts` must hold non-negative counts with a positive total, got {table.tolist()}"
        )
    n_resamples = check_positive_int("n_resamples", n_resamples)
    flat = table.ravel()
    total = int(flat.sum())
    draws = np.random.default_rng(seed).multinomial(total, flat / total, size=n_resamples)
    return draws.reshape((n_resamples, *table.shape))
