"""MIST report plot: change rates per arm and the control, and the direction with its 50% chance line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._figures import errors, number, report_figure, save

__all__ = ["plot"]


def plot(
    folder: Path, scores: Mapping[str, Any], records: Sequence[Any], rows: Sequence[Any]
) -> tuple[Path, str]:
    """Draw ``mist_change_direction.png`` into ``folder``; returns its path and caption."""
    change = [
        k for k in scores if k.startswith("change_rate/") and not k.endswith(("/n", "_ci_low", "_ci_high"))
    ]
    direction = [k for k in ("direction/explicit", "direction/silent") if k in scores]
    fig, (left, right) = report_figure(9.0, 3.8, ncols=2, gridspec_kw={"width_ratios": [3, 1]})
    left.bar(range(len(change)), [number(scores[k]) for k in change], yerr=errors(scores, change), capsize=3,
             color="#4c72b0")  # fmt: skip
    left.set_xticks(
        range(len(change)),
        [k.removeprefix("change_rate/") for k in change],
        rotation=30,
        ha="right",
        fontsize=7,
    )
    left.set_ylim(0, 100)
    left.set_ylabel("change rate (%)")
    right.bar(range(len(direction)), [number(scores[k]) for k in direction], yerr=errors(scores, direction),
              capsize=3, color="#55a868")  # fmt: skip
    right.set_xticks(range(len(direction)), [k.removeprefix("direction/") for k in direction], fontsize=8)
    right.axhline(50.0, color="grey", linestyle="--", linewidth=1)
    right.set_ylim(0, 100)
    right.set_ylabel("toward the image's sense (%)")
    caption = (
        "Left: percent of cells whose label changes from text-only to an image (per arm) and in the "
        "control; right: among changed labels, the percent moving toward the sense the image depicts "
        "(dashed: chance). Bars: 95% Wilson intervals from the scorer."
    )
    return save(fig, folder / "mist_change_direction.png"), caption
