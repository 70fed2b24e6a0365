"""VideoGen-RewardBench scoring: VideoAlign's accuracy without ties and its Ties-Matter accuracy with ties.

Each pair carries four human labels (``VQ``, ``MQ``, ``TA``, ``Overall``, each ``A``, ``B`` or ``same``) and each is
scored with the judge's head of the same name (``Overall``: the ``overall`` head), as VideoAlign's
``eval_videogen_rewardbench.py`` does. With ``h`` = +1 (A), -1 (B), 0 (same) and ``m = score_a - score_b``:

* **accuracy without ties** (``calc_accuracy_without_ties``): over the pairs humans did not tie, the share with
  ``h * m > 0``. A zero difference is wrong, and so is a pair without a judgment (a NaN reward is discordant in
  VideoAlign's ``suff_stats``).
* **accuracy with ties** (``calc_accuracy_with_ties``, Deutsch et al.'s Ties-Matter accuracy): over all pairs, a
  judge's tie (``|m| <= epsilon``) is right on a human tie, a decided judgment right when it agrees. The official
  ``epsilon`` is tuned on the test pairs themselves (:func:`official_tie_sweep`): the number it reports is the best
  accuracy over a sweep. That sweep has two quirks reproduced here: it walks the pairs in order of ``|m|`` one at a
  time (pairs of equal ``|m|`` are split by their order in the file, so the "threshold" may tie only some of them),
  and it never considers making no tie at all (the first step already ties the smallest ``|m|``).
* **accuracy with ties, cross-fitted** (mmjudge's own, beside the official number): the prompts are split into
  ``folds`` folds by a hash of the prompt; each fold is scored with the ``epsilon`` that maximises the accuracy on
  the other folds (a true threshold, no tie allowed as a candidate, the smallest best ``epsilon`` kept), so no pair
  helps choose its own threshold.

A pair without a judgment is wrong in every key and takes no part in choosing ``epsilon`` (VideoAlign would sort a
NaN difference into its sweep at an undefined place). All rates are percentages; every rate has a 95% interval from
the per-pair outcomes (Wilson over independent pairs, else Wilson on the jackknife's effective sample size over
prompts; none under 5 prompts). The intervals of the with-ties keys hold ``epsilon`` fixed: they do not include the
tuning, so the official one is optimistic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mmjudge.benchmarks._base import ResultKey
from mmjudge.benchmarks._intervals import Scores, check_resampling
from mmjudge.benchmarks._pairwise.scoring import (
    Aspect,
    PairTable,
    assemble,
    base_columns,
    outcomes_of,
    pair_table,
    rate_keys,
    ratio,
    tie_columns,
)
from mmjudge.errors import SchemaError
from mmjudge.queries import item_key
from mmjudge.stats import Metric, Outcomes

__all__ = [
    "ASPECTS",
    "LABELS",
    "RESULT_KEYS",
    "TieSweep",
    "crossfit_thresholds",
    "fit_threshold",
    "official_tie_sweep",
    "outcomes",
    "score",
    "score_outcomes",
]

ASPECTS: tuple[Aspect, ...] = (
    Aspect("VQ", "VQ", "VQ"),
    Aspect("MQ", "MQ", "MQ"),
    Aspect("TA", "TA", "TA"),
    Aspect("Overall", "overall", "overall"),
)
"""The four label columns, each scored with the judge head of its name (``Overall``: ``overall``)."""
LABELS: dict[str, int] = {"A": 1, "B": -1, "same": 0}
"""The release's labels and VideoAlign's ``h`` (``map({'A': 1, 'B': -1, 'same': 0})``)."""


class TieSweep(NamedTuple):
    """What VideoAlign's tie calibration picks on one aspect's judged pairs."""

    accuracy: float
    """The best accuracy of the sweep, as a fraction of ``n`` (NaN with no judged pair)."""
    epsilon: float
    """The ``|m|`` of the last pair the best step ties."""
    ties: np.ndarray
    """Per pair (input order): whether the best step counts it as the judge's tie."""


def official_tie_sweep(human: np.ndarray, diff: np.ndarray, n: int | None = None) -> TieSweep:
    """VideoAlign's ``calc_accuracy_with_ties``: walk the pairs by ``|m|`` (stable order), tie one more per step,
    keep the first step of highest accuracy ``(C + Thm) / n``. ``n`` (default: the pairs given) is the denominator:
    pass the count with the pairs lacking a judgment, which are never right.

    >>> s = official_tie_sweep(np.array([1, -1]), np.array([1.0, -1.0]))  # no tie is never a candidate
    >>> s.accuracy, s.epsilon, s.ties.tolist()
    (0.5, 1.0, [True, False])
    >>> official_tie_sweep(np.array([0, 1]), np.array([-0.5, 0.5])).accuracy  # equal |m| split by file order
    1.0
    """
    human, diff = np.asarray(human, dtype=np.int64), np.asarray(diff, dtype=np.float64)
    total = len(human) if n is None else n
    if len(human) == 0:
        return TieSweep(float("nan"), float("nan"), np.zeros(0, dtype=bool))
    order = np.argsort(np.abs(diff), kind="stable")
    concordant = (human != 0) & (human * diff > 0)
    delta = np.where(human[order] == 0, 1, np.where(concordant[order], -1, 0))
    correct = int(concordant.sum()) + np.cumsum(delta)
    best = int(np.argmax(correct))  # the first maximum, as the official strict '>' keeps
    ties = np.zeros(len(human), dtype=bool)
    ties[order[: best + 1]] = True
    return TieSweep(float(correct[best]) / total, float(abs(diff[order[best]])), ties)


def fit_threshold(human: np.ndarray, diff: np.ndarray) -> float:
    """The ``epsilon`` maximising the Ties-Matter accuracy with ties ``|m| <= epsilon``, over no tie (``-inf``) and
    each ``|m|``; the smallest best one.

    >>> fit_threshold(np.array([1, -1]), np.array([1.0, -1.0])), fit_threshold(np.array([0, 1]), np.array([0.1, 2.0]))
    (-inf, 0.1)
    """
    if len(human) == 0:
        return float("-inf")
    size = np.abs(diff)
    order = np.argsort(size, kind="stable")
    size, h = size[order], human[order]
    concordant = ((h != 0) & (h * diff[order] > 0)).astype(np.int64)
    tie_right = (h == 0).astype(np.int64)
    # ties = the first k pairs (k = 0..n): right = tie-right among them + concordant after them
    right = np.concatenate([[0], np.cumsum(tie_right)]) + concordant.sum() - np.concatenate([[0], np.cumsum(concordant)])
    last_of_value = np.concatenate([np.flatnonzero(np.diff(size) > 0) + 1, [len(size)]])  # k ending a run of equal |m|
    candidates = np.concatenate([[0], last_of_value])
    best = candidates[int(np.argmax(right[candidates]))]
    return float("-inf") if best == 0 else float(size[best - 1])


def crossfit_thresholds(table: PairTable, folds: int) -> np.ndarray:
    """Per unit: the ``epsilon`` fitted on the judged units of its aspect in the other folds of prompts (fold =
    :func:`~mmjudge.queries.item_key` of the prompt modulo ``folds``); NaN where no other fold has units."""
    fold = np.fromiter((item_key(c) % folds for c in table.clusters), dtype=np.int64, count=len(table.units))
    strata = np.asarray(table.strata)
    judged = ~np.isnan(table.diff)
    out = np.full(len(table.units), np.nan)
    for stratum in dict.fromkeys(table.strata):
        member = strata == stratum
        for f in np.unique(fold[member]):
            train = member & judged & (fold != f)
            if not (member & (fold != f)).any():
                continue
            out[member & (fold == f)] = fit_threshold(table.human[train], table.diff[train])
    return out


def outcomes(
    preference: Sequence[str],
    score_a: Sequence[float | None] | np.ndarray,
    score_b: Sequence[float | None] | np.ndarray,
    *,
    aspect: Sequence[str] | None = None,
    no_judgment: Sequence[bool] | None = None,
    pair_id: Sequence[Any] | None = None,
    cluster: Sequence[Any] | None = None,
    folds: int = 5,
) -> tuple[Outcomes, dict[str, float]]:
    """The per-unit outcomes (unit = pair x aspect) and the official ``epsilon`` of each aspect."""
    if isinstance(folds, bool) or int(folds) != folds or folds < 2:
        raise SchemaError(f"`folds` must be an integer >= 2 (folds of prompts for the cross-fitted epsilon), got {folds!r}")
    if aspect is None:
        aspect = ["Overall"] * len(preference)
    table = pair_table(preference, score_a, score_b, labels=LABELS, aspects=ASPECTS, aspect=aspect,
                       no_judgment=no_judgment, pair_id=pair_id, cluster=cluster)  # fmt: skip
    columns = base_columns(table)
    tuned = np.zeros(len(table.units))
    epsilons: dict[str, float] = {}
    strata = np.asarray(table.strata)
    judged = ~np.isnan(table.diff)
    for a in ASPECTS:
        member = np.flatnonzero((strata == a.slug) & judged)
        if not (strata == a.slug).any():
            continue
        sweep = official_tie_sweep(table.human[member], table.diff[member], int((strata == a.slug).sum()))
        epsilons[a.slug] = sweep.epsilon
        ties = np.zeros(len(table.units), dtype=bool)
        ties[member] = sweep.ties
        right = (ties & (table.human == 0)) | (~ties & judged & (table.human * np.nan_to_num(table.diff) > 0))
        tuned[member] = right[member]
    columns["tuned_right"] = tuned
    thresholds = crossfit_thresholds(table, int(folds))
    columns["crossfit_known"] = (~np.isnan(thresholds)).astype(np.float64)
    columns.update(tie_columns(table, np.nan_to_num(thresholds, nan=-np.inf), name="crossfit_right"))
    columns["crossfit_right"] = columns["crossfit_right"] * columns["crossfit_known"]
    return outcomes_of(table, columns), epsilons


def metric_specs(table: Outcomes) -> dict[str, Metric]:
    """Every rate key of ``table``: per aspect present, the three accuracies."""
    metrics: dict[str, Metric] = {}
    present = set(table.strata)
    for a in ASPECTS:
        if a.slug not in present:
            continue
        member = np.asarray(table.strata) == a.slug
        if table.column("decided")[member].sum() > 0:
            metrics[f"accuracy_without_ties/{a.slug}"] = ratio("win", "decided", a.slug)
        metrics[f"accuracy_with_ties/{a.slug}"] = ratio("tuned_right", "one", a.slug)
        if table.column("crossfit_known")[member].all():
            metrics[f"accuracy_with_ties_crossfit/{a.slug}"] = ratio("crossfit_right", "one", a.slug)
    return metrics


def score(
    preference: Sequence[str],
    score_a: Sequence[float | None] | np.ndarray,
    score_b: Sequence[float | None] | np.ndarray,
    *,
    aspect: Sequence[str] | None = None,
    no_judgment: Sequence[bool] | None = None,
    pair_id: Sequence[Any] | None = None,
    cluster: Sequence[Any] | None = None,
    folds: int = 5,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Scores:
    """Score a judge on VideoGen-RewardBench (see the module doc); one entry per pair and aspect.

    Args:
        preference: ``A``, ``B`` or ``same`` per entry (the aspect's column).
        score_a, score_b: the judge's score of clip A and clip B at the aspect's head.
        aspect: ``VQ``, ``MQ``, ``TA`` or ``Overall`` per entry (default: every entry ``Overall``).
        no_judgment: entries the judge did not score (wrong in every key).
        pair_id, cluster: pair ids (``(pair_id, aspect)`` unique) and each pair's prompt.
        folds: folds of prompts for the cross-fitted ``epsilon`` (at least 2).
        n_resamples, confidence, seed: checked; the intervals are closed forms at ``confidence``.

    >>> r = score(["A", "B", "same", "A", "B"], [2, 1, 1, 1, 3], [1, 2, 1, 1, 1], aspect=["Overall"] * 5)
    >>> r["accuracy_without_ties/overall"], r["accuracy_with_ties/overall"], r["epsilon/overall"]
    (50.0, 60.0, 0.0)
    """
    check_resampling(n_resamples, confidence)
    table, epsilons = outcomes(preference, score_a, score_b, aspect=aspect, no_judgment=no_judgment, pair_id=pair_id,
                               cluster=cluster, folds=folds)  # fmt: skip
    metrics = metric_specs(table)
    strata = np.asarray(table.strata)
    counts: dict[str, Any] = {}
    order: list[str] = []
    for a in ASPECTS:
        member = strata == a.slug
        if not member.any():
            continue
        order += [f"{k}/{a.slug}" for k in ("accuracy_without_ties", "accuracy_with_ties", "accuracy_with_ties_crossfit")]
        counts[f"epsilon/{a.slug}"] = epsilons[a.slug]
        counts[f"n/{a.slug}"] = int(member.sum())
        counts[f"n_human_ties/{a.slug}"] = int(member.sum() - table.column("decided")[member].sum())
        counts[f"n_no_judgment/{a.slug}"] = int(member.sum() - table.column("judged")[member].sum())
    counts["n_pairs"] = len(dict.fromkeys(u.rsplit("/", 1)[0] for u in table.units))
    counts["folds"] = int(folds)
    return assemble(table, metrics, order=order, counts=counts, confidence=confidence)


def score_outcomes(
    preference: Sequence[str],
    score_a: Sequence[float | None] | np.ndarray,
    score_b: Sequence[float | None] | np.ndarray,
    **options: Any,
) -> tuple[Outcomes, dict[str, Metric]]:
    """The outcomes of :func:`score`'s arguments and the metric of every rate key over them."""
    keep = {k: options[k] for k in ("aspect", "no_judgment", "pair_id", "cluster", "folds") if k in options}
    table, _ = outcomes(preference, score_a, score_b, **keep)
    return table, metric_specs(table)


def _result_keys() -> tuple[ResultKey, ...]:
    keys: list[ResultKey] = []
    for a in ASPECTS:
        keys += rate_keys(f"accuracy_without_ties/{a.slug}", f"{a.name}: VideoAlign's accuracy w/o ties: pairs humans "
                          "did not tie, judge difference of the right sign; a zero difference and no judgment wrong")
        keys += rate_keys(f"accuracy_with_ties/{a.slug}", f"{a.name}: VideoAlign's Ties-Matter accuracy with ties, "
                          "epsilon tuned on these pairs (the official number)")
        keys += rate_keys(f"accuracy_with_ties_crossfit/{a.slug}", f"{a.name}: accuracy with ties, epsilon fitted on "
                          "the other folds of prompts (out of sample; mmjudge's own)")
        keys += [
            ResultKey(f"epsilon/{a.slug}", False, f"{a.name}: the tie threshold the official sweep picks on these pairs"),
            ResultKey(f"n/{a.slug}", True, f"{a.name}: pairs scored (count)"),
            ResultKey(f"n_human_ties/{a.slug}", False, f"{a.name}: pairs labelled same (count)"),
            ResultKey(f"n_no_judgment/{a.slug}", False, f"{a.name}: pairs without a judgment (count)"),
        ]
    keys += [
        ResultKey("n_pairs", True, "pairs scored (count)"),
        ResultKey("folds", True, "folds of prompts of the cross-fitted epsilon (echo of the option)"),
    ]
    return tuple(keys)


RESULT_KEYS: tuple[ResultKey, ...] = _result_keys()
"""Every key :func:`score` can return."""
