"""IsoVRBench report plot: accuracy per intervention with its CI, the chance line and the paper's human row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._figures import bars, report_figure, save
from mmjudge.benchmarks.isovrbench.scoring import HUMAN_ACCURACY, INTERVENTIONS

__all__ = ["plot"]


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
        "Accuracy per intervention (ties and no-judgments count as wrong) with 95% Wilson intervals; "
        "dashed: chance (50%); orange: the paper's human accuracy."
    )
    return save(fig, folder / "isovrbench_accuracy.png"), caption
