"""What a run leaves behind: ``predictions.jsonl``, ``results.json`` and ``report.md`` per frame setting
(and a sweep summary beside the ``frames_<n>/`` folders of a sweep).

``predictions.jsonl`` carries only deterministic provenance (config, fingerprint, dataset hash,
versions, seeds, frame settings), so the same run on one or several processes writes the same bytes;
timings, dates and process counts go to ``results.json``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmjudge._version import __version__
from mmjudge.benchmarks import get_benchmark
from mmjudge.data.location import DataSource, location_of
from mmjudge.data.rows import dataset_hash
from mmjudge.judges import JudgeConfig, fingerprint
from mmjudge.predictions import PredictionHeader, read_predictions, write_predictions
from mmjudge.report import write_report
from mmjudge.runner.failures import ItemErrors, item_errors
from mmjudge.runner.runner import PreparedRun, RunOptions, RunResult, prepare_run, run_prepared
from mmjudge.runner.sweep import SweepRun, write_sweep

__all__ = ["EvalOutput", "evaluate_judge", "evaluate_prepared", "provenance"]

_DEFAULT_OPTIONS = RunOptions()


@dataclass(frozen=True)
class EvalOutput:
    """The files of one evaluated frame setting."""

    frames: int | None
    """Frame count of a sweep, or ``None``."""
    judge: str
    """The judge's display name, as ``results.json`` records it."""
    folder: Path
    """Folder holding the three files."""
    predictions: Path
    """``predictions.jsonl``."""
    results: Path
    """``results.json``."""
    report: Path
    """``report.md``."""
    scores: dict[str, Any]
    """The scores written to ``results.json``."""
    errors: ItemErrors
    """The verdicts of this frame setting that failed with an error (the files are written all the same)."""


def provenance(
    config: JudgeConfig,
    judge_version: str,
    data_dir: str | Path,
    *,
    sweep: Sequence[int] = (),
    swap: bool = False,
    limit: int | None = None,
) -> dict[str, Any]:
    """Deterministic provenance of a prediction file (no timings, no dates, no paths)."""

    return {
        "judge_config": dataclasses.asdict(config),
        "fingerprint": fingerprint(config, judge_version),
        "judge_version": judge_version,
        "model": config.model,
        "model_revision": config.revision,
        "dataset": {"folder": Path(data_dir).resolve().name, "hash": dataset_hash(data_dir)},
        "mmjudge_version": __version__,
        "seeds": {"judge": config.seed},
        "frames": {
            "frames": config.frames,
            "fps": config.fps,
            "max_pixels": config.max_pixels,
            "sweep": list(sweep),
        },
        "swap": swap,
        "limit": limit,
    }


def evaluate_judge(
    benchmark: str,
    judge: str | Path | JudgeConfig,
    data_dir: str | Path | DataSource,
    out_dir: str | Path,
    options: RunOptions = _DEFAULT_OPTIONS,
    **score_options: Any,
) -> list[EvalOutput]:
    """Run the judge, score with the benchmark's core, and write predictions, results and a report.

    Without a sweep the files go to ``out_dir``; with several frame counts to ``out_dir/frames_<n>/``,
    and the sweep summary (``sweep.md``, ``sweep.json``, ``sweep.png``, see :mod:`.sweep`) to ``out_dir``.
    ``score_options`` go to the benchmark's ``score`` (e.g. ``mode="strict"``). ``data_dir`` is a folder,
    a Hub dataset ``ORG/NAME[@REVISION]`` or a resolved :class:`~mmjudge.data.location.DataSource`; where it
    came from is recorded in ``results.json`` (``run.data``). Returns the written outputs on the main rank
    and ``[]`` on the others.
    """
    source = location_of(data_dir)
    return evaluate_prepared(prepare_run(benchmark, judge, source.path, options), source, out_dir, **score_options)


def evaluate_prepared(
    prepared: PreparedRun, data: str | Path | DataSource, out_dir: str | Path, **score_options: Any
) -> list[EvalOutput]:
    """:func:`evaluate_judge` of a :func:`~mmjudge.runner.prepare_run` result (prepared on ``data``'s
    folder): ``mmjudge eval`` prepares first, so bad input is refused before the output folder is touched."""
    source, options = location_of(data), prepared.options
    result = run_prepared(prepared, out_dir)
    if not result.is_main:
        return []
    out = Path(out_dir)
    outputs = [
        _write_outputs(
            result, count, out if count is None else out / f"frames_{count}", source, options, score_options
        )
        for count in result.verdicts
    ]
    sweep = [SweepRun(o.frames, o.results, o.scores) for o in outputs if o.frames is not None]
    if sweep:
        write_sweep(out, result.benchmark, result.configs[sweep[0].frames].display_name, sweep)
    return outputs


def _write_outputs(
    result: RunResult,
    count: int | None,
    folder: Path,
    source: DataSource,
    options: RunOptions,
    score_options: dict[str, Any],
) -> EvalOutput:
    from mmjudge.results import write_results
    from mmjudge.scoring import score_predictions

    config = result.configs[count]
    sweep = options.frames if len(options.frames) > 1 else ()
    prov = provenance(
        config, result.judge_version, source.path, sweep=sweep, swap=options.swap, limit=options.limit
    )
    if "hub" in source.location:  # a shareable record: the repo and commit, never a local path
        prov["dataset"].update(hub=source.location["hub"], revision=source.location["revision"])
    header = PredictionHeader(
        result.benchmark,
        config.display_name,
        prov["fingerprint"],
        mmjudge_version=__version__,
        provenance=prov,
    )
    spec = get_benchmark(result.benchmark).records
    records = spec.records_from_verdicts(result.queries, result.verdicts[count], result.rows)
    predictions_path = write_predictions(folder / "predictions.jsonl", header, records)
    predictions = read_predictions(predictions_path, benchmark=result.benchmark)
    scores = score_predictions(predictions, result.rows, **score_options)
    run = {
        **dataclasses.asdict(result.stats),
        "decode_workers": options.decode_workers,
        "batch_size": options.batch_size or config.batch_size,
        "score_options": score_options,
        "scoring_seed": score_options.get("seed", 0),  # the scorers' seed (their intervals draw nothing; the default is 0)
        "data": source.location,
    }
    results_path = write_results(
        folder / "results.json", result.benchmark, config.display_name, scores, prov, run
    )
    report_path = write_report(folder, result.benchmark, scores, predictions, result.rows, prov, run)
    errors = item_errors(result.verdicts[count], "" if count is None else f"frames={count}")
    return EvalOutput(
        count, config.display_name, folder, predictions_path, results_path, report_path, scores, errors
    )
