"""MJ-Bench-Video: fine-grained human preferences between two generated clips (MJ-Video, Tong et al. 2025).

A judge scores each clip; overall and per-aspect accuracy without and with ties by VideoScore2's public rule (no
official video scoring code is public: see :mod:`.scoring`). Modules: :mod:`.scoring`, :mod:`.release`,
:mod:`.build`, :mod:`.sample`, :mod:`.queries`, :mod:`.records`, :mod:`.report`, :mod:`.leaderboard` and
:mod:`.exports`; the shared pairwise layer is :mod:`mmjudge.benchmarks._pairwise`.
"""

from mmjudge.benchmarks._base import Benchmark, DataSpec, MetricSpec, Presenters, RecordSpec
from mmjudge.benchmarks.mj_bench_video import build, exports, leaderboard, queries, records, report, sample
from mmjudge.benchmarks.mj_bench_video.scoring import (
    ASPECTS,
    HARD,
    LABELS,
    RESULT_KEYS,
    score,
    score_outcomes,
)
from mmjudge.queries import ClipPairQuery, ScoreQuery

__all__ = ["ASPECTS", "BENCHMARK", "HARD", "LABELS", "RESULT_KEYS", "score"]

BENCHMARK = Benchmark(
    id="mj_bench_video",
    title="MJ-Bench-Video",
    package=__name__,
    citation="Tong et al. 2025, MJ-VIDEO: Fine-Grained Benchmarking and Rewarding Video Preferences (arXiv 2502.01719)",
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
        result_keys=RESULT_KEYS,
        headline=leaderboard.HEADLINE,
        outcomes=score_outcomes,
        echoed_options=("tie_threshold",),
    ),
    present=Presenters.from_modules(leaderboard, report, exports),
)
"""The registered MJ-Bench-Video benchmark."""
