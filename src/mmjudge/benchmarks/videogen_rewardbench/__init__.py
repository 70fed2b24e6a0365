"""VideoGen-RewardBench: human preferences between two generated clips of a prompt (VideoAlign, Liu et al. 2025).

Each pair has four labels (VQ, MQ, TA, Overall: ``A``, ``B`` or ``same``); a judge scores each clip and the pair is
read at the head of each aspect. Modules: :mod:`.scoring` (VideoAlign's rules: accuracy without ties, the
Ties-Matter accuracy with its epsilon tuned on the test pairs, and the same with epsilon cross-fitted over folds
of prompts), :mod:`.release`, :mod:`.build`, :mod:`.sample`, :mod:`.queries`, :mod:`.records`, :mod:`.report`,
:mod:`.leaderboard` and :mod:`.exports`; the shared pairwise layer is :mod:`mmjudge.benchmarks._pairwise`.
"""

from mmjudge.benchmarks._pairwise.spec import pairwise_benchmark
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

__all__ = ["ASPECTS", "BENCHMARK", "LABELS", "RESULT_KEYS", "fit_threshold", "official_tie_sweep", "score"]

BENCHMARK = pairwise_benchmark(
    __name__,
    build=build,
    sample=sample,
    queries=queries,
    records=records,
    leaderboard=leaderboard,
    report=report,
    exports=exports,
    title="VideoGen-RewardBench",
    short_title="VideoGen-RB",
    citation="Liu et al. 2025, Improving Video Generation with Human Feedback (VideoAlign, arXiv 2501.13918)",
    score=score,
    score_outcomes=score_outcomes,
    result_keys=RESULT_KEYS,
    headline=leaderboard.HEADLINE,
    echoed_options=("folds",),
)
"""The registered VideoGen-RewardBench benchmark."""
