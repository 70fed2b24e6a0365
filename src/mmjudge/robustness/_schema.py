"""``robustness.json``: the versioned report of ``mmjudge robustness``, its one writer and its validator.

One JSON object (strict JSON: NaN and infinities become ``null``)::

    {"schema_version": 1, "benchmark": "<id>", "judge": "<name>", "fingerprint": "...",
     "mmjudge_version": "...", "dataset": {"folder": ..., "hash": ...}, "seed": 0,
     "base": {"items": n, "judged": k, "cached": c},        # the benchmark's own items
     "headline": {...},                                      # the benchmark's headline scores
     "estimates": {"<key>": {...}, ...},   # each headline score's interval as results.json records it
                                           # (mmjudge.estimates.Estimate; optional: absent in older reports)
     "probes": [{"name", "title", "description", "status": "ran" | "skipped", "reason",
                 "effects": [{"name", "value", "unit", "n", "description", "ci_low", "ci_high",
                              "interval", "p_value", "note"}, ...],
                 "details": {...},
                 "variants": [{"item_id", "source", "change"}, ...],   # how each probe item was derived
                 "cost": {"items": n, "judged": k, "cached": c}}, ...],   # items asked; verdicts
                                                                        # judged / from the cache (item x frame count)
     "summary": {"<probe>/<effect>": value, "<probe>/<effect>_ci_low": ..., ...}}   # each probe's headline

:func:`validate_report` checks a loaded object against this layout (:data:`SCHEMA`, a JSON Schema
document published beside it) and names every problem; :func:`write_report_json` validates before it
writes, and :func:`read_report` validates what it reads.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mmjudge.errors import SchemaError
from mmjudge.estimates import with_interval

__all__ = ["SCHEMA", "SCHEMA_VERSION", "read_report", "summary_of", "validate_report", "write_report_json"]

SCHEMA_VERSION = 1
"""Version of the ``robustness.json`` layout; a change to the layout bumps it."""

_NUM = {"type": ["number", "null"]}
_COUNT = {"type": "integer", "minimum": 0}
_COST = {
    "type": "object",
    "required": ["items", "judged", "cached"],
    "properties": {"items": _COUNT, "judged": _COUNT, "cached": _COUNT},
}
_EFFECT = {
    "type": "object",
    "required": ["name", "value", "unit", "n", "description", "ci_low", "ci_high", "interval", "p_value", "note"],
    "properties": {
        "name": {"type": "string"},
        "value": _NUM,
        "unit": {"type": "string", "enum": ["%", "points", "score", ""]},
        "n": _COUNT,
        "description": {"type": "string"},
        "ci_low": _NUM,
        "ci_high": _NUM,
        "interval": {"type": "string"},
        "p_value": _NUM,
        "note": {"type": "string"},
    },
}
_PROBE = {
    "type": "object",
    "required": ["name", "title", "description", "status", "reason", "effects", "details", "variants", "cost"],
    "properties": {
        "name": {"type": "string"},
        "title": {"type": "string"},
        "description": {"type": "string"},
        "status": {"type": "string", "enum": ["ran", "skipped"]},
        "reason": {"type": "string"},
        "effects": {"type": "array", "items": _EFFECT},
        "details": {"type": "object"},
        "variants": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["item_id", "source", "change"],
                "properties": {"item_id": {"type": "string"}, "source": {"type": "string"}, "change": {"type": "object"}},
            },
        },
        "cost": _COST,
    },
}
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "mmjudge robustness report",
    "type": "object",
    "required": [
        "schema_version", "benchmark", "judge", "fingerprint", "mmjudge_version", "dataset", "seed", "base",
        "headline", "probes", "summary",
    ],
    "properties": {
        "schema_version": {"type": "integer", "const": SCHEMA_VERSION},
        "benchmark": {"type": "string"},
        "judge": {"type": "string"},
        "fingerprint": {"type": "string"},
        "mmjudge_version": {"type": "string"},
        "dataset": {"type": "object"},
        "seed": {"type": "integer"},
        "base": _COST,
        "headline": {"type": "object"},
        "estimates": {"type": "object", "additionalProperties": {"type": "object"}},
        "probes": {"type": "array", "items": _PROBE},
        "summary": {"type": "object", "additionalProperties": _NUM},
    },
}  # fmt: skip
"""The layout as a JSON Schema (draft 2020-12) document, for other tools; :func:`validate_report`
checks the same rules without a JSON Schema library."""

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "null": (type(None),),
    "object": (dict,),
    "array": (list,),
}


def _problems(value: Any, schema: Mapping[str, Any], where: str) -> list[str]:
    """Every way ``value`` breaks ``schema`` (the subset of JSON Schema :data:`SCHEMA` uses)."""
    kinds = schema.get("type")
    if kinds is not None:
        allowed = [kinds] if isinstance(kinds, str) else list(kinds)
        ok = any(isinstance(value, _TYPES[k]) and not (isinstance(value, bool) and k != "boolean") for k in allowed)
        if not ok:
            return [f"{where}: expected {' or '.join(allowed)}, got {type(value).__name__} {value!r:.60}"]
    if isinstance(value, float) and not math.isfinite(value):
        return [f"{where}: expected a finite number or null, got {value!r}"]
    out: list[str] = []
    if "const" in schema and value != schema["const"]:
        out.append(f"{where}: expected {schema['const']!r}, got {value!r}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{where}: expected one of {schema['enum']}, got {value!r}")
    if "minimum" in schema and value < schema["minimum"]:
        out.append(f"{where}: expected >= {schema['minimum']}, got {value!r}")
    if isinstance(value, dict):
        out += [f"{where}: missing key {key!r}" for key in schema.get("required", ()) if key not in value]
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                out += _problems(value[key], sub, f"{where}.{key}")
        if "additionalProperties" in schema:
            for key, item in value.items():
                out += _problems(item, schema["additionalProperties"], f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for k, item in enumerate(value):
            out += _problems(item, schema["items"], f"{where}[{k}]")
    return out


def validate_report(data: Any) -> None:
    """Raise ``SchemaError`` naming every problem when ``data`` is not a valid ``robustness.json`` object.

    >>> validate_report({"schema_version": 1})
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: not a valid robustness report (schema_version 1): report: missing key 'benchmark'; ...
    """
    problems = _problems(data, SCHEMA, "report")
    if problems:
        shown = "; ".join(problems[:5]) + ("; ..." if len(problems) > 1 else "")
        raise SchemaError(
            f"not a valid robustness report (schema_version {SCHEMA_VERSION}): {shown} "
            f"({len(problems)} problem(s)); write it with mmjudge.robustness.write_report_json, "
            "or rerun `mmjudge robustness`"
        )


def summary_of(probes: list[dict[str, Any]]) -> dict[str, float | None]:
    """The leaderboard-ready summary: each run probe's headline (its first effect) as ``<probe>/<effect>``,
    with ``_ci_low``/``_ci_high`` when it has an interval (every effect stays in ``probes``).

    >>> summary_of([{"name": "swap", "status": "ran", "effects": [
    ...     {"name": "swap_consistency", "value": 0.0, "ci_low": 0.0, "ci_high": 39.0}, {"name": "x", "value": 1}]}])
    {'swap/swap_consistency': 0.0, 'swap/swap_consistency_ci_low': 0.0, 'swap/swap_consistency_ci_high': 39.0}
    """
    out: dict[str, float | None] = {}
    for probe in probes:
        if probe["status"] != "ran" or not probe["effects"]:
            continue
        effect = probe["effects"][0]
        key = f"{probe['name']}/{effect['name']}"
        out.update(with_interval(key, effect["value"], effect.get("ci_low"), effect.get("ci_high")))
    return out


def _strict(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):  # numpy scalars
        return _strict(value.item())
    return value


def write_report_json(path: str | Path, report: Mapping[str, Any]) -> Path:
    """Validate ``report`` and write it as strict JSON (NaN and infinities as ``null``)."""
    data = _strict(dict(report))
    validate_report(data)
    path = Path(path)
    path.write_text(json.dumps(data, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    return path


def read_report(path: str | Path) -> dict[str, Any]:
    """Read and validate a ``robustness.json``."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SchemaError(f"cannot read robustness report {path}: {exc}; expected the JSON `mmjudge robustness` writes") from exc
    validate_report(data)
    return dict(data)
