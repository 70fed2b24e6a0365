"""IsoVRBench: video reward pairs built by controlled interventions (Li et al. 2026).

A pair holds an anchor clip and a clip made from it by one intervention; a judge scores both clips and
should prefer the anchor. Modules: :mod:`.scoring` (the paper's rule, what ``evaluate`` calls),
:mod:`.keys` (result keys), :mod:`.build` (raw release -> dataset folder), :mod:`.sample` (synthetic
sample), :mod:`.queries` (clips to judge, pair records), :mod:`.records` (prediction-record schema),
:mod:`.report` and :mod:`.leaderboard`.
"""

from mmjudge.benchmarks._base import Benchmark, DataSpec, MetricSpec, Presenters, RecordSpec
from mmjudge.benchmarks.isovrbench import (
    build,
    exports,
    leaderboard,
    probes,
    queries,
    records,
    report,
    sample,
)
from mmjudge.benchmarks.isovrbench.keys import result_keys
from mmjudge.benchmarks.isovrbench.scoring import (
    CHOICES,
    DIMENSIONS,
    HUMAN_ACCURACY,
    HUMAN_AVERAGE,
    INTERVENTIONS,
    choices_from_scores,
    score,
    score_outcomes,
)
from mmjudge.queries import ClipPairQuery, ScoreQuery

__all__ = [
    "BENCHMARK",
    "CHOICES",
    "DIMENSIONS",
    "HUMAN_ACCURACY",
    "HUMAN_AVERAGE",
    "INTERVENTIONS",
    "choices_from_scores",
    "score",
]

BENCHMARK = Benchmark(
    id="isovrbench",
    title="IsoVRBench",
    package=__name__,
    citation="Li et al. 2026, IsoVRBench: Video Reward Modeling Without Human Feedback",
    data=DataSpec.from_modules(build, sample, reference_config="all"),
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
        result_keys=result_keys(INTERVENTIONS, DIMENSIONS),
        headline=("average",),
        outcomes=score_outcomes,
        paired=("average", "decided_average"),
        echoed_options=("tie_tolerance",),
    ),
    present=Presenters.from_modules(leaderboard, report, exports),
    probes=probes.PROBES,
)
"""The registered IsoVRBench benchmark."""
