"""MIST (Misleading-Image Stress Test) scoring: does an image change a judge's idiom label?

Inputs are flat columns in long format (one row per judge label) plus optional item metadata and
human labels; the layout and its rules are in :mod:`mmjudge.benchmarks._mist_inputs`, the measures
and their documented choices (direction, drift, trio-majority tie-break) in
:mod:`mmjudge.benchmarks._mist_measures`. Rates are shares in [0, 1] (not percent).

Which keys appear:

* always: ``change_rate/...`` and ``drift/...`` (from the judge labels alone);
* with item metadata (``meta_item_ids``, ``meta_cells``): ``direction/...``;
* with human labels: ``agreement/...`` and ``kappa/<trio>...``; with metadata as well, and a single
  judge in the table, ``alt_test/<trio>/<scoring>/<prompt_strategy>/<arm>/...`` on the image
  condition the trio saw (several judges: score them one at a time; a warning says so).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks import _mist_measures as measures
from mmjudge.benchmarks._base import BenchmarkSpec, ResultKey
from mmjudge.benchmarks._mist_inputs import (
    ARMS,
    CODES,
    IMAGE_CONDITIONS,
    LABELS,
    MistTables,
    human_frame,
    item_frame,
    judge_frame,
)
from mmjudge.benchmarks._mist_measures import majority_label
from mmjudge.registry import register_benchmark

__all__ = [
    "CODES",
    "DEFAULT_EPSILONS",
    "LABELS",
    "RESULT_KEYS",
    "MistTables",
    "majority_label",
    "score",
    "tables",
]

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
) -> MistTables:
    """Validate every column (SchemaError naming the field) and build the frames :func:`score` uses."""
    judge = judge_frame(item_ids, image_conditions, arms, prompt_strategies, predictions, judges)
    items = None
    if meta_item_ids is not None or meta_cells is not None:
        items = item_frame(_or_empty(meta_item_ids), _or_empty(meta_cells), meta_trios, meta_sentence_senses)
    humans = None
    if human_item_ids is not None or human_annotators is not None or human_labels is not None:
        humans = human_frame(
            _or_empty(human_item_ids), _or_empty(human_annotators), _or_empty(human_labels), items
        )
    return MistTables(judge, items, humans)


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
) -> dict[str, Any]:
    """Score MIST judge labels: change rates, direction, drift, agreement, Fleiss' kappa, alt-test.

    Args:
        item_ids, image_conditions, arms, prompt_strategies, predictions: one judge label per row;
            ``image_conditions`` in {none, aligned, misleading}, ``arms`` in {explicit, silent} (``none``
            for text-only rows), ``predictions`` in {FF, WF, FL, LL}.
        judges: judge name per row (default: one judge).
        meta_item_ids, meta_cells, meta_trios, meta_sentence_senses: item metadata; cells T1..T4.
        human_item_ids, human_annotators, human_labels: human labels, one row per (item, annotator).
        epsilons: alt-test epsilon per trio (default informed 0.20, blind 0.15).
        n_resamples, confidence, seed: item bootstrap for the drift and kappa CIs.
        q, min_humans_per_instance, min_instances_per_human: alt-test settings.

    Returns:
        A flat dict; see the module docstring and :data:`RESULT_KEYS`.

    >>> r = score(item_ids=["i1", "i1", "i1"], image_conditions=["none", "aligned", "aligned"],
    ...           arms=["none", "explicit", "silent"], prompt_strategies=["zs"] * 3, predictions=["FF", "FF", "LL"])
    >>> r["change_rate/none_to_aligned/explicit"], r["change_rate/none_to_aligned/silent"], r["change_rate/control"]
    (0.0, 1.0, 1.0)
    """
    t = tables(
        item_ids=item_ids, image_conditions=image_conditions, arms=arms, prompt_strategies=prompt_strategies,
        predictions=predictions, judges=judges, meta_item_ids=meta_item_ids, meta_cells=meta_cells,
        meta_trios=meta_trios, meta_sentence_senses=meta_sentence_senses, human_item_ids=human_item_ids,
        human_annotators=human_annotators, human_labels=human_labels,
    )  # fmt: skip
    table = measures.wide(t.judge)
    out: dict[str, Any] = measures.change_rates(table)
    out.update(measures.drift(table, n_resamples=n_resamples, confidence=confidence, seed=seed))
    if t.items is not None:
        out.update(measures.direction(table, t.items))
    if t.humans is not None:
        out.update(measures.agreement(t.judge, t.humans))
        out.update(
            measures.kappa_by_trio(t.humans, n_resamples=n_resamples, confidence=confidence, seed=seed)
        )
    if t.humans is not None and t.items is not None:
        if t.judge["judge"].nunique() > 1:
            warnings.warn(
                "alt-test skipped: the table holds several judges; score them one at a time", stacklevel=2
            )
        else:
            out.update(
                measures.alt_tests(
                    t.judge,
                    t.items,
                    t.humans,
                    epsilons=dict(epsilons or DEFAULT_EPSILONS),
                    q=q,
                    min_humans_per_instance=min_humans_per_instance,
                    min_instances_per_human=min_instances_per_human,
                )
            )
    out["n_labels"] = len(t.judge)
    return out


def _result_keys() -> tuple[ResultKey, ...]:
    keys: list[ResultKey] = []
    for cond in IMAGE_CONDITIONS:
        for arm in ARMS:
            keys.append(
                ResultKey(
                    f"change_rate/none_to_{cond}/{arm}",
                    False,
                    f"share of cells whose label changes from text only to the {cond} image ({arm} arm); 0-1",
                )
            )
            keys.append(
                ResultKey(
                    f"drift/none_to_{cond}/{arm}",
                    False,
                    f"mean ordinal shift text only -> {cond} image ({arm}); -3..3, 0 is ideal, + = toward LL; with /ci_low, /ci_high",
                )
            )
            keys.append(
                ResultKey(
                    f"agreement/{cond}/{arm}",
                    True,
                    f"share of labels under the {cond} image ({arm}) equal to the trio majority; 0-1",
                )
            )
        keys.append(
            ResultKey(
                f"change_rate/control/{cond}",
                False,
                f"share of {cond}-image cells whose label differs between explicit and silent arms; 0-1",
            )
        )
    for arm in ARMS:
        keys.append(
            ResultKey(
                f"direction/{arm}",
                False,
                f"share of aligned->misleading changes moving toward the misleading image's sense ({arm}); 0-1, chance 0.5",
            )
        )
    keys += [
        ResultKey("change_rate/control", False, "control change rate pooled over both images; 0-1"),
        ResultKey("agreement/none", True, "share of text-only labels equal to the trio majority; 0-1"),
        ResultKey("kappa/<trio>", True, "Fleiss' kappa of the human trio (not a judge score); with /ci_low, /ci_high"),
        ResultKey("alt_test/<trio>/<scoring>/<prompt>/<arm>/winning_rate", True, "alt-test winning rate omega; 0-1, passes at >= 0.5"),
        ResultKey("alt_test/<trio>/<scoring>/<prompt>/<arm>/advantage_probability", True, "alt-test advantage probability rho; 0-1"),
        ResultKey("alt_test/<trio>/<scoring>/<prompt>/<arm>/passed", True, "alt-test verdict: winning rate >= 0.5 (bool)"),
        ResultKey("n_labels", True, "judge labels scored (a count)"),
    ]  # fmt: skip
    return tuple(keys)


RESULT_KEYS: tuple[ResultKey, ...] = _result_keys()
"""Documented result keys; ``<trio>``, ``<prompt>``, ``<arm>`` stand for the values in the input."""

register_benchmark("mist")(
    BenchmarkSpec(
        id="mist", title="MIST (Misleading-Image Stress Test)", score=score, result_keys=RESULT_KEYS
    )
)
