"""Reading the runs to compare: ``mmjudge eval --out`` folders on one benchmark, one dataset, one item set.

A run is a folder holding ``predictions.jsonl`` and ``results.json`` (a frame sweep's ``frames_<n>/``
subfolders are runs; the sweep folder itself is not). :func:`load_runs` refuses, with a message naming
what differs, runs of different benchmarks, datasets (hash), item sets or scoring options, and fewer than
two runs. The reference rows come from ``--data`` or the dataset folder the runs recorded.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmjudge.data.location import resolve_data
from mmjudge.data.rows import dataset_hash
from mmjudge.errors import ConfigError, MissingFileError, SchemaError, summarize
from mmjudge.predictions import PredictionFile, read_predictions
from mmjudge.results import Results, data_of_run, read_results
from mmjudge.scoring import recorded_limit, rows_of_run, score_predictions

__all__ = ["Run", "RunSet", "load_runs"]


@dataclass(frozen=True)
class Run:
    """One run: its files, its scores as the scorer gives them now, a label for tables."""

    path: Path
    """The run folder."""
    label: str
    """Name in tables: the judge, or the folder name when two runs share a judge name."""
    results: Results
    """Its ``results.json``."""
    predictions: PredictionFile
    """Its validated ``predictions.jsonl``."""


@dataclass(frozen=True)
class RunSet:
    """Runs that may be compared, with the reference rows they share."""

    benchmark: str
    """Benchmark id of every run."""
    dataset_hash: str
    """Dataset hash of every run (and of the reference folder)."""
    data_dir: Path
    """The built folder the reference rows come from."""
    rows: list[dict[str, Any]]
    """The reference rows (cut to the runs' ``--limit``)."""
    runs: tuple[Run, ...]
    """The runs, in the order given (the first is the baseline)."""


def load_runs(paths: Sequence[str | Path], data: str | Path | None = None) -> RunSet:
    """Read and check the runs, and the reference rows they share.

    Raises:
        ConfigError: fewer than two runs.
        MissingFileError: a folder is not a run, or no dataset folder is given or recorded.
        SchemaError: the runs differ in benchmark, dataset hash, item set or scoring options, a recorded
            ``provenance.limit`` is not null or a positive integer, or a ``results.json`` does not match its
            predictions.
    """
    if len(paths) < 2:
        raise ConfigError(f"`compare` needs at least two runs (mmjudge eval --out folders), got {len(paths)}")
    loaded = [_read(Path(p)) for p in paths]
    _same("benchmark", [(p, r.benchmark) for p, r, _ in loaded])
    hashes = [(p, _hash(r)) for p, r, _ in loaded]
    _same("dataset hash", hashes)
    benchmark, digest = loaded[0][1].benchmark, hashes[0][1]
    _same_items([(p, f) for p, _, f in loaded])
    _same("scoring options", [(p, _options(r)) for p, r, _ in loaded])
    data_dir = _data_dir(data, loaded[0][0], loaded[0][1], digest)
    limits = [recorded_limit(f.header.provenance, p / "predictions.jsonl") for p, _, f in loaded]
    rows = rows_of_run(benchmark, data_dir, limits[0])  # the item sets agree: every limit gives these rows
    runs = tuple(Run(p, label, r, f) for (p, r, f), label in zip(loaded, _labels(loaded), strict=True))
    for run in runs:
        _check_scores(run, rows)
    return RunSet(benchmark, digest, data_dir, rows, runs)


def _read(path: Path) -> tuple[Path, Results, PredictionFile]:
    if not (path / "predictions.jsonl").is_file() or not (path / "results.json").is_file():
        sweep = sorted(p.name for p in path.glob("frames_*") if (p / "results.json").is_file())
        hint = f"; it holds a frame sweep: pass one of {sweep} (e.g. {path / sweep[0]})" if sweep else ""
        raise MissingFileError(
            f"{path} is not a run: expected an `mmjudge eval --out` folder with predictions.jsonl and "
            f"results.json{hint}"
        )
    results = read_results(path / "results.json")
    return path, results, read_predictions(path / "predictions.jsonl", benchmark=results.benchmark)


def _hash(results: Results) -> str:
    dataset = results.provenance.get("dataset")
    return str(dataset.get("hash")) if isinstance(dataset, Mapping) else ""


def _options(results: Results) -> str:
    return repr(sorted((results.run.get("score_options") or {}).items()))


def _same(what: str, values: Sequence[tuple[Path, Any]]) -> None:
    first_path, first = values[0]
    for path, value in values[1:]:
        if value != first:
            raise SchemaError(
                f"runs of different {what}s cannot be compared: {first_path} has {first!r}, {path} has "
                f"{value!r}; compare runs of one benchmark on one dataset, scored the same way"
            )


def _same_items(files: Sequence[tuple[Path, PredictionFile]]) -> None:
    base_path, base = files[0][0], {str(r.get("id")) for r in files[0][1].records}
    for path, predictions in files[1:]:
        ids = {str(r.get("id")) for r in predictions.records}
        if ids != base:
            extra, missing = sorted(ids - base), sorted(base - ids)
            raise SchemaError(
                f"{path} and {base_path} judge different item sets ({len(extra) + len(missing)} items differ: "
                f"{len(extra)} only in {path}, e.g. {summarize(extra, 3)}; {len(missing)} only in {base_path}, "
                f"e.g. {summarize(missing, 3)}); paired tests need the same items: rerun with the same "
                "--limit and --swap"
            )


def _data_dir(data: str | Path | None, run: Path, results: Results, digest: str) -> Path:
    """``--data`` (a folder or Hub dataset), else the data the first run recorded; its hash must match."""
    source = resolve_data(data) if data is not None else data_of_run(results, run=str(run / "results.json"))
    found = dataset_hash(source.path)
    if digest and found != digest:
        given = f"--data {data}" if data is not None else f"the recorded data {source.describe()}"
        raise SchemaError(
            f"{given} hashes to {found}, but the runs were made on dataset hash {digest}; pass the "
            "folder the runs judged"
        )
    return source.path


def _labels(loaded: Sequence[tuple[Path, Results, PredictionFile]]) -> list[str]:
    judges = [r.judge for _, r, _ in loaded]
    if len(set(judges)) == len(judges):
        return judges
    return [f"{judge} ({path.name})" for (path, _, _), judge in zip(loaded, judges, strict=True)]


def _check_scores(run: Run, rows: Sequence[Mapping[str, Any]]) -> None:
    """The scorer's numbers now must be the run's ``results.json`` numbers (else the files disagree)."""
    options = dict(run.results.run.get("score_options") or {})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the scorer's warnings were shown when the run was scored
        now = score_predictions(run.predictions, rows, **options)
    for key, value in run.results.scores.items():
        if isinstance(value, float) and not _equal(now.get(key), value):
            raise SchemaError(
                f"{run.path}/results.json says {key} = {value!r}, but its predictions.jsonl scores {now.get(key)!r}; "
                "rescore it (mmjudge score) before comparing"
            )


def _equal(a: Any, b: float) -> bool:
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)
