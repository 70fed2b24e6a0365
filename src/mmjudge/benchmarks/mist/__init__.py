"""MIST, the Misleading-Image Stress Test (idiom labelling; arXiv 2609.37863).

Does an image change a judge's label of an idiom in a sentence? Modules: :mod:`.scoring` (change rates,
direction, drift, agreement, kappa, alt-tests), :mod:`.keys`, :mod:`.build` (MIST release or the
AdMIRe rebuild -> dataset folder), :mod:`.sample`, :mod:`.prompts` (the judge prompt grid),
:mod:`.queries` (grid cells), :mod:`.records`, :mod:`.report` and :mod:`.leaderboard`.
"""

from mmjudge.benchmarks._base import Benchmark, DataSpec, MetricSpec, Presenters, RecordSpec
from mmjudge.benchmarks.mist import build, exports, leaderboard, probes, queries, records, report, sample
from mmjudge.benchmarks.mist.keys import RESULT_KEYS
from mmjudge.benchmarks.mist.queries import MistCell
from mmjudge.benchmarks.mist.records import CELLS, STRATEGIES
from mmjudge.benchmarks.mist.scoring import (
    CODES,
    DEFAULT_EPSILONS,
    LABELS,
    MODES,
    MistTables,
    majority_label,
    score,
    score_outcomes,
    tables,
)
from mmjudge.queries import ChoiceQuery

__all__ = [
    "BENCHMARK",
    "CELLS",
    "CODES",
    "DEFAULT_EPSILONS",
    "LABELS",
    "MODES",
    "RESULT_KEYS",
    "STRATEGIES",
    "MistCell",
    "MistTables",
    "majority_label",
    "score",
    "tables",
]

BENCHMARK = Benchmark(
    id="mist",
    title="MIST (Misleading-Image Stress Test)",
    short_title="MIST",
    package=__name__,
    citation="Omar, Jabarin, Ibraheem, Peled-Cohen 2026, MIST (arXiv 2609.37863)",
    data=DataSpec.from_modules(build, sample, reference_config="items"),
    records=RecordSpec.from_modules(
        queries, records, unit="grid cells", query_kinds=(ChoiceQuery,), media=frozenset({"image"})
    ),
    metrics=MetricSpec(
        score=score,
        result_keys=RESULT_KEYS,
        headline=leaderboard.HEADLINE,
        modes=MODES,
        outcomes=score_outcomes,
        echoed_options=("mode",),
    ),
    present=Presenters.from_modules(leaderboard, report, exports),
    probes=probes.PROBES,
)
"""The registered MIST benchmark; the leaderboard ranks it in strict mode (a missing label counts as
changed, so marking the labels that moved ``no_judgment`` cannot lower a change rate)."""
