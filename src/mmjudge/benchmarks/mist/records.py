"""MIST prediction records: the full judge grid, one record per (item, prompt strategy, arm, image).

A record's ``id`` is ``item_id::prompt_strategy::arm::image_condition`` (:func:`record_id`); its verdict
is ``label`` (FF/WF/FL/LL). Every item has the paper's 20 cells: 4 strategies x 5 (image condition,
arm) cells (:data:`CELLS`), which a submission must cover.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks.mist._inputs import ARMS, CONDITIONS, LABELS
from mmjudge.benchmarks.mist.prompts import STRATEGIES

__all__ = [
    "CELLS",
    "FIELD_VALUES",
    "KEY_FIELDS",
    "STRATEGIES",
    "VALUE_FIELDS",
    "expected_ids",
    "record_id",
    "score_inputs",
]

CELLS: tuple[tuple[str, str], ...] = (
    ("none", "none"),
    ("aligned", "explicit"),
    ("aligned", "silent"),
    ("misleading", "explicit"),
    ("misleading", "silent"),
)
"""(image condition, arm) per strategy: 5 cells x 4 strategies = the paper's 20 labels per MIST item,
the grid ``mmjudge eval`` writes and a submission must cover."""
KEY_FIELDS: tuple[str, ...] = ("item_id", "prompt_strategy", "arm", "image_condition")
"""String fields that place a record in the grid; always required."""
VALUE_FIELDS: dict[str, tuple[type, ...]] = {"label": (str,)}
"""The verdict field (null with ``no_judgment``)."""
FIELD_VALUES: dict[str, tuple[str, ...]] = {
    "prompt_strategy": STRATEGIES,
    "arm": (*ARMS, "none"),
    "image_condition": CONDITIONS,
    "label": LABELS,
}
"""The values each field may take: the four prompt strategies; the arms ``explicit`` (told to ignore the
image), ``silent`` (not told) and ``none`` (the text-only cell, which has no image); the image conditions
``none`` (text only), ``aligned`` and ``misleading``; the labels FF, WF, FL, LL. :data:`CELLS` says which
(image condition, arm) pairs the grid holds."""


def record_id(record: Mapping[str, Any]) -> str:
    """The id a record must carry, from its key fields.

    >>> record_id({"item_id": "m1", "prompt_strategy": "cot", "arm": "silent", "image_condition": "aligned"})
    'm1::cot::silent::aligned'
    """
    return "::".join(str(record.get(name)) for name in KEY_FIELDS)


def expected_ids(rows: Sequence[Mapping[str, Any]], records: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """Every cell id of the grid of ``rows``, in the order ``mmjudge eval`` writes them.

    >>> len(expected_ids([{"item_id": "m1"}, {"item_id": "m2"}]))
    40
    """
    return [
        record_id(
            {"item_id": r["item_id"], "prompt_strategy": strategy, "arm": arm, "image_condition": condition}
        )
        for r in rows
        for strategy in STRATEGIES
        for condition, arm in CELLS
    ]


def score_inputs(records: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Every record; a ``no_judgment`` cell has no label (the scorer's ``mode`` decides what that costs)."""
    item_ids = [str(r["item_id"]) for r in rows]
    humans = [
        (str(r["item_id"]), a, lab)
        for r in rows
        for a, lab in zip(r["human_annotators"], r["human_labels"], strict=True)
    ]
    return {
        "item_ids": [r["item_id"] for r in records],
        "image_conditions": [r["image_condition"] for r in records],
        "arms": [r["arm"] for r in records],
        "prompt_strategies": [r["prompt_strategy"] for r in records],
        "predictions": [None if r.get("no_judgment") else r["label"] for r in records],
        "meta_item_ids": item_ids,
        "meta_cells": [r["cell"] for r in rows],
        "meta_trios": [r["trio"] for r in rows],
        "meta_sentence_senses": [r["sentence_sense"] for r in rows],
        "human_item_ids": [h[0] for h in humans],
        "human_annotators": [h[1] for h in humans],
        "human_labels": [h[2] for h in humans],
    }
