"""EmoPrefer report plot: the 3 x 3 confusion matrix of the forward pairs (gold rows, predicted columns).

The matrix counts the official parser's reading of each forward prediction against the gold label
(:func:`mmjudge.benchmarks.emoprefer.parse_response`); a no-judgment reads as ``same``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._figures import report_figure, save
from mmjudge.benchmarks.emoprefer.scoring import LABELS, parse_response

__all__ = ["confusion", "plot"]


def confusion(records: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]]) -> list[list[int]]:
    """Counts of (gold, parsed forward prediction) over a1/a2/same; a no-judgment reads as ``same``.

    >>> confusion([{"name": "x", "order": "forward", "prediction": "a2 is better"}],
    ...           [{"name": "x", "preference": "a1"}])
    [[0, 1, 0], [0, 0, 0], [0, 0, 0]]
    """
    forward = {str(r["name"]): r for r in records if r.get("order") == "forward"}
    matrix = [[0] * 3 for _ in LABELS]
    for row in rows:
        record = forward.get(str(row["name"]))
        if record is None:
            continue
        text = (
            "" if record.get("no_judgment") or record.get("prediction") is None else str(record["prediction"])
        )
        matrix[LABELS.index(str(row["preference"]))][LABELS.index(parse_response(text))] += 1
    return matrix


def plot(
    folder: Path, scores: Mapping[str, Any], records: Sequence[Any], rows: Sequence[Any]
) -> tuple[Path, str]:
    """Draw ``emoprefer_confusion.png`` into ``folder``; returns its path and caption."""
    matrix = confusion(records, rows)
    fig, ax = report_figure(4.2, 3.6)
    ax.imshow(matrix, cmap="Blues")
    for i, row in enumerate(matrix):
        for j, count in enumerate(row):
            ax.text(j, i, str(count), ha="center", va="center")
    ax.set_xticks(range(3), LABELS)
    ax.set_yticks(range(3), LABELS)
    ax.set_xlabel("predicted (official parser)")
    ax.set_ylabel("gold")
    caption = (
        "Confusion matrix of the forward pairs; a no-judgment reads as `same`, as the official parser does."
    )
    return save(fig, folder / "emoprefer_confusion.png"), caption
