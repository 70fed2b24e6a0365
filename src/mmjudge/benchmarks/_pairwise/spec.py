"""The registered :class:`~mmjudge.benchmarks.Benchmark` of a pairwise video preference benchmark, from its package's
modules: every such benchmark asks clips to rate (or, of a judge rating none, pairs to compare), reads video, and
keeps its pairs in the ``pairs`` config."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mmjudge.benchmarks._base import Benchmark, DataSpec, MetricSpec, Presenters, RecordSpec, ResultKey
from mmjudge.benchmarks._hooks import (
    BuildModule,
    ExportsModule,
    LeaderboardModule,
    QueriesModule,
    RecordsModule,
    ReportModule,
    SampleModule,
)
from mmjudge.queries import ClipPairQuery, ScoreQuery

__all__ = ["pairwise_benchmark"]


def pairwise_benchmark(
    package: str,
    *,
    build: BuildModule,
    sample: SampleModule,
    queries: QueriesModule,
    records: RecordsModule,
    leaderboard: LeaderboardModule,
    report: ReportModule,
    exports: ExportsModule,
    title: str,
    citation: str,
    score: Callable[..., Any],
    score_outcomes: Callable[..., Any],
    result_keys: tuple[ResultKey, ...],
    headline: tuple[str, ...],
    echoed_options: tuple[str, ...],
    short_title: str = "",
) -> Benchmark:
    """The benchmark of ``package`` (its id is the package's last name), wired from its ``build``, ``sample``,
    ``queries``, ``records``, ``leaderboard``, ``report`` and ``exports`` modules (mypy checks each against its
    protocol in :mod:`mmjudge.benchmarks._hooks`)."""
    return Benchmark(
        id=package.rsplit(".", 1)[-1],
        title=title,
        short_title=short_title,
        package=package,
        citation=citation,
        data=DataSpec.from_modules(build, sample, reference_config="pairs"),
        records=RecordSpec.from_modules(
            queries,
            records,
            unit="pairs",
            query_kinds=(ScoreQuery, ClipPairQuery),
            media=frozenset({"video"}),
            noun="pair",
        ),
        metrics=MetricSpec(
            score=score,
            result_keys=result_keys,
            headline=headline,
            outcomes=score_outcomes,
            echoed_options=echoed_options,
        ),
        present=Presenters.from_modules(leaderboard, report, exports),
    )
