"""Reading raw release files strictly: UTF-8, non-empty, required columns, unique ids, known labels.

Every failure is a :class:`~mmjudge.errors.SchemaError` naming the file, the row (or id) and the
column, what was expected and what arrived. Rows are counted from 1 and exclude a CSV header: row 1
is the first data line of a CSV, the first item of a JSON list, the first line of a JSON Lines file.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from mmjudge.errors import SchemaError, summarize

__all__ = [
    "check_allowed",
    "check_unique",
    "check_utf8",
    "csv_header",
    "iter_csv_batches",
    "read_csv_strings",
    "read_json_list",
    "read_json_object",
    "require_columns",
    "schema_error",
]


def schema_error(
    file: str | Path, *, expected: str, got: str, row: object = None, column: str | None = None, fix: str = ""
) -> SchemaError:
    """A SchemaError whose message names the file, row and column.

    >>> str(schema_error("a.csv", row=3, column="preference", expected="one of a1, a2, same", got="'b'"))
    "a.csv, row 3, column 'preference': expected one of a1, a2, same, got 'b'"
    """
    where = [str(file)]
    if row is not None:
        where.append(f"row {row}")
    if column is not None:
        where.append(f"column {column!r}")
    message = f"{', '.join(where)}: expected {expected}, got {got}"
    return SchemaError(f"{message}. {fix}" if fix else message)


def check_utf8(path: Path, *, header_lines: int = 1) -> None:
    """Refuse a file that is empty or not UTF-8; the error names the data row (1-based).

    ``header_lines`` lines are not counted as rows (1 for CSV, 0 for JSON Lines).
    """
    if path.stat().st_size == 0:
        raise schema_error(path, expected="a non-empty file", got="0 bytes")
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as exc:
                bad = line[max(exc.start - 10, 0) : exc.end + 10]
                row = number - header_lines if number > header_lines else "header"
                raise schema_error(
                    path,
                    row=row,
                    expected="UTF-8 text",
                    got=f"bytes {bad!r} (line {number}, byte {exc.start})",
                    fix="Re-save the file as UTF-8.",
                ) from None


def csv_header(path: Path) -> list[str]:
    """The column names of a CSV file (after checking it is UTF-8 and non-empty)."""
    check_utf8(path)
    with path.open(encoding="utf-8", newline="") as handle:
        header = next(csv.reader(handle), [])
    header = [h.strip().lstrip("\ufeff") for h in header]
    if not any(header):
        raise schema_error(path, expected="a header line with column names", got="an empty first line")
    dupes = sorted({h for h in header if header.count(h) > 1})
    if dupes:
        raise schema_error(path, expected="distinct column names", got=f"duplicates {dupes}")
    return header


def require_columns(path: Path | str, columns: Collection[str], required: Iterable[str]) -> None:
    """Refuse a table that lacks a required column."""
    missing = [c for c in required if c not in columns]
    if missing:
        raise schema_error(
            path,
            column=missing[0],
            expected=f"columns {list(required)}",
            got=f"columns {list(columns)} (missing {missing})",
        )


def _csv_options(header: Sequence[str]) -> tuple[Any, Any]:
    import pyarrow.csv as pacsv

    read = pacsv.ReadOptions(column_names=list(header), skip_rows=1, block_size=1 << 20)
    convert = pacsv.ConvertOptions(
        column_types={c: pa.string() for c in header},
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    return read, convert


def read_csv_strings(path: Path, *, required: Iterable[str] = ()) -> pa.Table:
    """Read a CSV with every column as text (no type guessing: ``007`` stays ``"007"``).

    Raises:
        SchemaError: empty file, non-UTF-8 bytes, header only, missing required columns, ragged rows.
    """
    import pyarrow.csv as pacsv

    header = csv_header(path)
    require_columns(path, header, required)
    read, convert = _csv_options(header)
    try:
        table = pacsv.read_csv(path, read_options=read, convert_options=convert)
    except pa.ArrowInvalid as exc:
        raise _parse_error(path, header, exc) from None
    if table.num_rows == 0:
        raise schema_error(path, expected="at least one data row", got="only the header")
    return table


def iter_csv_batches(path: Path, header: Sequence[str]) -> Iterator[pa.RecordBatch]:
    """Stream a CSV (already checked with :func:`csv_header`) as all-text record batches."""
    import pyarrow.csv as pacsv

    read, convert = _csv_options(header)
    try:
        with pacsv.open_csv(path, read_options=read, convert_options=convert) as reader:
            yield from reader
    except pa.ArrowInvalid as exc:
        raise _parse_error(path, header, exc) from None


def _parse_error(path: Path, header: Sequence[str], exc: Exception) -> SchemaError:
    """The CSV parse error with the row (and line) and column of the first ragged row, when there is one.

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "t.csv"; _ = p.write_text("a,b\\n1,2\\n3,4,5\\n")
    >>> print(str(_parse_error(p, ["a", "b"], ValueError("parse error"))).split(", ", 1)[1])
    row 2 (line 3): expected 2 comma-separated fields per row (a, b), got 3 fields: field 3 has no column
    """
    expected = f"{len(header)} comma-separated fields per row ({', '.join(header)})"
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        next(reader, None)
        row = 0
        for fields in reader:
            if not fields:  # a blank line, skipped by the reader as by pyarrow
                continue
            row += 1
            if len(fields) != len(header):
                where = f"{row} (line {reader.line_num})"
                if len(fields) > len(header):
                    got = f"{len(fields)} fields: field {len(header) + 1} has no column"
                    return schema_error(path, row=where, expected=expected, got=got)
                got = f"{len(fields)} fields: no value for {header[len(fields)]!r}"
                return schema_error(path, row=where, column=header[len(fields)], expected=expected, got=got)
    return schema_error(path, expected=expected, got=str(exc))


def _read_json(path: Path) -> Any:
    """The JSON value of a UTF-8 file (a message names the file and where the JSON breaks)."""
    check_utf8(path, header_lines=0)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise schema_error(
            path, expected="valid JSON", got=f"{exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None


def read_json_object(path: Path, *, expected: str = "JSON object") -> dict[str, Any]:
    """Read a JSON file holding a non-empty object (``expected`` says what it should map, for the message)."""
    data = _read_json(path)
    if not isinstance(data, dict) or not data:
        got = "an empty object" if isinstance(data, dict) else type(data).__name__
        raise schema_error(path, expected=f"a non-empty {expected}", got=got)
    return data


def read_json_list(path: Path) -> list[dict[str, Any]]:
    """Read a JSON file holding a non-empty list of objects."""
    data = _read_json(path)
    if not isinstance(data, list):
        raise schema_error(path, expected="a JSON list of objects at the top level", got=type(data).__name__)
    if not data:
        raise schema_error(path, expected="at least one item", got="an empty list")
    for index, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            raise schema_error(
                path, row=index, expected="a JSON object", got=f"{type(item).__name__} {summarize([item])}"
            )
    return data


def check_unique(path: Path | str, column: str, values: Sequence[Any]) -> None:
    """Refuse repeated ids; the message names the first repeated values and their rows."""
    seen: dict[Any, int] = {}
    for row, value in enumerate(values, start=1):
        if value in seen:
            raise schema_error(
                path,
                row=row,
                column=column,
                expected="unique ids",
                got=f"{value!r} again (first at row {seen[value]})",
            )
        seen[value] = row


def check_allowed(
    path: Path | str,
    column: str,
    values: Sequence[Any],
    allowed: Collection[Any],
    ids: Sequence[Any] | None = None,
) -> None:
    """Refuse a value outside ``allowed``; the message names the first bad row (or id)."""
    for row, value in enumerate(values, start=1):
        if value not in allowed:
            where = f"{row} (id {ids[row - 1]!r})" if ids is not None else row
            raise schema_error(
                path, row=where, column=column, expected=f"one of {sorted(allowed, key=str)}", got=repr(value)
            )
