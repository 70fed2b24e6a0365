"""The prediction file: ``predictions.jsonl``, the leaderboard submission format (schema version 1).

One JSON object per line. The first line is the header, every other line one item's verdict::

    {"record": "header", "schema_version": 1, "benchmark": "<id>", "judge": "constant_letter",
     "fingerprint": "3f2a...", "mmjudge_version": "0.1.0", "provenance": {...}}
    {"record": "prediction", "id": "q_00000", "prediction": "A", "no_judgment": false}

Every record has ``id``, ``no_judgment`` and optional ``error``, ``diagnostics``; the verdict fields,
the key fields that place a record in the benchmark's grid and the id rule are the benchmark's
(``Benchmark.records``: :class:`~mmjudge.benchmarks.RecordSpec`); the README's table lists them. A
record whose id and key fields disagree is refused. Lines are split on ``\\n`` only (a JSON string
may hold U+2028 or U+0085, which ``str.splitlines`` would treat as line breaks).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmjudge._text import describe_char
from mmjudge.benchmarks import RecordSpec, benchmark_ids, get_benchmark
from mmjudge.errors import MissingFileError, SchemaError, summarize

__all__ = [
    "SCHEMA_VERSION",
    "PredictionFile",
    "PredictionHeader",
    "id_problem",
    "parse_predictions",
    "read_predictions",
    "record_id",
    "split_lines",
    "write_predictions",
]

SCHEMA_VERSION = 1
"""Version of the prediction-file schema this mmjudge reads and writes."""

MAX_DEPTH = 16
"""Deepest nesting of objects and lists accepted in one line (the writer's records nest 3 levels)."""


@dataclass(frozen=True)
class PredictionHeader:
    """The first record of a prediction file."""

    benchmark: str
    """Benchmark id the predictions are for."""
    judge: str
    """Judge name (registry name or display name from the config)."""
    fingerprint: str = ""
    """Hash of the resolved judge config and judge code version; identifies the results."""
    mmjudge_version: str = ""
    """mmjudge version that wrote the file."""
    schema_version: int = SCHEMA_VERSION
    """Prediction-file schema version."""
    provenance: dict[str, Any] = field(default_factory=dict)
    """Free-form provenance: model revision, dataset hash, seeds, frame settings, timings."""

    def to_record(self) -> dict[str, Any]:
        """The header as a JSON-able dict with ``record: "header"``."""
        return {
            "record": "header",
            "schema_version": self.schema_version,
            "benchmark": self.benchmark,
            "judge": self.judge,
            "fingerprint": self.fingerprint,
            "mmjudge_version": self.mmjudge_version,
            "provenance": self.provenance,
        }


@dataclass(frozen=True)
class PredictionFile:
    """A parsed, validated prediction file."""

    header: PredictionHeader
    """The header record."""
    records: list[dict[str, Any]]
    """Prediction records in file order, ids unique."""
    line_numbers: list[int] = field(default_factory=list)
    """Line of each record in the file (empty for a file built in code)."""

    def line_of(self, index: int) -> str:
        """``"line N"`` of record ``index``, or ``"record N"`` (1-based) when lines are unknown."""
        if index < len(self.line_numbers):
            return f"line {self.line_numbers[index]}"
        return f"record {index + 1}"


def write_predictions(
    path: str | Path, header: PredictionHeader, records: Iterable[Mapping[str, Any]]
) -> Path:
    """Write a prediction file atomically (temp file, fsync, rename).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "predictions.jsonl"
    >>> _ = write_predictions(p, PredictionHeader("bench", "j"), [{"id": "q1", "prediction": "A"}])
    >>> p.read_text().splitlines()[1]
    '{"record": "prediction", "id": "q1", "prediction": "A", "no_judgment": false}'
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        handle.write(json.dumps(header.to_record(), sort_keys=False, allow_nan=False) + "\n")
        for record in records:
            handle.write(json.dumps(_prediction_record(record), allow_nan=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    return path


def _prediction_record(record: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"record": "prediction", "id": record["id"]}
    out.update({k: v for k, v in record.items() if k not in ("record", "id")})
    out.setdefault("no_judgment", False)
    return out


def record_id(benchmark: str, record: Mapping[str, Any]) -> str | None:
    """The id a record of ``benchmark`` must carry, from its key fields (``None``: the id is the key);
    the rule is the benchmark's ``records.record_id``."""
    rule = _records(benchmark).record_id
    return None if rule is None else rule(record)


def _records(benchmark: str) -> RecordSpec:
    return get_benchmark(benchmark).records


def split_lines(text: str) -> list[str]:
    """Split JSON Lines text on ``\\n`` only (a trailing ``\\r`` is dropped from each line).

    ``str.splitlines`` also breaks at U+2028, U+0085 and other characters that a JSON string may hold
    unescaped, which would cut one record in two.

    >>> split_lines('{"a": "x\\u2028y"}\\r\\n{"b": 1}\\n')
    ['{"a": "x\\u2028y"}', '{"b": 1}', '']
    """
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def read_predictions(path: str | Path, *, benchmark: str | None = None) -> PredictionFile:
    """Read and validate a prediction file; every problem is reported with its line number.

    Args:
        path: the ``predictions.jsonl`` file.
        benchmark: when given, the header's benchmark must match.

    Raises:
        SchemaError: not UTF-8, not JSON lines, no header, another schema version or benchmark, an id
            twice, a missing or mistyped verdict field, a non-finite score (the first offending lines are
            listed).
    """
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:
        raise MissingFileError(
            f"prediction file {path} does not exist or is not a file: expected the predictions.jsonl "
            "that `mmjudge eval` wrote; check the path"
        ) from exc
    except UnicodeDecodeError as exc:
        raise SchemaError(
            f"{path}: expected UTF-8 text, got an undecodable byte at offset {exc.start}"
        ) from exc
    return parse_predictions(split_lines(text), source=str(path), benchmark=benchmark)


def parse_predictions(
    lines: Sequence[str], *, source: str = "<predictions>", benchmark: str | None = None
) -> PredictionFile:
    """Parse prediction lines (see :func:`read_predictions`; split text with :func:`split_lines`)."""
    rows = list(_json_lines(lines, source))
    if not rows or rows[0][1].get("record") != "header":
        raise SchemaError(f"{source}: expected a header record ({{'record': 'header', ...}}) on line 1")
    header = _header(rows[0][1], f"{source} line {rows[0][0]}", benchmark)
    problems: list[str] = []
    records: list[dict[str, Any]] = []
    line_numbers: list[int] = []
    seen: dict[str, int] = {}
    for lineno, record in rows[1:]:
        error = _record_problem(record, header.benchmark, seen, lineno)
        if error:
            problems.append(f"line {lineno}: {error}")
        else:
            seen[record["id"]] = lineno
            records.append(record)
            line_numbers.append(lineno)
    if problems:
        raise SchemaError(
            f"{source}: {len(problems)} invalid prediction records; first: {summarize(problems)}"
        )
    return PredictionFile(header, records, line_numbers)


def _json_lines(lines: Sequence[str], source: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SchemaError(
                f"{source} line {lineno}: expected one JSON object per line ({exc.msg})"
            ) from exc
        except (ValueError, RecursionError) as exc:  # over-long integers, nesting beyond the parser
            raise SchemaError(
                f"{source} line {lineno}: expected one JSON object per line of plain values, got "
                f"{_short_reason(exc)}"
            ) from None
        if not isinstance(value, dict):
            raise SchemaError(f"{source} line {lineno}: expected a JSON object, got {type(value).__name__}")
        problem = _value_problem(value)
        if problem:
            raise SchemaError(f"{source} line {lineno}: {problem}")
        yield lineno, value


def _short_reason(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nesting too deep to parse"
    text = str(exc)
    return "an integer with too many digits" if "integer string conversion" in text else text[:120]


def _value_problem(value: Any) -> str:
    """Nesting deeper than :data:`MAX_DEPTH`, or a string that is not valid Unicode (a lone surrogate)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, (dict, list)):
            if depth > MAX_DEPTH:
                return f"expected objects and lists nested at most {MAX_DEPTH} deep, got deeper nesting"
            children = list(current.items()) if isinstance(current, dict) else [(None, v) for v in current]
            for key, child in children:
                stack.append((child, depth + 1))
                if key is not None:
                    stack.append((key, depth))
        elif isinstance(current, str):
            bad = next((c for c in current if "\ud800" <= c <= "\udfff"), None)
            if bad is not None:
                return (
                    f"expected valid Unicode text, got a string holding {describe_char(bad)} "
                    f"({summarize([current[:40]], 1)}); write the text as UTF-8"
                )
    return ""


def _header(record: Mapping[str, Any], source: str, benchmark: str | None) -> PredictionHeader:
    version = record.get("schema_version")
    if type(version) is not int or version != SCHEMA_VERSION:
        raise SchemaError(
            f"{source}: schema_version {version!r} is not supported; this mmjudge reads version "
            f"{SCHEMA_VERSION} (the integer {SCHEMA_VERSION}, as `mmjudge eval` writes it)"
        )
    found = record.get("benchmark")
    if not isinstance(found, str) or found not in benchmark_ids():
        raise SchemaError(f"{source}: unknown benchmark {found!r} in the header; known: {sorted(benchmark_ids())}")
    if benchmark is not None and found != benchmark:
        raise SchemaError(f"{source}: the file holds {found!r} predictions, expected {benchmark!r}")
    judge = record.get("judge")
    if not isinstance(judge, str) or not judge:
        raise SchemaError(f"{source}: the header needs a non-empty string `judge`, got {judge!r}")
    for name in ("fingerprint", "mmjudge_version"):
        if not isinstance(record.get(name, ""), str):
            raise SchemaError(f"{source}: header field `{name}` must be a string, got {record[name]!r}")
    provenance = record.get("provenance")
    if provenance is not None and not isinstance(provenance, dict):
        raise SchemaError(
            f"{source}: header field `provenance` must be a JSON object (or absent), got "
            f"{type(provenance).__name__} {summarize([provenance], 1)}"
        )
    return PredictionHeader(
        benchmark=found,
        judge=judge,
        fingerprint=record.get("fingerprint", ""),
        mmjudge_version=record.get("mmjudge_version", ""),
        provenance=dict(provenance or {}),
    )


def _record_problem(record: dict[str, Any], benchmark: str, seen: Mapping[str, int], lineno: int) -> str:
    if record.get("record", "prediction") != "prediction":
        return f"expected record type 'prediction', got {record.get('record')!r}"
    item_id = record.get("id")
    if not isinstance(item_id, str) or not item_id:
        return f"expected a non-empty string `id`, got {item_id!r}"
    if item_id in seen:
        return f"id {item_id!r} already given on line {seen[item_id]}"
    no_judgment = record.setdefault("no_judgment", False)
    if not isinstance(no_judgment, bool):
        return f"`no_judgment` must be true or false, got {no_judgment!r}"
    spec = _records(benchmark)
    for name in spec.key_fields:
        if not isinstance(record.get(name), str) or not record[name]:
            return f"`{name}` must be a non-empty string, got {record.get(name)!r}"
    mismatch = id_problem(benchmark, record)
    if mismatch:
        return mismatch
    for name, kinds in spec.value_fields.items():
        value = record.get(name)
        if value is None and no_judgment:
            continue
        if isinstance(value, bool) or not isinstance(value, kinds):
            return f"`{name}` must be {_type_names(kinds)}, got {_short(value)}"
        if isinstance(value, (int, float)) and not _finite(value):
            return f"`{name}` must be finite, got {_short(value)}"
    record["record"] = "prediction"
    return ""


def id_problem(benchmark: str, record: Mapping[str, Any]) -> str:
    """Why a record's ``id`` disagrees with its key fields (``""`` when it agrees or has none), by the
    benchmark's ``records.check_record`` and ``records.record_id``."""
    spec = _records(benchmark)
    problem = spec.check_record(record) if spec.check_record is not None else ""
    if problem:
        return problem
    expected = None if spec.record_id is None else spec.record_id(record)
    if expected is None or record.get("id") == expected:
        return ""
    fields = ", ".join(f"{name} {record.get(name)!r}" for name in spec.key_fields)
    return f"id {record.get('id')!r} does not match the {spec.noun}: expected {expected!r} for {fields}"


def _finite(value: int | float) -> bool:
    try:
        return math.isfinite(float(value))
    except OverflowError:  # an integer beyond the float range
        return False


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:40]}... ({len(text)} characters)"


def _type_names(kinds: tuple[type, ...]) -> str:
    names = {int: "a number", float: "a number", str: "a string"}
    return " or ".join(sorted({names.get(k, k.__name__) for k in kinds}))
