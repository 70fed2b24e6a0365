"""IsoVRBench scoring: pairwise accuracy per intervention, ties and missing judgments counted wrong.

Every IsoVRBench pair holds an anchor clip (``chosen``, always the preferred one) and a clip produced
from it by one controlled intervention (``rejected``). A judge either scores both clips or picks a side.
The paper's rule (REFERENCE.md, IsoVRBench "Scoring"):

1. a pair is correct iff the judge prefers the anchor (``score_chosen - score_rejected > tie_tolerance``);
2. a tie (``|score_chosen - score_rejected| <= tie_tolerance``, exact equality by default) is wrong;
3. a pair without a judgment (``no_judgment`` or choice ``"none"``) is wrong;
4. accuracy is computed per intervention, and ``average`` is the unweighted mean of the per-intervention
   accuracies present (the paper's "Avg." over the eight interventions).

All rates are **percentages** (0-100), as the paper reports them. Second views: accuracy over decided
pairs (ties and missing judgments removed) and its mean over interventions (the paper's Table 5 "Avg."),
tie and no-judgment rates, and VideoGen-RewardBench's "accuracy w/o ties" (see :func:`score`).

Every score carries a 95% interval (``<key>_ci_low``/``_ci_high``) from the per-pair outcomes
(:func:`outcomes`, :func:`mmjudge.benchmarks._intervals.outcome_keys`): a rate of independent pairs gets
the Wilson score interval over the pairs; every other key (a rate over pairs that share an anchor prompt,
and the means over interventions ``average``, ``dimension_accuracy/<dim>``, ``decided_average``) the
Wilson score interval on the effective sample size of a bias-reduced delete-one-cluster jackknife,
stratified by intervention, with a t quantile. A key carried by fewer than 5 clusters gets none (see
:func:`score`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from mmjudge._checks import (
    check_finite,
    check_labels,
    check_nonempty,
    check_same_length,
    check_unique,
)
from mmjudge.benchmarks._intervals import Scores, check_resampling, outcome_keys
from mmjudge.errors import SchemaError
from mmjudge.estimates import with_its_interval
from mmjudge.stats import Metric, Outcomes, Ratio

__all__ = [
    "CHOICES",
    "COLUMNS",
    "DIMENSIONS",
    "HUMAN_ACCURACY",
    "HUMAN_AVERAGE",
    "INTERVENTIONS",
    "choices_from_scores",
    "metric_specs",
    "outcomes",
    "score",
    "score_outcomes",
]

INTERVENTIONS: tuple[str, ...] = (
    "temporal_shuffle",
    "frame_hold",
    "motion_regen",
    "attribute_edit",
    "reduced_steps",
    "i2v_continuation",
    "t2v_5b",
    "t2v_1_3b",
)
"""The eight intervention ids, in the paper's column order."""

DIMENSIONS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "motion": ("temporal_shuffle", "frame_hold", "motion_regen"),
        "text": ("attribute_edit",),
        "visual": ("reduced_steps",),
        "overall": ("i2v_continuation", "t2v_5b", "t2v_1_3b"),
    }
)
"""The paper's quality dimension of each intervention."""

CHOICES: tuple[str, ...] = ("chosen", "rejected", "tie", "none")
"""A judge's verdict on one pair: prefers the anchor, prefers the intervened clip, tie, no judgment."""

HUMAN_ACCURACY: Mapping[str, float] = MappingProxyType(
    dict(zip(INTERVENTIONS, (100.0, 93.0, 100.0, 98.0, 84.0, 98.0, 98.0, 100.0), strict=True))
)
"""The paper's human row (percent), per intervention; for reports, never used in scoring."""

HUMAN_AVERAGE = 96.4
"""The paper's published human average (percent; the mean of :data:`HUMAN_ACCURACY` is 96.375)."""

_CHOSEN, _REJECTED, _TIE, _NONE = range(4)


def choices_from_scores(
    score_chosen: Sequence[float | None] | np.ndarray,
    score_rejected: Sequence[float | None] | np.ndarray,
    tie_tolerance: float = 0.0,
    *,
    no_judgment: Sequence[bool] | np.ndarray | None = None,
) -> list[str]:
    """Turn the judge's two scores per pair into a verdict in :data:`CHOICES`.

    Args:
        score_chosen: score of the anchor clip, one per pair.
        score_rejected: score of the intervened clip, one per pair.
        tie_tolerance: ``|chosen - rejected| <= tie_tolerance`` is a tie (0: exact ties only).
        no_judgment: optional flags; a flagged pair becomes ``"none"`` and its scores are ignored
            (they may be ``None`` or NaN). Elsewhere NaN, inf and ``None`` raise ``SchemaError``.

    Returns:
        One of ``"chosen"``, ``"rejected"``, ``"tie"``, ``"none"`` per pair.

    >>> choices_from_scores([3.0, 1.0, 2.0, None], [1.0, 3.0, 2.0, None], no_judgment=[0, 0, 0, 1])
    ['chosen', 'rejected', 'tie', 'none']
    >>> choices_from_scores([2.0], [1.5], tie_tolerance=0.5)
    ['tie']
    """
    fields: dict[str, Any] = {"score_chosen": score_chosen, "score_rejected": score_rejected}
    if no_judgment is not None:
        fields["no_judgment"] = no_judgment
    check_same_length(**fields)
    tol = _check_tolerance(tie_tolerance)
    missing = _flags("no_judgment", no_judgment, len(score_chosen))
    chosen = check_finite("score_chosen", _blank(score_chosen, missing))
    rejected = check_finite("score_rejected", _blank(score_rejected, missing))
    codes = _codes_from_diff(chosen - rejected, tol, missing)
    return [CHOICES[c] for c in codes]


def score(
    intervention: Sequence[str],
    score_chosen: Sequence[float | None] | np.ndarray | None = None,
    score_rejected: Sequence[float | None] | np.ndarray | None = None,
    *,
    choice: Sequence[str] | None = None,
    no_judgment: Sequence[bool] | np.ndarray | None = None,
    pair_id: Sequence[Any] | None = None,
    cluster: Sequence[Any] | None = None,
    tie_tolerance: float = 0.0,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict[str, float | int]:
    """Score a judge on IsoVRBench pairs; every rate is a percentage.

    Give either ``score_chosen`` and ``score_rejected`` (with optional ``no_judgment`` flags), or
    ``choice`` (one of :data:`CHOICES` per pair). For each intervention ``iv`` present the result holds
    ``accuracy/iv`` (ties and no-judgment wrong; the paper's Table 2), ``decided_accuracy/iv`` (over the
    decided pairs; Table 5; only when some pair is decided), ``tie_rate/iv``, ``no_judgment_rate/iv``,
    ``vgrb_accuracy/iv`` and the counts ``n/iv``, ``n_correct/iv``, ``n_tie/iv``, ``n_no_judgment/iv``.
    Then ``dimension_accuracy/<dim>`` (mean over the dimension's interventions present), ``average``
    (mean of the accuracies present; Table 2 "Avg."), ``decided_average`` (mean of the decided accuracies;
    Table 5 "Avg."; only when every intervention present has a decided pair), the pooled
    ``decided_accuracy_pooled`` (all correct over all decided pairs), ``tie_rate``, ``no_judgment_rate``,
    ``vgrb_accuracy``, ``n_pairs`` and the ``tie_tolerance`` used.

    ``vgrb_accuracy`` is VideoGen-RewardBench's "accuracy w/o ties", VideoAlign's
    ``calc_accuracy_without_ties(h, m) = C / (C + D)`` with ``m = score_chosen - score_rejected`` and the
    human label ``h = 1`` (the anchor is preferred): its "ties" are *human* ties, of which IsoVRBench has
    none, so every pair counts; a pair is concordant iff ``m > 0`` with no tolerance (a judge tie, a
    reversed pair and a pair without a judgment, NaN in VideoAlign, are discordant). With
    ``tie_tolerance = 0`` it equals ``accuracy``; with choices, concordant means ``"chosen"``.

    Intervals come from the per-pair outcomes (:func:`outcomes`), with the pairs of one ``cluster`` (each
    pair's anchor prompt; ``mmjudge score`` and ``eval`` pass the dataset's ``prompt``) taken together;
    without ``cluster`` every pair is its own cluster. A rate of independent pairs (no ``cluster``, or one
    pair of the key per prompt: an intervention's accuracy when prompts span interventions) gets the Wilson
    score interval over the pairs, repaired next to 0 and 100 (Brown, Cai and DasGupta). Every other key (a
    rate over prompts holding several of its pairs; ``average``, ``dimension_accuracy/<dim>`` and
    ``decided_average`` always) gets the Wilson score interval on the effective sample size of a
    bias-reduced (CR2-weighted) delete-one-cluster jackknife, stratified by intervention when each cluster
    sits in one intervention, with a t quantile on Bell and McCaffrey's degrees of freedom (the effective
    number of clusters minus the strata); it never has zero width at 0 or 100. In a mean over interventions
    no intervention's variance is less than its binomial one with Price and Bonett's pseudo-counts
    (:func:`mmjudge.stats.rates_floor`: 5 pairs all right still add spread). A key carried by fewer than
    5 clusters gets no interval (its record says why); under 30 the interval is marked thin. The intervals
    are closed forms: ``n_resamples`` and ``seed`` are checked but change none of them (``n_resamples=0``
    does not remove them). The result depends only on the outcomes per cluster, not on row order. How each
    interval was made is in the result's ``intervals`` (``results.json`` ``estimates``).

    >>> r = score(["frame_hold"] * 5 + ["t2v_5b"] * 5,
    ...           choice=["chosen", "tie", "chosen", "chosen", "rejected", "chosen", "none", "chosen", "chosen", "chosen"])
    >>> r["accuracy/frame_hold"], r["decided_accuracy/frame_hold"], r["average"], r["decided_average"]
    (60.0, 75.0, 70.0, 87.5)
    >>> r["vgrb_accuracy/t2v_5b"], round(r["accuracy/t2v_5b_ci_low"], 1), round(r["accuracy/t2v_5b_ci_high"], 1)
    (80.0, 37.6, 99.0)
    >>> round(r["average_ci_low"], 1), round(r["average_ci_high"], 1), r.intervals["average"]["method"]
    (32.7, 92.4, 'Wilson score interval on the effective sample size (jackknife over pairs, stratified; t quantile)')
    >>> few = score(["frame_hold", "frame_hold"], choice=["chosen", "tie"])  # 2 pairs: no interval
    >>> "accuracy/frame_hold_ci_low" in few, few.intervals["accuracy/frame_hold"]["method"]
    (False, 'none: no interval: 2 pairs (at least 5 needed)')
    """
    check_resampling(n_resamples, confidence)
    table = outcomes(
        intervention, score_chosen, score_rejected, choice=choice, no_judgment=no_judgment, pair_id=pair_id,
        cluster=cluster, tie_tolerance=tie_tolerance,
    )  # fmt: skip
    metrics, proportions = metric_specs(table)
    result, intervals = outcome_keys(
        table, metrics, proportions=proportions, n_resamples=n_resamples, confidence=confidence, seed=seed
    )
    sums = {name: np.bincount(_stratum_codes(table), weights=table.column(name), minlength=len(INTERVENTIONS))
            for name in ("one", "correct", "tie", "none")}  # fmt: skip
    ordered: dict[str, Any] = {}
    for k, name in enumerate(INTERVENTIONS):
        if sums["one"][k] == 0:
            continue
        for prefix in ("accuracy", "decided_accuracy", "tie_rate", "no_judgment_rate", "vgrb_accuracy"):
            ordered.update(with_its_interval(result, f"{prefix}/{name}"))
        ordered.update({f"n/{name}": int(sums["one"][k]), f"n_correct/{name}": int(sums["correct"][k]),
                        f"n_tie/{name}": int(sums["tie"][k]), f"n_no_judgment/{name}": int(sums["none"][k])})  # fmt: skip
    for key in [*(f"dimension_accuracy/{d}" for d in DIMENSIONS), "average", "decided_average",
                "decided_accuracy_pooled", "tie_rate", "no_judgment_rate", "vgrb_accuracy"]:  # fmt: skip
        ordered.update(with_its_interval(result, key))
    ordered["n_pairs"] = len(table.units)
    ordered["tie_tolerance"] = float(tie_tolerance)
    return Scores(ordered, intervals)


COLUMNS = ("correct", "decided", "tie", "none", "concordant", "one")
"""The outcome columns of a pair: prefers the anchor, decided (either side), tie, no judgment, VideoAlign's
concordance (``m > 0``), and 1."""


def outcomes(
    intervention: Sequence[str],
    score_chosen: Sequence[float | None] | np.ndarray | None = None,
    score_rejected: Sequence[float | None] | np.ndarray | None = None,
    *,
    choice: Sequence[str] | None = None,
    no_judgment: Sequence[bool] | np.ndarray | None = None,
    pair_id: Sequence[Any] | None = None,
    cluster: Sequence[Any] | None = None,
    tie_tolerance: float = 0.0,
) -> Outcomes:
    """The per-pair outcomes every IsoVRBench key reduces (:data:`COLUMNS`), stratum = intervention.

    ``cluster`` is each pair's top cluster (its anchor prompt: the jackknife leaves the pairs of one prompt
    out together); without it each pair is its own cluster.

    >>> o = outcomes(["frame_hold", "t2v_5b"], choice=["chosen", "tie"], cluster=["p", "p"])
    >>> o.column("correct").tolist(), o.column("tie").tolist(), o.n_clusters
    ([1.0, 0.0], [0.0, 1.0], 1)
    """
    codes, iv_index, concordant = _validated_codes(
        intervention, score_chosen, score_rejected, choice, no_judgment, pair_id, tie_tolerance
    )
    units = tuple(str(p) for p in pair_id) if pair_id is not None else tuple(str(k) for k in range(len(codes)))
    if cluster is not None:
        check_same_length(intervention=intervention, cluster=cluster)
        clusters = tuple(str(c) for c in cluster)
    else:
        clusters = units
    columns = {
        "correct": (codes == _CHOSEN).astype(np.float64),
        "decided": ((codes == _CHOSEN) | (codes == _REJECTED)).astype(np.float64),
        "tie": (codes == _TIE).astype(np.float64),
        "none": (codes == _NONE).astype(np.float64),
        "concordant": np.asarray(concordant, dtype=np.float64),
        "one": np.ones(len(codes)),
    }
    strata = tuple(INTERVENTIONS[k] for k in iv_index)
    return Outcomes(units, clusters, columns, strata, unit="pair", cluster_name="prompt")


def metric_specs(table: Outcomes) -> tuple[dict[str, Metric], set[str]]:
    """Every rate and mean key of ``table`` as a metric, and the keys that are rates of 0/1 outcomes.

    Per intervention present: accuracy, decided accuracy (when a pair is decided), tie, no-judgment and
    VideoAlign rates; the means over the interventions present (per dimension, ``average``, and
    ``decided_average`` when every intervention present has a decided pair); the pooled rates.
    """
    present = [iv for iv in INTERVENTIONS if iv in set(table.strata)]
    decided = {iv: bool(table.column("decided")[np.asarray(table.strata) == iv].sum() > 0) for iv in present}
    metrics: dict[str, Metric] = {}
    proportions: set[str] = set()
    for iv in present:
        rates = {"accuracy": ("correct", "one"), "tie_rate": ("tie", "one"), "no_judgment_rate": ("none", "one"),
                 "vgrb_accuracy": ("concordant", "one")}  # fmt: skip
        if decided[iv]:
            rates["decided_accuracy"] = ("correct", "decided")
        for prefix, (num, den) in rates.items():
            metrics[f"{prefix}/{iv}"] = Ratio(num, den, strata=(iv,))
            proportions.add(f"{prefix}/{iv}")
    for dim, members in DIMENSIONS.items():
        ivs = tuple(iv for iv in present if iv in members)
        if ivs:
            metrics[f"dimension_accuracy/{dim}"] = Ratio("correct", "one", by_stratum=True, strata=ivs)
    metrics["average"] = Ratio("correct", "one", by_stratum=True, strata=tuple(present))
    if all(decided.values()):
        metrics["decided_average"] = Ratio("correct", "decided", by_stratum=True, strata=tuple(present))
    pooled = {"tie_rate": "tie", "no_judgment_rate": "none", "vgrb_accuracy": "concordant"}
    if any(decided.values()):
        metrics["decided_accuracy_pooled"] = Ratio("correct", "decided")
        proportions.add("decided_accuracy_pooled")
    for key, num in pooled.items():
        metrics[key] = Ratio(num, "one")
        proportions.add(key)
    return metrics, proportions


def score_outcomes(
    intervention: Sequence[str],
    score_chosen: Sequence[float | None] | np.ndarray | None = None,
    score_rejected: Sequence[float | None] | np.ndarray | None = None,
    **options: Any,
) -> tuple[Outcomes, dict[str, Metric]]:
    """The outcomes of :func:`score`'s arguments and the metric of every rate and mean key over them (what
    ``mmjudge compare`` and the leaderboard's significance column resample)."""
    keep = {k: options[k] for k in ("choice", "no_judgment", "pair_id", "cluster", "tie_tolerance") if k in options}
    table = outcomes(intervention, score_chosen, score_rejected, **keep)
    return table, metric_specs(table)[0]


def _stratum_codes(table: Outcomes) -> np.ndarray:
    lookup = {name: k for k, name in enumerate(INTERVENTIONS)}
    return np.fromiter((lookup[s] for s in table.strata), dtype=np.int64, count=len(table.strata))


def _validated_codes(
    intervention: Sequence[str],
    score_chosen: Any,
    score_rejected: Any,
    choice: Sequence[str] | None,
    no_judgment: Any,
    pair_id: Sequence[Any] | None,
    tie_tolerance: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Check every input; return the verdict code, the intervention index and VideoAlign's concordance
    (``score_chosen - score_rejected > 0``, no tolerance; ``"chosen"`` with choices) of every pair."""
    has_scores = score_chosen is not None or score_rejected is not None
    if has_scores == (choice is not None):
        raise SchemaError(
            "give either `score_chosen` and `score_rejected` (two scores per pair) or `choice` "
            f"(one of {list(CHOICES)} per pair), not {'both' if has_scores else 'neither'}"
        )
    if choice is not None and no_judgment is not None:
        raise SchemaError("`no_judgment` goes with scores; with `choice`, mark a missing judgment as 'none'")
    if has_scores and (score_chosen is None or score_rejected is None):
        raise SchemaError("`score_chosen` and `score_rejected` must be given together")
    fields: dict[str, Any] = {"intervention": intervention}
    fields.update({"choice": choice} if choice is not None else {"score_chosen": score_chosen})
    if pair_id is not None:
        fields["pair_id"] = pair_id
    check_same_length(**fields)
    check_nonempty("intervention", intervention)
    check_labels("intervention", intervention, INTERVENTIONS)
    if pair_id is not None:
        check_unique("pair_id", pair_id)
    iv_lookup = {name: k for k, name in enumerate(INTERVENTIONS)}
    iv_index = np.fromiter((iv_lookup[v] for v in intervention), dtype=np.int64, count=len(intervention))
    if choice is not None:
        _check_tolerance(tie_tolerance)
        check_labels("choice", choice, CHOICES)
        lookup = {name: c for c, name in enumerate(CHOICES)}
        codes = np.fromiter((lookup[c] for c in choice), dtype=np.int64, count=len(choice))
        return codes, iv_index, codes == _CHOSEN
    assert score_chosen is not None and score_rejected is not None
    verdicts = choices_from_scores(score_chosen, score_rejected, tie_tolerance, no_judgment=no_judgment)
    lookup = {name: c for c, name in enumerate(CHOICES)}
    codes = np.fromiter((lookup[c] for c in verdicts), dtype=np.int64, count=len(verdicts))
    strict = np.asarray(choices_from_scores(score_chosen, score_rejected, 0.0, no_judgment=no_judgment))
    return codes, iv_index, strict == "chosen"


def _check_tolerance(tie_tolerance: float) -> float:
    tol = float(tie_tolerance)
    if not math.isfinite(tol) or tol < 0:
        raise SchemaError(f"`tie_tolerance` must be a finite number >= 0, got {tie_tolerance!r}")
    return tol


def _flags(name: str, values: Sequence[bool] | np.ndarray | None, n: int) -> np.ndarray:
    if values is None:
        return np.zeros(n, dtype=bool)
    check_labels(name, values, {True, False})
    return np.asarray(values, dtype=bool)


def _blank(values: Sequence[float | None] | np.ndarray, missing: np.ndarray) -> list[Any]:
    """Replace the scores of pairs without a judgment by 0.0 so only judged pairs are checked."""
    return [0.0 if skip else v for v, skip in zip(values, missing, strict=True)]


def _codes_from_diff(diff: np.ndarray, tol: float, missing: np.ndarray) -> np.ndarray:
    codes = np.where(diff > tol, _CHOSEN, np.where(-diff > tol, _REJECTED, _TIE))
    codes[missing] = _NONE
    return codes


