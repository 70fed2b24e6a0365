"""Predictions and the evaluate-module inputs written out from them, shared by the agreement tests.

A helper module, not a test module: ``records`` makes random verdicts for a benchmark's reference rows
(ties, unjudged items, empty answers and answers naming no option), ``metric_inputs`` turns them into
the keyword arguments of that benchmark's ``evaluate`` module, written out from the file and the rows.
"""

from __future__ import annotations

import random
from typing import Any

from mmjudge.benchmarks.mist import CELLS as MIST_CELLS
from mmjudge.benchmarks.mist import STRATEGIES as MIST_STRATEGIES


def records(benchmark: str, rows: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Random verdicts, with ties, unjudged items, empty answers and answers naming no option."""
    if benchmark == "isovrbench":
        out = []
        for k, r in enumerate(rows):
            if k % 7 == 3:
                out.append(
                    {"id": r["pair_id"], "score_chosen": None, "score_rejected": None, "no_judgment": True}
                )
            else:
                tie = k % 5 == 1
                out.append({"id": r["pair_id"], "score_chosen": 0.5 if tie else rng.random(),
                            "score_rejected": 0.5 if tie else rng.random()})  # fmt: skip
        return out
    if benchmark == "mist":
        cells = [
            {"id": f"{r['item_id']}::{s}::{arm}::{cond}", "item_id": r["item_id"], "prompt_strategy": s,
             "arm": arm, "image_condition": cond, "label": rng.choice(["FF", "WF", "FL", "LL"])}
            for r in rows for s in MIST_STRATEGIES for cond, arm in MIST_CELLS
        ]  # fmt: skip
        for cell in cells[5::9]:  # some cells without a label: official and strict mode differ
            cell.update(label=None, no_judgment=True)
        return cells
    if benchmark == "emoprefer":
        pool = ["a1", "a2", "same", "A2, clearly", "neither", ""]
        return [
            {"id": r["name"] if order == "forward" else f"{r['name']}::reversed", "name": r["name"],
             "order": order, "prediction": rng.choice(pool)}
            for r in rows for order in ("forward", "reversed")
        ]  # fmt: skip
    pool = ["A", "(B)", "The answer is C.", "a calm voice", "", "   "]
    return [
        {"id": r["id"], "prediction": None if k == 2 else rng.choice(pool), "no_judgment": k == 2}
        for k, r in enumerate(rows)
    ]


def metric_inputs(
    benchmark: str, rows: list[dict[str, Any]], records: list[dict[str, Any]]
) -> dict[str, Any]:
    """The evaluate module's inputs, written out from the file and the reference rows."""
    if benchmark == "isovrbench":
        by_id = {r["id"]: r for r in records}
        ordered = [by_id[r["pair_id"]] for r in rows]
        return {"intervention": [r["intervention"] for r in rows], "score_chosen": [p["score_chosen"] for p in ordered],
                "score_rejected": [p["score_rejected"] for p in ordered],
                "no_judgment": [bool(p.get("no_judgment")) for p in ordered], "pair_id": [r["pair_id"] for r in rows],
                "cluster": [r["prompt"] for r in rows]}  # fmt: skip
    if benchmark == "mist":
        humans = [(r["item_id"], a, lab) for r in rows
                  for a, lab in zip(r["human_annotators"], r["human_labels"], strict=True)]  # fmt: skip
        return {"predictions": [r["label"] for r in records], "item_ids": [r["item_id"] for r in records],
                "image_conditions": [r["image_condition"] for r in records], "arms": [r["arm"] for r in records],
                "prompt_strategies": [r["prompt_strategy"] for r in records],
                "meta_item_ids": [r["item_id"] for r in rows], "meta_cells": [r["cell"] for r in rows],
                "meta_trios": [r["trio"] for r in rows], "meta_sentence_senses": [r["sentence_sense"] for r in rows],
                "human_item_ids": [h[0] for h in humans], "human_annotators": [h[1] for h in humans],
                "human_labels": [h[2] for h in humans]}  # fmt: skip
    if benchmark == "emoprefer":
        by_key = {(r["name"], r["order"]): r["prediction"] for r in records}
        return {"predictions": [by_key[(r["name"], "forward")] for r in rows], "references": [r["preference"] for r in rows],
                "swapped_predictions": [by_key[(r["name"], "reversed")] for r in rows], "ids": [r["name"] for r in rows]}  # fmt: skip
    by_id = {r["id"]: r for r in records}
    return {"predictions": [by_id[r["id"]]["prediction"] for r in rows], "references": [r["answer"] for r in rows],
            "tasks": [r["task"] for r in rows], "choices": [r["choices"] for r in rows], "ids": [r["id"] for r in rows],
            "clusters": [r["video"] for r in rows]}  # fmt: skip


def row_columns(metric: Any) -> list[str]:
    """The per-row inputs of an evaluate module: its feature names (every feature set has the same ones)."""
    features = metric.features[0] if isinstance(metric.features, list) else metric.features
    return list(features)


def scores_only(output: dict[str, Any]) -> dict[str, Any]:
    """An evaluate module's output without the one key it adds to the core's scores (a string naming the thin
    and withheld intervals): what ``results.json`` and the leaderboard store."""
    from mmjudge.metric_inputs import INTERVAL_NOTES

    assert isinstance(output[INTERVAL_NOTES], str), output.get(INTERVAL_NOTES)
    return {k: v for k, v in output.items() if k != INTERVAL_NOTES}


def compute_in_two_batches(metric: Any, inputs: dict[str, Any], **options: Any) -> dict[str, Any]:
    """``add_batch`` with the first half of the rows, then the rest, then ``compute`` with the other inputs;
    asserts that every list input as long as the rows is a feature (so distributed gathering carries it)."""
    names = row_columns(metric)
    rows = {k: v for k, v in inputs.items() if k in names}
    size = len(next(iter(rows.values())))
    per_row = {k for k, v in inputs.items() if isinstance(v, list) and len(v) == size}
    assert per_row <= set(names), f"per-row inputs that are not features: {sorted(per_row - set(names))}"
    half = size // 2
    metric.add_batch(**{k: v[:half] for k, v in rows.items()})
    metric.add_batch(**{k: v[half:] for k, v in rows.items()})
    return metric.compute(**{k: v for k, v in inputs.items() if k not in names}, **options)
