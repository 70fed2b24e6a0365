"""GenAI-Bench (video generation) scoring: pairwise accuracy as VideoScore's and VideoScore2's scripts compute it.

Each pair is an arena vote between two generated clips of one prompt: ``leftvote``, ``rightvote``, ``tievote`` or
``bothbad_vote``; a judge scores each clip (its ``overall`` head). The rules (see
:mod:`mmjudge.benchmarks._pairwise.threshold` for the shared part):

* ``accuracy_without_ties`` -- VideoScore2's ``get_pairwise_acc.py`` with ``with_ties=False``: ``tievote`` and
  ``bothbad_vote`` dropped, a zero difference wrong, a pair whose clip has no score skipped silently;
* ``accuracy_with_ties`` -- the same with ``with_ties=True``: the judge's tie is ``|m| <= tie_threshold`` (the
  threshold VideoScore2 sets per judge, :data:`~mmjudge.benchmarks._pairwise.threshold.VIDEOSCORE2_TIE_THRESHOLDS`;
  0 by default), right on ``tievote`` and on ``bothbad_vote``;
* ``videoscore_accuracy_with_ties`` -- VideoScore (v1)'s ``get_genaibench_pairwise_acc.py``: equal human
  preferences (a tie or both bad) are right iff ``|m| < 0.5`` (strict, fixed), while a left or right vote is right
  on the sign of ``m`` alone (a difference of 0.1 counts as a preference there); missing pairs removed; its
  ``exclude_tie`` variant is ``accuracy_without_ties``;
* ``strict_accuracy_without_ties``, ``strict_accuracy_with_ties`` -- mmjudge's own: the two official rules with a
  pair without a judgment counted wrong instead of skipped; ``n_no_judgment`` counts those pairs.

Percentages with 95% intervals (Wilson over independent pairs, else on the jackknife's effective sample size over
prompts; none under 5 prompts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mmjudge.benchmarks._base import ResultKey
from mmjudge.benchmarks._intervals import Scores, check_resampling
from mmjudge.benchmarks._pairwise.scoring import Aspect, pair_table, tie_columns
from mmjudge.benchmarks._pairwise.threshold import (
    RATES,
    threshold_keys,
    threshold_metrics,
    threshold_outcomes,
    threshold_score,
)
from mmjudge.stats import Metric, Outcomes

__all__ = ["ASPECTS", "LABELS", "RESULT_KEYS", "VOTES", "outcomes", "score", "score_outcomes"]

ASPECTS: tuple[Aspect, ...] = (Aspect("Overall", "overall", "overall"),)
"""One aspect: the overall vote, scored with the judge's ``overall`` head."""
VOTES: tuple[str, ...] = ("leftvote", "rightvote", "tievote", "bothbad_vote")
"""The arena's ``vote_type`` values."""
LABELS: dict[str, int] = {"leftvote": 1, "rightvote": -1, "tievote": 0, "bothbad_vote": 0}
"""Each vote as ``h``: left (A) +1, right (B) -1, a tie or both bad 0."""
V1_THRESHOLD = 0.5
"""VideoScore v1's fixed tie rule: equal preferences are right iff ``|m| < 0.5``."""
_RATES = (
    *RATES,
    ("videoscore_accuracy_with_ties", "v1_right", "judged",
     "VideoScore v1's get_genaibench_pairwise_acc: a tie or both-bad vote right iff |difference| < 0.5, a left or "
     "right vote on the sign alone; pairs without a judgment removed"),
)  # fmt: skip


def _key(name: str, aspect: Aspect) -> str:
    return name


def outcomes(
    preference: Sequence[str],
    score_a: Sequence[float | None] | np.ndarray,
    score_b: Sequence[float | None] | np.ndarray,
    *,
    no_judgment: Sequence[bool] | None = None,
    pair_id: Sequence[Any] | None = None,
    cluster: Sequence[Any] | None = None,
    tie_threshold: float = 0.0,
) -> Outcomes:
    """The per-pair outcomes of the rules (see the module doc)."""
    table = pair_table(preference, score_a, score_b, labels=LABELS, aspects=ASPECTS, no_judgment=no_judgment,
                       pair_id=pair_id, cluster=cluster)  # fmt: skip
    # v1 holds a decided vote to the sign of m alone; only a tie or both-bad vote meets the 0.5 band
    tied_right = tie_columns(table, V1_THRESHOLD, strict=True, name="v1")["v1"] * (table.human == 0)
    won = (table.human != 0) & (table.human * np.nan_to_num(table.diff) > 0)
    return threshold_outcomes(table, tie_threshold, {"v1_right": tied_right + won})


def score(
    preference: Sequence[str],
    score_a: Sequence[float | None] | np.ndarray,
    score_b: Sequence[float | None] | np.ndarray,
    *,
    no_judgment: Sequence[bool] | None = None,
    pair_id: Sequence[Any] | None = None,
    cluster: Sequence[Any] | None = None,
    tie_threshold: float = 0.0,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Scores:
    """Score a judge on GenAI-Bench video pairs (see the module doc).

    Args:
        preference: the vote per pair (:data:`VOTES`).
        score_a, score_b: the judge's score of the left and the right clip.
        no_judgment: pairs the judge did not score (a clip missing): skipped by the official keys.
        pair_id, cluster: pair ids and each pair's prompt.
        tie_threshold: the judge's tie threshold with ties (VideoScore2's value for the judge).
        n_resamples, confidence, seed: checked; the intervals are closed forms at ``confidence``.

    >>> r = score(["leftvote", "rightvote", "tievote", "bothbad_vote", "leftvote"], [2, 1, 1, 1.2, None],
    ...           [1, 1, 1.1, 1, None], no_judgment=[False] * 4 + [True], tie_threshold=0.25)
    >>> r["accuracy_without_ties"], r["accuracy_with_ties"], r["strict_accuracy_with_ties"], r["n_no_judgment"]
    (50.0, 75.0, 60.0, 1)
    """
    check_resampling(n_resamples, confidence)
    table = outcomes(preference, score_a, score_b, no_judgment=no_judgment, pair_id=pair_id, cluster=cluster,
                     tie_threshold=tie_threshold)  # fmt: skip
    labels = list(preference)
    counts = {"n_tie_votes": labels.count("tievote"), "n_bothbad_votes": labels.count("bothbad_vote")}
    return threshold_score(table, ASPECTS, _key, tie_threshold=tie_threshold, confidence=confidence, rates=_RATES,
                           counts=counts)  # fmt: skip


def score_outcomes(
    preference: Sequence[str],
    score_a: Sequence[float | None] | np.ndarray,
    score_b: Sequence[float | None] | np.ndarray,
    **options: Any,
) -> tuple[Outcomes, dict[str, Metric]]:
    """The outcomes of :func:`score`'s arguments and the metric of every rate key over them."""
    keep = {k: options[k] for k in ("no_judgment", "pair_id", "cluster", "tie_threshold") if k in options}
    table = outcomes(preference, score_a, score_b, **keep)
    return table, threshold_metrics(table, ASPECTS, _key, _RATES)


RESULT_KEYS: tuple[ResultKey, ...] = (
    *threshold_keys(ASPECTS, _key, _RATES),
    ResultKey("n_tie_votes", False, "pairs voted tievote (count)"),
    ResultKey("n_bothbad_votes", False, "pairs voted bothbad_vote (count)"),
)
"""Every key :func:`score` can return."""
