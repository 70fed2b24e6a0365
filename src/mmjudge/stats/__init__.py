"""Statistics for judge evaluation: bootstrap and Wilson intervals, agreement, rank correlation with
permutation tests, the alt-test, Bradley–Terry with ties and classification summaries.

Pure functions over arrays and dicts, vectorised with numpy; scipy, statsmodels and scikit-learn
are imported on first use (the ``metrics`` extra).

>>> from mmjudge.stats import bootstrap_ci
>>> bootstrap_ci([1.0, 2.0, 3.0], n_resamples=100).estimate
2.0
"""

from mmjudge.stats._agreement import (
    cohen_kappa,
    fleiss_kappa,
    fleiss_kappa_ci,
    fleiss_kappa_jackknife,
    rating_table,
)
from mmjudge.stats._alt_test import SCORINGS, AltTestResult, alt_test
from mmjudge.stats._alt_test_rows import alt_test_from_rows
from mmjudge.stats._bootstrap import (
    ConfidenceInterval,
    PairedBootstrapResult,
    bootstrap_ci,
    bootstrap_cis,
    paired_bootstrap_diff,
    two_sided_p,
)
from mmjudge.stats._bradley_terry import (
    BradleyTerryCI,
    BradleyTerryResult,
    PairwiseCounts,
    bradley_terry,
    bradley_terry_ci,
    bradley_terry_ties,
    pairwise_counts,
)
from mmjudge.stats._classification import (
    ClassificationSummary,
    classification_summary,
    weighted_f1_from_counts,
)
from mmjudge.stats._correlation import EXACT_MAX_N, SpearmanResult, spearman_permutation_test
from mmjudge.stats._jackknife import (
    Spread,
    effective_clusters,
    jackknife,
    mean_interval,
    rate_df,
    t_interval,
    wilson_effective,
    wilson_repaired,
)
from mmjudge.stats._outcomes import (
    HarmonicMean,
    KeyOutcomes,
    Metric,
    Outcomes,
    Ratio,
    WeightedF1,
    bootstrap_metrics,
    jackknife_metrics,
    metric_from_json,
    paired_metric_bootstrap,
    rates_floor,
)
from mmjudge.stats._paired import McNemarResult, mcnemar_exact
from mmjudge.stats._proportion import multinomial_counts, wilson_interval
from mmjudge.stats._ranks import RankSet, RankSets, rank_sets
from mmjudge.stats._signflip import (
    EXACT_MAX_CLUSTERS,
    SignFlipResult,
    paired_jackknife,
    sign_flip_interval,
    sign_flip_test,
)
from mmjudge.stats._tests import MultipleTestResult, TTestResult, benjamini_yekutieli, welch_t_test

__all__ = [
    "EXACT_MAX_CLUSTERS",
    "EXACT_MAX_N",
    "SCORINGS",
    "AltTestResult",
    "BradleyTerryCI",
    "BradleyTerryResult",
    "ClassificationSummary",
    "ConfidenceInterval",
    "HarmonicMean",
    "KeyOutcomes",
    "McNemarResult",
    "Metric",
    "MultipleTestResult",
    "Outcomes",
    "PairedBootstrapResult",
    "PairwiseCounts",
    "RankSet",
    "RankSets",
    "Ratio",
    "SignFlipResult",
    "SpearmanResult",
    "Spread",
    "TTestResult",
    "WeightedF1",
    "alt_test",
    "alt_test_from_rows",
    "benjamini_yekutieli",
    "bootstrap_ci",
    "bootstrap_cis",
    "bootstrap_metrics",
    "bradley_terry",
    "bradley_terry_ci",
    "bradley_terry_ties",
    "classification_summary",
    "cohen_kappa",
    "effective_clusters",
    "fleiss_kappa",
    "fleiss_kappa_ci",
    "fleiss_kappa_jackknife",
    "jackknife",
    "jackknife_metrics",
    "mcnemar_exact",
    "mean_interval",
    "metric_from_json",
    "multinomial_counts",
    "paired_bootstrap_diff",
    "paired_jackknife",
    "paired_metric_bootstrap",
    "pairwise_counts",
    "rank_sets",
    "rate_df",
    "rates_floor",
    "rating_table",
    "sign_flip_interval",
    "sign_flip_test",
    "spearman_permutation_test",
    "t_interval",
    "two_sided_p",
    "weighted_f1_from_counts",
    "welch_t_test",
    "wilson_effective",
    "wilson_interval",
    "wilson_repaired",
]
