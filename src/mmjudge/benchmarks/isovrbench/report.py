"""IsoVRBench report: accuracy per intervention (plot and tables) and what a frame-count sweep follows.

The tables follow the paper's Table 2 (accuracy, ties wrong) and Table 5 (decided pairs, tie rate) side
by side, one row per intervention, then the averages; a second table gives the per-dimension means. How each
interval was made is named from the scorer's records (:func:`mmjudge.estimates.interval_caption`), never here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._figures import bars, bars_caption, report_figure, save
from mmjudge.benchmarks._report_tables import BreakdownTable, Cell, SweepSeries, TableRow, cells, label
from mmjudge.benchmarks.isovrbench.scoring import DIMENSIONS, HUMAN_ACCURACY, INTERVENTIONS

__all__ = ["plot", "sweep_series", "tables"]

_DIMENSION = {iv: dim for dim, ivs in DIMENSIONS.items() for iv in ivs}
_COLUMNS = ("intervention", "dimension", "accuracy", "decided accuracy", "tie rate", "no-judgment rate", "n")


def plot(
    folder: Path, scores: Mapping[str, Any], records: Sequence[Any], rows: Sequence[Any]
) -> tuple[Path, str]:
    """Draw ``isovrbench_accuracy.png`` into ``folder``; returns its path and caption."""
    names = [n for n in INTERVENTIONS if f"accuracy/{n}" in scores]
    fig, ax = report_figure()
    bars(ax, names, scores, "accuracy")
    ax.scatter(
        range(len(names)),
        [HUMAN_ACCURACY[n] for n in names],
        color="#dd8452",
        marker="_",
        s=400,
        linewidths=3,
        label="humans (paper)",
        zorder=3,
    )
    ax.axhline(50.0, color="grey", linestyle="--", linewidth=1, label="chance")
    ax.set_ylim(0, 105)
    ax.set_ylabel("accuracy (%)")
    ax.legend(fontsize=7, loc="lower right")
    caption = (
        "Accuracy per intervention (ties and no-judgments count as wrong); dashed: chance (50%); orange: the "
        "paper's human accuracy." + bars_caption(scores, [f"accuracy/{n}" for n in names])
    )
    return save(fig, folder / "isovrbench_accuracy.png"), caption


def tables(scores: Mapping[str, Any]) -> tuple[BreakdownTable, ...]:
    """Per-intervention and per-dimension tables (result keys only; the report reads the values).

    >>> per_iv, per_dim = tables({"accuracy/frame_hold": 50.0})
    >>> [row.label for row in per_iv.rows]
    ['frame_hold', 'average']
    """
    names = [n for n in INTERVENTIONS if f"n/{n}" in scores or f"accuracy/{n}" in scores]
    rows = [TableRow(n, _intervention_cells(n)) for n in names]
    rows.append(
        TableRow(
            "average",
            (label("all"), *cells("average", "decided_average", "tie_rate", "no_judgment_rate", "n_pairs")),
        )
    )
    dims = [d for d in DIMENSIONS if f"dimension_accuracy/{d}" in scores]
    return (
        BreakdownTable(
            "Accuracy per intervention (paper Tables 2 and 5)",
            _COLUMNS,
            tuple(rows),
            "Percent. accuracy counts ties and no-judgments wrong; decided accuracy leaves them out. The average "
            "row holds the mean of the per-intervention accuracies (Table 2 'Avg.'), the mean decided "
            "accuracy (Table 5 'Avg.') and the pooled tie and no-judgment rates.",
        ),
        BreakdownTable(
            "Accuracy per dimension",
            ("dimension", "accuracy", "interventions"),
            tuple(
                TableRow(d, (*cells(f"dimension_accuracy/{d}"), label(", ".join(DIMENSIONS[d]))))
                for d in dims
            ),
            "Mean of the accuracies of the dimension's interventions.",
        ),
    )


def _intervention_cells(name: str) -> tuple[Cell, ...]:
    return label(_DIMENSION.get(name, "")), *cells(
        f"accuracy/{name}",
        f"decided_accuracy/{name}",
        f"tie_rate/{name}",
        f"no_judgment_rate/{name}",
        f"n/{name}",
    )


def sweep_series(scores: Mapping[str, Any]) -> tuple[SweepSeries, ...]:
    """A frame-count sweep follows each intervention's accuracy and the average (the paper's figure).

    >>> [(s.label, s.key, s.aggregate) for s in sweep_series({"accuracy/frame_hold": 50.0})]
    [('frame_hold', 'accuracy/frame_hold', False), ('average', 'average', True)]
    """
    names = [n for n in INTERVENTIONS if f"accuracy/{n}" in scores]
    return (
        *(SweepSeries(n, f"accuracy/{n}") for n in names),
        SweepSeries("average", "average", aggregate=True),
    )
