"""MIST, the Misleading-Image Stress Test (idiom labelling; arXiv 2609.37863).

Does an image change a judge's label of an idiom in a sentence? Modules: :mod:`.scoring` (change rates,
direction, drift, agreement, kappa, alt-tests), :mod:`.keys`, :mod:`.build` (MIST release or the
AdMIRe rebuild -> dataset folder), :mod:`.sample`, :mod:`.prompts` (the judge prompt grid),
:mod:`.queries` (grid cells), :mod:`.records`, :mod:`.report` and :mod:`.leaderboard`.
"""

from mmjudge.benchmarks._base import Benchmark, DataSpec, LeaderboardSpec, MetricSpec, Presenters, RecordSpec
from mmjudge.benchmarks.mist import (
    build,
    exports,
    leaderboard,
    probes,
    queries,
    records,
    report,
    sample,
)
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
    data=DataSpec(reference_config="items", build_tables=build.build_tables, write_raw=sample.write_raw),
    records=RecordSpec(
        unit="grid cells",
        query_kinds=(ChoiceQuery,),
        media=frozenset({"image"}),
        build_queries=queries.build_queries,
        records_from_verdicts=queries.records_from_verdicts,
        expected_ids=records.expected_ids,
        score_inputs=records.score_inputs,
        value_fields=records.VALUE_FIELDS,
        key_fields=records.KEY_FIELDS,
        record_id=records.record_id,
    ),
    metrics=MetricSpec(
        score=score,
        result_keys=RESULT_KEYS,
        headline=leaderboard.HEADLINE,
        modes=MODES,
        outcomes=score_outcomes,
        echoed_options=("mode",),
    ),
    present=Presenters(
        leaderboard=LeaderboardSpec(
            views=leaderboard.VIEWS, figure=leaderboard.figure, options={"mode": "strict"},
            degenerate=leaderboard.degenerate,
        ),
        report_plot=report.plot,
        report_tables=report.tables,
        exports=exports.EXPORTS,
    ),
    probes=probes.PROBES,
)
"""The registered MIST benchmark; the leaderboard ranks it in strict mode (a missing label counts as
changed, so marking the labels that moved ``no_judgment`` cannot lower a change rate)."""
