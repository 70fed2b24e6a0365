"""Build a Hub-ready dataset folder from a benchmark's raw release.

A built folder holds a ``README.md`` dataset card (YAML ``configs:`` with parquet ``data_files`` per
split and ``dataset_info`` features per config), parquet shards
``data/<config>/<split>-00000-of-00001.parquet`` and, when redistribution is allowed, media under
``media/``. ``datasets.load_dataset(folder, config)`` reads it with no loading script.

Each benchmark defines ``build_tables(source, *, media_root, allow_missing_media, **options) ->
BuiltDataset`` (``Benchmark.data.build_tables``); :func:`build_folder` calls it and writes the folder
atomically (into a temporary folder next to ``out``, renamed at the end), so a failed build leaves
nothing behind. ``mmjudge.benchmarks.build_dataset(id, ...)`` looks the builder up by benchmark id.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeAlias

import pyarrow as pa
import pyarrow.parquet as pq

from mmjudge.data.images import image_table
from mmjudge.data.media_paths import resolve_media
from mmjudge.errors import ConfigError, SchemaError

__all__ = [
    "BatchStream",
    "BuiltConfig",
    "BuiltDataset",
    "SplitSummary",
    "build_folder",
    "shard_path",
    "write_folder",
]

SPLITS = ("train", "validation", "test")
"""Split names a config may use, in the order the card lists them."""


@dataclass
class BatchStream:
    """A split too large to hold in memory: a schema and a factory of record batches.

    The factory is called once, when the split is written; each batch (or table) it yields is
    written as it arrives (one parquet row group per batch), so peak memory stays at one batch.
    """

    schema: pa.Schema
    """Schema every batch must have (cast to it on write)."""
    batches: Callable[[], Iterable[pa.RecordBatch | pa.Table]]
    """Called once; yields the split's rows in order."""


Split: TypeAlias = "pa.Table | BatchStream"


@dataclass
class BuiltConfig:
    """One dataset config (what ``load_dataset(folder, name)`` selects)."""

    name: str
    """Config name, e.g. ``"pairs"``, ``"all"``, ``"temporal_shuffle"``, ``"items"``."""
    splits: dict[str, Split]
    """Split name (``"test"``, ``"train"``, ``"validation"``) -> rows."""
    description: str = ""
    """One line for the card's config table."""
    image_columns: tuple[str, ...] = ()
    """Columns of image paths relative to the folder, written as ``datasets.Image`` features (the file's
    bytes embedded, the path kept; see :mod:`mmjudge.data.images`). Table splits only."""


@dataclass
class BuiltDataset:
    """Everything a benchmark builder returns; :func:`write_folder` turns it into files."""

    benchmark: str
    """Benchmark id (a registered one, see :func:`mmjudge.benchmarks.benchmark_ids`)."""
    configs: list[BuiltConfig]
    """Configs in card order; the first is the default config."""
    media_files: dict[str, Path] = field(default_factory=dict)
    """Relative path inside the output folder (``media/...``) -> source file to copy. Only media that
    may be redistributed; gated media stay outside the folder."""
    media_root_required: bool = False
    """True when rows point into a media root the user supplies (gated media)."""
    card_context: dict[str, Any] = field(default_factory=dict)
    """Extra ``${name}`` values for the card template (counts, notes, synthetic fields)."""
    resources: list[Any] = field(default_factory=list)
    """Objects with a ``cleanup()`` method (e.g. a ``tempfile.TemporaryDirectory`` of intermediate
    files behind a :class:`BatchStream`), cleaned up once the folder is written or the write failed."""
    card_template: str = ""
    """The card template's text (markdown with YAML front matter and ``${name}`` placeholders), as
    :func:`mmjudge.data.card.read_template` reads it from the benchmark's package. :func:`write_folder`
    refuses a dataset without one (unless given a template file)."""


class SplitSummary(NamedTuple):
    """What was written for one (config, split)."""

    config: str
    """Config name."""
    split: str
    """Split name."""
    path: str
    """Parquet file, relative to the folder (POSIX)."""
    num_rows: int
    """Rows written."""
    schema: pa.Schema
    """Arrow schema of the file."""


def shard_path(config: str, split: str) -> str:
    """The parquet file of one split, relative to the dataset folder.

    >>> shard_path("pairs", "test")
    'data/pairs/test-00000-of-00001.parquet'
    """
    return f"data/{config}/{split}-00000-of-00001.parquet"


def build_folder(
    benchmark: str,
    build_tables: Callable[..., BuiltDataset],
    source: str | Path,
    out: str | Path,
    *,
    media_root: str | Path | None = None,
    allow_missing_media: bool = False,
    overwrite: bool = False,
    card_template: str | Path | None = None,
    card_notes: str = "",
    **options: Any,
) -> Path:
    """Build the Hub-ready folder of ``benchmark`` from its raw release at ``source`` with ``build_tables``.

    Args:
        benchmark: benchmark id (for messages).
        build_tables: the benchmark's builder (``Benchmark.data.build_tables``).
        source: the raw release (file or folder, as the benchmark's module documents).
        out: output folder; must not exist unless ``overwrite``.
        media_root: where relative media paths point (gated media); builder default when ``None``.
        allow_missing_media: keep rows whose media file is missing, marked ``media_missing=True``.
        overwrite: replace an existing ``out`` (only after the new build succeeded).
        card_template: card template file replacing the builder's (``BuiltDataset.card_template``, the
            ``card.md`` shipped in the benchmark's package).
        card_notes: markdown for the card's ``${card_notes}`` placeholder (e.g. what is synthetic in
            sample data).
        **options: benchmark-specific options passed to ``build_tables``.

    Returns:
        ``out``.
    """
    source, out = Path(source), Path(out)
    if not source.exists():
        raise ConfigError(f"source {source} does not exist: expected the raw release of {benchmark}")
    if out.exists() and not overwrite:
        raise ConfigError(f"output folder {out} already exists: choose a new --out or pass --overwrite")
    kwargs = {
        "media_root": Path(media_root) if media_root is not None else None,
        "allow_missing_media": allow_missing_media,
        **options,
    }
    _check_options(benchmark, build_tables, source, kwargs)
    built = build_tables(source, **kwargs)
    if card_notes:
        built.card_context["card_notes"] = card_notes
    try:
        return _write_atomically(built, out, card_template)
    finally:
        for resource in built.resources:
            resource.cleanup()


def _check_options(benchmark: str, builder: Callable[..., Any], source: Path, kwargs: dict[str, Any]) -> None:
    import inspect

    signature = inspect.signature(builder)
    try:
        signature.bind(source, **kwargs)
    except TypeError:
        accepted = [
            p for p in signature.parameters if p not in ("source", "media_root", "allow_missing_media")
        ]
        unknown = [k for k in kwargs if k not in signature.parameters]
        raise ConfigError(
            f"{benchmark}: unknown build options {unknown}; this benchmark accepts {accepted}"
        ) from None


def _write_atomically(built: BuiltDataset, out: Path, card_template: str | Path | None) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.parent / f".{out.name}.building-{uuid.uuid4().hex[:8]}"
    try:
        write_folder(built, staging, card_template=card_template)
        if out.exists():
            old = out.parent / f".{out.name}.old-{uuid.uuid4().hex[:8]}"
            out.rename(old)
            staging.rename(out)
            shutil.rmtree(old)
        else:
            staging.rename(out)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return out


def write_folder(
    built: BuiltDataset, folder: str | Path, *, card_template: str | Path | None = None
) -> list[SplitSummary]:
    """Write parquet shards, media and the card of ``built`` into ``folder`` (not atomic).

    Returns:
        One :class:`SplitSummary` per written split, in card order.
    """
    from mmjudge.data.card import card_files

    folder = Path(folder)
    _check_configs(built)
    summaries = []
    for config in built.configs:
        for split in sorted(config.splits, key=SPLITS.index):
            rel = shard_path(config.name, split)
            images = (config.image_columns, built.media_files)
            rows, schema = _write_split(config.splits[split], folder / rel, images)
            summaries.append(SplitSummary(config.name, split, rel, rows, schema))
    for rel, src in built.media_files.items():
        if not rel.startswith("media/"):
            raise SchemaError(f"media file {rel!r} must live under media/ in the output folder")
        target = resolve_media(rel, folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
    for name, text in card_files(built, summaries, template=card_template).items():
        (folder / name).write_text(text, encoding="utf-8")
    return summaries


def _check_configs(built: BuiltDataset) -> None:
    if not built.configs:
        raise SchemaError(f"{built.benchmark}: the builder produced no configs")
    names = [c.name for c in built.configs]
    if len(set(names)) != len(names):
        raise SchemaError(f"{built.benchmark}: duplicate config names {names}")
    for config in built.configs:
        bad = [s for s in config.splits if s not in SPLITS]
        if bad or not config.splits:
            raise SchemaError(
                f"{built.benchmark} config {config.name!r}: expected splits among {SPLITS}, got "
                f"{list(config.splits)}"
            )


def _write_split(
    split: Split, path: Path, images: tuple[tuple[str, ...], dict[str, Path]] = ((), {})
) -> tuple[int, pa.Schema]:
    path.parent.mkdir(parents=True, exist_ok=True)
    columns, files = images
    if isinstance(split, pa.Table):
        table = _normalize(split)
        row_group = 50_000
        if columns:
            table = image_table(table, columns, files)
            row_group = _image_row_group(table)
        pq.write_table(table, path, row_group_size=row_group)
        return table.num_rows, table.schema
    if columns:
        raise SchemaError(
            f"image columns {list(columns)} need a table split, got a batch stream for {path.name}"
        )
    schema = _normalize_schema(split.schema)
    rows = 0
    with pq.ParquetWriter(path, schema) as writer:
        for batch in split.batches():
            table = pa.Table.from_batches([batch]) if isinstance(batch, pa.RecordBatch) else batch
            table = table.select(schema.names).cast(schema)
            writer.write_table(table)
            rows += table.num_rows
    return rows, schema


def _image_row_group(table: pa.Table) -> int:
    """Rows per row group of a table with embedded images: ``datasets``' own rule (about 100 MB per group),
    which the Hub viewer expects (it refuses to scan row groups past its size limit)."""
    from datasets.arrow_writer import get_writer_batch_size_from_data_size

    return max(1, int(get_writer_batch_size_from_data_size(table.num_rows, table.nbytes)))


def _normalize_schema(schema: pa.Schema) -> pa.Schema:
    """large_string -> string and null -> string: plain ``Value("string")`` features on the Hub."""
    fields = []
    for f in schema:
        if pa.types.is_large_string(f.type) or pa.types.is_null(f.type):
            f = f.with_type(pa.string())
        elif pa.types.is_large_list(f.type):
            f = f.with_type(pa.list_(f.type.value_type))
        fields.append(f)
    return pa.schema(fields)


def _normalize(table: pa.Table) -> pa.Table:
    schema = _normalize_schema(table.schema).remove_metadata()
    return table.replace_schema_metadata(None).cast(schema)
