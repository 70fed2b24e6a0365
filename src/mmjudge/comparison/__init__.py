"""Paired comparison of judges on the same items (``mmjudge compare``, the leaderboard's significance).

:func:`load_runs` reads and checks the runs, :func:`compare_runs` compares every run with the first on the
benchmark's paired keys through :func:`compare_units` (:func:`mmjudge.estimates.comparison_methods`: the
paired cluster bootstrap from ``RANDOMISATION_BELOW`` (100) independent clusters on; below, the paired sign-flip
test and the interval that inverts it; McNemar's exact test) and Holm-corrects them
(:func:`adjust`); :func:`write_comparison` writes the files.

``compare.json`` (strict JSON, NaN as ``null``)::

    {"compare_version": 1, "benchmark": "<id>", "dataset_hash": "...",
     "runs": [{"label", "judge", "path"}, ...],           # the first is the baseline
     "n_resamples", "seed", "confidence", "correction": "holm", "skipped": [...],
     "comparisons": [{"key", "a", "b", "value_a", "value_b", "difference", "ci_low", "ci_high",
                      "p_value", "p_adjusted", "p_floor", "n_units", "n_clusters", "n_valid",
                      "higher_is_better", "significant", "method", "note",
                      "mcnemar": null | {"both", "only_a", "only_b", "neither", "p_value", "p_adjusted"}}]}

``difference`` is ``a - b`` with ``b`` the baseline (the first run). ``n_clusters`` counts the independent
clusters that carry the key; ``method`` says how ``ci_*`` and ``p_value`` were made: from
``RANDOMISATION_BELOW`` (100) clusters on, the paired cluster-bootstrap percentile interval and the bootstrap's
two-sided p-value; from ``MIN_CLUSTERS`` (5) to 99, the paired sign-flip test over clusters (exact when at most
16 clusters differ, Monte Carlo with ``n_resamples`` flips otherwise) and the interval of the differences it
does not reject (so it holds 0 exactly when ``p >= 1 - confidence``; none where no test at that size can reach
it); below 5, neither. ``p_floor`` is the smallest p-value that test can give (``2 / 2^clusters`` for the exact sign-flip
test); ``p_adjusted`` is the Holm-corrected p-value over the file's comparisons and ``significant`` whether
``p_adjusted < 1 - confidence`` by a test whose ``p_floor`` is below it. ``n_valid`` counts the resamples, or
flips, on which the difference is defined. ``mcnemar`` (keys that are rates of per-unit 0/1 outcomes) counts
the units both runs count as hits, only ``a``, only ``b`` and neither, with the exact p-value and its Holm
correction over the file's McNemar tests. ``note`` says why a number is missing, that the interval is thin
(:func:`mmjudge.estimates.thin_note`), or that no test at this size can reach ``p < 1 - confidence``.

>>> from mmjudge.comparison import CORRECTION
>>> CORRECTION
'holm'
"""

from mmjudge.comparison._compare import COMPARE_VERSION, Comparison, compare_runs
from mmjudge.comparison._core import CORRECTION, FEW_CLUSTERS, KeyComparison, McNemar, adjust, compare_units
from mmjudge.comparison._runs import Run, RunSet, load_runs
from mmjudge.comparison._write import comparison_record, format_difference, summary_lines, write_comparison

__all__ = [
    "COMPARE_VERSION",
    "CORRECTION",
    "FEW_CLUSTERS",
    "Comparison",
    "KeyComparison",
    "McNemar",
    "Run",
    "RunSet",
    "adjust",
    "compare_runs",
    "compare_units",
    "comparison_record",
    "format_difference",
    "load_runs",
    "summary_lines",
    "write_comparison",
]
