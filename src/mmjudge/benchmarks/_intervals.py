"""The CI keys every scorer writes: ``<key>_ci_low`` and ``<key>_ci_high``, in the key's own unit.

Rates of independent units get a Wilson score interval; every other key of a benchmark's outcomes gets the
Wilson score interval on the effective sample size of the cluster jackknife, with a t quantile on the clusters'
degrees of freedom (:func:`outcome_keys`). Both are closed forms: present whatever ``n_resamples`` is. A key
carried by fewer than :data:`~mmjudge.estimates.MIN_CLUSTERS` clusters gets none, and its record says why. The
leaderboard and the reports read these keys and compute no interval of their own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from mmjudge.errors import SchemaError
from mmjudge.estimates import FEW_CLUSTERS, MIN_CLUSTERS, dominant_note, interval_keys, strata_note, thin_note
from mmjudge.stats import Ratio, jackknife_metrics, rate_df, wilson_effective, wilson_repaired

if TYPE_CHECKING:
    from mmjudge.stats import Metric, Outcomes

__all__ = [
    "Scores", "check_resampling", "intervals_of", "jackknife_method", "outcome_keys", "percentile_keys",
    "wilson_keys",
]  # fmt: skip


def check_resampling(
    n_resamples: int, confidence: float, error: Callable[[str], Exception] = SchemaError
) -> None:
    """Refuse a negative or fractional ``n_resamples`` and a ``confidence`` outside (0, 1).

    >>> check_resampling(-1, 0.95)
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: `n_resamples` must be an integer >= 0 (0: none drawn), got -1
    """
    if isinstance(n_resamples, bool) or int(n_resamples) != n_resamples or n_resamples < 0:
        raise error(f"`n_resamples` must be an integer >= 0 (0: none drawn), got {n_resamples!r}")
    if not 0.0 < float(confidence) < 1.0:
        raise error(f"`confidence` must lie strictly between 0 and 1, got {confidence!r}")


def wilson_keys(
    key: str, successes: int, n: int, confidence: float, scale: float = 100.0
) -> dict[str, float]:
    """The Wilson interval of ``successes / n`` as ``key``'s CI keys (percent by default), repaired next to 0 and
    ``n`` as Brown, Cai and DasGupta recommend (:func:`mmjudge.stats.wilson_repaired`); none when n = 0.

    >>> wilson_keys("accuracy/t2v_5b", 5, 5, 0.95)
    {'accuracy/t2v_5b_ci_low': 56.551753521682535, 'accuracy/t2v_5b_ci_high': 100.0}
    >>> wilson_keys("tie_rate", 0, 0, 0.95)
    {}
    """
    if n <= 0:
        return {}

    low, high = wilson_repaired(int(successes), int(n), confidence)
    return interval_keys(key, scale * low, scale * high)


def percentile_keys(key: str, replicates: np.ndarray, confidence: float) -> dict[str, float]:
    """The percentile interval of bootstrap ``replicates`` (NaN replicates dropped) as ``key``'s CI keys.

    No keys when every replicate is NaN.

    >>> percentile_keys("average", np.array([1.0, 2.0, 3.0, np.nan]), 0.5)
    {'average_ci_low': 1.5, 'average_ci_high': 2.5}
    """
    values = np.asarray(replicates, dtype=np.float64)
    values = values[~np.isnan(values)]
    if values.size == 0:
        return {}
    alpha = (1.0 - float(confidence)) / 2.0
    low, high = np.quantile(values, [alpha, 1.0 - alpha])
    return interval_keys(key, float(low), float(high))


class Scores(dict[str, Any]):
    """A scorer's flat result dict, with how each interval was made beside it (not inside it).

    ``intervals`` maps a score key to ``{"method", "n_units", "n_clusters", "unit", "confidence"}``; ``results.json`` writes it
    into each score's typed estimate. The dict itself holds numbers and a few strings only, so it compares,
    serialises and tabulates as before.

    >>> s = Scores({"a": 1.0}, {"a": {"method": "wilson", "n_units": 3, "n_clusters": 3}})
    >>> s == {"a": 1.0}, s.intervals["a"]["method"]
    (True, 'wilson')
    """

    def __init__(
        self,
        values: Mapping[str, Any] | None = None,
        intervals: Mapping[str, Mapping[str, Any]] | None = None,
    ):
        super().__init__(values or {})
        self.intervals: dict[str, dict[str, Any]] = {k: dict(v) for k, v in (intervals or {}).items()}


def intervals_of(scores: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The ``intervals`` of a :class:`Scores` (empty for a plain dict)."""
    return dict(getattr(scores, "intervals", {}) or {})


def outcome_keys(
    outcomes: Outcomes,
    metrics: Mapping[str, Metric],
    *,
    proportions: Collection[str] = (),
    n_resamples: int,
    confidence: float,
    seed: int,
    stratify: bool = True,
) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """Each metric's value and CI keys from the outcomes, and how each interval was made.

    A key in ``proportions`` (a rate of 0/1 outcomes, each unit counting once in the denominator) of
    independent units (every unit its own cluster, or one unit of the key in each cluster: one intervention's
    pairs of prompts that span the interventions) gets a Wilson score interval. Every other key gets the Wilson
    score interval on the effective sample size of the delete-one-cluster jackknife, with a t quantile on the
    clusters' degrees of freedom (:func:`mmjudge.stats.wilson_effective`; every outcome metric is a rate from
    0 to 100): it neither collapses at 0 or 100 nor narrows with few clusters the way a percentile bootstrap
    does. A key carried by fewer than :data:`~mmjudge.estimates.MIN_CLUSTERS` clusters, or with one cluster
    holding :data:`~mmjudge.estimates.DOMINANT_SHARE` of its units or more, gets no interval; its record
    (``method`` beginning ``none:``) says why. A mean of the rates of strata that holds
    :data:`~mmjudge.estimates.FEW_CLUSTERS` clusters or more (fewer: the key itself is marked thin) but one of
    whose strata has fewer gets its interval with a ``note`` saying so (:func:`mmjudge.estimates.strata_note`):
    the mean weighs that stratum as much as any other. ``n_resamples`` and ``seed`` are checked and kept for the
    callers' bootstrap-based measures; these intervals draw nothing.
    """

    del n_resamples, seed  # the jackknife resamples nothing
    independent = outcomes.independent
    spreads = jackknife_metrics(outcomes, metrics, stratify=stratify)
    values: dict[str, float] = {}
    methods: dict[str, dict[str, Any]] = {}
    for key, metric in metrics.items():
        spread = spreads[key]
        values[key] = spread.value
        if spread.n_clusters == 0:
            continue
        cluster = outcomes.unit if independent else outcomes.cluster_name
        record: dict[str, Any] = {"n_units": spread.n_units, "n_clusters": spread.n_clusters, "unit": outcomes.unit,
                                  "cluster": cluster, "confidence": confidence}  # fmt: skip
        if spread.n_clusters < MIN_CLUSTERS:
            methods[key] = {**record, "method": "none: " + thin_note(spread.n_clusters, cluster)}
            continue
        dominant = "" if independent else dominant_note(spread.largest, spread.n_units, cluster)
        if dominant:
            methods[key] = {**record, "method": "none: " + dominant}
            continue
        if key in proportions and (independent or spread.independent) and _unit_rate(metric, outcomes):
            terms = metric.terms(outcomes).sum(axis=0)
            hits, n = int(round(terms[1])), int(round(terms[2]))  # a pooled Ratio's sums: drawn, num, den
            values.update(wilson_keys(key, hits, n, confidence))
            methods[key] = {**record, "n_units": n, "n_clusters": n, "cluster": outcomes.unit,
                            "method": f"Wilson score interval over independent {outcomes.unit}s (repaired next to 0 "
                            "and 100)"}  # fmt: skip
            continue
        trials = _trials(metric, outcomes, spread.n_units)
        low, high = wilson_effective(spread.value, spread.variance, trials, rate_df(spread), confidence)
        if math.isnan(low):
            continue
        values.update(interval_keys(key, low, high))
        methods[key] = {**record, "method": jackknife_method(cluster, spread.stratified)}
        note = strata_note(_stratum_clusters(metric, outcomes), cluster)
        if note and spread.n_clusters >= FEW_CLUSTERS:  # under FEW_CLUSTERS the key itself is marked thin
            methods[key]["note"] = note
    return values, methods


def _stratum_clusters(metric: Metric, outcomes: Outcomes) -> dict[str, int]:
    """The clusters of each stratum that a mean of the rates of strata counts (empty for any other metric)."""
    if not (isinstance(metric, Ratio) and metric.by_stratum):
        return {}
    names = list(metric.strata) if metric.strata is not None else outcomes.stratum_names()
    member = outcomes.stratum_member(names) > 0
    counted = metric.counted(outcomes)
    clusters = np.asarray(outcomes.clusters)
    sizes = {name: len(set(clusters[member[:, k] & counted].tolist())) for k, name in enumerate(names)}
    return {name: n for name, n in sizes.items() if n > 0}


def _trials(metric: Metric, outcomes: Outcomes, units: int) -> int:
    """The most 0/1 trials a rate's value can rest on, what its effective sample size is capped at: the sum of
    a ratio's denominators (a MIST control cell counts two comparisons), the counted units otherwise."""

    if not isinstance(metric, Ratio):
        return units
    terms = metric.terms(outcomes)
    return max(units, int(round(float(terms[:, 2 * terms.shape[1] // 3 :].sum()))))


def _unit_rate(metric: Metric, outcomes: Outcomes) -> bool:
    """Whether ``metric`` is a pooled rate of 0/1 outcomes with each unit counting once in the denominator
    (what a Wilson interval over the units assumes)."""
    terms = metric.terms(outcomes)
    if terms.shape[1] != 3:
        return False
    return bool(np.isin(terms[:, 1], (0.0, 1.0)).all() and np.isin(terms[:, 2], (0.0, 1.0)).all())


def jackknife_method(cluster: str, stratified: bool) -> str:
    """The recorded name of :func:`outcome_keys`' clustered interval.

    >>> jackknife_method("prompt", True)
    'Wilson score interval on the effective sample size (jackknife over prompts, stratified; t quantile)'
    """
    how = ", stratified" if stratified else ""
    return f"Wilson score interval on the effective sample size (jackknife over {cluster}s{how}; t quantile)"
