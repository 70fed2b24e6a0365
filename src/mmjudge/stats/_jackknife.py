"""Delete-one-cluster jackknife standard errors and the intervals built on them.

Why not percentile bootstrap intervals: a percentile interval is the spread of the resampled values, so a key
whose every resample gives the same value (a perfect judge: 100 in every resample; a rate of 0) gets a
zero-width interval, and with few clusters the resampled spread is too narrow (it lacks the ``G / (G - 1)``
factor and the t quantile). The scorers' intervals are built instead from

1. **a bias-reduced cluster jackknife variance** of the key (:func:`jackknife`): the key is recomputed with
   each independent cluster left out in turn and ``v = sum_c (1 - h_c) (theta_(c) - mean)^2``, ``h_c`` the
   cluster's share of the units (within each stratum and summed when clusters nest in strata). With equal
   clusters this is the usual jackknife ``(g - 1) / g * sum (theta_(c) - mean)^2``; with unequal ones the
   ``(1 - h_c)`` weights turn the jackknife's CV3-type variance (which over-corrects a large cluster by
   ``1 / (1 - h_c)^2``) into the bias-reduced CR2 variance of Bell and McCaffrey (2002). Exact (no
   resampling noise), one reduction per cluster. In a mean of the rates of strata no stratum's variance is
   less than its binomial one with Price and Bonett's pseudo-counts (:func:`mmjudge.stats.rates_floor`);
2. **a t quantile with Bell and McCaffrey's degrees of freedom** (:func:`rate_df`): the effective number of
   clusters ``(sum n_c)^2 / sum n_c^2`` less the strata, at most ``g - H`` (Imbens and Kolesár 2016 find
   CR2 with these degrees of freedom the reliable choice with few or unequal clusters);
3. for keys that are rates (0 to 100): **a Wilson score interval on the effective sample size**, repaired next
   to 0 and 1 as Brown, Cai and DasGupta (2001) recommend (a Poisson bound for 1 to 3 successes or failures),
   ``n_eff = p (1 - p) / v`` (Korn and Graubard 1998, "Confidence intervals for proportions with small
   expected number of positive counts estimated from survey data"), with ``n_eff`` at most the number of
   units, and the units themselves when ``p`` is 0 or 100 or ``v`` is 0. It never collapses at 0 or 100:
   a perfect judge on 40 pairs of 5 prompts gets ``[83.8, 100]``, not ``[100, 100]``;
4. for other keys (differences, drifts, kappa): ``value +- t * sqrt(v)`` (:func:`t_interval`).

The coverage of these intervals is measured in ``benchmarks/bench_coverage.py`` (``docs/performance.md``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from mmjudge._deps import scipy_stats
from mmjudge.errors import SchemaError
from mmjudge.stats._proportion import wilson_interval

__all__ = [
    "Spread",
    "effective_clusters",
    "jackknife",
    "mean_interval",
    "rate_df",
    "t_interval",
    "wilson_effective",
]


class Spread(NamedTuple):
    """A statistic's value and its cluster jackknife variance."""

    value: float
    """The statistic on the whole sample."""
    variance: float
    """Jackknife variance (NaN when fewer than two clusters carry the statistic)."""
    df: int
    """Degrees of freedom: clusters carrying the statistic minus the strata they fall in."""
    n_clusters: int
    """Clusters carrying the statistic (those whose terms are not all zero)."""
    n_units: int
    """Units carrying the statistic."""
    stratified: bool
    """Whether the variance was summed within strata of nested clusters."""
    size_moments: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    """``sum n_c^k`` for ``k = 1..4`` over the clusters' unit counts ``n_c`` (what
    :func:`effective_clusters` reads)."""
    n_strata: int = 1
    """Strata the variance was summed over."""
    largest: float = 0.0
    """Units of the statistic in its largest cluster (what a dominant-cluster check reads)."""

    @property
    def independent(self) -> bool:
        """Whether every cluster carries one unit of the statistic (its units are then independent draws,
        whatever other statistics the clusters share)."""
        return self.size_moments[0] > 0 and self.size_moments[0] == self.size_moments[1]


def jackknife(
    terms: np.ndarray,
    codes: np.ndarray,
    reduce: Callable[[np.ndarray], np.ndarray],
    groups: list[np.ndarray] | None = None,
    *,
    counted: np.ndarray | None = None,
    floor: Callable[[np.ndarray], float] | None = None,
) -> Spread:
    """The delete-one-cluster jackknife of ``reduce(terms.sum(axis=0))``.

    Args:
        terms: per-unit terms ``(n, m)``; the statistic is ``reduce`` of their sums (``reduce`` maps
            ``(..., m) -> (...)``, NaN where undefined).
        codes: each unit's cluster code ``0 .. G-1``.
        reduce: the statistic of term sums.
        groups: the cluster codes of each stratum when clusters nest in strata (``None``: one stratum).
        counted: which units the statistic counts (default: those whose terms are not all zero); a rate does
            not count a unit outside its denominator.
        floor: the least variance a stratum can have, from the term sums of its clusters (of all clusters
            when the clusters are taken as one stratum): each stratum's jackknife variance is raised to it
            (:func:`mmjudge.stats.rates_floor` for a mean of rates, whose small strata often show no spread).

    Only clusters with a counted unit count (a key over one intervention is not made more precise by the other
    interventions' prompts). A stratum with a single such cluster cannot be jackknifed within
    itself; then the clusters are taken as one stratum.

    >>> hits = np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 1.0], [1.0, 1.0]])
    >>> s = jackknife(hits, np.array([0, 1, 2, 3]), lambda t: 100 * t[..., 0] / t[..., 1])
    >>> s.value, round(s.variance, 4), s.df, s.n_clusters
    (75.0, 625.0, 3, 4)
    """
    terms = np.asarray(terms, dtype=np.float64)
    codes = np.asarray(codes, dtype=np.int64)
    if terms.ndim != 2 or codes.shape != (terms.shape[0],):
        raise SchemaError(
            f"jackknife: expected terms (n, m) and n cluster codes, got {terms.shape} and {codes.shape}"
        )
    n_codes = int(codes.max()) + 1 if codes.size else 0
    sums = np.zeros((n_codes, terms.shape[1]))
    np.add.at(sums, codes, terms)
    total = terms.sum(axis=0)
    value = float(reduce(total))
    counted = np.any(terms != 0.0, axis=1) if counted is None else np.asarray(counted, dtype=bool)
    per_unit = np.bincount(codes[counted], minlength=n_codes)
    active = np.flatnonzero(per_unit > 0)
    units = int(counted.sum())
    strata = [np.intersect1d(g, active) for g in groups] if groups else [active]
    strata = [s for s in strata if s.size]
    stratified = len(strata) > 1 and all(s.size >= 2 for s in strata)
    if not stratified:
        strata = [active]
    per_cluster = per_unit[active].astype(np.float64)
    moments = (float(per_cluster.sum()), *(float(np.sum(per_cluster**k)) for k in (2, 3, 4)))
    replicates = np.asarray(reduce(total[None, :] - sums[active]), dtype=np.float64)
    by_code = dict(zip(active.tolist(), replicates.tolist(), strict=True))
    size_of = dict(zip(active.tolist(), per_cluster.tolist(), strict=True))
    variance, df = 0.0, 0
    for stratum in strata:
        values = np.array([by_code[c] for c in stratum.tolist()])
        sizes = np.array([size_of[c] for c in stratum.tolist()])
        keep = ~np.isnan(values)
        order = np.lexsort((sizes[keep], values[keep]))  # sums in one order: the result ignores row order
        values, sizes = values[keep][order], sizes[keep][order]
        g = values.size
        if g < 2:
            continue
        share = sizes / sizes.sum() if sizes.sum() > 0 else np.full(g, 1.0 / g)
        spread = float(np.sum((1.0 - share) * (values - values.mean()) ** 2))
        variance += spread if floor is None else max(spread, floor(sums[stratum].sum(axis=0)))
        df += g - 1
    if df == 0:
        variance = math.nan
    largest = float(per_cluster.max()) if per_cluster.size else 0.0
    return Spread(value, variance, df, int(active.size), units, stratified, moments, len(strata), largest)  # type: ignore[arg-type]


def effective_clusters(moments: tuple[float, float, float, float], rho: float) -> float:
    """Carter, Schnepel and Steigerwald's (2017) effective number of clusters for clusters of sizes ``n_c`` and
    intraclass correlation ``rho``: ``(sum a_c)^2 / sum a_c^2`` with ``a_c = n_c (1 + (n_c - 1) rho)``, the
    variance each cluster brings to a pooled rate. Equal sizes give the number of clusters; a few large
    clusters with a high ``rho`` give few.

    >>> effective_clusters((10.0, 10.0, 10.0, 10.0), 0.5)  # ten clusters of one unit
    10.0
    >>> round(effective_clusters((13.0, 103.0, 1003.0, 10003.0), 1.0), 2)  # sizes 10, 1, 1, 1
    1.06
    """
    s1, s2, s3, s4 = moments
    total = (1.0 - rho) * s1 + rho * s2
    squares = (1.0 - rho) ** 2 * s2 + 2.0 * rho * (1.0 - rho) * s3 + rho**2 * s4
    return total * total / squares if squares > 0 else 0.0


def _t(df: int, confidence: float) -> float:
    return float(scipy_stats().t.ppf(0.5 + confidence / 2.0, df))


def t_interval(value: float, variance: float, df: int, confidence: float) -> tuple[float, float]:
    """``value +- t_{df} * sqrt(variance)`` (NaN ends when the variance or ``df`` is missing).

    >>> [round(x, 3) for x in t_interval(10.0, 4.0, 4, 0.95)]
    [4.447, 15.553]
    """
    if df < 1 or not math.isfinite(variance) or not math.isfinite(value):
        return math.nan, math.nan
    half = _t(df, confidence) * math.sqrt(max(variance, 0.0))
    return value - half, value + half


def rate_df(spread: Spread) -> int:
    """Degrees of freedom of the t quantile: Bell and McCaffrey's under working independence, the effective
    number of clusters ``(sum n_c)^2 / sum n_c^2`` (:func:`effective_clusters` at ``rho = 0``) less the strata,
    at most the jackknife's (clusters minus strata) and at least 1.

    With clusters of equal size this is ``g - H``; with a few large clusters (where a t on ``g - 1`` still
    under-covers: 86-92% in ``benchmarks/bench_coverage.py``) it falls towards the few that carry the key.

    >>> s = Spread(50.0, 4.0, 29, 30, 30, False, (30.0, 30.0, 30.0, 30.0), 1)
    >>> rate_df(s)
    29
    >>> rate_df(s._replace(size_moments=(57.0, 813.0, 0.0, 0.0)))  # 29 clusters of one unit and one of 28
    2
    """
    if spread.df < 1:
        return spread.df
    effective = effective_clusters(spread.size_moments, 0.0) - spread.n_strata
    return max(1, min(spread.df, int(math.floor(effective))))


def wilson_effective(
    value: float, variance: float, n_units: int, df: int, confidence: float, scale: float = 100.0
) -> tuple[float, float]:
    """Wilson score interval of a rate ``value`` (0 to ``scale``) on the effective sample size, t quantile.

    ``n_eff = p (1 - p) / v`` for ``p = value / scale`` and ``v = variance / scale**2``, kept between 1 and
    ``n_units``; ``n_units`` itself when ``p`` is 0 or 1 or ``v`` is 0 (nothing says the units are less
    informative than independent ones). The Wilson bounds use ``t_{df}`` in place of ``z``.

    >>> [round(x, 1) for x in wilson_effective(100.0, 0.0, 40, 4, 0.95)]
    [83.8, 100.0]
    >>> [round(x, 2) for x in wilson_effective(50.0, 25.0, 400, 10_000, 0.95)]
    [40.38, 59.62]
    """
    if df < 1 or n_units < 1 or not math.isfinite(value):
        return math.nan, math.nan
    p = min(max(value / scale, 0.0), 1.0)
    v = variance / scale**2 if math.isfinite(variance) else 0.0
    n_eff = (
        float(n_units) if (v <= 0.0 or p in (0.0, 1.0)) else min(max(p * (1.0 - p) / v, 1.0), float(n_units))
    )
    t = _t(df, confidence)
    t2 = t * t
    denom = 1.0 + t2 / n_eff
    centre = (p + t2 / (2.0 * n_eff)) / denom
    half = t * math.sqrt(p * (1.0 - p) / n_eff + t2 / (4.0 * n_eff * n_eff)) / denom
    low = 0.0 if p == 0.0 else min(max(centre - half, 0.0), p)
    high = 1.0 if p == 1.0 else max(min(centre + half, 1.0), p)
    low, high = _poisson_ends(p, n_eff, low, high, confidence)
    return scale * low, scale * high


def _poisson_ends(p: float, n: float, low: float, high: float, confidence: float) -> tuple[float, float]:
    """Brown, Cai and DasGupta's (2001) repair of the Wilson interval next to 0 and 1: with ``x = p n`` of 1 or 2
    successes (up to 3 from ``n > 50``, none above ``n = 100``) the Wilson lower end lies above the true rate
    too often (a 20-trial rate of 0.5% covered 90%); it is lowered to the Poisson bound ``chi2_{2x}(alpha) / 2n``,
    and the upper end mirrored for ``x`` failures. Only ever widens the interval.

    An effective sample size (:func:`wilson_effective`) is rarely whole, nor is ``x``: the repair is made
    continuous in both. The Poisson bound is the gamma quantile at any ``x > 0``; it applies in full up to
    ``x = m`` and fades linearly to nothing at ``x = m + 1``, with ``m`` (:func:`_repaired_counts`) 2 up to
    ``n = 50``, 3 from ``n = 51`` to 100 and 0 from ``n = 101``, linear in between. At whole ``x`` and ``n``
    this is the rule above; elsewhere nothing jumps (at a rate of 2.5% an ``n`` of 40.0 gave a lower end of
    0.128% and 40.5 gave 0.421%).

    >>> [round(100 * _poisson_ends(0.025, n, 0.00421, 0.13, 0.95)[0], 3) for n in (40.0, 40.5)]
    [0.128, 0.132]
    """
    most = _repaired_counts(n)
    if most <= -1.0:
        return low, high
    gamma = scipy_stats().gamma
    alpha = 1.0 - confidence
    for count, flip in ((p * n, False), ((1.0 - p) * n, True)):
        weight = min(max(most + 1.0 - count, 0.0), 1.0)
        if count <= 0.0 or weight <= 0.0:
            continue
        bound = float(gamma.ppf(alpha, count)) / n
        if flip:
            high = max(high, high + weight * (1.0 - bound - high))
        else:
            low = min(low, low - weight * (low - bound))
    return low, high


def _repaired_counts(n: float) -> float:
    """Up to how many successes (or failures) :func:`_poisson_ends` repairs in full at ``n`` trials: 2 up to
    50, 3 from 51 to 100, 0 from 101, linear between those whole numbers (-1 from 102: the fade-out of
    ``x < 1`` is over).

    >>> [_repaired_counts(n) for n in (20, 50, 50.5, 51, 100, 100.5, 101, 200)]
    [2.0, 2.0, 2.5, 3.0, 3.0, 1.5, 0.0, -1.0]
    """
    if n <= 50:
        return 2.0
    if n <= 51:
        return 2.0 + (n - 50)
    if n <= 100:
        return 3.0
    if n <= 101:
        return 3.0 - 3.0 * (n - 100)
    return max(-1.0, -(n - 101))


def wilson_repaired(successes: int, n: int, confidence: float) -> tuple[float, float]:
    """The Wilson score interval of ``successes / n`` (``z`` quantile) with :func:`_poisson_ends`' repair next to
    0 and 1, as fractions.

    >>> [round(x, 4) for x in wilson_repaired(1, 20, 0.95)]  # plain Wilson: [0.0089, 0.2361]
    [0.0026, 0.2361]
    >>> [round(x, 4) for x in wilson_repaired(10, 20, 0.95)]
    [0.2993, 0.7007]
    """

    ci = wilson_interval(successes, n, confidence=confidence)
    return _poisson_ends(successes / n, float(n), float(ci.low), float(ci.high), confidence)


def mean_interval(
    spread: Spread, confidence: float, bounds: tuple[float, float], cluster: str = "cluster"
) -> tuple[float, float, str]:
    """The interval of a mean-like statistic with known ``bounds`` (a drift in code points, a kappa), and its
    recorded method: ``value +- t * sqrt(v)`` (Bell-McCaffrey degrees of freedom, :func:`rate_df`) clipped to
    the bounds; when the clusters show no spread at all (``v = 0``: every item drifts alike, every item is
    unanimous) the Wilson bound of the value rescaled to ``bounds`` over the units, which a value at one
    end of its range cannot turn into certainty. NaN ends with fewer than two clusters.

    >>> s = Spread(0.0, 0.0, 19, 20, 80, False, (80.0, 320.0, 1280.0, 5120.0), 1)
    >>> low, high, how = mean_interval(s, 0.95, (-3.0, 3.0), "item")
    >>> round(low, 2), round(high, 2), how
    (-0.68, 0.68, 'Wilson bound over 80 units rescaled to [-3, 3] (no spread among items)')
    """
    low_bound, high_bound = bounds
    df = rate_df(spread)
    if spread.df >= 1 and math.isfinite(spread.variance) and spread.variance > 0:
        low, high = t_interval(spread.value, spread.variance, df, confidence)
        return (
            max(low, low_bound),
            min(high, high_bound),
            f"t interval (jackknife over {cluster}s; t quantile)",
        )
    width = high_bound - low_bound
    low, high = wilson_effective(spread.value - low_bound, 0.0, spread.n_units, max(df, 1), confidence, width)
    how = f"Wilson bound over {spread.n_units} units rescaled to [{low_bound:g}, {high_bound:g}] (no spread among {cluster}s)"
    return low + low_bound, high + low_bound, how
