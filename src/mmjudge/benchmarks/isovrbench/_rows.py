"""Turning chunks of an IsoVRBench pair table into output record batches (checked row by row).

The pair table names the preferred clip (``video_chosen``) and its counterpart (``video_rejected``). An A/B
table with human labels (VideoGen-RewardBench's layout) is not read here: that is the release format of
:mod:`mmjudge.benchmarks.videogen_rewardbench`, and :mod:`.build` refuses it.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa

from mmjudge.data.media_paths import validate_relpath
from mmjudge.data.strict_read import schema_error
from mmjudge.errors import SchemaError

__all__ = [
    "INTERVENTIONS",
    "NATIVE_REQUIRED",
    "OPTIONAL",
    "base_schema",
    "transform_chunk",
]

INTERVENTIONS: dict[str, str] = {
    "temporal_shuffle": "motion",
    "frame_hold": "motion",
    "motion_regen": "motion",
    "attribute_edit": "text",
    "reduced_steps": "visual",
    "i2v_continuation": "overall",
    "t2v_5b": "overall",
    "t2v_1_3b": "overall",
}
"""The eight interventions of IsoVRBench and the dimension each one probes."""
NATIVE_REQUIRED = ("pair_id", "prompt", "intervention", "video_chosen", "video_rejected")
OPTIONAL = (
    "dimension",
    "generator_chosen",
    "generator_rejected",
    "seed",
    "num_frames",
    "fps",
    "index_map",
    "synthetic",
)

ClipLookup = Callable[[str], "str | None"]
"""Relative clip path -> clip id (``None`` when the file is missing)."""


def base_schema(media_missing: bool) -> pa.Schema:
    """Output columns before the source's extra columns."""
    text = pa.string()
    fields = [("pair_id", text), ("prompt", text), ("intervention", text), ("dimension", text)]
    fields += [
        ("video_chosen", text),
        ("video_rejected", text),
        ("clip_id_chosen", text),
        ("clip_id_rejected", text),
    ]
    fields += [("generator_chosen", text), ("generator_rejected", text), ("seed", pa.int64())]
    fields += [("num_frames", pa.int64()), ("fps", pa.float64()), ("index_map", pa.list_(pa.int64()))]
    fields += [("synthetic", text)]
    if media_missing:
        fields += [("media_missing", pa.bool_())]
    return pa.schema(fields)


class _Row:
    """Error context for one row."""

    def __init__(self, path: Path, row: int, pair_id: Any = None) -> None:
        self.path, self.row, self.pair_id = path, row, pair_id

    def error(self, column: str, expected: str, got: Any, *, reason: str = "") -> SchemaError:
        where = f"{self.row} (pair_id {self.pair_id!r})" if self.pair_id not in (None, "") else self.row
        shown = repr(got)[:120] + (f" ({reason})" if reason else "")
        return schema_error(self.path, row=where, column=column, expected=expected, got=shown)


def _text(ctx: _Row, column: str, value: Any, *, required: bool = True) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
        if required:
            raise ctx.error(column, "a non-empty value", value)
        return None
    return str(value)


def _number(ctx: _Row, column: str, value: Any, kind: type) -> Any:
    if value is None or value == "" or (isinstance(value, float) and math.isnan(value)):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ctx.error(column, f"a number ({kind.__name__})", value) from None
    if kind is int:
        if not number.is_integer():
            raise ctx.error(column, "a whole number", value)
        return int(number)
    return number


def _index_map(ctx: _Row, value: Any, num_frames: int | None) -> list[int] | None:
    if value is None or value == "":
        return None
    try:
        parsed = json.loads(value) if isinstance(value, str) else list(value)
    except (TypeError, ValueError):
        raise ctx.error("index_map", "a JSON list of frame indices", value) from None
    if not isinstance(parsed, list) or not all(isinstance(i, int) and i >= 0 for i in parsed):
        raise ctx.error("index_map", "a JSON list of non-negative integers", value)
    if num_frames is not None and len(parsed) != num_frames:
        raise ctx.error("index_map", f"{num_frames} entries (num_frames)", f"{len(parsed)} entries")
    return parsed


def _video(ctx: _Row, column: str, value: Any) -> str:
    text = _text(ctx, column, value)
    try:
        return validate_relpath(str(text))
    except SchemaError as exc:
        raise ctx.error(column, "a clip path relative to the media root", f"{text} ({exc})") from None


def _native_row(ctx: _Row, get: Callable[[str], Any], interventions: Mapping[str, str]) -> dict[str, Any]:
    ctx.pair_id = _text(ctx, "pair_id", get("pair_id"))
    intervention = str(_text(ctx, "intervention", get("intervention")))
    if intervention not in interventions:
        raise ctx.error("intervention", f"one of {sorted(interventions)}", intervention)
    num_frames = _number(ctx, "num_frames", get("num_frames"), int)
    return {
        "pair_id": ctx.pair_id,
        "prompt": _text(ctx, "prompt", get("prompt")),
        "intervention": intervention,
        "dimension": _text(ctx, "dimension", get("dimension"), required=False) or interventions[intervention],
        "video_chosen": _video(ctx, "video_chosen", get("video_chosen")),
        "video_rejected": _video(ctx, "video_rejected", get("video_rejected")),
        "generator_chosen": _text(ctx, "generator_chosen", get("generator_chosen"), required=False),
        "generator_rejected": _text(ctx, "generator_rejected", get("generator_rejected"), required=False),
        "seed": _number(ctx, "seed", get("seed"), int),
        "num_frames": num_frames,
        "fps": _number(ctx, "fps", get("fps"), float),
        "index_map": _index_map(ctx, get("index_map"), num_frames),
        "synthetic": _text(ctx, "synthetic", get("synthetic"), required=False) or "",
    }


def _cell(chunk: Mapping[str, list[Any]], index: int, column: str) -> Any:
    return chunk[column][index] if column in chunk else None


def _clip_id(ctx: _Row, clip_id: ClipLookup, row: Mapping[str, Any], side: str) -> str | None:
    """The clip id of one side; a path resolving outside the media root names its row and column."""
    try:
        return clip_id(row[side])
    except SchemaError as exc:
        raise ctx.error(side, "a clip inside the media root", row[side], reason=str(exc)) from None


def transform_chunk(
    path: Path,
    first_row: int,
    chunk: Mapping[str, list[Any]],
    schema: pa.Schema,
    *,
    clip_id: ClipLookup,
    video_prefix: str,
    interventions: Mapping[str, str],
) -> pa.RecordBatch:
    """Check one chunk and return it as a batch of ``schema`` (base columns, then the extras)."""
    size = len(next(iter(chunk.values())))
    base = set(base_schema(False).names) | {"media_missing"}
    extras = [f for f in schema if f.name not in base]
    out: dict[str, list[Any]] = {name: [] for name in schema.names}
    for i in range(size):
        ctx = _Row(path, first_row + i)
        row = _native_row(ctx, functools.partial(_cell, chunk, i), interventions)
        ids = (_clip_id(ctx, clip_id, row, "video_chosen"), _clip_id(ctx, clip_id, row, "video_rejected"))
        row["clip_id_chosen"], row["clip_id_rejected"] = ids
        row["media_missing"] = ids[0] is None or ids[1] is None
        for side in ("video_chosen", "video_rejected"):
            row[side] = video_prefix + row[side]
        for name in base & set(out):
            out[name].append(row[name])
        for field in extras:
            value = chunk[field.name][i]
            if pa.types.is_string(field.type) and value is not None and not isinstance(value, str):
                value = json.dumps(value, ensure_ascii=False)
            out[field.name].append(value)
    return pa.RecordBatch.from_pydict(out, schema=schema)
