"""MJ-Bench-Video: fine-grained human preferences between two generated clips (MJ-Video, Tong et al. 2025).

A judge scores each clip; overall and per-aspect accuracy without and with ties by VideoScore2's public rule (no
official video scoring code is public: see :mod:`.scoring`). Modules: :mod:`.scoring`, :mod:`.release`,
:mod:`.build`, :mod:`.sample`, :mod:`.queries`, :mod:`.records`, :mod:`.report`, :mod:`.leaderboard` and
:mod:`.exports`; the shared pairwise layer is :mod:`mmjudge.benchmarks._pairwise`.
"""

from mmjudge.benchmarks._pairwise.spec import pairwise_benchmark
from mmjudge.benchmarks.mj_bench_video import build, exports, leaderboard, queries, records, report, sample
from mmjudge.benchmarks.mj_bench_video.scoring import (
    ASPECTS,
    HARD,
    LABELS,
    RESULT_KEYS,
    score,
    score_outcomes,
)

__all__ = ["ASPECTS", "BENCHMARK", "HARD", "LABELS", "RESULT_KEYS", "score"]

BENCHMARK = pairwise_benchmark(
    __name__,
    build=build,
    sample=sample,
    queries=queries,
    records=records,
    leaderboard=leaderboard,
    report=report,
    exports=exports,
    title="MJ-Bench-Video",
    citation="Tong et al. 2025, MJ-VIDEO: Fine-Grained Benchmarking and Rewarding Video Preferences (arXiv 2502.01719)",
    score=score,
    score_outcomes=score_outcomes,
    result_keys=RESULT_KEYS,
    headline=leaderboard.HEADLINE,
    echoed_options=("tie_threshold",),
)
"""The registered MJ-Bench-Video benchmark."""
