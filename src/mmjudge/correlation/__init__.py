"""Do rankings on one benchmark predict rankings on another? (``mmjudge correlate``)

The IsoVRBench paper's comparison with published benchmarks (Appendices K, M, N: Tables 14 and 15, Figure 3) as a
declared analysis (:func:`load_analysis`): :func:`correlate` reads the paper's numbers, or the ``results.json`` files
of ``mmjudge eval`` where they hold a column's benchmark, and computes

- Table 14: each published benchmark's reported number beside the target's per-intervention columns;
- Table 15: Spearman's ρ of every published column with every target column over the judges, with the exact
  permutation p-value (all ``n!`` pairings) and a bootstrap-over-judges percentile interval
  (:mod:`mmjudge.correlation._stats` says how each is made and when a number is withheld);
- Appendix K: Pearson's r of the target's generator-substitution mean with its frame-reuse accuracies, over all
  the target's judges and without one (LiFT);

and :func:`write_correlations` writes ``correlate.md``, ``correlate.json`` and the scatter plots ``correlate.png``.
"""

from mmjudge.correlation._correlate import ALPHA, Cell, Correlations, LinearCell, correlate
from mmjudge.correlation._data import ANALYSES, Analysis, Column, load_analysis
from mmjudge.correlation._stats import Correlation, pearson, spearman
from mmjudge.correlation._write import (
    CORRELATE_VERSION,
    correlation_record,
    summary_lines,
    write_correlations,
)

__all__ = [
    "ALPHA",
    "ANALYSES",
    "CORRELATE_VERSION",
    "Analysis",
    "Cell",
    "Column",
    "Correlation",
    "Correlations",
    "LinearCell",
    "correlate",
    "correlation_record",
    "load_analysis",
    "pearson",
    "spearman",
    "summary_lines",
    "write_correlations",
]
