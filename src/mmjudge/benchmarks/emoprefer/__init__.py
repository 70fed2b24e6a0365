"""EmoPrefer-Data: which of two emotion descriptions of a clip is better (arXiv 2507.04278, ICLR 2026).

Modules: :mod:`.scoring` (the official rules: parser, 2-/3-class WAF and accuracy, swap consistency),
:mod:`.extra` (rounds, votes, reported-strategy rule, Bradley-Terry ranking), :mod:`.build`,
:mod:`.sample`, :mod:`.prompts` (strategies S1-S4), :mod:`.queries`, :mod:`.records`, :mod:`.report` and
:mod:`.leaderboard`.
"""

from mmjudge.benchmarks._base import Benchmark, DataSpec, LeaderboardSpec, MetricSpec, Presenters, RecordSpec
from mmjudge.benchmarks.emoprefer import (
    build,
    exports,
    leaderboard,
    probes,
    queries,
    records,
    report,
    sample,
)
from mmjudge.benchmarks.emoprefer.queries import EmoPreferPair
from mmjudge.benchmarks.emoprefer.scoring import (
    LABELS,
    RESULT_KEYS,
    DescriptionRanking,
    WafAcc,
    best_strategy,
    confusion_counts,
    flip_labels,
    majority_vote,
    mean_std_over_rounds,
    parse_response,
    parse_responses,
    rank_description_models,
    score,
    score_outcomes,
    swap_consistency,
    three_class,
    top_k_vote,
    two_class,
    vote_normal_swapped,
)
from mmjudge.queries import PairQuery

__all__ = [
    "BENCHMARK",
    "LABELS",
    "RESULT_KEYS",
    "DescriptionRanking",
    "EmoPreferPair",
    "WafAcc",
    "best_strategy",
    "confusion_counts",
    "flip_labels",
    "majority_vote",
    "mean_std_over_rounds",
    "parse_response",
    "parse_responses",
    "rank_description_models",
    "score",
    "swap_consistency",
    "three_class",
    "top_k_vote",
    "two_class",
    "vote_normal_swapped",
]

BENCHMARK = Benchmark(
    id="emoprefer",
    title="EmoPrefer-Data",
    short_title="EmoPrefer",
    package=__name__,
    citation="EmoPrefer: Can Large Language Models Understand Human Emotion Preferences? (ICLR 2026, arXiv 2507.04278)",
    data=DataSpec(
        reference_config="pairs",
        build_tables=build.build_tables,
        write_raw=sample.write_raw,
        sample_media_root="raw/emoprefer/MER2025",
        sample_swap=True,
    ),
    records=RecordSpec(
        unit="pairs",
        query_kinds=(PairQuery,),
        media=frozenset({"video"}),
        build_queries=queries.build_queries,
        records_from_verdicts=queries.records_from_verdicts,
        expected_ids=records.expected_ids,
        score_inputs=records.score_inputs,
        value_fields=records.VALUE_FIELDS,
        key_fields=records.KEY_FIELDS,
        record_id=records.record_id,
        check_record=records.check_record,
        noun="pair",
        missing_groups=records.missing_groups,
    ),
    metrics=MetricSpec(
        score=score,
        result_keys=RESULT_KEYS,
        headline=leaderboard.HEADLINE,
        outcomes=score_outcomes,
        echoed_options=(),
    ),
    present=Presenters(
        leaderboard=LeaderboardSpec(views=leaderboard.VIEWS, figure=leaderboard.figure),
        report_plot=report.plot,
        report_tables=report.tables,
        exports=exports.EXPORTS,
    ),
    probes=probes.PROBES,
)
"""The registered EmoPrefer benchmark."""
