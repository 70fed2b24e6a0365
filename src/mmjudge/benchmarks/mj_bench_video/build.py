"""MJ-Bench-Video: the release's ``test.json`` -> the ``pairs`` and ``clips`` configs.

``source`` is the JSON list (or a folder holding ``test.json``). Each item needs ``caption, video_0_path,
video_1_path, overall_preference``; ``category_preference`` (an object of aspect -> label) is read when present,
and every other field is kept as JSON text. Labels are ``Video 1 better``, ``Video 2 better``, ``Same`` or ``Hard
to judge``. A pair's id is ``mjv-`` + a hash of its two paths and caption; ``video_0_path`` is A. Clip paths are
relative to ``media_root`` (default: ``videos/`` beside the JSON). See :mod:`mmjudge.benchmarks._pairwise.build`.
"""

from __future__ import annotations

import json
from pathlib import Path

from mmjudge.benchmarks._pairwise.build import PairRow, build_pairs, pair_id_of
from mmjudge.benchmarks.mj_bench_video.release import OPTIONAL, RELEASES, REQUIRED
from mmjudge.benchmarks.mj_bench_video.scoring import ASPECTS, HARD, LABELS
from mmjudge.data.build import BuiltDataset
from mmjudge.data.media_paths import validate_relpath
from mmjudge.data.strict_read import read_json_list, require_columns, schema_error
from mmjudge.errors import ConfigError, SchemaError

__all__ = ["build_tables", "read_pairs"]

_ALLOWED = (*LABELS, HARD)


def build_tables(
    source: Path, *, media_root: Path | None = None, allow_missing_media: bool = False, media: str = "copy"
) -> BuiltDataset:
    """Build ``pairs`` and ``clips`` from the release JSON (see the module doc)."""
    path = _json(Path(source))
    rows, extras = read_pairs(path)
    root = Path(media_root) if media_root is not None else path.parent / "videos"
    return build_pairs(
        "mj_bench_video",
        rows,
        aspects=ASPECTS,
        extra_columns=extras,
        source=path,
        video_columns=("video_0_path", "video_1_path"),
        releases=RELEASES,
        root=root,
        media=media,
        allow_missing_media=allow_missing_media,
    )


def read_pairs(path: Path) -> tuple[list[PairRow], list[str]]:
    """The checked pairs of the JSON list and the names of its extra fields.

    Raises:
        SchemaError: a missing field, a label outside the four, an empty caption, an unsafe path.
    """
    items = read_json_list(path)
    require_columns(path, list(items[0]), REQUIRED)
    extras = sorted({k for item in items for k in item} - set(REQUIRED) - set(OPTIONAL))
    rows = []
    for k, item in enumerate(items, start=1):
        for field in REQUIRED:
            if not isinstance(item.get(field), str) or not item[field]:
                raise schema_error(path, row=k, column=field, expected="a non-empty string", got=repr(item.get(field)))
        labels: dict[str, str | None] = {"overall": _label(path, k, "overall_preference", item["overall_preference"])}
        categories = item.get("category_preference") or {}
        if not isinstance(categories, dict):
            raise schema_error(path, row=k, column="category_preference", expected="an object of aspect -> label",
                               got=type(categories).__name__)  # fmt: skip
        for aspect in ASPECTS[1:]:
            value = categories.get(aspect.name)
            labels[aspect.slug] = None if value is None else _label(path, k, f"category_preference.{aspect.name}", value)
        a, b = _clip(path, k, "video_0_path", item["video_0_path"]), _clip(path, k, "video_1_path", item["video_1_path"])
        rows.append(
            PairRow(
                pair_id=pair_id_of("mjv", a, b, item["caption"]),
                prompt=item["caption"],
                video_a=a,
                video_b=b,
                model_a=None,
                model_b=None,
                labels=labels,
                extras={f: None if item.get(f) is None else json.dumps(item[f], ensure_ascii=False) for f in extras},
            )
        )
    return rows, extras


def _label(path: Path, k: int, field: str, value: object) -> str:
    if value not in _ALLOWED:
        raise schema_error(path, row=k, column=field, expected=f"one of {list(_ALLOWED)}", got=repr(value))
    return str(value)


def _clip(path: Path, k: int, field: str, value: str) -> str:
    try:
        return validate_relpath(value)
    except SchemaError as exc:
        raise schema_error(path, row=k, column=field, expected="a clip path relative to the media root",
                           got=f"{value!r} ({exc})") from None  # fmt: skip


def _json(source: Path) -> Path:
    if source.is_file():
        if source.suffix != ".json":
            raise ConfigError(f"{source}: expected the release's test.json, got {source.suffix!r}")
        return source
    if not (source / "test.json").is_file():
        raise ConfigError(f"{source}: expected the release's test.json in the folder; pass the file as --source")
    return source / "test.json"
