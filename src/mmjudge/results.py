"""The results file: ``results.json``, written by ``mmjudge eval``, ``mmjudge score`` and the leaderboard.

One JSON object (strict JSON: NaN and infinities become ``null``)::

    {"results_version": 2, "benchmark": "<id>", "judge": "<name>",
     "scores": {...},       # the dict of mmjudge.benchmarks.<id>.score, keys as its result keys
     "provenance": {...},   # the prediction file's provenance (fingerprint, dataset hash, seeds, ...)
     "run": {...}}          # run facts (timings, processes) or where a leaderboard row came from

:class:`Results` is the typed record, :func:`write_results` the one writer, :func:`read_results` the
reader and :func:`score_file` scores a prediction file against a built folder, as ``mmjudge score`` does.
"""

from __future__ import annotations

import datetime
import json
import logging
import math
import platform
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from mmjudge.data.rows import dataset_hash
from mmjudge.data.source import DataSource, recorded_data
from mmjudge.errors import MissingFileError, SchemaError
from mmjudge.predictions import PredictionFile, read_predictions
from mmjudge.scoring import load_reference_rows, score_predictions

__all__ = [
    "RESULTS_VERSION",
    "Results",
    "ScoredFile",
    "data_of_predictions",
    "data_of_run",
    "read_results",
    "score_file",
    "write_results",
]

logger = logging.getLogger(__name__)

RESULTS_VERSION = 2
"""Version of the ``results.json`` layout. 2: every rate is a percentage (MIST's were shares in [0, 1]),
every CI key is ``<key>_ci_low``/``<key>_ci_high`` (MIST's were ``<key>/ci_low``), IsoVRBench's pooled
``decided_accuracy`` is ``decided_accuracy_pooled`` beside the new ``decided_average``, and MIST's drift
and alt-test keys follow the paper's breakdown (see the metric cards)."""


@dataclass(frozen=True)
class Results:
    """The content of a ``results.json``."""

    benchmark: str
    """Benchmark id."""
    judge: str
    """Judge display name."""
    scores: dict[str, Any]
    """The scorer's result dict (see the benchmark's result keys)."""
    provenance: dict[str, Any] = field(default_factory=dict)
    """The prediction file's provenance."""
    run: dict[str, Any] = field(default_factory=dict)
    """Run facts: timings, processes, date, Python; or the leaderboard row it came from."""
    results_version: int = RESULTS_VERSION
    """Layout version."""

    def to_record(self) -> dict[str, Any]:
        """The JSON object (NaN and infinities as ``null``).

        >>> Results("b", "j", {"x": float("nan")}).to_record()["scores"]
        {'x': None}
        """
        payload = {
            "results_version": self.results_version,
            "benchmark": self.benchmark,
            "judge": self.judge,
            "scores": dict(self.scores),
            "provenance": dict(self.provenance),
            "run": dict(self.run),
        }
        return dict(_finite(payload))


def write_results(
    path: str | Path,
    benchmark: str,
    judge: str,
    scores: Mapping[str, Any],
    provenance: Mapping[str, Any],
    run: Mapping[str, Any],
) -> Path:
    """Write ``results.json`` atomically (scores, provenance, and run facts plus the date and Python)."""
    run = {
        **run,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
    }
    results = Results(benchmark, judge, dict(scores), dict(provenance), run)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    text = json.dumps(results.to_record(), indent=2, default=_plain, allow_nan=False)
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def read_results(path: str | Path) -> Results:
    """Read a ``results.json`` (any layout version is read; the version is kept)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise MissingFileError(f"results file {path} does not exist") from exc
    if not isinstance(data, dict) or not isinstance(data.get("scores"), dict):
        raise SchemaError(f"{path}: expected a results.json object with a `scores` object")
    return Results(
        benchmark=str(data.get("benchmark", "")),
        judge=str(data.get("judge", "")),
        scores=data["scores"],
        provenance=dict(data.get("provenance") or {}),
        run=dict(data.get("run") or {}),
        results_version=int(data.get("results_version", 1)),
    )


class ScoredFile(NamedTuple):
    """A prediction file scored against a built folder (:func:`score_file`)."""

    predictions: PredictionFile
    """The validated prediction file."""
    rows: list[dict[str, Any]]
    """The reference rows it was scored against."""
    scores: dict[str, Any]
    """The scorer's result."""


def score_file(
    path: str | Path, data_dir: str | Path, *, benchmark: str | None = None, **options: Any
) -> ScoredFile:
    """Read, validate and score a prediction file against the reference rows of ``data_dir``.

    The rows are cut to the header's ``provenance.limit`` when the run was limited; a dataset hash
    differing from the header's is logged as a warning.
    """
    predictions = read_predictions(path, benchmark=benchmark)
    dataset = predictions.header.provenance.get("dataset")
    recorded = dataset.get("hash") if isinstance(dataset, dict) else None
    if recorded and recorded != dataset_hash(data_dir):
        logger.warning(
            "%s was written against dataset hash %s; %s hashes to %s (scoring anyway)",
            path,
            recorded,
            data_dir,
            dataset_hash(data_dir),
        )
    limit = predictions.header.provenance.get("limit")
    if limit is not None and (type(limit) is not int or limit < 1):
        raise SchemaError(f"{path}: provenance.limit must be a positive integer or null, got {limit!r}")
    rows = load_reference_rows(predictions.header.benchmark, data_dir, limit=limit)
    return ScoredFile(predictions, rows, score_predictions(predictions, rows, **options))


def _dataset(provenance: Mapping[str, Any]) -> Mapping[str, Any]:
    dataset = provenance.get("dataset")
    return dataset if isinstance(dataset, Mapping) else {}


def data_of_run(results: Results, *, run: str) -> DataSource:
    """The data a run was scored on, from its ``results.json``: ``run.data``, else the Hub repo its
    provenance names.

    Raises:
        MissingFileError: nothing usable is recorded, or the recorded folder is gone (the message names it).
    """
    dataset = _dataset(results.provenance)
    location = results.run.get("data")
    if not location and dataset.get("hub"):
        location = {"hub": dataset["hub"], "revision": dataset.get("revision")}
    return recorded_data(location, run=run, dataset_hash=dataset.get("hash"))


def data_of_predictions(path: str | Path) -> DataSource:
    """The data a prediction file was scored on: the ``results.json`` beside it (a run folder), else the
    Hub repo its header's provenance names.

    Raises:
        MissingFileError: nothing usable is recorded (pass ``--data``), or the recorded folder is gone.
    """
    path = Path(path)
    beside = path.parent / "results.json"
    if beside.is_file():
        return data_of_run(read_results(beside), run=str(beside))
    dataset = _dataset(read_predictions(path).header.provenance)
    location = {"hub": dataset["hub"], "revision": dataset.get("revision")} if dataset.get("hub") else None
    return recorded_data(location, run=str(path), dataset_hash=dataset.get("hash"))


def _finite(value: Any) -> Any:
    """NaN and infinities become null (strict JSON)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return _finite(value.item())
    return value


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    return str(value)
