"""GenAI-Bench, video generation: arena votes between two generated clips of a prompt (Jiang et al. 2024).

A judge scores each clip; accuracy as VideoScore's and VideoScore2's evaluation scripts compute it. Modules:
:mod:`.scoring`, :mod:`.release`, :mod:`.build`, :mod:`.sample`, :mod:`.queries`, :mod:`.records`, :mod:`.report`,
:mod:`.leaderboard` and :mod:`.exports`; the shared pairwise layer is :mod:`mmjudge.benchmarks._pairwise`.
"""

from mmjudge.benchmarks._pairwise.spec import pairwise_benchmark
from mmjudge.benchmarks._pairwise.threshold import VIDEOSCORE2_TIE_THRESHOLDS, official_tie_threshold
from mmjudge.benchmarks.genai_bench_video import build, exports, leaderboard, queries, records, report, sample
from mmjudge.benchmarks.genai_bench_video.scoring import LABELS, RESULT_KEYS, VOTES, score, score_outcomes

__all__ = [
    "BENCHMARK",
    "LABELS",
    "RESULT_KEYS",
    "VIDEOSCORE2_TIE_THRESHOLDS",
    "VOTES",
    "official_tie_threshold",
    "score",
]

BENCHMARK = pairwise_benchmark(
    __name__,
    build=build,
    sample=sample,
    queries=queries,
    records=records,
    leaderboard=leaderboard,
    report=report,
    exports=exports,
    title="GenAI-Bench (video generation)",
    short_title="GenAI-Bench video",
    citation="Jiang et al. 2024, GenAI Arena: An Open Evaluation Platform for Generative Models (arXiv 2406.04485)",
    score=score,
    score_outcomes=score_outcomes,
    result_keys=RESULT_KEYS,
    headline=leaderboard.HEADLINE,
    echoed_options=("tie_threshold",),
)
"""The registered GenAI-Bench (video) benchmark."""
