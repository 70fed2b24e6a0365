"""The alt-test from long-format rows (one row per human label), as evaluate modules pass them."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from mmjudge._checks import check_same_length, is_missing
from mmjudge.errors import SchemaError, summarize
from mmjudge.stats._alt_test import AltTestResult, Scorer, alt_test

__all__ = ["alt_test_from_rows"]


def alt_test_from_rows(
    item_ids: Sequence[Hashable],
    annotators: Sequence[Hashable],
    references: Sequence[Any],
    predictions: Sequence[Any],
    *,
    scoring: str | Scorer = "accuracy",
    epsilon: float = 0.2,
    q: float = 0.05,
    min_humans_per_instance: int = 2,
    min_instances_per_human: int = 30,
) -> AltTestResult:
    """Run :func:`alt_test` on rows ``(item_id, annotator, human label, judge label)``.

    Each row carries one human label (``references``) and the judge's label for the same item
    (``predictions``), repeated on every row of the item; ``None`` means the judge gave no label.

    Raises:
        SchemaError: lengths differ, input is empty, an (item, annotator) pair repeats, or the
            judge label differs between rows of one item.

    >>> rows = [(f"i{k}", h, k % 3) for k in range(30) for h in ("a", "b", "c")]
    >>> res = alt_test_from_rows(*zip(*rows), [r[2] for r in rows], scoring="neg_mae")
    >>> res.winning_rate, res.advantage_probability
    (1.0, 1.0)
    """
    n = check_same_length(
        item_ids=item_ids, annotators=annotators, references=references, predictions=predictions
    )
    if n == 0:
        raise SchemaError("`item_ids` is empty: expected one row per human label")
    humans: dict[Hashable, dict[Hashable, Any]] = {}
    judge: dict[Hashable, Any] = {}
    repeated, conflicting = [], []
    for item, annotator, label, pred in zip(item_ids, annotators, references, predictions, strict=True):
        per_item = humans.setdefault(annotator, {})
        if item in per_item:
            repeated.append((item, annotator))
        per_item[item] = label
        if is_missing(pred):
            continue
        if judge.setdefault(item, pred) != pred:
            conflicting.append(item)
    if repeated:
        raise SchemaError(
            f"{len(repeated)} (item_id, annotator) pairs repeat: {summarize(repeated)}; one label per annotator and item"
        )
    if conflicting:
        raise SchemaError(
            f"`predictions` differ between rows of the same item for {len(set(conflicting))} items: "
            f"{summarize(sorted(set(conflicting), key=str))}; repeat the judge's one label on every row of an item"
        )
    if not judge:
        raise SchemaError("`predictions` has no judge label (every value is missing)")
    return alt_test(
        judge,
        humans,
        scoring=scoring,
        epsilon=epsilon,
        q=q,
        min_humans_per_instance=min_humans_per_instance,
        min_instances_per_human=min_instances_per_human,
    )
