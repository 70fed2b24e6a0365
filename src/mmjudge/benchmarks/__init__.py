"""Benchmarks: one registered :class:`Benchmark` object per benchmark, one package per benchmark.

``mmjudge.benchmarks.<id>`` holds everything one benchmark is (scorer and result keys, dataset builder
and sample writer, judge items and prediction records, protocol prompts, report plot, leaderboard
columns and figure) and exports its ``BENCHMARK`` object and ``score(...)``, the pure function the
evaluate modules, the CLI and the leaderboard all call. Generic code looks benchmarks up here:

>>> benchmark_ids() == tuple(BENCHMARKS.names())
True
"""

from mmjudge.benchmarks._base import (
    Benchmark,
    BoardRow,
    Column,
    DataSpec,
    LeaderboardSpec,
    MetricSpec,
    Presenters,
    QuerySource,
    RecordSpec,
    ResultKey,
    View,
)
from mmjudge.benchmarks._datasets import build_dataset, write_benchmark_eval_yaml, write_sample_data
from mmjudge.benchmarks._exports import EvalTask, ExportSpec, LmmsTask, eval_yaml_document
from mmjudge.benchmarks._hooks import (
    BuildModule,
    ExportsModule,
    LeaderboardModule,
    QueriesModule,
    RecordsModule,
    ReportModule,
    SampleModule,
)
from mmjudge.benchmarks._intervals import Scores, intervals_of
from mmjudge.benchmarks._probes import (
    Effect,
    JudgeTraits,
    Probe,
    ProbeData,
    ProbeOutcome,
    Variant,
    clustered_mean_effect,
    clustered_rate_effect,
    mean_effect,
    rate_effect,
)
from mmjudge.benchmarks._registry import BENCHMARKS, benchmark_ids, get_benchmark
from mmjudge.benchmarks._report_tables import (
    BreakdownTable,
    Cell,
    SweepSeries,
    TableRow,
    cells,
    label,
    present_segments,
)

__all__ = [
    "BENCHMARKS",
    "Benchmark",
    "BoardRow",
    "BreakdownTable",
    "BuildModule",
    "Cell",
    "Column",
    "DataSpec",
    "Effect",
    "EvalTask",
    "ExportSpec",
    "ExportsModule",
    "JudgeTraits",
    "LeaderboardModule",
    "LeaderboardSpec",
    "LmmsTask",
    "MetricSpec",
    "Presenters",
    "Probe",
    "ProbeData",
    "ProbeOutcome",
    "QueriesModule",
    "QuerySource",
    "RecordSpec",
    "RecordsModule",
    "ReportModule",
    "ResultKey",
    "SampleModule",
    "Scores",
    "SweepSeries",
    "TableRow",
    "Variant",
    "View",
    "benchmark_ids",
    "build_dataset",
    "cells",
    "clustered_mean_effect",
    "clustered_rate_effect",
    "eval_yaml_document",
    "get_benchmark",
    "intervals_of",
    "label",
    "mean_effect",
    "present_segments",
    "rate_effect",
    "write_benchmark_eval_yaml",
    "write_sample_data",
]
