"""The judge runner: accelerate sharding, the decode pool, the verdict cache with exact resume, outputs.

:func:`run_judge` (:func:`prepare_run`, then :func:`run_prepared`) judges every query of a built benchmark folder (the benchmark builds queries of the
first kind it asks that the judge answers); :func:`evaluate_judge` also scores and writes ``predictions.jsonl``,
``results.json`` and ``report.md``. Modules: :mod:`.runner` (sharded, cached judging), :mod:`.decode`
(the decode pool), :mod:`.cache` (the verdict cache), :mod:`.dist` (ranks), :mod:`.outputs` (files),
:mod:`.failures` (items that failed with an error).
"""

from mmjudge.runner.failures import FIRST_ERRORS, ItemErrors, item_errors
from mmjudge.runner.outputs import EvalOutput, evaluate_judge, evaluate_prepared, provenance
from mmjudge.runner.runner import (
    PreparedRun,
    RunOptions,
    RunResult,
    RunStats,
    load_queries,
    prepare_judge,
    prepare_run,
    resolve_config,
    run_judge,
    run_prepared,
    run_queries,
    setting_errors,
    sharing_weights,
)
from mmjudge.runner.sweep import SWEEP_FILES, SweepFiles, SweepRun, write_sweep

__all__ = [
    "FIRST_ERRORS",
    "SWEEP_FILES",
    "EvalOutput",
    "ItemErrors",
    "PreparedRun",
    "RunOptions",
    "RunResult",
    "RunStats",
    "SweepFiles",
    "SweepRun",
    "evaluate_judge",
    "evaluate_prepared",
    "item_errors",
    "load_queries",
    "prepare_judge",
    "prepare_run",
    "provenance",
    "resolve_config",
    "run_judge",
    "run_prepared",
    "run_queries",
    "setting_errors",
    "sharing_weights",
    "write_sweep",
]
