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
pairs (ties and missing judgments removed), tie and no-judgment rates, and VideoGen-RewardBench's
"accuracy w/o ties" (see :func:`score`), with bootstrap CIs stratified by intervention.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from mmjudge.benchmarks._base import BenchmarkSpec
from mmjudge.benchmarks._isovrbench_keys import result_keys
from mmjudge.benchmarks._validate import (
    check_finite,
    check_labels,
    check_nonempty,
    check_same_length,
    check_unique,
)
from mmjudge.errors import SchemaError
from mmjudge.registry import register_benchmark

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
    ``accuracy/iv`` (ties and no-judgment wrong) with ``accuracy/iv_ci_low``/``_ci_high``,
    ``decided_accuracy/iv`` (only when some pair is decided), ``tie_rate/iv``, ``no_judgment_rate/iv``,
    ``vgrb_accuracy/iv`` (VideoGen-RewardBench's ``calc_accuracy_without_ties``: its "ties" are *human*
    ties, of which IsoVRBench has none, so a judge tie counts wrong and only pairs without a judgment are
    left out; only when some pair has a judgment) and the counts ``n/iv``, ``n_correct/iv``,
    ``n_tie/iv``, ``n_no_judgment/iv``. Then ``dimension_accuracy/<dim>`` (mean over the dimension's
    interventions present) with CIs, ``average`` (mean over interventions present) with CIs, the pooled
    ``decided_accuracy``, ``tie_rate``, ``no_judgment_rate``, ``vgrb_accuracy``, ``n_pairs`` and the
    ``tie_tolerance`` used.

    CIs are percentile intervals of a bootstrap stratified by intervention (each intervention's pairs are
    resampled on their own, as the benchmark fixes 1,000 pairs per intervention; ``n_resamples``
    resamples from ``seed``; ``n_resamples=0`` leaves them out). A group's replicate is the mean of its
    interventions' replicates. The result depends only on the verdict counts, not on row order.

    >>> r = score(["frame_hold", "frame_hold", "t2v_5b", "t2v_5b"], choice=["chosen", "tie", "chosen", "none"],
    ...           n_resamples=0)
    >>> r["accuracy/frame_hold"], r["decided_accuracy/frame_hold"], r["average"], r["vgrb_accuracy/t2v_5b"]
    (50.0, 100.0, 50.0, 100.0)
    """
    codes, iv_index = _validated_codes(
        intervention, score_chosen, score_rejected, choice, no_judgment, pair_id, tie_tolerance
    )
    counts = np.bincount(iv_index * 4 + codes, minlength=4 * len(INTERVENTIONS)).reshape(-1, 4)
    present = [k for k in range(len(INTERVENTIONS)) if counts[k].sum() > 0]
    replicates = _replicates(counts, n_resamples, confidence, seed)
    result: dict[str, float | int] = {}
    for k in present:
        result.update(_rates(INTERVENTIONS[k], counts[k]))
        _put_ci(result, f"accuracy/{INTERVENTIONS[k]}", replicates, [k], confidence)
    for dim, members in DIMENSIONS.items():
        ks = [k for k in present if INTERVENTIONS[k] in members]
        if ks:
            result[f"dimension_accuracy/{dim}"] = _mean_of(result, ks)
            _put_ci(result, f"dimension_accuracy/{dim}", replicates, ks, confidence)
    result["average"] = _mean_of(result, present)
    _put_ci(result, "average", replicates, present, confidence)
    result.update(_pooled(counts.sum(axis=0)))
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
) -> tuple[np.ndarray, np.ndarray]:
    """Check every input and return (verdict code per pair, intervention index per pair)."""
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
        return np.fromiter((lookup[c] for c in choice), dtype=np.int64, count=len(choice)), iv_index
    assert score_chosen is not None and score_rejected is not None
    verdicts = choices_from_scores(score_chosen, score_rejected, tie_tolerance, no_judgment=no_judgment)
    lookup = {name: c for c, name in enumerate(CHOICES)}
    return np.fromiter((lookup[c] for c in verdicts), dtype=np.int64, count=len(verdicts)), iv_index


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


def _rates(name: str, c: np.ndarray) -> dict[str, float | int]:
    """Rates and counts of one intervention from its verdict counts (chosen, rejected, tie, none)."""
    n = int(c.sum())
    out: dict[str, float | int] = {f"accuracy/{name}": _pct(c[_CHOSEN], n)}
    if c[_CHOSEN] + c[_REJECTED] > 0:
        out[f"decided_accuracy/{name}"] = _pct(c[_CHOSEN], c[_CHOSEN] + c[_REJECTED])
    out[f"tie_rate/{name}"] = _pct(c[_TIE], n)
    out[f"no_judgment_rate/{name}"] = _pct(c[_NONE], n)
    if n - c[_NONE] > 0:
        out[f"vgrb_accuracy/{name}"] = _pct(c[_CHOSEN], n - c[_NONE])
    out.update({f"n/{name}": n, f"n_correct/{name}": int(c[_CHOSEN])})
    out.update({f"n_tie/{name}": int(c[_TIE]), f"n_no_judgment/{name}": int(c[_NONE])})
    return out


def _pooled(c: np.ndarray) -> dict[str, float | int]:
    n = int(c.sum())
    out: dict[str, float | int] = {}
    if c[_CHOSEN] + c[_REJECTED] > 0:
        out["decided_accuracy"] = _pct(c[_CHOSEN], c[_CHOSEN] + c[_REJECTED])
    out["tie_rate"] = _pct(c[_TIE], n)
    out["no_judgment_rate"] = _pct(c[_NONE], n)
    if n - c[_NONE] > 0:
        out["vgrb_accuracy"] = _pct(c[_CHOSEN], n - c[_NONE])
    out["n_pairs"] = n
    return out


def _mean_of(result: Mapping[str, float | int], ks: list[int]) -> float:
    return float(np.mean([result[f"accuracy/{INTERVENTIONS[k]}"] for k in ks]))


def _replicates(counts: np.ndarray, n_resamples: int, confidence: float, seed: int) -> np.ndarray | None:
    """Stratified bootstrap replicates of every intervention's accuracy, shape ``(n_resamples, 8)``.

    Resampling the ``n_k`` pairs of intervention k with replacement and counting the correct ones
    gives ``Binomial(n_k, correct_k / n_k)``: the same distribution as drawing item indices, drawn
    directly from that law (10,000 resamples of 8,000 pairs take milliseconds instead of seconds).
    Interventions absent from the input get NaN columns, which no key reads.
    """
    if isinstance(n_resamples, bool) or int(n_resamples) != n_resamples or n_resamples < 0:
        raise SchemaError(f"`n_resamples` must be an integer >= 0 (0: no CIs), got {n_resamples!r}")
    if not 0.0 < float(confidence) < 1.0:
        raise SchemaError(f"`confidence` must lie strictly between 0 and 1, got {confidence!r}")
    if n_resamples == 0:
        return None
    sizes = counts.sum(axis=1)
    safe = np.maximum(sizes, 1)
    rng = np.random.default_rng(seed)
    draws = rng.binomial(sizes, counts[:, _CHOSEN] / safe, size=(int(n_resamples), len(sizes)))
    return np.where(sizes > 0, 100.0 * draws / safe, np.nan)


def _put_ci(
    result: dict[str, float | int], key: str, replicates: np.ndarray | None, ks: list[int], confidence: float
) -> None:
    """Add ``key_ci_low``/``key_ci_high``: percentile interval of the mean of the listed accuracies."""
    if replicates is None:
        return
    alpha = (1.0 - float(confidence)) / 2.0
    low, high = np.quantile(replicates[:, ks].mean(axis=1), [alpha, 1.0 - alpha])
    result[f"{key}_ci_low"] = float(low)
    result[f"{key}_ci_high"] = float(high)


register_benchmark("isovrbench")(
    BenchmarkSpec(
        id="isovrbench", title="IsoVRBench", score=score, result_keys=result_keys(INTERVENTIONS, DIMENSIONS)
    )
)
