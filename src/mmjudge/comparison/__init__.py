"""Paired comparison of judges on the same items (``mmjudge compare``, the leaderboard's significance).

:func:`load_runs` reads and checks the runs, :func:`compare_runs` compares every run with the first on the
benchmark's paired keys through :func:`compare_units` (paired cluster bootstrap, McNemar's exact test) and
Holm-corrects them (:func:`adjust`); :func:`write_comparison` writes the files.

``compare.json`` (strict JSON, NaN as ``null``)::

    {"compare_version": 1, "benchmark": "<id>", "dataset_hash": "...",
     "runs": [{"label", "judge", "path"}, ...],           # the first is the baseline
     "n_resamples", "seed", "confidence", "correction": "holm", "skipped": [...],
     "comparisons": [{"key", "a", "b", "value_a", "value_b", "difference", "ci_low", "ci_high",
                      "p_value", "p_adjusted", "n_units", "n_clusters", "n_valid", "higher_is_better",
                      "significant", "note",
                      "mcnemar": null | {"both", "only_a", "only_b", "neither", "p_value", "p_adjusted"}}]}

``difference`` is ``a - b`` with ``b`` the baseline (the first run), ``ci_*`` the paired cluster-bootstrap
percentile interval, ``p_value`` its two-sided p-value, ``p_adjusted`` the Holm-corrected p-value over
the file's comparisons and ``significant`` whether ``p_adjusted < 1 - confidence``; ``n_valid`` counts the
resamples on which both statistics are defined. ``mcnemar`` (keys that are rates of per-unit 0/1 outcomes)
counts the units both runs count as hits, only ``a``, only ``b`` and neither, with the exact p-value and
its Holm correction over the file's McNemar tests. ``note`` says why a number is missing, or that there
are few clusters.

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
