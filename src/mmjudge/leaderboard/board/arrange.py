"""The rows of a shown table as the page's two table controls leave them: a column sort and the filter box.

Both are answered here, on the server, so that the table and the figure show the same rows in the same
order. **Sort** (:func:`arrange`): the rows by the chosen column's raw value (text without regard to case;
empty cells last in either direction; equal values keep their rank order), the ranked rows first and the
rows without a rank (baselines, flagged rows, rows without a headline) below them, sorted the same way,
so a weight-free baseline never sits above a published row. **Filter** (:func:`matching`): the rows the
table's filter box keeps; the rule is the browser's (gradio 6.31's ``gr.Dataframe``, TanStack Table's
``includesString`` global filter): a row is kept when one of its cells, raw value as text, contains the
filter text without regard to case; only columns whose first row holds a value are searched.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from mmjudge.leaderboard.board.grid import Cell, Role, Table, TableColumn

__all__ = ["Order", "arrange", "cell_text", "matching", "parse_order"]


class Order(NamedTuple):
    """A column sort chosen on the page."""

    column: str
    """The title of the column sorted by."""
    descending: bool
    """Largest (or last in alphabetical order) first."""


def parse_order(text: str | None) -> Order | None:
    """The sort the page's hidden order field holds (``{"column": ..., "descending": ...}``), or ``None``.

    >>> parse_order('{"column": "Average", "descending": true}')
    Order(column='Average', descending=True)
    >>> parse_order(""), parse_order("not json"), parse_order('{"descending": true}')
    (None, None, None)
    """
    try:
        chosen = json.loads(text or "null")
    except ValueError:
        return None
    if not isinstance(chosen, dict) or not isinstance(chosen.get("column"), str):
        return None
    return Order(chosen["column"], bool(chosen.get("descending")))


def arrange(table: Table, order: Order | None) -> Table:
    """``table`` sorted as the module docstring says (unchanged without an order or with an unknown column).

    >>> t = _example(["Rank", "Judge"], [[1, "b"], [None, "A"], [2, "c"]])
    >>> [row[1] for row in arrange(t, Order("Judge", False)).values]
    ['b', 'c', 'A']
    """
    at = None if order is None else table.titled(order.column)  # the page names the column by its title
    if order is None or at is None:
        return table
    rank = [cell.value for cell in table.cells(Role.RANK)]
    keys = [_sortable(row[at].value) for row in table.rows]

    def placed(rows: list[int]) -> list[int]:
        present = [i for i in rows if keys[i] is not None]
        present.sort(key=lambda i: keys[i], reverse=order.descending)  # type: ignore[arg-type,return-value]
        return present + [i for i in rows if keys[i] is None]

    ranked = [i for i, r in enumerate(rank) if r is not None]
    unranked = [i for i, r in enumerate(rank) if r is None]
    return table.take(placed(ranked) + placed(unranked))


_EXAMPLE_COLUMNS = {
    "Rank": TableColumn("Rank", Role.RANK, "number"),
    "Judge": TableColumn("Judge", Role.JUDGE),
    "Average": TableColumn("Average", Role.SCORE, "number"),
}


def _example(headers: Sequence[str], values: list[list[Any]]) -> Table:
    """A table of the columns titled ``headers`` holding ``values``, each shown as its text (doctests)."""
    columns = tuple(_EXAMPLE_COLUMNS[h] for h in headers)
    return Table("b", columns, tuple(tuple(Cell(v, cell_text(v) or "") for v in row) for row in values))


def _sortable(value: Any) -> tuple[int, Any] | None:
    """A sort key comparable across a column (numbers before text), ``None`` for an empty cell."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, float(value))
    return (1, str(value).lower())


def cell_text(value: Any) -> str | None:
    """A raw cell as the browser's filter reads it (JavaScript's ``String(value)``), ``None`` when empty.

    >>> cell_text(50.0), cell_text(73.3333), cell_text(3), cell_text("GPT-4.1"), cell_text(None)
    ('50', '73.3333', '3', 'GPT-4.1', None)
    """
    if value is None:
        return None
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        return str(int(value)) if value.is_integer() and abs(value) < 1e21 else repr(value)
    return str(value)


def matching(table: Table, text: str | None) -> list[int]:
    """The rows of ``table`` (indices, in order) the table's filter box keeps for ``text`` (all when empty).

    >>> t = _example(["Judge", "Average"], [["GPT-4.1", 50.0], ["LiFT", 73.3]])
    >>> matching(t, "gpt"), matching(t, "73.3"), matching(t, "50.0"), matching(t, "")
    ([0], [1], [], [0, 1])
    """
    if not text:
        return list(range(len(table.rows)))
    needle = text.lower()
    first = table.rows[0] if table.rows else ()
    searched = [k for k, cell in enumerate(first) if cell_text(cell.value) is not None and not isinstance(cell.value, bool)]
    return [i for i, row in enumerate(table.rows)
            if any(needle in (cell_text(row[k].value) or "").lower() for k in searched)]  # fmt: skip
