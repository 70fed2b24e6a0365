"""TemporalBench (Cai et al., arXiv 2410.10818) as the IsoVRBench paper uses it: binary caption questions answered
by a reward model's text-alignment score (Appendix M).

Modules: :mod:`.release` (the QA file and its questions), :mod:`.build`, :mod:`.sample`, :mod:`.scoring` (the
caption rule and the official ``get_qa_acc.py`` counts), :mod:`.report`, :mod:`.leaderboard` and :mod:`.exports`;
the queries and records are the caption-ranking ones (:mod:`mmjudge.benchmarks._captions`).
"""

from mmjudge.benchmarks._base import Benchmark, DataSpec, MetricSpec, Presenters, RecordSpec
from mmjudge.benchmarks._captions import queries, records
from mmjudge.benchmarks.temporalbench import build, exports, leaderboard, report, sample
from mmjudge.benchmarks.temporalbench.sample import CATEGORIES
from mmjudge.benchmarks.temporalbench.scoring import MODES, RESULT_KEYS, choose, score, score_outcomes
from mmjudge.queries import ScoreQuery

__all__ = ["BENCHMARK", "CATEGORIES", "MODES", "choose", "score"]

BENCHMARK = Benchmark(
    id="temporalbench",
    title="TemporalBench (caption ranking)",
    short_title="TemporalBench",
    package=__name__,
    citation="Cai et al. 2024, TemporalBench (arXiv 2410.10818); reward-model protocol of the IsoVRBench paper, Appendix M",
    data=DataSpec.from_modules(build, sample, reference_config="all", sample_media_root="raw/temporalbench"),
    records=RecordSpec.from_modules(
        queries, records, unit="questions", query_kinds=(ScoreQuery,), media=frozenset({"video"}), noun="question"
    ),
    metrics=MetricSpec(
        score=score,
        result_keys=RESULT_KEYS,
        headline=("multiple_binary_accuracy", "accuracy"),
        modes=MODES,
        outcomes=score_outcomes,
        echoed_options=("mode",),
    ),
    present=Presenters.from_modules(leaderboard, report, exports),
)
"""The registered TemporalBench benchmark; ranked in strict mode, the official mode stored beside it."""
