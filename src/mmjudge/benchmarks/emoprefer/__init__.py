"""EmoPrefer-Data: which of two emotion descriptions of a clip is better (arXiv 2507.04278, ICLR 2026).

Modules: :mod:`.scoring` (the official rules: parser, 2-/3-class WAF and accuracy, swap consistency),
:mod:`.extra` (rounds, votes, reported-strategy rule, Bradley-Terry ranking), :mod:`.build`,
:mod:`.sample`, :mod:`.prompts` (strategies S1-S4), :mod:`.queries`, :mod:`.records`, :mod:`.report` and
:mod:`.leaderboard`.
"""

from mmjudge.benchmarks._base import Benchmark, DataSpec, MetricSpec, Presenters, RecordSpec
from mmjudge.benchmarks.emoprefer import build, exports, leaderboard, probes, queries, records, report, sample
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
    data=DataSpec.from_modules(
        build, sample, reference_config="pairs", sample_media_root="raw/emoprefer/MER2025", sample_swap=True
    ),
    records=RecordSpec.from_modules(
        queries,
        records,
        unit="pairs",
        query_kinds=(PairQuery,),
        media=frozenset({"video"}),
        noun="pair",
        sound=True,
    ),
    metrics=MetricSpec(
        score=score,
        result_keys=RESULT_KEYS,
        headline=leaderboard.HEADLINE,
        outcomes=score_outcomes,
        echoed_options=(),
    ),
    present=Presenters.from_modules(leaderboard, report, exports),
    probes=probes.PROBES,
)
"""The registered EmoPrefer benchmark."""
