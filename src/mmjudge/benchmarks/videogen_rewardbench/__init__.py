"""VideoGen-RewardBench: human preferences between two generated clips of a prompt (VideoAlign, Liu et al. 2025).

Each pair has four labels (VQ, MQ, TA, Overall: ``A``, ``B`` or ``same``); a judge scores each clip and the pair is
read at the head of each aspect. Modules: :mod:`.scoring` (VideoAlign's rules: accuracy without ties, the
Ties-Matter accuracy with its epsilon tuned on the test pairs, and the same with epsilon cross-fitted over folds
of prompts), :mod:`.release`, :mod:`.build`, :mod:`.sample`, :mod:`.queries`, :mod:`.records`, :mod:`.report`,
:mod:`.leaderboard` and :mod:`.exports`; the shared pairwise layer is :mod:`mmjudge.benchmarks._pairwise`.
"""

from mmjudge.benchmarks._base import Benchmark, DataSpec, MetricSpec, Presenters, RecordSpec
from mmjudge.benchmarks.videogen_rewardbench import (
    build,
    exports,
    leaderboard,
    queries,
    records,
    report,
    sample,
)
from mmjudge.benchmarks.videogen_rewardbench.scoring import (
    ASPECTS,
    LABELS,
    RESULT_KEYS,
    fit_threshold,
    official_tie_sweep,
    score,
    score_outcomes,
)
from mmjudge.queries import ClipPairQuery, ScoreQuery

__all__ = ["ASPECTS", "BENCHMARK", "LABELS", "RESULT_KEYS", "fit_threshold", "official_tie_sweep", "score"]

BENCHMARK = Benchmark(
    id="videogen_rewardbench",
    title="VideoGen-RewardBench",
    short_title="VideoGen-RB",
    package=__name__,
    citation="Liu et al. 2025, Improving Video Generation with Human Feedback (VideoAlign, arXiv 2501.13918)",
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
        echoed_options=("folds",),
    ),
    present=Presenters.from_modules(leaderboard, report, exports),
)
"""The registered VideoGen-RewardBench benchmark."""
