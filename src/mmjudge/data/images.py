"""Image columns as ``datasets.Image`` features: the file's bytes embedded, its path kept relative.

``datasets`` stores an ``Image`` feature in parquet as ``struct<bytes: binary, path: string>`` and
records the feature in the file's ``huggingface`` schema metadata and the card's ``dataset_info``. It
decodes a value from ``bytes`` when they are there; with ``bytes`` null it opens ``path`` as it stands,
relative to the process's working directory, not to the dataset folder (datasets 5.2: a path-only
value in a local folder raises ``FileNotFoundError`` unless one runs from inside the folder). So a built
folder stores both: the bytes (``load_dataset`` and the Hub viewer show the image anywhere) and the
path relative to the folder (the file stays under ``media/``, where the judges read it).

:func:`image_table` turns relative path columns of a table into such columns; :func:`image_path` reads
the relative path back from a row's value, whether the folder stores images or plain path strings.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from mmjudge._deps import require
from mmjudge.errors import SchemaError

__all__ = ["IMAGE_TYPE", "image_columns", "image_path", "image_table", "without_image_bytes"]

IMAGE_TYPE = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
"""The arrow storage of ``datasets.Image()``."""
_META = b"huggingface"


def image_path(value: Any) -> str | None:
    """The relative path of an image value from a row: a path string, or an image ``{"bytes", "path"}``.

    >>> image_path("media/images/a.png"), image_path({"bytes": b"...", "path": "media/images/a.png"})
    ('media/images/a.png', 'media/images/a.png')
    >>> image_path(None) is None
    True
    """
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("path"), str):
        return str(value["path"])
    got = f"a mapping with keys {sorted(value)}" if isinstance(value, Mapping) else type(value).__name__
    raise SchemaError(
        f"image value: expected a relative path string or an image {{'bytes', 'path'}} with a path, got {got}; "
        "load the rows with mmjudge.data.rows.load_rows (decoding off), or rebuild the folder"
    )


def without_image_bytes(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` with the embedded bytes of every image value dropped (``{"bytes": None, "path": ...}``).

    For a process that keeps rows for scoring only (the leaderboard server holds its reference rows for
    its lifetime): the scorers read labels, never pixels, and the judges read the files by path. Other
    values are the same objects.

    >>> without_image_bytes([{"id": "a", "img": {"bytes": b"png", "path": "media/a.png"}, "n": 1}])
    [{'id': 'a', 'img': {'bytes': None, 'path': 'media/a.png'}, 'n': 1}]
    """
    return [{k: _path_only(v) for k, v in row.items()} for row in rows]


def _path_only(value: Any) -> Any:
    if isinstance(value, Mapping) and set(value) == {"bytes", "path"}:
        return {"bytes": None, "path": value["path"]}
    return value


def image_table(table: pa.Table, columns: Sequence[str], files: Mapping[str, Path]) -> pa.Table:
    """``table`` with each of ``columns`` (relative path strings) as a ``datasets.Image`` column.

    Each value becomes ``{"bytes": <the file's bytes>, "path": <the same relative path>}``; a path with no
    file in ``files`` (media missing at build time, ``--allow-missing-media``) keeps its path with null
    bytes, and a null path stays null. The schema's ``huggingface`` metadata records the features, so
    the card's ``dataset_info`` and ``load_dataset`` see ``Image`` columns.

    Args:
        table: the config's rows.
        columns: names of the columns holding image paths relative to the built folder.
        files: relative path in the folder -> source file (``BuiltDataset.media_files``).

    >>> import tempfile
    >>> src = Path(tempfile.mkdtemp()) / "a.png"; _ = src.write_bytes(b"png")
    >>> t = image_table(pa.table({"img": ["media/a.png"]}), ["img"], {"media/a.png": src})
    >>> t.column("img").to_pylist(), image_columns(t.schema)
    ([{'bytes': b'png', 'path': 'media/a.png'}], ['img'])
    """
    missing = [c for c in columns if c not in table.column_names]
    if missing:
        raise SchemaError(f"image columns {missing} are not in the table (columns {table.column_names})")
    for name in columns:
        paths = table.column(name).to_pylist()
        values = [None if p is None else {"bytes": _read(files.get(p)), "path": p} for p in paths]
        index = table.column_names.index(name)
        table = table.set_column(index, pa.field(name, IMAGE_TYPE), pa.array(values, IMAGE_TYPE))
    return table.replace_schema_metadata({_META: _features_json(table.schema, set(columns))})


def image_columns(schema: pa.Schema) -> list[str]:
    """The columns a schema's ``huggingface`` metadata records as ``Image`` features.

    >>> image_columns(pa.schema([("a", pa.string())]))
    []
    """
    features = _recorded_features(schema)
    return [
        name
        for name, feature in features.items()
        if isinstance(feature, Mapping) and feature.get("_type") == "Image"
    ]


def _read(path: Path | None) -> bytes | None:
    return path.read_bytes() if path is not None and path.is_file() else None


def _recorded_features(schema: pa.Schema) -> dict[str, Any]:
    raw = (schema.metadata or {}).get(_META)
    if not raw:
        return {}
    features = json.loads(raw).get("info", {}).get("features", {})
    return dict(features) if isinstance(features, Mapping) else {}


def _features_json(schema: pa.Schema, images: set[str]) -> bytes:
    """The ``huggingface`` metadata ``datasets`` writes: features of every column, ``Image`` for ``images``."""

    datasets = require("datasets", "metrics", purpose="writing datasets.Image columns")
    known = datasets.Features.from_arrow_schema(pa.schema([f for f in schema if f.name not in images]))
    features = datasets.Features(
        {f.name: datasets.Image() if f.name in images else known[f.name] for f in schema}
    )
    return bytes(features.arrow_schema.metadata[_META])
