"""The CI keys every scorer writes: ``<key>_ci_low`` and ``<key>_ci_high``, in the key's own unit.

Proportions get a Wilson score interval (closed form, present whatever ``n_resamples`` is); averages
and F1-type scores get a percentile bootstrap, present only when ``n_resamples > 0``. The leaderboard
and the reports read these keys and compute no interval of their own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from mmjudge.errors import SchemaError
from mmjudge.estimates import CI_SUFFIXES

if TYPE_CHECKING:
    from mmjudge.stats import Metric, Outcomes

__all__ = ["CI_SUFFIXES", "Scores", "check_resampling", "intervals_of", "outcome_keys", "percentile_keys", "wilson_keys"]



def check_resampling(
    n_resamples: int, confidence: float, error: Callable[[str], Exception] = SchemaError
) -> None:
    """Refuse a negative or fractional ``n_resamples`` and a ``confidence`` outside (0, 1).

    >>> check_resampling(-1, 0.95)
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: `n_resamples` must be an integer >= 0 (0: no bootstrap CIs), got -1
    """
    if isinstance(n_resamples, bool) or int(n_resamples) != n_resamples or n_resamples < 0:
        raise error(f"`n_resamples` must be an integer >= 0 (0: no bootstrap CIs), got {n_resamples!r}")
    if not 0.0 < float(confidence) < 1.0:
        raise error(f"`confidence` must lie strictly between 0 and 1, got {confidence!r}")


def wilson_keys(
    key: str, successes: int, n: int, confidence: float, scale: float = 100.0
) -> dict[str, float]:
    """The Wilson interval of ``successes / n`` as ``key``'s CI keys (percent by default); none when n = 0.

    >>> wilson_keys("accuracy/t2v_5b", 2, 2, 0.95)
    {'accuracy/t2v_5b_ci_low': 34.23802275066532, 'accuracy/t2v_5b_ci_high': 100.0}
    >>> wilson_keys("tie_rate", 0, 0, 0.95)
    {}
    """
    if n <= 0:
        return {}
    from mmjudge.stats import wilson_interval

    ci = wilson_interval(int(successes), int(n), confidence=confidence)
    return {key + CI_SUFFIXES[0]: scale * float(ci.low), key + CI_SUFFIXES[1]: scale * float(ci.high)}


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
    return {key + CI_SUFFIXES[0]: float(low), key + CI_SUFFIXES[1]: float(high)}


class Scores(dict[str, Any]):
    """A scorer's flat result dict, with how each interval was made beside it (not inside it).

    ``intervals`` maps a score key to ``{"method", "n_units", "n_clusters", "unit", "confidence"}``; ``results.json`` writes it
    into each score's typed estimate. The dict itself holds numbers and a few strings only, so it compares,
    serialises and tabulates as before.

    >>> s = Scores({"a": 1.0}, {"a": {"method": "wilson", "n_units": 3, "n_clusters": 3}})
    >>> s == {"a": 1.0}, s.intervals["a"]["method"]
    (True, 'wilson')
    """

    def __init__(self, values: Mapping[str, Any] | None = None, intervals: Mapping[str, Mapping[str, Any]] | None = None):
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

    A key in ``proportions`` (a rate of 0/1 outcomes, each unit counting once in the denominator) gets a
    Wilson interval when the units are independent (every unit its own cluster); every other key, and every
    key of clustered units, gets the percentile cluster bootstrap of :func:`mmjudge.stats.bootstrap_metrics`
    (none with ``n_resamples=0``). A proportion of clustered units whose outcomes are all equal (a rate of 0
    or 100) would get a zero-width bootstrap interval; it gets Wilson with the clusters as the draws instead.
    """
    from mmjudge.stats import bootstrap_metrics

    wilson = outcomes.independent
    boot = {k: m for k, m in metrics.items() if not (wilson and k in proportions)}
    estimates = bootstrap_metrics(
        outcomes, boot, n_resamples=n_resamples, confidence=confidence, seed=seed, stratify=stratify
    )
    values: dict[str, float] = {}
    methods: dict[str, dict[str, Any]] = {}
    for key, metric in metrics.items():
        pooled = key in proportions and key in boot
        flat = _flat_clusters(outcomes, metric) if pooled and estimates[key].value in (0.0, 100.0) else None
        if flat is not None and n_resamples > 0:
            # every unit has the same outcome, so every resample repeats the value and the bootstrap interval
            # has width 0; Wilson over the clusters (the independent draws) says how little n clusters show
            values[key] = estimates[key].value
            all_hits, n_clusters, n_units = flat
            values.update(wilson_keys(key, n_clusters if all_hits else 0, n_clusters, confidence))
            methods[key] = {"method": f"wilson over {outcomes.cluster_name}s (every outcome equal: nothing to "
                            "resample)", "n_units": n_units, "n_clusters": n_clusters, "unit": outcomes.unit,
                            "confidence": confidence}  # fmt: skip
            continue
        if key in boot:
            estimate = estimates[key]
            values[key] = estimate.value
            if n_resamples > 0 and not math.isnan(estimate.low):
                values[key + CI_SUFFIXES[0]], values[key + CI_SUFFIXES[1]] = estimate.low, estimate.high
                methods[key] = {"method": estimate.method, "n_units": estimate.n_units,
                                "n_clusters": estimate.n_clusters, "unit": outcomes.unit, "confidence": confidence}  # fmt: skip
            continue
        terms = metric.terms(outcomes).sum(axis=0)
        values[key] = float(metric.reduce(terms))
        hits, n = int(round(terms[1])), int(round(terms[2]))  # a pooled Ratio's sums: drawn, num, den
        values.update(wilson_keys(key, hits, n, confidence))
        if n > 0:
            methods[key] = {"method": "wilson", "n_units": n, "n_clusters": n, "unit": outcomes.unit,
                            "confidence": confidence}  # fmt: skip
    return values, methods


def _flat_clusters(outcomes: Outcomes, metric: Metric) -> tuple[bool, int, int] | None:
    """``(all hits, clusters, units)`` of a pooled 0/1 rate whose units all have the same outcome (all hits
    or none); ``None`` when the outcomes vary, the rate has no unit, or it is not a pooled rate."""
    terms = metric.terms(outcomes)
    if terms.shape[1] != 3:
        return None
    counted = terms[:, 2] > 0
    hits, n = float(terms[:, 1].sum()), float(terms[:, 2].sum())
    if not counted.any() or 0.0 < hits < n:
        return None
    return hits > 0, len(set(np.asarray(outcomes.clusters)[counted].tolist())), int(counted.sum())
