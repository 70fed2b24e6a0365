"""EmoPrefer report: the 3 x 3 confusion matrix of the forward pairs (plot and table) and the scores table.

The matrix counts the official parser's reading of each forward prediction against the gold label
(:func:`mmjudge.benchmarks.emoprefer.parse_response`); a no-judgment reads as ``same``. The scorer
returns it as ``confusion/<gold>/<predicted>``; the plot and the table read those keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._figures import report_figure, save
from mmjudge.benchmarks._report_tables import BreakdownTable, TableRow, cells
from mmjudge.benchmarks.emoprefer.scoring import LABELS, parse_response

__all__ = ["confusion", "plot", "tables"]


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
    keys = [[f"confusion/{g}/{p}" for p in LABELS] for g in LABELS]
    # older result dicts lack the confusion keys: count from the records as the scorer does
    stored = all(isinstance(scores.get(k), int) for row in keys for k in row)
    matrix = [[int(scores[k]) for k in row] for row in keys] if stored else confusion(records, rows)
    fig, ax = report_figure(4.2, 3.6)
    ax.imshow(matrix, cmap="Blues")
    top = max(max(row) for row in matrix)
    for i, row in enumerate(matrix):
        for j, count in enumerate(row):
            # white on the dark cells of the Blues map, black on the light ones
            ax.text(j, i, str(count), ha="center", va="center", color="white" if count > top / 2 else "black")
    ax.set_xticks(range(3), LABELS)
    ax.set_yticks(range(3), LABELS)
    ax.set_xlabel("predicted (official parser)")
    ax.set_ylabel("gold")
    caption = (
        "Confusion matrix of the forward pairs; a no-judgment reads as `same`, as the official parser does."
    )
    return save(fig, folder / "emoprefer_confusion.png"), caption


def tables(scores: Mapping[str, Any]) -> tuple[BreakdownTable, ...]:
    """The paper's WAF/ACC table, swap consistency and the confusion matrix (result keys only).

    >>> [t.title for t in tables({})]
    ['WAF and accuracy (paper Table 2)', 'Swap consistency', 'Confusion matrix of the forward pairs']
    """
    return (
        BreakdownTable(
            "WAF and accuracy (paper Table 2)",
            ("label set", "WAF", "ACC", "n"),
            (
                TableRow("2-class (gold same dropped)", cells("waf_2class", "acc_2class", "n_2class")),
                TableRow("3-class (a1, a2, same)", cells("waf_3class", "acc_3class", "n_items")),
            ),
            "Weighted F1 and accuracy x100. 2-class: items whose gold label is same are dropped and a predicted "
            "same reads as a1.",
        ),
        BreakdownTable(
            "Swap consistency",
            ("measure", "value", "n"),
            (TableRow("same answer on the reversed pair", cells("swap_consistency", "n_items")),),
            "Percent of items whose answer on the pair with a1 and a2 swapped, mapped back, equals the "
            "forward answer; a dash when the run judged no reversed pairs (`--swap`).",
        ),
        BreakdownTable(
            "Confusion matrix of the forward pairs",
            ("gold \\ predicted", *LABELS),
            tuple(TableRow(g, cells(*(f"confusion/{g}/{p}" for p in LABELS))) for g in LABELS),
            "Counts of forward items by gold label (rows) and parsed prediction (columns); a no-judgment "
            "reads as same, as the official parser does.",
        ),
    )
