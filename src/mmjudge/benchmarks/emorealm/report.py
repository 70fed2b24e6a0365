"""EmoReAlM report plot: accuracy per task with its CI."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._figures import bars, report_figure, save
from mmjudge.benchmarks.emorealm.scoring import TASKS

__all__ = ["plot"]


def plot(
    folder: Path, scores: Mapping[str, Any], records: Sequence[Any], rows: Sequence[Any]
) -> tuple[Path, str]:
    """Draw ``emorealm_accuracy.png`` into ``folder``; returns its path and caption."""
    names = [t for t in TASKS if f"accuracy/{t}" in scores]
    fig, ax = report_figure()
    bars(ax, names, scores, "accuracy")
    ax.set_ylim(0, 105)
    ax.set_ylabel("accuracy (%)")
    caption = f"Accuracy per task with 95% Wilson intervals (mode `{scores.get('mode')}`, matcher `{scores.get('matcher')}`)."
    return save(fig, folder / "emorealm_accuracy.png"), caption
