"""Scoring a prediction file against a built benchmark folder, with the same core ``evaluate`` uses.

:func:`score_predictions` maps prediction records and the dataset's reference rows to the keyword
arguments of ``mmjudge.benchmarks.<id>.score`` and calls it. The CLI (``mmjudge score``), the runner and
the leaderboard all go through here, so a leaderboard number equals ``evaluate.load("metrics/<id>")`` on
the same predictions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.errors import SchemaError, summarize
from mmjudge.predictions import PredictionFile
from mmjudge.registry import get_benchmark

REFERENCE_CONFIGS: dict[str, str] = {
    "isovrbench": "all",
    "mist": "items",
    "emoprefer": "pairs",
    "emorealm": "all",
}
"""The dataset config holding each benchmark's reference rows (split ``test``)."""

Rows = Sequence[Mapping[str, Any]]


def load_rows(data_dir: str | Path, config: str, *, split: str = "test") -> list[dict[str, Any]]:
    """Load one config of a built folder with ``datasets.load_dataset``, bypassing the shared cache.

    The rows are read through a private, temporary ``cache_dir``: datasets 5 keys the cache of a local
    folder by the folder's name and config, so a rebuilt folder, or another folder with the same name,
    would otherwise return stale cached rows.

    Raises:
        SchemaError: the folder has no such config (it is not a built benchmark folder).
    """
    import tempfile

    from datasets import load_dataset

    with tempfile.TemporaryDirectory(prefix="mmjudge-rows-") as cache_dir:
        try:
            dataset = load_dataset(str(data_dir), config, split=split, cache_dir=cache_dir)
        except (ValueError, FileNotFoundError) as exc:
            raise SchemaError(
                f"{data_dir} is not a built benchmark folder with config {config!r} ({exc}); build one with "
                "`mmjudge build-dataset <id>` or `mmjudge sample-data`"
            ) from exc
        return list(dataset.to_list())


def load_reference_rows(benchmark: str, data_dir: str | Path, *, split: str = "test") -> list[dict[str, Any]]:
    """The reference rows of a built ``benchmark`` folder (config :data:`REFERENCE_CONFIGS`)."""
    try:
        return load_rows(data_dir, REFERENCE_CONFIGS[benchmark], split=split)
    except SchemaError as exc:
        raise SchemaError(f"{data_dir} is not a built {benchmark} folder: {exc}") from exc


def score_predictions(predictions: PredictionFile, rows: Rows, **options: Any) -> dict[str, Any]:
    """Score a validated prediction file against reference rows.

    Every reference item must be predicted exactly once and no unknown id may appear; ``options`` go to
    the benchmark's ``score`` (e.g. ``tie_tolerance``, ``mode``, ``n_resamples``).
    """
    benchmark = predictions.header.benchmark
    inputs = _ADAPTERS[benchmark](predictions.records, rows)
    return dict(get_benchmark(benchmark).score(**inputs, **options))


def _check_coverage(expected: Sequence[str], given: Sequence[str], what: str) -> None:
    expected_set, given_set = set(expected), set(given)
    missing = [i for i in expected if i not in given_set]
    unknown = [i for i in given if i not in expected_set]
    if missing or unknown:
        parts = []
        if missing:
            parts.append(f"{len(missing)} {what} without a prediction: {summarize(missing)}")
        if unknown:
            parts.append(f"{len(unknown)} unknown ids: {summarize(unknown)}")
        raise SchemaError(
            "; ".join(parts) + f" (expected every one of the {len(expected)} {what} exactly once)"
        )


def _by_id(records: Rows) -> dict[str, Mapping[str, Any]]:
    return {str(r["id"]): r for r in records}


def _isovrbench(records: Rows, rows: Rows) -> dict[str, Any]:
    ids = [str(r["pair_id"]) for r in rows]
    _check_coverage(ids, [str(r["id"]) for r in records], "pairs")
    by_id = _by_id(records)
    ordered = [by_id[i] for i in ids]
    return {
        "intervention": [r["intervention"] for r in rows],
        "score_chosen": [r.get("score_chosen") for r in ordered],
        "score_rejected": [r.get("score_rejected") for r in ordered],
        "no_judgment": [bool(r.get("no_judgment")) for r in ordered],
        "pair_id": ids,
    }


def _emorealm(records: Rows, rows: Rows) -> dict[str, Any]:
    ids = [str(r["id"]) for r in rows]
    _check_coverage(ids, [str(r["id"]) for r in records], "questions")
    by_id = _by_id(records)
    predictions = [None if by_id[i].get("no_judgment") else by_id[i].get("prediction") for i in ids]
    return {
        "predictions": predictions,
        "references": [r["answer"] for r in rows],
        "tasks": [r["task"] for r in rows],
        "choices": [list(r["choices"]) for r in rows],
        "ids": ids,
    }


def _emoprefer(records: Rows, rows: Rows) -> dict[str, Any]:
    names = [str(r["name"]) for r in rows]
    forward = [r for r in records if r.get("order") == "forward"]
    reversed_ = [r for r in records if r.get("order") == "reversed"]
    other = [r["id"] for r in records if r.get("order") not in ("forward", "reversed")]
    if other:
        raise SchemaError(
            f"{len(other)} records have an `order` other than forward/reversed: {summarize(other)}"
        )
    _check_coverage(names, [str(r["name"]) for r in forward], "forward pairs")
    if reversed_:
        _check_coverage(names, [str(r["name"]) for r in reversed_], "reversed pairs")
    fwd = {str(r["name"]): r for r in forward}
    rev = {str(r["name"]): r for r in reversed_}
    inputs: dict[str, Any] = {
        "predictions": [_choice_text(fwd[n]) for n in names],
        "references": [r["preference"] for r in rows],
        "ids": names,
    }
    if reversed_:
        inputs["swapped_predictions"] = [_choice_text(rev[n]) for n in names]
    return inputs


def _choice_text(record: Mapping[str, Any]) -> str:
    """A no-judgment EmoPrefer record scores as the empty response, which the official parser reads as
    ``same`` (its fallback for an answer naming no option)."""
    value = record.get("prediction")
    return "" if record.get("no_judgment") or value is None else str(value)


def _mist(records: Rows, rows: Rows) -> dict[str, Any]:
    item_ids = [str(r["item_id"]) for r in rows]
    predicted_items = list(dict.fromkeys(str(r["item_id"]) for r in records))
    _check_coverage(item_ids, predicted_items, "items")
    judged = [r for r in records if not r.get("no_judgment")]
    humans = [
        (str(r["item_id"]), a, lab)
        for r in rows
        for a, lab in zip(r["human_annotators"], r["human_labels"], strict=True)
    ]
    return {
        "item_ids": [r["item_id"] for r in judged],
        "image_conditions": [r["image_condition"] for r in judged],
        "arms": [r["arm"] for r in judged],
        "prompt_strategies": [r["prompt_strategy"] for r in judged],
        "predictions": [r["label"] for r in judged],
        "meta_item_ids": item_ids,
        "meta_cells": [r["cell"] for r in rows],
        "meta_trios": [r["trio"] for r in rows],
        "meta_sentence_senses": [r["sentence_sense"] for r in rows],
        "human_item_ids": [h[0] for h in humans],
        "human_annotators": [h[1] for h in humans],
        "human_labels": [h[2] for h in humans],
    }


_ADAPTERS: dict[str, Callable[[Rows, Rows], dict[str, Any]]] = {
    "isovrbench": _isovrbench,
    "mist": _mist,
    "emoprefer": _emoprefer,
    "emorealm": _emorealm,
}
