"""A paired sign-flip (randomisation) test over clusters, and the paired difference's cluster jackknife.

Two judges scored on the same units give, per cluster ``c``, term sums ``A_c`` and ``B_c``
(:meth:`Metric.terms` summed over the cluster's units). The statistic is
``D = reduce(sum_c A_c) - reduce(sum_c B_c)``. Under the null hypothesis that the two judges' outcomes are
exchangeable within each cluster (which judge is "A" is a coin toss per cluster), swapping ``A_c`` and
``B_c`` in any set of clusters gives a difference ``D*`` with the same law as ``D``; the two-sided p-value
is the share of the flips with ``|D*| >= |D|``. The test is exact at any number of clusters, where a
percentile bootstrap over few clusters rejects a true null far more often than its level.

- **Exact** when at most :data:`EXACT_MAX_CLUSTERS` clusters differ between the judges: every flip is
  counted. A cluster whose two sums are equal leaves every flip's ``D*`` unchanged, so only the ``G'``
  clusters that differ are flipped, ``2^G'`` flips each standing for ``2^(G - G')``; and a flip and its
  mirror image (every cluster flipped the other way) give ``D*`` and ``-D*``, so half of them are
  computed and count twice. The count includes the identity flip and its mirror image (``D* = -D``), so
  the smallest p the test can give over ``G`` clusters is ``2 / 2^G``: 0.0625 at 5 clusters, where no test
  of this kind can reach p < 0.05. :attr:`SignFlipResult.p_floor` holds that floor.
- **Monte Carlo** otherwise: ``B`` flips drawn uniformly (seeded) and
  ``p = (1 + #{|D*| >= |D|}) / (1 + B)``, itself a valid p-value (its floor is ``1 / (1 + B)``).

Strata need no special case: a flip swaps the two judges' terms *within* one cluster, so every cluster
keeps its units and its strata, and each stratum's share of the data is the same in every flip (the
per-stratum means of a stratified :class:`~mmjudge.stats.Ratio` are recomputed from the swapped sums).
A flip on which the difference is undefined (e.g. a stratum whose denominator sums to 0 for one judge after
the swap) is left out of the count and counted in :attr:`SignFlipResult.n_undefined`. Ties count as
reaching ``|D|`` (within :data:`~mmjudge.stats._bootstrap.TIE_TOLERANCE`), the conservative side.

:func:`paired_jackknife` is the delete-one-cluster jackknife (:func:`mmjudge.stats.jackknife`) of the same
difference, from which ``mmjudge compare`` builds its t interval at few clusters.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import NamedTuple

import numpy as np

from mmjudge.errors import ConfigError
from mmjudge.stats._bootstrap import TIE_TOLERANCE
from mmjudge.stats._jackknife import Spread, jackknife
from mmjudge.stats._outcomes import CLUSTER_CHUNK, Metric, Outcomes, Ratio, _cluster_sums, _draws, _paired

__all__ = ["EXACT_MAX_CLUSTERS", "SignFlipResult", "paired_jackknife", "sign_flip_interval", "sign_flip_test"]

EXACT_MAX_CLUSTERS = 16
"""Up to this many differing clusters every flip is enumerated (2^16 = 65,536 flips); above, flips are drawn."""


class SignFlipResult(NamedTuple):
    """The sign-flip test of ``metric(a) - metric(b)``."""

    difference: float
    """``metric(a) - metric(b)`` on the full sample (NaN when undefined for a judge)."""
    p_value: float
    """Two-sided p-value (NaN when the difference is undefined)."""
    p_floor: float
    """The smallest p-value the test can give at this size: ``2 / 2^G`` for the exact test (``2 /`` the defined
    flips when some are undefined), ``1 / (1 + B)`` for ``B`` defined Monte Carlo flips."""
    exact: bool
    """Whether every flip was enumerated."""
    n_clusters: int
    """Clusters ``G`` carrying the metric for either judge (a unit :meth:`Metric.counted` counts, the scorer's
    rule)."""
    n_differing: int
    """Clusters whose two judges' term sums differ (the only ones a flip changes)."""
    n_flips: int
    """Flips enumerated (``2^n_differing``, the identity included) or drawn."""
    n_undefined: int
    """Of those, flips on which the difference is undefined (left out of the p-value)."""


def sign_flip_test(
    a: Outcomes,
    b: Outcomes,
    metric: Metric,
    *,
    n_flips: int = 10_000,
    seed: int = 0,
    exact_max_clusters: int = EXACT_MAX_CLUSTERS,
) -> SignFlipResult:
    """The paired sign-flip test over clusters of ``metric(a) - metric(b)`` (see the module docstring).

    Args:
        a, b: the two judges' outcomes on the same units in the same clusters (``b`` is reordered to ``a``).
        metric: the key's metric.
        n_flips: flips drawn when the test is not exact.
        seed: seed of the drawn flips.
        exact_max_clusters: enumerate every flip when at most this many clusters differ.

    Raises:
        SchemaError: the units or their clusters differ.
        ConfigError: ``n_flips`` is not positive or ``exact_max_clusters`` is not between 0 and 24.

    >>> o = lambda hits: Outcomes(tuple("abcdef"), tuple("abcdef"), {"hit": np.array(hits), "one": np.ones(6)})
    >>> from mmjudge.stats._outcomes import Ratio
    >>> r = sign_flip_test(o([1.0] * 6), o([0.0] * 6), Ratio("hit", "one"))
    >>> r.difference, r.p_value, r.p_floor, r.exact, r.n_flips
    (100.0, 0.03125, 0.03125, True, 64)
    """
    if n_flips < 1 or not 0 <= exact_max_clusters <= 24:
        raise ConfigError(
            f"sign_flip_test: expected n_flips >= 1 and 0 <= exact_max_clusters <= 24 (2^24 flips), got "
            f"{n_flips} and {exact_max_clusters}"
        )
    sums_a, sums_b = _paired_sums(a, b, metric)
    carrying = _counted_per_cluster(a, b, metric) > 0  # the clusters the scorer counts (Metric.counted)
    total_a, total_b = sums_a.sum(axis=0), sums_b.sum(axis=0)
    sums_a, sums_b = sums_a[carrying], sums_b[carrying]
    g = int(sums_a.shape[0])
    difference = float(metric.reduce(total_a) - metric.reduce(total_b))
    delta = (sums_b - sums_a)[np.any(sums_a != sums_b, axis=1)]
    differing = int(delta.shape[0])
    exact = differing <= exact_max_clusters
    if math.isnan(difference):
        return SignFlipResult(difference, math.nan, math.nan, exact, g, differing, 0, 0)
    if exact:
        flips = _enumerated(differing, delta.shape[1])
        size = 1 << differing
    else:
        flips = _drawn(differing, delta.shape[1], n_flips, seed)
        size = n_flips
    hits, defined = _count(flips, delta, total_a, total_b, metric, difference)
    if exact and differing:
        hits, defined = 2 * hits, 2 * defined  # each enumerated flip and its mirror image (see _enumerated)
    if exact:
        # each enumerated flip stands for 2^(g - differing) flips of all g clusters; identity and mirror are
        # always defined (they give D and -D), so the floor is 2 over the defined flips of all g clusters
        p, floor = hits / defined, math.ldexp(2.0 / defined, -(g - differing))
    else:
        p, floor = (1.0 + hits) / (1.0 + defined), 1.0 / (1.0 + defined)
    return SignFlipResult(difference, float(min(1.0, p)), float(min(1.0, floor)), exact, g, differing, size,
                          size - defined)  # fmt: skip


def sign_flip_interval(
    a: Outcomes,
    b: Outcomes,
    metric: Metric,
    *,
    confidence: float,
    rejects_zero: bool,
    bounds: tuple[float, float],
    n_flips: int = 10_000,
    seed: int = 0,
    exact_max_clusters: int = EXACT_MAX_CLUSTERS,
) -> tuple[float, float]:
    """The interval of ``metric(a) - metric(b)`` made by inverting the sign-flip test: the shifts ``delta`` that
    the test of "the difference is ``delta``" does not reject at ``1 - confidence``, within ``bounds``.

    The test of ``delta`` flips the clusters' contributions to the difference less ``delta`` times each cluster's
    weight ``w_c`` (its share of the key: of the denominator for a rate, within each stratum for a mean over
    strata; of the counted units otherwise): a flip that swaps the judges in the clusters ``S`` gives
    ``D*_S - delta (1 - 2 sum_{c in S} w_c)``, compared with ``D - delta``. At ``delta = 0`` this is
    :func:`sign_flip_test` flip for flip, so the interval holds 0 exactly when that test does not reject:
    ``rejects_zero`` (its decision at ``1 - confidence``) is passed in and taken as the answer at 0, so the two
    never disagree. Every flip of all ``G`` clusters is enumerated up to ``exact_max_clusters`` of them, else
    ``n_flips`` are drawn (the same draws for every ``delta``). Each end is found by bisection between a shift
    the test accepts and one it rejects; an end the test never rejects up to is the bound. NaN ends when the
    difference is undefined.

    >>> o = lambda hits: Outcomes(tuple("abcdefgh"), tuple("abcdefgh"),
    ...                           {"hit": np.array(hits, dtype=float), "one": np.ones(8)})
    >>> from mmjudge.stats._outcomes import Ratio
    >>> low, high = sign_flip_interval(o([1, 1, 1, 1, 1, 1, 1, 0]), o([0, 0, 0, 1, 0, 0, 1, 0]), Ratio("hit", "one"),
    ...                                confidence=0.95, rejects_zero=False, bounds=(-100.0, 100.0))
    >>> round(low, 1) <= 0.0 <= round(high, 1)
    True
    """
    alpha = 1.0 - confidence
    sums_a, sums_b = _paired_sums(a, b, metric)
    counted = _counted_per_cluster(a, b, metric)
    carrying = counted > 0  # the clusters the scorer counts, as sign_flip_test
    total_a, total_b = sums_a.sum(axis=0), sums_b.sum(axis=0)
    sums_a, sums_b = sums_a[carrying], sums_b[carrying]
    difference = float(metric.reduce(total_a) - metric.reduce(total_b))
    if math.isnan(difference):
        return math.nan, math.nan
    weights = _cluster_weights(metric, sums_a, sums_b, counted[carrying])
    g = int(sums_a.shape[0])
    flips = _enumerated(g, sums_a.shape[1]) if g <= exact_max_clusters else _drawn(g, sums_a.shape[1], n_flips, seed)
    stars, slopes = _flipped(flips, sums_b - sums_a, weights, total_a, total_b, metric)
    exact = g <= exact_max_clusters

    def accepted(delta: float) -> bool:
        if delta == 0.0:
            return not rejects_zero
        bar = abs(difference - delta) - TIE_TOLERANCE * (1.0 + abs(difference - delta))
        hits = int(np.sum(np.abs(stars - delta * slopes) >= bar))
        p = hits / stars.size if exact else (1.0 + hits) / (1.0 + stars.size)
        return p >= alpha

    low_bound, high_bound = bounds
    inside = min(max(difference, low_bound), high_bound)  # the difference's own shift: always accepted
    return _far_end(accepted, inside, low_bound, rejects_zero), _far_end(accepted, inside, high_bound, rejects_zero)


def _far_end(accepted: Callable[[float], bool], inside: float, bound: float, rejects_zero: bool) -> float:
    """The end of the accepted shifts from the difference ``inside`` towards ``bound``. When 0 lies on the way,
    the test's own decision there fixes the side of 0 the end falls on: rejected, the end lies between 0 and the
    difference; accepted, beyond 0 (``bound`` itself when the test accepts it)."""
    zero_between = inside != 0.0 and min(inside, bound) <= 0.0 <= max(inside, bound)
    if zero_between and rejects_zero:
        return _bisect(accepted, inside, 0.0)
    if accepted(bound):
        return bound
    return _bisect(accepted, 0.0 if zero_between else inside, bound)


def _bisect(accepted: Callable[[float], bool], inner: float, outer: float, steps: int = 48) -> float:
    """Bisection between an accepted shift ``inner`` and a rejected one ``outer``; the accepted side."""
    for _ in range(steps):
        middle = 0.5 * (inner + outer)
        if middle in (inner, outer):
            break
        if accepted(middle):
            inner = middle
        else:
            outer = middle
    return inner


def _cluster_weights(metric: Metric, sums_a: np.ndarray, sums_b: np.ndarray, counted: np.ndarray) -> np.ndarray:
    """Each cluster's share of the key (summing to 1): of the two judges' mean denominator for a pooled rate, the
    mean over strata of its share within each for a rate averaged over strata; of the counted units for any
    other metric."""

    if isinstance(metric, Ratio):
        k = sums_a.shape[1] // 3
        den = 0.5 * (sums_a[:, 2 * k :] + sums_b[:, 2 * k :])
        totals = den.sum(axis=0)
        used = totals > 0
        if used.any():
            shares = den[:, used] / totals[used]
            return np.asarray(shares.mean(axis=1), dtype=np.float64)
    units = counted.astype(np.float64)
    return units / units.sum() if units.sum() > 0 else np.full(units.size, 1.0 / max(1, units.size))


def _counted_per_cluster(a: Outcomes, b: Outcomes, metric: Metric) -> np.ndarray:
    """Units either judge's metric counts, per cluster (in :func:`_paired_sums`' cluster order)."""
    b = _paired(a, b)
    draws = _draws(a, stratify=False)
    either = (metric.counted(a) | metric.counted(b)).astype(np.float64)[:, None]
    return _cluster_sums(either, draws)[:, 0]


def _flipped(
    flips: Iterator[np.ndarray],
    delta: np.ndarray,
    weights: np.ndarray,
    total_a: np.ndarray,
    total_b: np.ndarray,
    metric: Metric,
) -> tuple[np.ndarray, np.ndarray]:
    """Each defined flip's difference ``D*`` and the slope ``1 - 2 sum_{flipped} w_c`` of its shift."""
    stars, slopes = [], []
    for rows in flips:
        shift = rows @ delta
        values = metric.reduce(total_a + shift) - metric.reduce(total_b - shift)
        ok = ~np.isnan(values)
        stars.append(values[ok])
        slopes.append((1.0 - 2.0 * (rows @ weights))[ok])
    return np.concatenate(stars), np.concatenate(slopes)


def paired_jackknife(a: Outcomes, b: Outcomes, metric: Metric, *, stratify: bool = True) -> Spread:
    """The delete-one-cluster jackknife (:func:`mmjudge.stats.jackknife`) of ``metric(a) - metric(b)``.

    The terms are A's and B's side by side and the statistic is ``reduce(A) - reduce(B)``, so leaving a
    cluster out removes it from both judges; clusters nested in strata are handled as
    :func:`mmjudge.stats.jackknife_metrics` handles them.

    >>> o = lambda hits: Outcomes(tuple("abcd"), tuple("abcd"), {"hit": np.array(hits), "one": np.ones(4)})
    >>> from mmjudge.stats._outcomes import Ratio
    >>> s = paired_jackknife(o([1.0, 1, 1, 0]), o([0.0, 1, 0, 0]), Ratio("hit", "one"))
    >>> s.value, round(s.variance, 4), s.df
    (50.0, 833.3333, 3)
    """
    b = _paired(a, b)
    draws = _draws(a, stratify)
    terms_a, terms_b = metric.terms(a), metric.terms(b)
    m = terms_a.shape[1]

    def difference(sums: np.ndarray) -> np.ndarray:
        return np.asarray(metric.reduce(sums[..., :m]) - metric.reduce(sums[..., m:]), dtype=np.float64)

    terms = np.concatenate([terms_a, terms_b], axis=1)
    counted = metric.counted(a) | metric.counted(b)  # the scorer's units, so compare counts its clusters
    return jackknife(terms, draws.codes, difference, draws.groups or None, counted=counted)


def _paired_sums(a: Outcomes, b: Outcomes, metric: Metric) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster term sums ``(G, m)`` of each judge."""
    b = _paired(a, b)
    draws = _draws(a, stratify=False)
    return _cluster_sums(metric.terms(a), draws), _cluster_sums(metric.terms(b), draws)


def _enumerated(g: int, m: int) -> Iterator[np.ndarray]:
    """Half the flips of ``g`` clusters (the last cluster unflipped), as 0/1 rows (bit ``c`` of the flip's number
    flips cluster ``c``); ``[[]]`` (the identity) for ``g = 0``.

    The other half are their mirror images: flipping every cluster turns ``(A*, B*)`` into ``(B*, A*)``, so a
    flip and its mirror have the same ``|D*|`` and are defined together; each enumerated flip counts twice.
    """
    chunk = max(1, CLUSTER_CHUNK // (g + 2 * m + 1))
    powers = np.left_shift(1, np.arange(g, dtype=np.int64))
    total = 1 << max(0, g - 1)
    for start in range(0, total, chunk):
        numbers = np.arange(start, min(total, start + chunk), dtype=np.int64)
        yield ((numbers[:, None] & powers) != 0).astype(np.float64)


def _drawn(g: int, m: int, n_flips: int, seed: int) -> Iterator[np.ndarray]:
    """``n_flips`` uniform flips of ``g`` clusters."""
    rng = np.random.default_rng(seed)
    chunk = max(1, CLUSTER_CHUNK // (g + 2 * m + 1))
    for start in range(0, n_flips, chunk):
        yield rng.integers(0, 2, size=(min(chunk, n_flips - start), g)).astype(np.float64)


def _count(
    flips: Iterator[np.ndarray],
    delta: np.ndarray,
    total_a: np.ndarray,
    total_b: np.ndarray,
    metric: Metric,
    difference: float,
) -> tuple[int, int]:
    """Flips with ``|D*| >= |D|`` (ties included) and flips with ``D*`` defined."""
    bar = abs(difference) - TIE_TOLERANCE * (1.0 + abs(difference))
    hits = defined = 0
    for rows in flips:
        shift = rows @ delta  # a flipped cluster gives A its B sums, and B its A sums
        values = np.abs(metric.reduce(total_a + shift) - metric.reduce(total_b - shift))
        ok = ~np.isnan(values)
        defined += int(ok.sum())
        hits += int(np.sum(values[ok] >= bar))
    return hits, defined
