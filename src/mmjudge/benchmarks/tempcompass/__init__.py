"""TempCompass (Liu et al., arXiv 2403.00476) caption matching as the IsoVRBench paper uses it: binary choices
between complete captions answered by a reward model's text-alignment score (Appendix M).

Modules: :mod:`.release` (the questions file and its options), :mod:`.build`, :mod:`.sample`, :mod:`.scoring`,
:mod:`.report`, :mod:`.leaderboard` and :mod:`.exports`; the queries and records are the caption-ranking ones
(:mod:`mmjudge.benchmarks._captions`).
"""

from mmjudge.benchmarks._base import Benchmark, DataSpec, MetricSpec, Presenters, RecordSpec
from mmjudge.benchmarks._captions import queries, records
from mmjudge.benchmarks.tempcompass import build, exports, leaderboard, report, sample
from mmjudge.benchmarks.tempcompass.release import DIMENSIONS
from mmjudge.benchmarks.tempcompass.scoring import RESULT_KEYS, choose, score, score_outcomes
from mmjudge.queries import ScoreQuery

__all__ = ["BENCHMARK", "DIMENSIONS", "choose", "score"]

BENCHMARK = Benchmark(
    id="tempcompass",
    title="TempCompass (caption matching)",
    short_title="TempCompass",
    package=__name__,
    citation="Liu et al. 2024, TempCompass (arXiv 2403.00476); reward-model protocol of the IsoVRBench paper, Appendix M",
    data=DataSpec.from_modules(build, sample, reference_config="all", sample_media_root="raw/tempcompass"),
    records=RecordSpec.from_modules(
        queries, records, unit="questions", query_kinds=(ScoreQuery,), media=frozenset({"video"}), noun="question"
    ),
    metrics=MetricSpec(score=score, result_keys=RESULT_KEYS, headline=("accuracy",), outcomes=score_outcomes),
    present=Presenters.from_modules(leaderboard, report, exports),
)
"""The registered TempCompass benchmark."""
