"""Scoring a prediction file against a built benchmark folder, with the same core ``evaluate`` uses.

:func:`score_predictions` maps prediction records and the dataset's reference rows to the keyword
arguments of ``mmjudge.benchmarks.<id>.score`` and calls it. The CLI (``mmjudge score``), the runner and
the leaderboard all go through here, so a leaderboard number equals ``evaluate.load("metrics/<id>")`` on
the same predictions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from mmjudge.errors import MissingFileError, SchemaError, summarize
from mmjudge.predictions import MIST_CELLS, MIST_STRATEGIES, PredictionFile, id_problem, record_id
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
        MissingFileError: ``data_dir`` is not an existing folder (it is never looked up on the Hub).
        SchemaError: the folder has no such config (it is not a built benchmark folder).
    """
    import tempfile

    if not Path(data_dir).is_dir():
        raise MissingFileError(
            f"{data_dir} is not an existing folder: expected a built benchmark folder (a README.md with "
            "configs and parquet files); build one with `mmjudge build-dataset <id>` or `mmjudge sample-data`, "
            "or check the --data path"
        )
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

    Every record ``mmjudge eval`` writes for ``rows`` must be there exactly once (:func:`expected_ids`:
    every IsoVRBench pair, EmoReAlM question and EmoPrefer pair, with every reversed pair when any is
    given, and the full MIST grid of prompt strategies and image cells per item), each record's id must
    agree with its key fields, and no unknown id may appear; ``options`` go to the benchmark's
    ``score`` (e.g. ``tie_tolerance``, ``mode``, ``n_resamples``).

    Raises:
        SchemaError: a record is missing, unknown or repeated (unknown and repeated ones name their line).
    """
    benchmark = predictions.header.benchmark
    _check_coverage(predictions, rows)
    inputs = _ADAPTERS[benchmark](predictions.records, rows)
    return dict(get_benchmark(benchmark).score(**inputs, **options))


class Coverage(NamedTuple):
    """How much of the expected grid a prediction file answers (see :func:`coverage`)."""

    expected: int
    """Records ``mmjudge eval`` writes for the reference rows."""
    present: int
    """Expected records the file holds."""
    no_judgment: int
    """Records among them marked ``no_judgment``."""

    @property
    def coverage(self) -> float:
        """Share of expected records present, in percent."""
        return 100.0 * self.present / self.expected if self.expected else 0.0

    @property
    def no_judgment_rate(self) -> float:
        """Share of expected records that carry no judgment (or are absent), in percent."""
        missing = self.expected - self.present
        return 100.0 * (self.no_judgment + missing) / self.expected if self.expected else 0.0

    def as_dict(self) -> dict[str, float | int]:
        """Counts and both rates, for JSON."""
        return {**self._asdict(), "coverage": self.coverage, "no_judgment_rate": self.no_judgment_rate}


def coverage(predictions: PredictionFile, rows: Rows) -> Coverage:
    """Records expected, present and without judgment.

    >>> from mmjudge.predictions import PredictionHeader
    >>> file = PredictionFile(PredictionHeader("emorealm", "j"), [{"id": "q1", "no_judgment": True}])
    >>> c = coverage(file, [{"id": "q1"}, {"id": "q2"}])
    >>> c, c.coverage, c.no_judgment_rate
    (Coverage(expected=2, present=1, no_judgment=1), 50.0, 100.0)
    """
    expected = set(
        expected_ids(predictions.header.benchmark, rows, reversed_pairs=_has_reversed(predictions))
    )
    present = [r for r in predictions.records if str(r.get("id")) in expected]
    return Coverage(len(expected), len(present), sum(bool(r.get("no_judgment")) for r in present))


def expected_ids(benchmark: str, rows: Rows, *, reversed_pairs: bool = False) -> list[str]:
    """The record ids ``mmjudge eval`` writes for ``rows``, in its order.

    ``reversed_pairs``: EmoPrefer with ``--swap`` (every ``name::reversed`` too).

    >>> expected_ids("emoprefer", [{"name": "c1"}], reversed_pairs=True)
    ['c1', 'c1::reversed']
    >>> len(expected_ids("mist", [{"item_id": "m1"}, {"item_id": "m2"}]))
    40
    """
    if benchmark == "isovrbench":
        return [str(r["pair_id"]) for r in rows]
    if benchmark == "emorealm":
        return [str(r["id"]) for r in rows]
    if benchmark == "emoprefer":
        orders = ("forward", "reversed") if reversed_pairs else ("forward",)
        return [str(record_id("emoprefer", {"name": r["name"], "order": o})) for o in orders for r in rows]
    if benchmark == "mist":
        return [
            str(record_id("mist", {"item_id": r["item_id"], "prompt_strategy": strategy, "arm": arm,
                                   "image_condition": condition}))
            for r in rows
            for strategy in MIST_STRATEGIES
            for condition, arm in MIST_CELLS
        ]  # fmt: skip
    raise SchemaError(f"unknown benchmark {benchmark!r}")


def _has_reversed(predictions: PredictionFile) -> bool:
    return predictions.header.benchmark == "emoprefer" and any(
        r.get("order") == "reversed" for r in predictions.records
    )


def _check_coverage(predictions: PredictionFile, rows: Rows) -> None:
    benchmark = predictions.header.benchmark
    expected = expected_ids(benchmark, rows, reversed_pairs=_has_reversed(predictions))
    _check_reference_ids(benchmark, expected)
    expected_set = set(expected)
    first: dict[str, int] = {}
    unknown: list[tuple[str, str]] = []
    for index, record in enumerate(predictions.records):
        item_id, where = str(record.get("id")), predictions.line_of(index)
        problem = id_problem(benchmark, record)
        if problem:
            raise SchemaError(f"{where}: {problem}")
        if item_id in first:
            raise SchemaError(
                f"{where}: id {item_id!r} already given on {predictions.line_of(first[item_id])}; "
                "expected every reference id exactly once"
            )
        first[item_id] = index
        if item_id not in expected_set:
            unknown.append((item_id, where))
    missing = [i for i in expected if i not in first]
    if missing or unknown:
        what = _WHAT[benchmark]
        parts = []
        reversed_ = [i for i in missing if benchmark == "emoprefer" and i.endswith("::reversed")]
        forward = [i for i in missing if i not in set(reversed_)]
        for group, label in (
            (forward, what if not reversed_ else "forward pairs"),
            (reversed_, "reversed pairs"),
        ):
            if group:
                parts.append(f"{len(group)} {label} without a prediction: {summarize(group)}")
        if unknown:
            lines = ", ".join(where for _, where in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
            parts.append(f"{len(unknown)} unknown ids: {summarize([i for i, _ in unknown])} ({lines})")
        raise SchemaError(
            "; ".join(parts) + f" (expected every one of the {len(expected)} {what} exactly once, "
            "as `mmjudge eval` writes them)"
        )


_WHAT = {"isovrbench": "pairs", "emorealm": "questions", "emoprefer": "pairs", "mist": "grid cells"}


def _check_reference_ids(benchmark: str, expected: Sequence[str]) -> None:
    if len(set(expected)) != len(expected):
        from collections import Counter

        repeated = [i for i, n in Counter(expected).items() if n > 1]
        raise SchemaError(
            f"the {benchmark} reference rows repeat ids {summarize(repeated)}: expected each item once; "
            "rebuild the benchmark folder"
        )


def _by_id(records: Rows) -> dict[str, Mapping[str, Any]]:
    return {str(r["id"]): r for r in records}


def _isovrbench(records: Rows, rows: Rows) -> dict[str, Any]:
    ids = [str(r["pair_id"]) for r in rows]
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
    by_id = _by_id(records)
    inputs: dict[str, Any] = {
        "predictions": [_choice_text(by_id[n]) for n in names],
        "references": [r["preference"] for r in rows],
        "ids": names,
    }
    if any(r.get("order") == "reversed" for r in records):
        inputs["swapped_predictions"] = [_choice_text(by_id[f"{n}::reversed"]) for n in names]
    return inputs


def _choice_text(record: Mapping[str, Any]) -> str:
    """A no-judgment EmoPrefer record scores as the empty response, which the official parser reads as
    ``same`` (its fallback for an answer naming no option)."""
    value = record.get("prediction")
    return "" if record.get("no_judgment") or value is None else str(value)


def _mist(records: Rows, rows: Rows) -> dict[str, Any]:
    """Every record; a ``no_judgment`` cell has no label (the scorer's ``mode`` decides what that costs)."""
    item_ids = [str(r["item_id"]) for r in rows]
    judged = records
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
        "predictions": [None if r.get("no_judgment") else r["label"] for r in judged],
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
