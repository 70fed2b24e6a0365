"""The prediction file: ``predictions.jsonl``, the leaderboard submission format (schema version 1).

One JSON object per line. The first line is the header, every other line one item's verdict::

    {"record": "header", "schema_version": 1, "benchmark": "emorealm", "judge": "constant_letter",
     "fingerprint": "3f2a...", "mmjudge_version": "0.1.0", "provenance": {...}}
    {"record": "prediction", "id": "emorealm_00000", "prediction": "A", "no_judgment": false}

Verdict fields per benchmark (every record also has ``id``, ``no_judgment`` and optional ``error``,
``diagnostics``):

============  ==========================  =====================================================
benchmark     id                          verdict fields
============  ==========================  =====================================================
isovrbench    ``pair_id``                 ``score_chosen``, ``score_rejected`` (finite floats;
                                          null with ``no_judgment``)
mist          ``item::strategy::arm::cond``  ``item_id``, ``prompt_strategy``, ``arm``,
                                          ``image_condition``, ``label`` (FF/WF/FL/LL)
emoprefer     ``name`` or ``name::reversed``  ``name``, ``order`` (forward/reversed), ``prediction``
                                          (raw response or a1/a2/same)
emorealm      question ``id``             ``prediction`` (raw response text)
============  ==========================  =====================================================
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmjudge.errors import SchemaError, summarize

SCHEMA_VERSION = 1
"""Version of the prediction-file schema this mmjudge reads and writes."""

KEY_FIELDS: dict[str, tuple[str, ...]] = {
    "isovrbench": (),
    "mist": ("item_id", "prompt_strategy", "arm", "image_condition"),
    "emoprefer": ("name", "order"),
    "emorealm": (),
}
"""String fields that place a record in the benchmark's grid; always required."""

VALUE_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "isovrbench": {"score_chosen": (int, float), "score_rejected": (int, float)},
    "mist": {"label": (str,)},
    "emoprefer": {"prediction": (str,)},
    "emorealm": {"prediction": (str,)},
}
"""Verdict fields and their JSON types; null is allowed only when ``no_judgment`` is true."""


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


def write_predictions(
    path: str | Path, header: PredictionHeader, records: Iterable[Mapping[str, Any]]
) -> Path:
    """Write a prediction file atomically (temp file, fsync, rename).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "predictions.jsonl"
    >>> _ = write_predictions(p, PredictionHeader("emorealm", "j"), [{"id": "q1", "prediction": "A"}])
    >>> read_predictions(p).records
    [{'record': 'prediction', 'id': 'q1', 'prediction': 'A', 'no_judgment': False}]
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
    except UnicodeDecodeError as exc:
        raise SchemaError(
            f"{path}: expected UTF-8 text, got an undecodable byte at offset {exc.start}"
        ) from exc
    return parse_predictions(text.splitlines(), source=str(path), benchmark=benchmark)


def parse_predictions(
    lines: Sequence[str], *, source: str = "<predictions>", benchmark: str | None = None
) -> PredictionFile:
    """Parse prediction lines (see :func:`read_predictions`)."""
    rows = list(_json_lines(lines, source))
    if not rows or rows[0][1].get("record") != "header":
        raise SchemaError(f"{source}: expected a header record ({{'record': 'header', ...}}) on line 1")
    header = _header(rows[0][1], source, benchmark)
    problems: list[str] = []
    records: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for lineno, record in rows[1:]:
        error = _record_problem(record, header.benchmark, seen, lineno)
        if error:
            problems.append(f"line {lineno}: {error}")
        else:
            seen[record["id"]] = lineno
            records.append(record)
    if problems:
        raise SchemaError(
            f"{source}: {len(problems)} invalid prediction records; first: {summarize(problems)}"
        )
    return PredictionFile(header, records)


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
        if not isinstance(value, dict):
            raise SchemaError(f"{source} line {lineno}: expected a JSON object, got {type(value).__name__}")
        yield lineno, value


def _header(record: Mapping[str, Any], source: str, benchmark: str | None) -> PredictionHeader:
    version = record.get("schema_version")
    if version != SCHEMA_VERSION:
        raise SchemaError(
            f"{source}: schema_version {version!r} is not supported; this mmjudge reads version {SCHEMA_VERSION}"
        )
    found = record.get("benchmark")
    if found not in VALUE_FIELDS:
        raise SchemaError(
            f"{source}: unknown benchmark {found!r} in the header; known: {sorted(VALUE_FIELDS)}"
        )
    if benchmark is not None and found != benchmark:
        raise SchemaError(f"{source}: the file holds {found!r} predictions, expected {benchmark!r}")
    judge = record.get("judge")
    if not isinstance(judge, str) or not judge:
        raise SchemaError(f"{source}: the header needs a non-empty string `judge`, got {judge!r}")
    return PredictionHeader(
        benchmark=found,
        judge=judge,
        fingerprint=str(record.get("fingerprint", "")),
        mmjudge_version=str(record.get("mmjudge_version", "")),
        provenance=dict(record.get("provenance") or {}),
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
    for name in KEY_FIELDS[benchmark]:
        if not isinstance(record.get(name), str) or not record[name]:
            return f"`{name}` must be a non-empty string, got {record.get(name)!r}"
    for name, kinds in VALUE_FIELDS[benchmark].items():
        value = record.get(name)
        if value is None and no_judgment:
            continue
        if isinstance(value, bool) or not isinstance(value, kinds):
            return f"`{name}` must be {_type_names(kinds)}, got {value!r}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"`{name}` must be finite, got {value!r}"
    record["record"] = "prediction"
    return ""


def _type_names(kinds: tuple[type, ...]) -> str:
    names = {int: "a number", float: "a number", str: "a string"}
    return " or ".join(sorted({names.get(k, k.__name__) for k in kinds}))
