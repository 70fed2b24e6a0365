"""The board's table type: typed columns and rows of cells, each cell holding its raw value, its text and the
interval behind it. Sorting, filtering, column groups, plots and exports read columns by their :class:`Role`
(a column sort the page sends back names a title: :meth:`Table.titled`), and a row's cells move together, so
no view of a table can pair one row's value with another row's interval."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

__all__ = ["Cell", "Role", "Table", "TableColumn"]


class Role(Enum):
    """What a table column holds; the board's code finds a column by its role, never by its title."""

    RANK = "rank"
    JUDGE = "judge"
    SCORE = "score"
    """A value read from a result key (:class:`~mmjudge.benchmarks.Column`): a score, a count of the file, an
    effect of a robustness summary."""
    RANK_SET = "rank set"
    TEST = "test"
    TIER = "tier"
    SCORED_ON = "scored on"
    NOTE = "note"
    TYPE = "type"
    MODEL = "model"
    REVISION = "revision"
    WEIGHTS = "weights"
    SUBMITTER = "submitter"
    ID = "id"


@dataclass(frozen=True)
class Cell:
    """One cell: its raw value (a number or text as submitted: what sorting, filtering and exports read), the
    text shown, and the interval behind it."""

    value: Any
    text: str
    interval: tuple[float, float] | None = None
    """A score's stored 95% interval, or a rank set's first and last rank; ``None`` where there is none."""


@dataclass(frozen=True)
class TableColumn:
    """One column of a :class:`Table`."""

    header: str
    """Its title."""
    role: Role
    datatype: str = "str"
    """Gradio datatype (``number`` or ``str``; never ``html``/``markdown``)."""
    group: str = ""
    """Column group (``""``: always shown)."""
    bounds: bool = False
    """An export writes each cell's interval in two number columns after it (``<title> low``, ``<title> high``)."""
    exports_text: bool = False
    """An export writes the text shown (a rank set, sorted on the page by its first rank), not the raw value."""


@dataclass(frozen=True)
class Table:
    """A rendered table: typed columns and rows of cells, rows ranked by the ranking column."""

    benchmark: str
    """Benchmark id."""
    columns: tuple[TableColumn, ...]
    rows: tuple[tuple[Cell, ...], ...]
    """One cell per column in each row."""
    rank_column: int = 0
    """Index of the column the rows are ranked by (the view's :attr:`~mmjudge.benchmarks.View.rank_by` key)."""
    caption: str = ""
    """What the table's marks mean (``†``: thin intervals and rank sets), generated from the stored estimates'
    methods and cluster counts and the rank sets' method (Markdown; ``""`` when there is nothing to say)."""

    def __post_init__(self) -> None:
        width = len(self.columns)
        if any(len(row) != width for row in self.rows):
            raise ValueError(f"every row of a table holds one cell per column ({width})")

    def index(self, role: Role) -> int:
        """Index of the first column holding ``role``.

        Raises:
            KeyError: the table has no such column.
        """
        for k, col in enumerate(self.columns):
            if col.role is role:
                return k
        raise KeyError(f"the {self.benchmark} table has no {role.value} column")

    def cells(self, role: Role) -> list[Cell]:
        """The cells of the first column holding ``role``, in row order."""
        at = self.index(role)
        return [row[at] for row in self.rows]

    def titled(self, header: str) -> int | None:
        """Index of the column titled ``header`` (a title the page sends back: a column sort), else ``None``."""
        return next((k for k, col in enumerate(self.columns) if col.header == header), None)

    def column(self, header: str) -> list[Any]:
        """The raw values of the column titled ``header``, in row order."""
        at = self.titled(header)
        if at is None:
            raise KeyError(f"the {self.benchmark} table has no column titled {header!r}")
        return [row[at].value for row in self.rows]

    def take(self, rows: Sequence[int]) -> Table:
        """This table with only the rows at ``rows``, in that order."""
        return replace(self, rows=tuple(self.rows[i] for i in rows))

    def keep(self, columns: Sequence[int]) -> Table:
        """This table with only the columns at ``columns`` (which hold the ranking column), in that order."""
        return replace(self, columns=tuple(self.columns[k] for k in columns),
                       rows=tuple(tuple(row[k] for k in columns) for row in self.rows),
                       rank_column=list(columns).index(self.rank_column))  # fmt: skip

    @property
    def headers(self) -> list[str]:
        """Column titles."""
        return [col.header for col in self.columns]

    @property
    def values(self) -> list[list[Any]]:
        """Raw cell values, row by row."""
        return [[cell.value for cell in row] for row in self.rows]

    @property
    def display(self) -> list[list[str]]:
        """Shown text, row by row: ``"62.5 [48.1, 75.0]"`` (a number and its 95% CI), see :func:`_cell`."""
        return [[cell.text for cell in row] for row in self.rows]

    @property
    def datatypes(self) -> list[str]:
        """Gradio datatype of each column."""
        return [col.datatype for col in self.columns]

    @property
    def groups(self) -> list[str]:
        """Column group of each column."""
        return [col.group for col in self.columns]

    def frame(self) -> Any:
        """The raw values as a ``pandas.DataFrame``."""
        import pandas as pd

        return pd.DataFrame(self.values, columns=self.headers)

    def export_frame(self) -> Any:
        """The table for export: each score as a number, with its interval's ends in two number columns of
        their own after it (``<title> low``, ``<title> high``), text cells as submitted.

        >>> t = Table("b", (TableColumn("Judge", Role.JUDGE), TableColumn("Average", Role.SCORE, "number", bounds=True)),
        ...           ((Cell("j", "j"), Cell(50.0, "50.0 [40.0, 60.0]", (40.0, 60.0))),))
        >>> t.export_frame().to_dict("records")
        [{'Judge': 'j', 'Average': 50.0, 'Average low': 40.0, 'Average high': 60.0}]
        """
        import pandas as pd

        columns: dict[str, list[Any]] = {}
        for k, col in enumerate(self.columns):
            cells = [row[k] for row in self.rows]
            columns[col.header] = [c.text if col.exports_text else c.value for c in cells]
            if col.bounds:
                columns[f"{col.header} low"] = [None if c.interval is None else c.interval[0] for c in cells]
                columns[f"{col.header} high"] = [None if c.interval is None else c.interval[1] for c in cells]
        frame = pd.DataFrame(columns)
        # a column of whole numbers with gaps (an unranked row's rank) stays integer, not float with NaN
        for header, values in columns.items():
            if _whole(values):
                frame[header] = frame[header].astype("Int64")
        return frame

    def gradio_value(self) -> dict[str, Any]:
        """Value for ``gr.Dataframe``: raw data for sorting, display strings as metadata."""
        return {
            "headers": self.headers,
            "data": self.values,
            "metadata": {"display_value": self.display, "styling": None},
        }


def _whole(cells: Sequence[Any]) -> bool:
    """Whether ``cells`` are integers (bools aside), with at least one, and gaps (``None``) allowed.

    >>> _whole([1, None, 3]), _whole([1, 2.5]), _whole([None]), _whole([True])
    (True, False, False, False)
    """
    present = [c for c in cells if c is not None]
    return bool(present) and all(isinstance(c, int) and not isinstance(c, bool) for c in present)
