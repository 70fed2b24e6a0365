"""Simultaneous confidence sets for the ranks of several judges on one key, from one paired cluster bootstrap.

A leaderboard that marks each row "worse than the best" from a separate two-judge test against the row that
came out on top tests a hypothesis chosen by the data: the top row is the one whose noise was luckiest, so
the tests against it reject too often, and a Holm correction over them does not repair that (among six equal
judges on 50 prompts that rule starred 15.6% of 500 simulated boards, ``benchmarks/_coverage_ranks.py``). :func:`rank_sets` follows Mogstad, Romano, Shaikh &
Wilhelm (2024, "Inference for ranks with applications to mobility across neighbourhoods and academic
achievement across countries", *Review of Economic Studies*), the procedure behind Chatbot Arena's rank
intervals:

1. one cluster bootstrap for all judges: every resample draws the clusters once (within their strata, as
   :func:`~mmjudge.stats.bootstrap_metrics` does) and every judge's metric is computed on that same draw;
2. every pair ``(j, k)`` is studentised by the bootstrap standard deviation ``s_jk`` of its difference, and
   the critical value ``c`` is the ``confidence`` quantile over resamples of the largest
   ``|(d*_jk - d_jk) / s_jk|`` over all pairs (max-|t|), so that with probability ``confidence`` no pair's
   difference is off by more than ``c`` of its standard deviations, whichever pairs are tied;
3. with ``G`` clusters in ``H`` strata drawn apart (``H = 1`` otherwise), each ``s_jk`` is scaled by
   ``sqrt(G / (G - H))`` (a cluster bootstrap's variance lacks that factor) and ``c`` is moved to the ``t``
   quantile with ``G - H`` degrees of freedom of the same normal tail probability (the bootstrap treats each
   ``s_jk`` as known; it is estimated from ``G`` clusters). Without this step six equal judges on 50 prompts
   got a star on 10.2% of 1,000 boards, with it on 5.8% of 2,000 (se 0.5); on 20 prompts 14.0% and 7.7% of
   600 (``benchmarks/_coverage_ranks.py``);
4. ``k`` is *significantly better* than ``j`` when ``d_kj / s_jk > c`` in the key's direction; the rank set
   of ``j`` is ``[1 + #{k better than j}, N - #{k worse than j}]``.

With probability ``confidence`` (asymptotically, in the number of clusters) every judge's rank set holds its
true rank at once; a judge whose lower rank bound exceeds 1 is worse than the best at that family-wise level.
A pair whose difference is the same on every resample (one judge right wherever the other is wrong) has
``s_jk = 0``: it is significant when the difference is not 0. A resample on which a judge's metric is undefined
(a stratum left without a denominator) leaves that judge's pairs out of that resample only. Pairs are
processed in chunks of resamples (:data:`PAIR_CHUNK` differences at a time), so a board of a few hundred rows
never holds its ``N x N x B`` array.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from mmjudge._deps import scipy_stats
from mmjudge.errors import SchemaError
from mmjudge.stats._bootstrap import TIE_TOLERANCE
from mmjudge.stats._outcomes import KeyOutcomes, _cluster_sums, _draws, _resampled_sums

__all__ = ["PAIR_CHUNK", "RankSet", "RankSets", "rank_sets"]

PAIR_CHUNK = 2_000_000
"""Pair differences held in memory at once (resamples x pairs)."""


class RankSet(NamedTuple):
    """The ranks a judge may hold: from ``lower`` (its best possible rank) to ``upper``."""

    lower: int
    """1 + the judges significantly better than it."""
    upper: int
    """The number of judges ranked minus the judges significantly worse than it."""

    def text(self) -> str:
        """``"1–3"``, or ``"2"`` when the set is one rank.

        >>> RankSet(1, 3).text(), RankSet(2, 2).text()
        ('1–3', '2')
        """
        return str(self.lower) if self.lower == self.upper else f"{self.lower}–{self.upper}"


@dataclass(frozen=True)
class RankSets:
    """Simultaneous rank sets of several judges on one key (:func:`rank_sets`), in the judges' order."""

    values: tuple[float, ...]
    """Each judge's metric on the full sample (NaN: undefined, and left out of the ranking)."""
    sets: tuple[RankSet | None, ...]
    """Each judge's rank set (``None`` where the value is undefined or nothing could be resampled)."""
    better: tuple[int, ...]
    """How many judges are significantly better than each."""
    worse: tuple[int, ...]
    """How many judges are significantly worse than each."""
    critical: float
    """The max-|t| critical value (NaN when no pair varies over the resamples)."""
    confidence: float
    """Family-wise coverage of the sets together."""
    n_resamples: int
    """Resamples drawn."""
    n_valid: int
    """Resamples on which at least one varying pair is defined (the quantile's sample)."""
    n_units: int
    """Units paired."""
    n_clusters: int
    """Independent clusters resampled."""
    method: str
    """How the sets were made, e.g. ``max-|t| simultaneous rank sets, cluster bootstrap over prompts ...``."""
    sd: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)), compare=False, repr=False)
    """``(N, N)`` studentising standard deviation of each pair's difference (scaled as step 3 says; 0 for a
    difference equal on every resample, NaN where undefined)."""

    def worse_than_best(self, index: int) -> bool:
        """Whether some judge is significantly better than judge ``index`` (its lower rank bound exceeds 1)."""
        ranked = self.sets[index]
        return ranked is not None and ranked.lower > 1

    def interval(self, j: int, k: int) -> tuple[float, float, float]:
        """``(difference, low, high)``: judge ``j`` minus judge ``k`` with its simultaneous interval
        ``difference +- critical * sd`` (all the sets' pairs hold their true differences together at
        :attr:`confidence`; NaN where undefined)."""
        difference = self.values[j] - self.values[k]
        sd = float(self.sd[j, k]) if self.sd.size else math.nan
        half = 0.0 if sd == 0.0 else self.critical * sd
        return difference, difference - half, difference + half


def rank_sets(
    judges: Sequence[KeyOutcomes],
    *,
    higher_is_better: bool = True,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
    stratify: bool = True,
) -> RankSets:
    """Simultaneous ``confidence`` rank sets of ``judges`` (the module docstring says how).

    Args:
        judges: each judge's outcomes of the same key (same units, clusters, strata and metric; the units
            are aligned to the first judge's order).
        higher_is_better: the key's direction.
        n_resamples, confidence, seed, stratify: the shared cluster bootstrap (deterministic in ``seed``).

    Raises:
        SchemaError: the judges' keys, metrics, units, clusters or strata differ.

    >>> from mmjudge.stats import Outcomes, Ratio
    >>> def judge(right):  # the first ``right`` of 20 independent items right
    ...     units = tuple("abcdefghijklmnopqrst")
    ...     o = Outcomes(units, units, {"hit": (np.arange(20) < right).astype(float), "one": np.ones(20)})
    ...     return KeyOutcomes("acc", o, Ratio("hit", "one"))
    >>> r = rank_sets([judge(19), judge(18), judge(6)], n_resamples=500)
    >>> [s.text() for s in r.sets], r.better, r.worse_than_best(1), r.worse_than_best(2)
    (['1–2', '1–2', '3'], (0, 0, 2), False, True)
    """
    judges = _aligned(judges)
    n = len(judges)
    first = judges[0].outcomes if judges else None
    n_clusters = first.n_clusters if first is not None else 0
    values, replicates, strata = _replicates(judges, n_resamples, seed, stratify)
    defined = np.flatnonzero(~np.isnan(values))
    better, worse = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    sets: list[RankSet | None] = [None] * n
    critical, n_valid, sd = math.nan, 0, np.full((n, n), np.nan)
    if n_clusters > strata and n_resamples > 0 and defined.size:
        sign = 1.0 if higher_is_better else -1.0
        wins, scale, critical, n_valid = _significant(sign * values[defined], sign * replicates[:, defined],
                                                      confidence, n_clusters - strata, strata)  # fmt: skip
        sd[np.ix_(defined, defined)] = scale
        better[defined], worse[defined] = wins.sum(axis=0), wins.sum(axis=1)
        for j in defined.tolist():
            sets[j] = RankSet(1 + int(better[j]), defined.size - int(worse[j]))
    what = "units" if first is None else f"{first.unit}s" if first.independent else f"{first.cluster_name}s"
    method = (f"max-|t| simultaneous rank sets (Mogstad et al. 2024), one cluster bootstrap over {what}"
              f"{' (stratified)' if strata > 1 else ''} for all judges, {n_resamples} resamples; t quantile")  # fmt: skip
    return RankSets(
        tuple(float(v) for v in values), tuple(sets), tuple(int(b) for b in better), tuple(int(w) for w in worse),
        float(critical), confidence, n_resamples, n_valid, len(first.units) if first is not None else 0, n_clusters,
        method, sd,
    )  # fmt: skip


def _aligned(judges: Sequence[KeyOutcomes]) -> list[KeyOutcomes]:
    """The judges with their units in the first judge's order (``SchemaError`` when they cannot be paired)."""
    if not judges:
        return []
    first = judges[0]
    out = [first]
    for other in judges[1:]:
        if other.key != first.key or other.metric.to_json() != first.metric.to_json():
            raise SchemaError(
                f"cannot rank {other.key!r} beside {first.key!r}: expected one key and one metric"
            )
        same = other.outcomes.units == first.outcomes.units  # the usual case: no copy of the units needed
        outcomes = other.outcomes if same else other.outcomes.reordered(first.outcomes.units)
        if outcomes.clusters != first.outcomes.clusters or outcomes.strata != first.outcomes.strata:
            raise SchemaError(f"{first.key}: the judges' units fall into different clusters or strata; "
                              "expected the same reference rows")  # fmt: skip
        out.append(other if same else KeyOutcomes(other.key, outcomes, other.metric))
    return out


def _replicates(
    judges: Sequence[KeyOutcomes], n_resamples: int, seed: int, stratify: bool
) -> tuple[np.ndarray, np.ndarray, int]:
    """``(values (N,), replicates (B, N), strata drawn apart (1: none))``: every judge's metric on the full
    sample and on each resample of one shared cluster draw (the judges' terms side by side, drawn together)."""
    if not judges or not judges[0].outcomes.units:
        return np.full(len(judges), np.nan), np.empty((0, len(judges))), 1
    draws = _draws(judges[0].outcomes, stratify)
    values, per_cluster = np.empty(len(judges)), []
    for k, judge in enumerate(judges):  # one judge's per-unit terms at a time: only cluster sums are kept
        terms = judge.metric.terms(judge.outcomes)
        values[k] = float(judge.metric.reduce(terms.sum(axis=0)))
        per_cluster.append(_cluster_sums(terms, draws))
    edges = np.cumsum([0, *(t.shape[1] for t in per_cluster)])
    replicates = np.empty((n_resamples, len(judges)))
    if n_resamples > 0:
        sums = np.concatenate(per_cluster, axis=1)
        del per_cluster
        done = 0
        for chunk in _resampled_sums(sums, draws, n_resamples, seed):
            for k, (judge, lo, hi) in enumerate(zip(judges, edges[:-1], edges[1:], strict=True)):
                replicates[done : done + len(chunk), k] = judge.metric.reduce(chunk[:, lo:hi])
            done += len(chunk)
    return values, replicates, max(1, len(draws.groups))


def _on_t_scale(critical: float, df: int) -> float:
    """The ``t(df)`` quantile of the normal tail probability of ``critical``: the bootstrap's max-|t| value
    treats each pair's standard deviation as known; with ``df`` clusters' degrees of freedom it is estimated.

    >>> round(_on_t_scale(1.959964, 10**6), 3), round(_on_t_scale(1.959964, 9), 3)
    (1.96, 2.262)
    """

    st = scipy_stats()
    return float(st.t.ppf(st.norm.cdf(critical), df))


def _pair_chunks(values: np.ndarray, replicates: np.ndarray) -> Iterator[np.ndarray]:
    """Chunks ``(resamples, pairs)`` of the deviations ``d*_jk - d_jk`` of the pairs ``j < k``
    (``np.triu_indices`` order), at most :data:`PAIR_CHUNK` values at a time; NaN where a judge is undefined."""
    first, second = np.triu_indices(values.size, 1)
    full = values[first] - values[second]
    rows = max(1, PAIR_CHUNK // max(1, full.size))
    for start in range(0, replicates.shape[0], rows):
        block = replicates[start : start + rows]
        yield block[:, first] - block[:, second] - full


def _significant(
    values: np.ndarray, replicates: np.ndarray, confidence: float, df: int, strata: int
) -> tuple[np.ndarray, np.ndarray, float, int]:
    """``(wins, sd, critical value, valid resamples)`` of values oriented so that higher is better (``df``: the
    clusters' degrees of freedom, ``strata``: the strata drawn apart): ``wins[k, j]`` says that judge ``k`` is
    significantly better than judge ``j``, ``sd[j, k]`` is the pair's scaled standard deviation."""
    first, second = np.triu_indices(values.size, 1)
    difference = values[first] - values[second]
    count, total, squares = (np.zeros(difference.size) for _ in range(3))
    for dev in _pair_chunks(values, replicates):
        valid = ~np.isnan(dev)
        dev = np.where(valid, dev, 0.0)
        count += valid.sum(axis=0)
        total += dev.sum(axis=0)
        squares += (dev * dev).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = (squares - total * total / count) / (count - 1)
    sd = np.sqrt(np.clip(np.where(count >= 2, variance, np.nan), 0.0, None))
    flat = sd <= TIE_TOLERANCE * (1.0 + np.abs(difference))  # the same difference on every resample
    varies = ~flat & ~np.isnan(sd)
    maxima = []
    for dev in _pair_chunks(values, replicates):
        t = np.abs(dev[:, varies]) / sd[varies]
        t = np.where(np.isnan(t), -np.inf, t)
        maxima.append(t.max(axis=1, initial=-np.inf))
    largest = np.concatenate(maxima) if maxima else np.array([])
    largest = largest[np.isfinite(largest)]
    critical = _on_t_scale(float(np.quantile(largest, confidence)), df) if largest.size else math.nan
    sd = sd * math.sqrt((df + strata) / df)  # the bootstrap's variance lacks the factor G / (G - H)
    with np.errstate(invalid="ignore", divide="ignore"):
        t_full = difference / sd
    tie = TIE_TOLERANCE * (1.0 + np.abs(values[first]) + np.abs(values[second]))
    significant = np.where(flat, np.abs(difference) > tie, varies & (np.abs(t_full) > critical))
    wins = np.zeros((values.size, values.size), dtype=bool)
    wins[first[significant & (difference > 0)], second[significant & (difference > 0)]] = True
    wins[second[significant & (difference < 0)], first[significant & (difference < 0)]] = True
    scale = np.zeros((values.size, values.size))
    scale[first, second] = scale[second, first] = np.where(flat, 0.0, sd)
    return wins, scale, critical, int(largest.size)
