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

Every rate carries a 95% Wilson interval (``<key>_ci_low``/``_ci_high``); the means over interventions
(``average``, ``dimension_accuracy/<dim>``, ``decided_average``) carry a percentile bootstrap stratified
by intervention, as the benchmark fixes 1,000 pairs per intervention.
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
from mmjudge.benchmarks._intervals import check_resampling, percentile_keys, wilson_keys
from mmjudge.errors import SchemaError

__all__ = [
    "CHOICES",
    "DIMENSIONS",
    "HUMAN_ACCURACY",
    "HUMAN_AVERAGE",
    "INTERVENTIONS",
    "choices_from_scores",
    "score",
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

    Intervals: every rate gets a Wilson interval (present whatever ``n_resamples``); the means over
    interventions get the percentile interval of a bootstrap stratified by intervention (each
    intervention's pairs resampled on their own, drawn as multinomial verdict counts; ``n_resamples``
    resamples from ``seed``; ``n_resamples=0`` leaves them out). The result depends only on the verdict
    counts, not on row order.

    >>> r = score(["frame_hold", "frame_hold", "t2v_5b", "t2v_5b"], choice=["chosen", "tie", "chosen", "none"],
    ...           n_resamples=0)
    >>> r["accuracy/frame_hold"], r["decided_accuracy/frame_hold"], r["average"], r["decided_average"]
    (50.0, 100.0, 50.0, 100.0)
    >>> r["vgrb_accuracy/t2v_5b"], round(r["accuracy/t2v_5b_ci_low"], 1), round(r["accuracy/t2v_5b_ci_high"], 1)
    (50.0, 9.5, 90.5)
    """
    codes, iv_index, concordant = _validated_codes(
        intervention, score_chosen, score_rejected, choice, no_judgment, pair_id, tie_tolerance
    )
    check_resampling(n_resamples, confidence)
    counts = np.bincount(iv_index * 4 + codes, minlength=4 * len(INTERVENTIONS)).reshape(-1, 4)
    vgrb = np.bincount(iv_index, weights=concordant, minlength=len(INTERVENTIONS)).astype(np.int64)
    present = [k for k in range(len(INTERVENTIONS)) if counts[k].sum() > 0]
    draws = _draws(counts, n_resamples, seed)
    result: dict[str, float | int] = {}
    for k in present:
        result.update(_rates(INTERVENTIONS[k], counts[k], int(vgrb[k]), confidence))
    for dim, members in DIMENSIONS.items():
        ks = [k for k in present if INTERVENTIONS[k] in members]
        if ks:
            result.update(_mean_key(f"dimension_accuracy/{dim}", _accuracy, counts, draws, ks, confidence))
    result.update(_mean_key("average", _accuracy, counts, draws, present, confidence))
    if all(counts[k, _CHOSEN] + counts[k, _REJECTED] > 0 for k in present):
        result.update(_mean_key("decided_average", _decided, counts, draws, present, confidence))
    result.update(_pooled(counts.sum(axis=0), int(vgrb.sum()), confidence))
    result["tie_tolerance"] = float(tie_tolerance)
    return result


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


def _pct(numerator: float, denominator: float) -> float:
    return 100.0 * float(numerator) / float(denominator)


def _rate(key: str, k: int, n: int, confidence: float) -> dict[str, float | int]:
    """``key`` = 100 k / n with its Wilson CI keys."""
    out: dict[str, float | int] = {key: _pct(k, n)}
    out.update(wilson_keys(key, k, n, confidence))
    return out


def _rates(name: str, c: np.ndarray, concordant: int, confidence: float) -> dict[str, float | int]:
    """Rates and counts of one intervention from its verdict counts (chosen, rejected, tie, none)."""
    n, decided = int(c.sum()), int(c[_CHOSEN] + c[_REJECTED])
    out = _rate(f"accuracy/{name}", int(c[_CHOSEN]), n, confidence)
    if decided > 0:
        out.update(_rate(f"decided_accuracy/{name}", int(c[_CHOSEN]), decided, confidence))
    out.update(_rate(f"tie_rate/{name}", int(c[_TIE]), n, confidence))
    out.update(_rate(f"no_judgment_rate/{name}", int(c[_NONE]), n, confidence))
    out.update(_rate(f"vgrb_accuracy/{name}", concordant, n, confidence))
    out.update({f"n/{name}": n, f"n_correct/{name}": int(c[_CHOSEN])})
    out.update({f"n_tie/{name}": int(c[_TIE]), f"n_no_judgment/{name}": int(c[_NONE])})
    return out


def _pooled(c: np.ndarray, concordant: int, confidence: float) -> dict[str, float | int]:
    n, decided = int(c.sum()), int(c[_CHOSEN] + c[_REJECTED])
    out: dict[str, float | int] = {}
    if decided > 0:
        out.update(_rate("decided_accuracy_pooled", int(c[_CHOSEN]), decided, confidence))
    out.update(_rate("tie_rate", int(c[_TIE]), n, confidence))
    out.update(_rate("no_judgment_rate", int(c[_NONE]), n, confidence))
    out.update(_rate("vgrb_accuracy", concordant, n, confidence))
    out["n_pairs"] = n
    return out


def _accuracy(c: np.ndarray) -> np.ndarray:
    """Accuracy (percent) from verdict counts ``(..., 4)``; NaN for an empty intervention."""
    n = c.sum(axis=-1)
    return np.divide(100.0 * c[..., _CHOSEN], n, out=np.full(n.shape, np.nan), where=n > 0)


def _decided(c: np.ndarray) -> np.ndarray:
    """Decided-pair accuracy (percent) from verdict counts ``(..., 4)``; NaN without a decided pair."""
    decided = c[..., _CHOSEN] + c[..., _REJECTED]
    return np.divide(100.0 * c[..., _CHOSEN], decided, out=np.full(decided.shape, np.nan), where=decided > 0)


def _draws(counts: np.ndarray, n_resamples: int, seed: int) -> np.ndarray | None:
    """Stratified bootstrap of the verdict counts, shape ``(n_resamples, 8, 4)`` (``None`` for 0 resamples).

    Resampling the ``n_k`` pairs of intervention k with replacement gives ``Multinomial(n_k, counts_k /
    n_k)`` verdict counts, drawn directly from that law (10,000 resamples of 8,000 pairs take
    milliseconds). Interventions absent from the input stay at zero counts, which no key reads.
    """
    if n_resamples == 0:
        return None
    sizes = counts.sum(axis=1)
    shares = counts / np.maximum(sizes, 1)[:, None]
    shares[sizes == 0] = (1.0, 0.0, 0.0, 0.0)
    rng = np.random.default_rng(seed)
    return rng.multinomial(sizes, shares, size=(int(n_resamples), len(sizes)))


def _mean_key(
    key: str,
    statistic: Any,
    counts: np.ndarray,
    draws: np.ndarray | None,
    ks: list[int],
    confidence: float,
) -> dict[str, float | int]:
    """``key`` = the mean over interventions ``ks`` of ``statistic``, with its bootstrap CI keys."""
    out: dict[str, float | int] = {key: float(np.mean(statistic(counts[ks])))}
    if draws is not None:
        out.update(percentile_keys(key, statistic(draws[:, ks]).mean(axis=1), confidence))
    return out
