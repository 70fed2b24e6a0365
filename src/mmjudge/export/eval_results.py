"""Hub eval results from an ``mmjudge eval`` run folder.

:func:`eval_result_entries` turns one ``results.json`` into ``huggingface_hub.EvalResultEntry`` objects:
one for the benchmark's main task and one per further task of its ``eval.yaml``
(``Benchmark.present.exports.eval_tasks``), each with the value exactly as ``results.json`` holds it, the run
date, the link to the predictions and notes (result key and its direction, its interval with the confidence
and method ``results.json`` records, whether that interval is thin or withheld, frame count, scoring mode,
mmjudge version, judge and its fingerprint). :func:`export_eval_results` writes ``.eval_results/mmjudge_<benchmark>.yaml``
with ``eval_result_entries_to_yaml``; :func:`plan_eval_results_pr` lists the exact files a pull request
to a model repo adds (no network) and :func:`open_eval_results_pr` opens it with one
``create_commit(..., create_pr=True)`` call, so nothing is ever pushed to ``main``.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import yaml

from mmjudge.benchmarks import get_benchmark
from mmjudge.errors import ConfigError, MissingDependencyError, MissingFileError
from mmjudge.estimates import interval_caveat, interval_of, interval_text, number_text
from mmjudge.predictions import read_predictions
from mmjudge.results import Results, read_results

__all__ = [
    "EVAL_RESULTS_DIR",
    "EvalResultsPR",
    "ExportedRun",
    "eval_result_entries",
    "export_eval_results",
    "find_runs",
    "open_eval_results_pr",
    "plan_eval_results_pr",
]

logger = logging.getLogger(__name__)

EVAL_RESULTS_DIR = ".eval_results"
"""Folder of a model repo the Hub reads eval results from."""


class RunFolder(NamedTuple):
    """One scored run inside a run folder (``results.json`` and its ``predictions.jsonl``)."""

    results: Path
    """``results.json``."""
    predictions: Path
    """``predictions.jsonl`` beside it."""
    suffix: str
    """File-name suffix telling sweep points apart (``""`` or ``"_frames8"``)."""


@dataclass(frozen=True)
class ExportedRun:
    """What :func:`export_eval_results` wrote for one run."""

    benchmark: str
    """Benchmark id."""
    yaml_path: Path
    """The ``.eval_results/*.yaml`` written."""
    path_in_repo: str
    """Where it goes in the model repo."""
    predictions: Path
    """The run's ``predictions.jsonl`` (uploaded beside the YAML with ``--repo``)."""
    predictions_in_repo: str
    """Where the predictions go in the model repo."""
    entries: tuple[Any, ...]
    """The ``EvalResultEntry`` objects."""


def find_runs(run_dir: str | Path) -> list[RunFolder]:
    """The scored runs of a run folder: ``results.json`` itself, else one per ``frames_<n>/`` sweep point.

    Raises:
        MissingFileError: no ``results.json`` (with its ``predictions.jsonl``) was found.
    """
    run_dir = Path(run_dir)
    candidates = [(run_dir, "")] if (run_dir / "results.json").is_file() else []
    if not candidates:
        sweep = sorted(run_dir.glob("frames_*/results.json"), key=lambda p: _frames_key(p.parent.name))
        candidates = [(p.parent, "_" + p.parent.name.replace("_", "")) for p in sweep]
    if not candidates:
        raise MissingFileError(
            f"{run_dir}: expected a folder written by `mmjudge eval` (results.json, or frames_<n>/results.json "
            "for a frame sweep); found neither"
        )
    runs = []
    for folder, suffix in candidates:
        predictions = folder / "predictions.jsonl"
        if not predictions.is_file():
            raise MissingFileError(f"{folder}: results.json without predictions.jsonl; rerun `mmjudge score`")
        runs.append(RunFolder(folder / "results.json", predictions, suffix))
    return runs


def _frames_key(name: str) -> int:
    digits = name.rpartition("_")[2]
    return int(digits) if digits.isdigit() else 0


def eval_result_entries(
    results: Results,
    header: Mapping[str, Any],
    *,
    dataset_repo: str,
    dataset_revision: str | None = None,
    source_url: str | None = None,
) -> list[Any]:
    """The ``EvalResultEntry`` objects of one ``results.json`` (main task first).

    Args:
        results: the run's results.
        header: the prediction file's header (``fingerprint``, ``mmjudge_version``, ``provenance``).
        dataset_repo: the benchmark's dataset repo ``org/name`` on the Hub.
        dataset_revision: its revision (the tag ``push-dataset`` created, or a commit hash).
        source_url: link to the predictions.

    A task whose key is absent or not finite in the results (e.g. swap consistency of a run without
    swapped pairs) is left out with a warning.
    """
    hub = _hub_eval_results()
    _check_repo_id(dataset_repo, "--dataset-repo")
    spec = get_benchmark(results.benchmark)
    tasks = sorted(spec.present.exports.eval_tasks, key=lambda t: not t.main)
    if not tasks:
        raise ConfigError(f"{results.benchmark} declares no eval tasks (Benchmark.present.exports.eval_tasks)")
    entries = []
    for task in tasks:
        value = results.scores.get(task.key)
        if not _is_number(value):
            logger.warning("%s: no finite %r in results.json; task %s left out", results.benchmark, task.key, task.id)
            continue
        entries.append(
            hub.EvalResultEntry(
                dataset_id=dataset_repo,
                task_id=task.id,
                value=value,
                dataset_revision=dataset_revision,
                date=results.run.get("date"),
                source_url=source_url,
                source_name="mmjudge predictions" if source_url else None,
                notes=_notes(results, header, task.key),
            )
        )
    return entries


def _hub_eval_results() -> ModuleType:
    """``huggingface_hub``, checked to have the eval-results API (``EvalResultEntry``, huggingface-hub 1.4+).

    mmjudge itself allows an older huggingface-hub (0.34+, beside transformers 4.x); only this export
    needs the newer one, and says so instead of failing on an import.
    """
    import huggingface_hub

    if not hasattr(huggingface_hub, "EvalResultEntry"):
        raise MissingDependencyError(
            "exporting eval results needs huggingface-hub>=1.4 (huggingface_hub.EvalResultEntry), but "
            f"{huggingface_hub.__version__} is installed. Install with: pip install -U 'huggingface-hub>=1.4'"
        )
    return huggingface_hub


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _notes(results: Results, header: Mapping[str, Any], key: str) -> str:
    """``result key K (higher is better); 95% CI [lo, hi] (method); thin: ...; frames=N; mode=M; mmjudge V;
    judge J (fingerprint F)``: the interval's confidence and method as ``results.json`` records them (without a
    record: the CI keys, method not recorded), then whether it is thin or withheld."""
    scores = results.scores
    direction = "higher" if get_benchmark(results.benchmark).metrics.higher_is_better(key) else "lower"
    parts = [f"result key {key} ({direction} is better)"]
    estimate = results.estimates.get(key)
    interval = interval_of(scores, key)
    if interval is not None:
        confidence, method = (estimate.confidence, estimate.method) if estimate else (0.95, "not recorded")
        text = interval_text(*interval, 4, style="significant")
        parts.append(f"{number_text(100 * confidence, 0)}% CI {text} ({method})")
    caveat = interval_caveat(estimate)
    if caveat:
        parts.append(caveat)
    frames = (header.get("provenance") or {}).get("frames") or {}
    if isinstance(frames, Mapping) and frames.get("frames") is not None:
        parts.append(f"frames={frames['frames']}")
    if isinstance(scores.get("mode"), str):
        parts.append(f"mode={scores['mode']}")
    parts.append(f"mmjudge {header.get('mmjudge_version', 'unknown')}")
    parts.append(f"judge {results.judge} (fingerprint {header.get('fingerprint', 'unknown')})")
    return "; ".join(parts)


def export_eval_results(
    run_dir: str | Path,
    *,
    dataset_repo: str,
    dataset_revision: str | None = None,
    out: str | Path | None = None,
    repo: str | None = None,
    source_url: str | None = None,
) -> list[ExportedRun]:
    """Write ``<out>/.eval_results/mmjudge_<benchmark>[_frames<n>].yaml`` for each run of ``run_dir``.

    Args:
        run_dir: a folder written by ``mmjudge eval`` (or ``mmjudge score``).
        dataset_repo: the benchmark's dataset repo ``org/name``.
        dataset_revision: its revision (tag or commit); without it the entries are not pinned.
        out: where ``.eval_results/`` is written (default ``run_dir``).
        repo: the model repo the entries are for; the source link then points at the predictions file
            the pull request adds beside the YAML (unless ``source_url`` is given).
        source_url: link to the predictions (overrides the one derived from ``repo``).
    """
    out_dir = Path(out if out is not None else run_dir) / EVAL_RESULTS_DIR
    if dataset_revision is None:
        logger.warning("no --dataset-revision: the entries do not pin the benchmark dataset's revision")
    exported = []
    for run in find_runs(run_dir):
        results = read_results(run.results)
        header = read_predictions(run.predictions).header
        stem = f"mmjudge_{results.benchmark}{run.suffix}"
        predictions_in_repo = f"{EVAL_RESULTS_DIR}/{stem}.predictions.jsonl"
        url = source_url or (f"https://huggingface.co/{repo}/blob/main/{predictions_in_repo}" if repo else None)
        if url is None:
            logger.warning("no --repo or --source-url: the entries of %s carry no link to the predictions", stem)
        header_dict = {
            "fingerprint": header.fingerprint,
            "mmjudge_version": header.mmjudge_version,
            "provenance": header.provenance,
        }
        entries = eval_result_entries(
            results, header_dict, dataset_repo=dataset_repo, dataset_revision=dataset_revision, source_url=url
        )
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / f"{stem}.yaml"
        path.write_text(entries_yaml(entries), encoding="utf-8")
        exported.append(
            ExportedRun(
                results.benchmark,
                path,
                f"{EVAL_RESULTS_DIR}/{stem}.yaml",
                run.predictions,
                predictions_in_repo,
                tuple(entries),
            )
        )
    return exported


def entries_yaml(entries: Sequence[Any]) -> str:
    """The YAML text of ``entries`` (``huggingface_hub.eval_result_entries_to_yaml``, dumped in order)."""
    entries_to_yaml = _hub_eval_results().eval_result_entries_to_yaml
    return yaml.safe_dump(entries_to_yaml(list(entries)), sort_keys=False, allow_unicode=True)


class EvalResultsPR(NamedTuple):
    """A pull request adding eval results to a model repo; computed without network."""

    repo_id: str
    """The model repo ``org/name``."""
    files: dict[str, Path]
    """Path in the repo -> local file, sorted by path: the YAML files and the predictions they link."""
    commit_message: str
    """Title of the pull request."""
    commit_description: str
    """Its description."""

    def operations(self) -> list[Any]:
        """The ``CommitOperationAdd`` list of the commit."""
        from huggingface_hub import CommitOperationAdd

        return [CommitOperationAdd(path_in_repo=p, path_or_fileobj=str(f)) for p, f in self.files.items()]


def plan_eval_results_pr(repo: str, exported: Sequence[ExportedRun]) -> EvalResultsPR:
    """The pull request adding ``exported`` (YAML files and the predictions they link) to ``repo``."""
    _check_repo_id(repo, "--repo")
    if not exported:
        raise ConfigError("nothing to open a pull request with: no eval results were exported")
    files: dict[str, Path] = {}
    for run in exported:
        files[run.path_in_repo] = run.yaml_path
        files[run.predictions_in_repo] = run.predictions
    benchmarks = sorted({run.benchmark for run in exported})
    lines = [f"- `{run.path_in_repo}`: {len(run.entries)} entries" for run in exported]
    description = (
        "Eval results written by `mmjudge export eval-results` from `mmjudge eval` runs, in the Hub's "
        "`.eval_results/*.yaml` format, with the prediction files they link to.\n\n" + "\n".join(lines)
    )
    return EvalResultsPR(repo, dict(sorted(files.items())), f"Add mmjudge eval results ({', '.join(benchmarks)})", description)


def open_eval_results_pr(plan: EvalResultsPR, *, api: Any = None, token: str | None = None) -> str:
    """Open the pull request of ``plan`` on the model repo (one ``create_commit`` with ``create_pr=True``);
    returns its URL. ``api``: an ``HfApi``-like object (tests pass a fake)."""
    from huggingface_hub import HfApi

    api = api if api is not None else HfApi(token=token)
    commit = api.create_commit(
        plan.repo_id,
        operations=plan.operations(),
        commit_message=plan.commit_message,
        commit_description=plan.commit_description,
        repo_type="model",
        create_pr=True,
    )
    return str(commit.pr_url or commit.commit_url)


def _check_repo_id(repo_id: str, option: str) -> None:
    if repo_id.count("/") != 1 or not all(repo_id.split("/")):
        raise ConfigError(f"{option} {repo_id!r}: expected ORG/NAME")
