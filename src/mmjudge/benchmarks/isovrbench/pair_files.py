"""Reading IsoVRBench pair tables in chunks: CSV, parquet or JSON Lines, one file per split.

Chunks are ``(first_row, {column: python values})`` with rows counted from 1 (CSV header excluded,
JSON Lines by line), so every error can name its row. Nothing here holds a whole file in memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa

from mmjudge.data.strict_read import check_utf8, csv_header, iter_csv_batches, schema_error
from mmjudge.errors import ConfigError

__all__ = ["CHUNK_ROWS", "SplitFile", "columns_of", "find_split_files", "iter_chunks"]

CHUNK_ROWS = 8_192
"""Rows per chunk for parquet and JSON Lines (CSV chunks follow pyarrow's 1 MiB blocks)."""
SUFFIXES = (".csv", ".parquet", ".jsonl")
SPLIT_NAMES = ("test", "train", "validation")


class SplitFile(NamedTuple):
    """One split's source file."""

    split: str
    """``test``, ``train`` or ``validation``."""
    path: Path
    """The file."""


def find_split_files(source: Path, *, split: str = "test") -> list[SplitFile]:
    """A file is one split (``split``); a folder holds ``{test,train,validation}.{csv,parquet,jsonl}``.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp()); _ = (d / "test.csv").write_text("x"); _ = (d / "train.jsonl").write_text("x")
    >>> [(f.split, f.path.name) for f in find_split_files(d)]
    [('test', 'test.csv'), ('train', 'train.jsonl')]
    """
    if source.is_file():
        if source.suffix not in SUFFIXES:
            raise ConfigError(f"{source}: expected a {'/'.join(SUFFIXES)} pair table, got {source.suffix!r}")
        return [SplitFile(split, source)]
    found: list[SplitFile] = []
    for name in SPLIT_NAMES:
        files = [source / f"{name}{suffix}" for suffix in SUFFIXES if (source / f"{name}{suffix}").is_file()]
        if len(files) > 1:
            raise ConfigError(
                f"{source}: split {name!r} has several files {[f.name for f in files]}; keep one"
            )
        found.extend(SplitFile(name, f) for f in files)
    if not found:
        present = sorted(p.name for p in source.iterdir())[:10]
        raise ConfigError(
            f"{source}: expected pair tables named {{test,train,validation}}.{{csv,parquet,jsonl}}, found {present}"
        )
    return found


def columns_of(path: Path) -> list[str]:
    """Column names, read from the header (CSV), the schema (parquet) or the first line (JSON Lines)."""
    if path.suffix == ".csv":
        return csv_header(path)
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        if path.stat().st_size == 0:
            raise schema_error(path, expected="a non-empty file", got="0 bytes")
        try:
            return list(pq.read_schema(path).names)
        except pa.ArrowInvalid as exc:
            raise schema_error(path, expected="a parquet file", got=str(exc)) from None
    check_utf8(path, header_lines=0)
    with path.open(encoding="utf-8") as handle:
        first = next((line for line in handle if line.strip()), None)
    if first is None:
        raise schema_error(path, expected="at least one JSON object line", got="only blank lines")
    record = _json_line(path, 1, first)
    return list(record)


def iter_chunks(path: Path, columns: list[str]) -> Iterator[tuple[int, dict[str, list[Any]]]]:
    """Yield ``(first_row, columns)`` chunks of the file; raises SchemaError on an empty table."""
    chunks = {".csv": _csv_chunks, ".parquet": _parquet_chunks, ".jsonl": _jsonl_chunks}[path.suffix]
    rows = 0
    for chunk in chunks(path, columns):
        size = len(next(iter(chunk.values())))
        if size:
            yield rows + 1, chunk
            rows += size
    if rows == 0:
        raise schema_error(path, expected="at least one row", got="no rows")


def _csv_chunks(path: Path, columns: list[str]) -> Iterator[dict[str, list[Any]]]:
    for batch in iter_csv_batches(path, columns):
        yield {name: batch.column(i).to_pylist() for i, name in enumerate(batch.schema.names)}


def _parquet_chunks(path: Path, columns: list[str]) -> Iterator[dict[str, list[Any]]]:
    import pyarrow.parquet as pq

    for batch in pq.ParquetFile(path).iter_batches(batch_size=CHUNK_ROWS):
        yield {name: batch.column(name).to_pylist() for name in columns}


def _jsonl_chunks(path: Path, columns: list[str]) -> Iterator[dict[str, list[Any]]]:
    chunk: dict[str, list[Any]] = {c: [] for c in columns}
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            record = _json_line(path, number, line)
            unknown = [k for k in record if k not in chunk]
            if unknown:
                raise schema_error(
                    path,
                    row=number,
                    column=unknown[0],
                    expected=f"the columns of line 1 {columns}",
                    got=f"{unknown}",
                )
            for column, values in chunk.items():
                values.append(record.get(column))
            if len(chunk[columns[0]]) >= CHUNK_ROWS:
                yield chunk
                chunk = {c: [] for c in columns}
    yield chunk


def _json_line(path: Path, number: int, line: str) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise schema_error(path, row=number, expected="one JSON object per line", got=exc.msg) from None
    if not isinstance(record, dict):
        raise schema_error(path, row=number, expected="a JSON object", got=type(record).__name__)
    return record
