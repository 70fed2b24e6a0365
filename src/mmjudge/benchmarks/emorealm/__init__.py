"""EmoReAlM (AVERE): audio-visual emotion reasoning questions (arXiv 2602.07054).

Modules: :mod:`.scoring` (the official whole-word letter matcher, per-task and yes/no accuracies, the
unweighted overall mean; ``official`` and ``strict`` modes), :mod:`.keys`, :mod:`.match`, :mod:`.build`,
:mod:`.sample`, :mod:`.prompts`, :mod:`.queries`, :mod:`.records`, :mod:`.report` and :mod:`.leaderboard`.
"""

from mmjudge.benchmarks._base import Benchmark, DataSpec, MetricSpec, Presenters, RecordSpec
from mmjudge.benchmarks.emorealm import build, exports, leaderboard, probes, queries, records, report, sample
from mmjudge.benchmarks.emorealm.keys import result_keys
from mmjudge.benchmarks.emorealm.queries import EmoRealmQuestion
from mmjudge.benchmarks.emorealm.scoring import (
    MATCHERS,
    MODES,
    TASKS,
    YES_NO_TASKS,
    explicit_answer,
    is_correct,
    matches_official,
    official_parse,
    score,
    score_outcomes,
)
from mmjudge.queries import ChoiceQuery

__all__ = [
    "BENCHMARK",
    "MATCHERS",
    "MODES",
    "TASKS",
    "YES_NO_TASKS",
    "EmoRealmQuestion",
    "explicit_answer",
    "is_correct",
    "matches_official",
    "official_parse",
    "score",
]

BENCHMARK = Benchmark(
    id="emorealm",
    title="EmoReAlM",
    package=__name__,
    citation="Chaubey et al. 2026, AVERE (arXiv 2602.07054)",
    data=DataSpec.from_modules(build, sample, reference_config="all", sample_media_root="raw/emorealm/DFEW"),
    records=RecordSpec.from_modules(
        queries,
        records,
        unit="questions",
        query_kinds=(ChoiceQuery,),
        media=frozenset({"video"}),
        sound=True,
    ),
    metrics=MetricSpec(
        score=score,
        result_keys=result_keys(TASKS, YES_NO_TASKS),
        headline=("overall",),
        modes=MODES,
        outcomes=score_outcomes,
        echoed_options=("mode", "matcher"),
    ),
    present=Presenters.from_modules(leaderboard, report, exports),
    probes=probes.PROBES,
)
"""The registered EmoReAlM benchmark; ranked in strict mode, the official mode stored beside it."""
