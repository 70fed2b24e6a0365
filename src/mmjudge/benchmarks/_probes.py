"""Robustness probes a benchmark declares: what a judge is sensitive to, measured on derived queries.

A :class:`Probe` says which derived queries it needs judged (:attr:`Probe.variants`: e.g. a clip under
another pair's prompt, a question with its audio removed; each :class:`Variant` records how it was
derived so a rerun is identical), and how to turn the verdicts into :class:`Effect` s, each with its
95% interval and the n it used (:attr:`Probe.measure`). Probes never change the benchmark's own
scoring: they read verdicts and call the benchmark's scorer at most. The generic runner of probes is
:mod:`mmjudge.robustness`; it judges the variants through the normal runner (cache, resume, shards).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mmjudge.benchmarks._intervals import intervals_of, outcome_keys
from mmjudge.estimates import (
    MIN_CLUSTERS,
    dominant_note,
    estimates_from,
    interval_caveat,
    interval_of,
    thin_note,
)
from mmjudge.queries import Query, Verdict
from mmjudge.stats import Outcomes, Ratio, bootstrap_ci, jackknife, rate_df, t_interval, wilson_interval

__all__ = [
    "Effect",
    "JudgeTraits",
    "Probe",
    "ProbeData",
    "ProbeOutcome",
    "Variant",
    "clustered_mean_effect",
    "clustered_rate_effect",
    "mean_effect",
    "rate_effect",
    "scored_effect",
]

Row = Mapping[str, Any]


@dataclass(frozen=True)
class JudgeTraits:
    """What a probe may ask about the judge (the benchmark layer does not import judges)."""

    name: str
    """Registered judge name."""
    decodes_frames: bool
    """The judge asks for video frames of a clip (a frame-count sweep can change its input)."""
    own_sampling: bool
    """The judge samples frames at its own rate (``fps`` set) rather than a fixed count."""


@dataclass(frozen=True)
class Variant:
    """One derived query a probe needs judged, with how it was derived."""

    query: Query
    """The derived query (its id is unique: ``<base id>::<probe change>``)."""
    source: str
    """Id of the base query or reference unit it was derived from."""
    change: Mapping[str, Any]
    """What was changed, JSON-able (e.g. ``{"prompt_from": "pair_7"}``, ``{"removed": "audio"}``)."""


@dataclass(frozen=True)
class ProbeData:
    """What a probe's :attr:`Probe.measure` reads."""

    rows: Sequence[Row]
    """Reference rows."""
    queries: Sequence[Query]
    """Base queries (both orders when the probe asked for :attr:`Probe.swap`)."""
    verdicts: Mapping[str, Verdict]
    """Base query id -> verdict (the judge's own frame setting)."""
    variants: Sequence[Variant] = ()
    """The probe's variants."""
    variant_verdicts: Mapping[str, Verdict] = field(default_factory=dict)
    """Variant query id -> verdict."""
    sweep: Mapping[int, Mapping[str, Verdict]] = field(default_factory=dict)
    """Frame count -> base query id -> verdict (probes with :attr:`Probe.frames`)."""
    scores: Mapping[str, Any] = field(default_factory=dict)
    """The benchmark's own score of the base verdicts (what ``mmjudge eval`` reports)."""
    seed: int = 0
    """Seed of bootstrap intervals and cross-validation splits."""
    fps_sweep: Mapping[float, Mapping[str, Verdict]] = field(default_factory=dict)
    """Sampling rate -> base query id -> verdict (probes with :attr:`Probe.fps`, judges sampling at a rate)."""


@dataclass(frozen=True)
class Effect:
    """One measured figure of a probe, with its interval and the n behind it."""

    name: str
    """Stable key, e.g. ``"swap_consistency"``."""
    value: float | None
    """The figure (``None`` when it cannot be computed, e.g. nothing decided; see :attr:`note`)."""
    unit: str
    """``"%"`` (0-100), ``"points"`` (difference of percentages), ``"score"`` (the judge's scale) or ``""``."""
    n: int
    """Units behind the figure (pairs, clips, questions)."""
    description: str
    """One line saying what the figure is."""
    ci_low: float | None = None
    """Lower end of the 95% interval (``None``: no interval, see :attr:`note`)."""
    ci_high: float | None = None
    """Upper end of the 95% interval."""
    interval: str = ""
    """How the interval was computed (``"wilson"``, ``"bootstrap"``, ``"cluster-robust OLS"``)."""
    p_value: float | None = None
    """A test's p-value where the figure has one (e.g. the frame-count slope)."""
    note: str = ""
    """Why a value or interval is missing, or how to read it."""


@dataclass(frozen=True)
class ProbeOutcome:
    """What :attr:`Probe.measure` returns."""

    effects: tuple[Effect, ...]
    """The figures; the first is the probe's headline."""
    details: Mapping[str, Any] = field(default_factory=dict)
    """Further JSON-able breakdowns (per task, per frame count, ...)."""


@dataclass(frozen=True)
class Probe:
    """One robustness probe of a benchmark."""

    name: str
    """Stable id, e.g. ``"swap"``."""
    title: str
    """Heading in ``robustness.md``."""
    description: str
    """What the probe does and how to read it (a few sentences)."""
    measure: Callable[[ProbeData], ProbeOutcome]
    """Verdicts -> effects."""
    variants: Callable[[Sequence[Row], Sequence[Query]], list[Variant]] | None = None
    """Derived queries to judge, from the reference rows and the base queries (deterministic)."""
    applies: Callable[[JudgeTraits], str] | None = None
    """``""`` when the probe applies to the judge, else the reason it is skipped."""
    swap: bool = False
    """The base queries are needed in both orders."""
    frames: tuple[int, ...] = ()
    """Frame counts of a sweep (each clip decoded once, judged once per count)."""
    fps: tuple[float, ...] = ()
    """Sampling rates judged too when the judge samples at its own rate (``fps`` set in its config)."""


def scored_effect(scores: Mapping[str, Any], key: str, n: int, description: str, *, note: str = "") -> Effect:
    """The scorer's own percentage ``key`` with its interval, named as the scorer recorded it (its method), and
    in ``note`` whether that interval is thin or withheld (:func:`mmjudge.estimates.interval_caveat`); ``None``
    with ``note`` when the scorer has no such key.

    >>> from mmjudge.benchmarks._intervals import Scores
    >>> s = Scores({"tie_rate": 10.0, "tie_rate_ci_low": 5.0, "tie_rate_ci_high": 20.0},
    ...            {"tie_rate": {"method": "percentile bootstrap over prompts, 1000 resamples", "n_clusters": 12,
    ...                          "cluster": "prompt"}})
    >>> e = scored_effect(s, "tie_rate", 40, "ties")
    >>> e.value, e.ci_low, e.interval, e.note
    (10.0, 5.0, 'percentile bootstrap over prompts, 1000 resamples', 'thin: 12 prompts (under 30)')
    """

    ci = interval_of(scores, key)
    method = str(intervals_of(scores).get(key, {}).get("method", "")) if ci is not None else ""
    low, high = ci if ci is not None else (None, None)
    note = "; ".join(text for text in (note, interval_caveat(estimates_from(scores).get(key))) if text)
    return Effect(key, scores.get(key), "%", n, description, low, high, method, note=note)


def rate_effect(
    name: str, successes: int, n: int, description: str, *, confidence: float = 0.95, note: str = ""
) -> Effect:
    """A percentage ``100 successes / n`` with its Wilson interval (``None`` with a note when n = 0).

    >>> e = rate_effect("tie_rate", 2, 4, "ties")
    >>> e.value, round(e.ci_low, 1), round(e.ci_high, 1), e.n
    (50.0, 15.0, 85.0, 4)
    """
    if n <= 0:
        return Effect(name, None, "%", 0, description, note=note or "no units to count")

    ci = wilson_interval(int(successes), int(n), confidence=confidence)
    value = 100.0 * successes / n
    return Effect(name, value, "%", n, description, 100.0 * ci.low, 100.0 * ci.high, "wilson", note=note)


def mean_effect(
    name: str, values: Sequence[float], description: str, *, unit: str, seed: int = 0, note: str = ""
) -> Effect:
    """The mean of per-unit values with a percentile bootstrap interval (10,000 resamples).

    >>> e = mean_effect("drop", [0.0, 0.0, 0.0], "no drop", unit="score")
    >>> e.value, e.ci_low, e.ci_high
    (0.0, 0.0, 0.0)
    """
    if len(values) == 0:
        return Effect(name, None, unit, 0, description, note=note or "no units to average")

    ci = bootstrap_ci(list(values), n_resamples=10_000, seed=seed)
    return Effect(
        name, float(ci.estimate), unit, len(values), description, float(ci.low), float(ci.high), "bootstrap",
        note=note,
    )  # fmt: skip


def clustered_rate_effect(
    name: str,
    hits: Sequence[bool],
    clusters: Sequence[Any],
    description: str,
    *,
    cluster: str,
    confidence: float = 0.95,
    note: str = "",
) -> Effect:
    """A percentage of 0/1 ``hits`` whose units share ``clusters`` (the pairs of one anchor prompt, both orders
    of one item), with the benchmarks' clustered interval: the Wilson score interval on the effective sample
    size of the delete-one-cluster jackknife, t quantile, made by the scorers' own
    :func:`~mmjudge.benchmarks._intervals.outcome_keys`. Units that share a cluster are not independent draws: the plain Wilson interval over them
    is too narrow when the clusters differ (a hard prompt is hard for all its pairs). When every cluster holds
    one unit this is :func:`rate_effect`; under :data:`~mmjudge.estimates.MIN_CLUSTERS` clusters there is no
    interval, and the note says why.

    >>> e = clustered_rate_effect("r", [1, 1, 0, 0, 1, 1, 0, 0, 1, 0], list("aabbccddee"), "d", cluster="prompt")
    >>> e.value, round(e.ci_low, 1), round(e.ci_high, 1), e.n, e.note
    (50.0, 11.1, 88.9, 10, 'thin: 5 prompts (under 30)')
    >>> clustered_rate_effect("r", [1, 0, 1], ["a", "b", "c"], "d", cluster="prompt").interval
    'wilson'
    """
    n = len(hits)
    if len(clusters) != n:
        raise ValueError(f"{name}: {n} hits but {len(clusters)} cluster ids; give one cluster id per unit")
    if len(set(clusters)) == n:  # independent units (none, or each its own cluster)
        return rate_effect(name, int(sum(bool(h) for h in hits)), n, description, confidence=confidence, note=note)

    outcomes = Outcomes(tuple(str(k) for k in range(n)), tuple(str(c) for c in clusters),
                        {"hit": np.asarray(hits, dtype=np.float64), "one": np.ones(n)}, cluster_name=cluster)  # fmt: skip
    values, methods = outcome_keys(outcomes, {name: Ratio("hit", "one")}, n_resamples=0, confidence=confidence, seed=0)
    low, high = interval_of(values, name) or (None, None)
    method = methods[name]["method"] if low is not None else ""
    notes = _with_thin(note, methods[name]["n_clusters"], cluster)
    return Effect(name, values[name], "%", n, description, low, high, method, note=notes)


def clustered_mean_effect(
    name: str,
    values: Sequence[float],
    clusters: Sequence[Any],
    description: str,
    *,
    unit: str,
    cluster: str,
    confidence: float = 0.95,
    seed: int = 0,
    note: str = "",
) -> Effect:
    """The mean of per-unit ``values`` whose units share ``clusters``, with the t interval of the
    delete-one-cluster jackknife (``t`` on the clusters' degrees of freedom); :func:`mean_effect` when every
    cluster holds one unit; no interval under :data:`~mmjudge.estimates.MIN_CLUSTERS` clusters.

    >>> e = clustered_mean_effect("drop", [1.0, 3.0, 0.0, 2.0, 1.0, 1.0, 2.0, 4.0, 0.0, 0.0], list("aabbccddee"),
    ...                           "d", unit="score", cluster="prompt")
    >>> e.value, [round(x, 2) for x in (e.ci_low, e.ci_high)], e.interval
    (1.4, [-0.02, 2.82], 't interval (jackknife over prompts; t quantile)')
    """
    n = len(values)
    if len(clusters) != n:
        raise ValueError(f"{name}: {n} values but {len(clusters)} cluster ids; give one cluster id per unit")
    if len(set(clusters)) == n:
        return mean_effect(name, values, description, unit=unit, seed=seed, note=note)

    _, codes = np.unique(np.asarray([str(c) for c in clusters]), return_inverse=True)
    terms = np.column_stack([np.asarray(values, dtype=np.float64), np.ones(n)])
    spread = jackknife(terms, codes, lambda t: t[..., 0] / t[..., 1], counted=np.ones(n, dtype=bool))
    value = float(spread.value)
    notes = _with_thin(note, spread.n_clusters, cluster)
    dominant = dominant_note(spread.largest, spread.n_units, cluster)
    if spread.n_clusters < MIN_CLUSTERS or dominant:
        return Effect(name, value, unit, n, description, note="; ".join(t for t in (notes, dominant) if t))
    low, high = t_interval(value, spread.variance, rate_df(spread), confidence)
    return Effect(name, value, unit, n, description, low, high, f"t interval (jackknife over {cluster}s; t quantile)",
                  note=notes)  # fmt: skip


def _with_thin(note: str, n_clusters: int, cluster: str) -> str:
    return "; ".join(text for text in (note, thin_note(n_clusters, cluster)) if text)
