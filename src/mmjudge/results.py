"""The results file: ``results.json``, written by ``mmjudge eval``, ``mmjudge score`` and the leaderboard.

One JSON object (strict JSON: NaN and infinities become ``null``)::

    {"results_version": 3, "benchmark": "<id>", "judge": "<name>",
     "scores": {...},       # the dict of mmjudge.benchmarks.<id>.score, keys as its result keys
     "estimates": {"<key>": {"value", "low", "high", "confidence", "method", "n_units", "n_clusters",
                             "unit", "higher_is_better"}, ...},   # every score with an interval, typed
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

from mmjudge._atomic import write_atomic
from mmjudge.benchmarks import get_benchmark, intervals_of
from mmjudge.data.location import DataSource, recorded_data
from mmjudge.data.rows import dataset_hash
from mmjudge.errors import MissingFileError, SchemaError
from mmjudge.estimates import Estimate, estimates_from
from mmjudge.predictions import PredictionFile, read_predictions
from mmjudge.scoring import recorded_limit, rows_of_run, score_predictions

__all__ = [
    "RESULTS_VERSION",
    "Results",
    "ScoredFile",
    "data_of_predictions",
    "data_of_run",
    "estimates_of",
    "read_results",
    "score_file",
    "write_results",
]

logger = logging.getLogger(__name__)

RESULTS_VERSION = 3
"""Version of the ``results.json`` layout. 2: every rate is a percentage (MIST's were shares in [0, 1]),
every CI key is ``<key>_ci_low``/``<key>_ci_high`` (MIST's were ``<key>/ci_low``), IsoVRBench's pooled
``decided_accuracy`` is ``decided_accuracy_pooled`` beside the new ``decided_average``, and MIST's drift
and alt-test keys follow the paper's breakdown (see the metric cards). 3: ``estimates`` beside ``scores``,
one typed :class:`~mmjudge.estimates.Estimate` per score with an interval, naming the interval's method
(which units or clusters it resampled) and its counts; the flat CI keys stay in ``scores``. A version 1 or
2 file is read with estimates built from its CI keys, method ``unknown (results_version N)``."""


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
    estimates: dict[str, Estimate] = field(default_factory=dict)
    """Each score with an interval, typed (``results.json`` schema 3; built from the CI keys for older files)."""

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
            "estimates": {k: e.to_json() for k, e in self.estimates.items()},
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
    *,
    estimates: Mapping[str, Estimate] | None = None,
) -> Path:
    """Write ``results.json`` atomically (scores, their typed estimates, provenance, and run facts plus the
    date and Python); ``estimates`` default to :func:`estimates_of` the scores."""
    run = {
        **run,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
    }
    if estimates is None:
        estimates = estimates_of(benchmark, scores)
    results = Results(benchmark, judge, dict(scores), dict(provenance), run, estimates=dict(estimates))
    return write_atomic(path, json.dumps(results.to_record(), indent=2, default=_plain, allow_nan=False) + "\n")


def read_results(path: str | Path) -> Results:
    """Read a ``results.json`` (any layout version is read; the version is kept)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise MissingFileError(f"results file {path} does not exist") from exc
    if not isinstance(data, dict) or not isinstance(data.get("scores"), dict):
        raise SchemaError(f"{path}: expected a results.json object with a `scores` object")
    version = int(data.get("results_version", 1))
    benchmark = str(data.get("benchmark", ""))
    stored = data.get("estimates")
    if version >= 3:
        if not isinstance(stored, dict):
            raise SchemaError(
                f"{path}: results_version {version} expects an `estimates` object, got {type(stored).__name__}; "
                "rewrite the file with `mmjudge score`"
            )
        try:
            estimates = {str(k): Estimate.from_json(v) for k, v in stored.items()}
        except (TypeError, ValueError, AttributeError) as exc:
            raise SchemaError(f"{path}: an entry of `estimates` is not an estimate object ({exc})") from exc
    else:
        estimates = estimates_of(benchmark, data["scores"], method=f"unknown (results_version {version})")
    return Results(
        benchmark=benchmark,
        judge=str(data.get("judge", "")),
        scores=data["scores"],
        provenance=dict(data.get("provenance") or {}),
        run=dict(data.get("run") or {}),
        results_version=version,
        estimates=estimates,
    )


def estimates_of(benchmark: str, scores: Mapping[str, Any], *, method: str = "not recorded") -> dict[str, Estimate]:
    """The typed estimate of every score key of ``scores`` that has an interval (``<key>_ci_low`` and
    ``_ci_high``) or whose interval the scorer withheld (a recorded method beginning ``none:``, with the reason),
    with how the scorer made it (a :class:`~mmjudge.benchmarks.Scores` carries that);
    ``method`` names the interval where the scorer's record is absent (an older file, a stored row).

    >>> e = estimates_of("emorealm", {"overall": 50.0, "overall_ci_low": 30.0, "overall_ci_high": 70.0, "n": 4})
    >>> list(e), e["overall"].method, e["overall"].higher_is_better
    (['overall'], 'not recorded', True)
    """

    try:
        spec: Any = get_benchmark(benchmark)
    except KeyError:
        spec = None

    def higher(key: str) -> bool | None:
        try:
            return spec.metrics.higher_is_better(key) if spec is not None else None
        except KeyError:
            return None

    return estimates_from(scores, intervals_of(scores), method=method, higher_is_better=higher)


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

    The rows are the run's (:func:`~mmjudge.scoring.rows_of_run` of the header's ``provenance.limit``); a dataset hash
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
    limit = recorded_limit(predictions.header.provenance, path)
    rows = rows_of_run(predictions.header.benchmark, data_dir, limit)
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
