"""MIST (Misleading-Image Stress Test) scoring: does an image change a judge's idiom label?

Inputs are flat columns in long format (one row per judge label) plus optional item metadata and
human labels; the layout and its rules are in :mod:`mmjudge.benchmarks.mist._inputs`, the measures
and their documented choices (direction, trio-majority tie-break) in
:mod:`mmjudge.benchmarks.mist._measures`, the drift decomposition in
:mod:`mmjudge.benchmarks.mist._drift` and the alt-tests in :mod:`mmjudge.benchmarks.mist._alt_test`.

Units: change rates, direction, agreement, alt-test winning rates and advantage probabilities are
**percentages** (0-100), as the paper prints them; drift is in label steps (-3..3) and kappa in -1..1.
Each score carries ``<key>_ci_low``/``<key>_ci_high``, with the item as the independent cluster (the cells
of one item, its prompts and judges, share its sentence and images): a rate (change rate, direction,
agreement) gets the Wilson score interval over the cells when every item holds one cell of it, else the
Wilson score interval on the effective sample size of a bias-reduced delete-one-item jackknife with a t
quantile, as the judge mean of direction always does; drift and kappa get the jackknife t interval over
items (the Wilson bound rescaled to -3..3 or -1..1 when every item gives the same value). A key carried by
fewer than 5 items gets no interval, nor does a drift over fewer than 12 items of its sentence type
(:data:`~mmjudge.benchmarks.mist._drift.DRIFT_MIN_ITEMS`), or over fewer than 30 when each item holds one cell
(one judge's labels: :data:`~mmjudge.benchmarks.mist._drift.SINGLE_CELL_NOTE`); the record says why. The alt-test rates carry none.

Which keys appear:

* always: ``change_rate/...`` (from the judge labels alone);
* with item metadata (``meta_item_ids``, ``meta_cells``): ``direction/<arm>`` (and, with several
  judges, ``direction/<arm>/mean_over_judges``) and
  ``drift/<sentence type>/<prompt>/<arm>/{text_to_aligned,aligned_to_misleading,text_to_misleading}``;
* with human labels: ``agreement/...`` and ``kappa/<trio>``; with metadata as well, and a single
  judge in the table, ``alt_test/<trio>/<slice>/<scoring>/<prompt>/<arm>/...`` with slices ``all``,
  ``aligned`` and ``misleading`` (several judges: score them one at a time; a warning says so).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._intervals import Scores, check_resampling
from mmjudge.benchmarks.mist import _measures as measures
from mmjudge.benchmarks.mist._alt_test import alt_tests
from mmjudge.benchmarks.mist._drift import drift
from mmjudge.benchmarks.mist._inputs import (
    CODES,
    LABELS,
    NO_LABEL,
    MistTables,
    human_frame,
    item_frame,
    judge_frame,
)
from mmjudge.benchmarks.mist._measures import majority_label
from mmjudge.errors import SchemaError
from mmjudge.stats import Metric, Outcomes

__all__ = [
    "CODES",
    "DEFAULT_EPSILONS",
    "LABELS",
    "MODES",
    "MistTables",
    "majority_label",
    "score",
    "score_outcomes",
    "tables",
]

MODES: tuple[str, ...] = ("official", "strict")
"""Scoring modes: ``official`` scores labelled cells only; ``strict`` counts a missing label as changed."""
DEFAULT_EPSILONS: dict[str, float] = {"informed": 0.20, "blind": 0.15}
"""Alt-test epsilon per trio, as the paper sets it."""


def _or_empty(values: Sequence[Any] | None) -> Sequence[Any]:
    return [] if values is None else values


def tables(
    *,
    item_ids: Sequence[Any],
    image_conditions: Sequence[Any],
    arms: Sequence[Any],
    prompt_strategies: Sequence[Any],
    predictions: Sequence[Any],
    judges: Sequence[Any] | None = None,
    meta_item_ids: Sequence[Any] | None = None,
    meta_cells: Sequence[Any] | None = None,
    meta_trios: Sequence[Any] | None = None,
    meta_sentence_senses: Sequence[Any] | None = None,
    human_item_ids: Sequence[Any] | None = None,
    human_annotators: Sequence[Any] | None = None,
    human_labels: Sequence[Any] | None = None,
    allow_missing: bool = False,
) -> MistTables:
    """Validate every column (SchemaError naming the field) and build the frames :func:`score` uses.

    With ``allow_missing`` a ``None`` prediction is kept as a cell without a label (strict mode).
    """
    judge = judge_frame(
        item_ids, image_conditions, arms, prompt_strategies, predictions, judges, allow_missing=allow_missing
    )
    items = None
    if meta_item_ids is not None or meta_cells is not None:
        items = item_frame(_or_empty(meta_item_ids), _or_empty(meta_cells), meta_trios, meta_sentence_senses)
    humans = None
    if human_item_ids is not None or human_annotators is not None or human_labels is not None:
        humans = human_frame(
            _or_empty(human_item_ids), _or_empty(human_annotators), _or_empty(human_labels), items
        )
    return MistTables(judge, items, humans)


def score_outcomes(*, mode: str = "official", **inputs: Any) -> tuple[Outcomes, dict[str, Metric]]:
    """The cell outcomes of :func:`score`'s arguments (one unit per item x judge x prompt, clustered by item)
    and the metric of every change-rate, direction and agreement key over them."""
    if mode not in MODES:
        raise SchemaError(f"`mode` must be one of {list(MODES)}, got {mode!r}")
    names = ("item_ids", "image_conditions", "arms", "prompt_strategies", "predictions", "judges", "meta_item_ids",
             "meta_cells", "meta_trios", "meta_sentence_senses", "human_item_ids", "human_annotators", "human_labels")  # fmt: skip
    t = tables(**{k: inputs[k] for k in names if k in inputs}, allow_missing=True)
    labelled = t.judge[t.judge["code"] != NO_LABEL]
    scored = t.judge if mode == "strict" else labelled
    majority = measures.trio_majority(t.humans) if t.humans is not None else None
    return measures.cell_outcomes(scored, labelled, t.items, majority)


def score(
    *,
    item_ids: Sequence[Any],
    image_conditions: Sequence[Any],
    arms: Sequence[Any],
    prompt_strategies: Sequence[Any],
    predictions: Sequence[Any],
    judges: Sequence[Any] | None = None,
    meta_item_ids: Sequence[Any] | None = None,
    meta_cells: Sequence[Any] | None = None,
    meta_trios: Sequence[Any] | None = None,
    meta_sentence_senses: Sequence[Any] | None = None,
    human_item_ids: Sequence[Any] | None = None,
    human_annotators: Sequence[Any] | None = None,
    human_labels: Sequence[Any] | None = None,
    epsilons: Mapping[str, float] | None = None,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
    q: float = 0.05,
    min_humans_per_instance: int = 2,
    min_instances_per_human: int = 30,
    mode: str = "official",
) -> dict[str, Any]:
    """Score MIST judge labels: change rates, direction, drift, agreement, Fleiss' kappa, alt-test.

    Args:
        item_ids, image_conditions, arms, prompt_strategies, predictions: one judge label per row;
            ``image_conditions`` in {none, aligned, misleading}, ``arms`` in {explicit, silent} (``none``
            for text-only rows), ``predictions`` in {FF, WF, FL, LL}, or ``None`` for a cell the judge
            gave no label for (``no_judgment``).
        judges: judge name per row (default: one judge).
        meta_item_ids, meta_cells, meta_trios, meta_sentence_senses: item metadata; cells T1..T4.
        human_item_ids, human_annotators, human_labels: human labels, one row per (item, annotator).
        epsilons: alt-test epsilon per trio (default informed 0.20, blind 0.15).
        n_resamples, confidence, seed: ``confidence`` sets the level of every interval; ``n_resamples``
            and ``seed`` are checked but change no interval (all are closed forms, present with
            ``n_resamples=0`` too).
        q, min_humans_per_instance, min_instances_per_human: alt-test settings.
        mode: ``"official"`` scores the labelled cells only (the paper's judges always answer under
            constrained decoding); ``"strict"`` counts a cell without a label as a changed label in the
            change rates and as a disagreement with the trio majority, so dropping the labels that moved
            cannot lower a change rate. Direction, drift and the alt-tests use labelled cells in both.

    Returns:
        A flat dict; see the module docstring and :data:`mmjudge.benchmarks.mist.keys.RESULT_KEYS`.

    >>> r = score(item_ids=["i1", "i1", "i1"], image_conditions=["none", "aligned", "aligned"],
    ...           arms=["none", "explicit", "silent"], prompt_strategies=["zs"] * 3, predictions=["FF", "FF", "LL"])
    >>> r["change_rate/none_to_aligned/explicit"], r["change_rate/none_to_aligned/silent"], r["change_rate/control"]
    (0.0, 100.0, 100.0)
    >>> "change_rate/control_ci_low" in r, r.intervals["change_rate/control"]["method"]  # one item: no interval
    (False, 'none: no interval: 1 cell (at least 5 needed)')
    >>> gamed = dict(item_ids=["i1"] * 2, image_conditions=["none", "aligned"], arms=["none", "explicit"],
    ...              prompt_strategies=["zs"] * 2, predictions=["FF", None])
    >>> score(**gamed)["change_rate/none_to_aligned/explicit"], score(**gamed, mode="strict")["change_rate/none_to_aligned/explicit"]
    (nan, 100.0)
    """
    check_resampling(n_resamples, confidence)
    if mode not in MODES:
        raise SchemaError(f"`mode` must be one of {list(MODES)}, got {mode!r}")
    t = tables(
        item_ids=item_ids, image_conditions=image_conditions, arms=arms, prompt_strategies=prompt_strategies,
        predictions=predictions, judges=judges, meta_item_ids=meta_item_ids, meta_cells=meta_cells,
        meta_trios=meta_trios, meta_sentence_senses=meta_sentence_senses, human_item_ids=human_item_ids,
        human_annotators=human_annotators, human_labels=human_labels, allow_missing=True,
    )  # fmt: skip
    n_missing = int((t.judge["code"] == NO_LABEL).sum())
    labelled = t.judge[t.judge["code"] != NO_LABEL]
    scored = t.judge if mode == "strict" else labelled  # what change rates and agreement count
    table = measures.wide(labelled)
    boot: dict[str, Any] = {"n_resamples": n_resamples, "confidence": confidence, "seed": seed}
    out, intervals, _, _ = measures.outcome_scores(scored, labelled, t.items, t.humans, **boot)
    if t.items is not None:
        out.update(measures.direction_means(table, t.items, **boot, methods=intervals))
        out.update(drift(table, t.items, **boot, methods=intervals))
    if t.humans is not None:
        out.update(measures.kappa_by_trio(t.humans, **boot, methods=intervals))
    if t.humans is not None and t.items is not None:
        if t.judge["judge"].nunique() > 1:
            warnings.warn(
                "alt-test skipped: the table holds several judges; score them one at a time", stacklevel=2
            )
        else:
            out.update(
                alt_tests(
                    labelled,
                    t.items,
                    t.humans,
                    epsilons=dict(epsilons or DEFAULT_EPSILONS),
                    q=q,
                    min_humans_per_instance=min_humans_per_instance,
                    min_instances_per_human=min_instances_per_human,
                )
            )
    out["n_labels"] = len(labelled)
    out["n_no_judgment"] = n_missing
    out["mode"] = mode
    return Scores(out, {k: v for k, v in intervals.items() if k in out})
