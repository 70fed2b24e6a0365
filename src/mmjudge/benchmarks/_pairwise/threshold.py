"""The fixed-threshold rule VideoScore2's ``get_pairwise_acc.py`` applies to GenAI-Bench and MJ-Bench-Video.

With ``h`` the human label (+1, -1, 0 for a tie) and ``m = score_a - score_b`` (NaN: no judgment):

* **without ties** (``with_ties=False``): pairs humans tied are dropped; a pair is right iff ``h * m > 0`` (the
  official ``judge_equal_for_diverse`` returns 0 for equal scores, which never equals a left/right label);
* **with ties** (``with_ties=True``): the judge's tie is ``|m| <= t`` (``score1 - score2 > t`` is a preference),
  with ``t`` the threshold the script sets per judge (:data:`VIDEOSCORE2_TIE_THRESHOLDS`); a judge's tie is right
  on any tied human label (GenAI-Bench's ``tievote`` and ``bothbad_vote`` alike);
* a pair whose clip has no score is skipped before counting (``if video not in score_dict: continue``): the
  official keys put only judged pairs in the denominator; mmjudge's ``strict_`` keys count such a pair as wrong.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from mmjudge.benchmarks._base import ResultKey
from mmjudge.benchmarks._intervals import Scores
from mmjudge.benchmarks._pairwise.scoring import (
    Aspect,
    PairTable,
    assemble,
    base_columns,
    outcomes_of,
    rate_keys,
    ratio,
    tie_columns,
)
from mmjudge.errors import SchemaError
from mmjudge.stats import Metric, Outcomes

__all__ = [
    "RATES",
    "VIDEOSCORE2_TIE_THRESHOLDS",
    "check_threshold",
    "official_tie_threshold",
    "threshold_keys",
    "threshold_metrics",
    "threshold_outcomes",
    "threshold_score",
]

VIDEOSCORE2_TIE_THRESHOLDS: Mapping[str, float] = MappingProxyType(
    {
        "aigve_macs": 0.0,
        "lift": 0.0,
        "video_phy2_auto_eval": 0.0,
        "vs2": 0.5,
        "vs2_float": 0.001,
        "video_reward": 0.25,
        "unified_reward": 0.2,
        "vision_reward": 0.05,
        "deqa": 0.5,
        "dover": 0.05,
        "image_reward": 0.2,
        "q_align": 0.05,
        "q_insight": 0.05,
    }
)
"""The tie threshold VideoScore2's ``judge_equal_for_diverse`` uses per judge (its ``method`` name), with ties."""

RATES: tuple[tuple[str, str, str, str], ...] = (
    ("accuracy_without_ties", "win", "decided_judged",
     "official (VideoScore2): pairs people tied dropped, a zero difference wrong, pairs without a judgment skipped"),
    ("accuracy_with_ties", "tie_right", "judged",
     "official (VideoScore2): |difference| <= tie_threshold is the judge's tie, right on a tied label; pairs without a "
     "judgment skipped"),
    ("strict_accuracy_without_ties", "win", "decided",
     "mmjudge's: as accuracy_without_ties, a pair without a judgment counted wrong"),
    ("strict_accuracy_with_ties", "tie_right", "one",
     "mmjudge's: as accuracy_with_ties, a pair without a judgment counted wrong"),
)  # fmt: skip
"""Each rate: key name, numerator and denominator columns, what it is."""


def official_tie_threshold(method: str) -> float | None:
    """The threshold VideoScore2's script uses for ``method``; ``None`` for a method it does not list (there its
    with-ties comparison returns ``None`` for every pair, so every pair reads as the judge's tie).

    >>> official_tie_threshold("video_reward"), official_tie_threshold("pick_score")
    (0.25, None)
    """
    return VIDEOSCORE2_TIE_THRESHOLDS.get(method)


def check_threshold(tie_threshold: float) -> float:
    """A finite threshold >= 0, else a ``SchemaError`` saying what to pass."""
    value = float(tie_threshold)
    if not math.isfinite(value) or value < 0:
        raise SchemaError(
            f"`tie_threshold` must be a finite number >= 0 (VideoScore2's per-judge values: "
            f"{dict(VIDEOSCORE2_TIE_THRESHOLDS)}), got {tie_threshold!r}"
        )
    return value


def threshold_outcomes(table: PairTable, tie_threshold: float, extra: Mapping[str, np.ndarray] | None = None) -> Outcomes:
    """The per-unit outcomes of the rule: :func:`base_columns`, ``tie_right`` at ``tie_threshold``, and ``extra``."""
    columns = base_columns(table)
    columns.update(tie_columns(table, check_threshold(tie_threshold)))
    columns.update(extra or {})
    return outcomes_of(table, columns)


def threshold_metrics(
    outcomes: Outcomes, aspects: Sequence[Aspect], key: Callable[[str, Aspect], str], rates: Sequence[tuple[str, str, str, str]] = RATES
) -> dict[str, Metric]:
    """Each rate of each aspect present, where its denominator is not empty."""
    metrics: dict[str, Metric] = {}
    strata = np.asarray(outcomes.strata)
    for a in aspects:
        member = strata == a.slug
        for name, num, den, _ in rates:
            if outcomes.column(den)[member].sum() > 0:
                metrics[key(name, a)] = ratio(num, den, a.slug)
    return metrics


def threshold_score(
    outcomes: Outcomes,
    aspects: Sequence[Aspect],
    key: Callable[[str, Aspect], str],
    *,
    tie_threshold: float,
    confidence: float,
    rates: Sequence[tuple[str, str, str, str]] = RATES,
    counts: Mapping[str, Any] | None = None,
) -> Scores:
    """The rates (:func:`threshold_metrics`) with intervals, then per aspect ``n``, ``n_human_ties`` and
    ``n_no_judgment``, ``counts`` and the ``tie_threshold`` used."""
    metrics = threshold_metrics(outcomes, aspects, key, rates)
    strata = np.asarray(outcomes.strata)
    tally: dict[str, Any] = {}
    order = []
    for a in aspects:
        member = strata == a.slug
        if not member.any():
            continue
        order += [key(name, a) for name, *_ in rates]
        tally[key("n", a)] = int(member.sum())
        tally[key("n_human_ties", a)] = int(member.sum() - outcomes.column("decided")[member].sum())
        tally[key("n_no_judgment", a)] = int(member.sum() - outcomes.column("judged")[member].sum())
    tally.update(counts or {})
    tally["tie_threshold"] = float(tie_threshold)
    return assemble(outcomes, metrics, order=order, counts=tally, confidence=confidence)


def threshold_keys(
    aspects: Sequence[Aspect], key: Callable[[str, Aspect], str], rates: Sequence[tuple[str, str, str, str]] = RATES
) -> tuple[ResultKey, ...]:
    """The documented keys of :func:`threshold_score`, per aspect."""
    keys: list[ResultKey] = []
    for aspect in aspects:
        where = f"{aspect.name}: " if len(aspects) > 1 else ""
        for name, _, _, text in rates:
            keys += rate_keys(key(name, aspect), where + text)
        keys += [
            ResultKey(key("n", aspect), True, f"{where}pairs scored (count)"),
            ResultKey(key("n_human_ties", aspect), False, f"{where}pairs people tied (count)"),
            ResultKey(
                key("n_no_judgment", aspect), False, f"{where}pairs without a judgment (count): skipped by the official keys"
            ),
        ]
    keys.append(ResultKey("tie_threshold", False, "the judge's tie threshold used with ties (echo of the option)"))
    return tuple(keys)
