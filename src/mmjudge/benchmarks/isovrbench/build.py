"""IsoVRBench: video reward pairs built by controlled interventions, from a pair table.

Raw layout: ``source`` is a pair table (``.csv``, ``.parquet`` or ``.jsonl``; one split, ``test`` by
default) or a folder with ``{test,train,validation}.{csv,parquet,jsonl}``. Required columns
``pair_id, prompt, intervention, video_chosen, video_rejected``; optional ``dimension,
generator_chosen, generator_rejected, seed, num_frames, fps, index_map`` (JSON list: counterpart
frame ``i`` = anchor frame ``index_map[i]``) and ``synthetic``; other columns are kept. A table in
VideoGen-RewardBench's A/B layout (``path_A`` and ``path_B`` instead of the pair table's columns) is refused
with the command that builds it as ``videogen_rewardbench``, the benchmark whose release format it is.
Clip paths are relative to ``media_root`` (default: the source's folder).

Configs: ``all`` (default), one per intervention present, and ``clips`` (each distinct
``(clip_id, prompt)`` once, so a judge scores every clip once; ``clip_id`` is the first 16 hex digits
of the sha256 of the file's bytes). Splits as in the source.

Media modes (option ``media``): ``copy`` (default; clips are hashed, copied under ``media/`` and
rows point there), ``reference`` (hashed and checked, not copied; rows stay relative to the media
root) and ``metadata`` (no file is opened: ``clip_id`` hashes the relative path instead, no
``media_missing`` column). Sources are read in chunks and written row group by row group; memory
grows only with two sets of 16-byte digests (pair ids for the duplicate check, and the ``clips``
config's ``(clip_id, prompt)`` keys), plus the path -> clip id map in ``copy``/``reference`` modes.
"""

from __future__ import annotations

import functools
import hashlib
import shlex
import tempfile
import warnings
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mmjudge.benchmarks.isovrbench._rows import (
    INTERVENTIONS,
    NATIVE_REQUIRED,
    OPTIONAL,
    base_schema,
    transform_chunk,
)
from mmjudge.benchmarks.isovrbench.pair_files import (
    CHUNK_ROWS,
    SplitFile,
    columns_of,
    find_split_files,
    iter_chunks,
)
from mmjudge.benchmarks.isovrbench.release import RELEASES
from mmjudge.data.build import BatchStream, BuiltConfig, BuiltDataset, Split
from mmjudge.data.card import read_template
from mmjudge.data.media_paths import MediaRoot
from mmjudge.data.release import release_section
from mmjudge.data.strict_read import require_columns, schema_error
from mmjudge.errors import ConfigError, MediaError, summarize

__all__ = ["CLIP_SCHEMA", "INTERVENTIONS", "MEDIA_MODES", "build_tables", "clip_hash"]

MEDIA_MODES = ("copy", "reference", "metadata")
"""Values of the ``media`` option."""
CLIP_SCHEMA = pa.schema(
    [
        ("clip_id", pa.string()),
        ("video_path", pa.string()),
        ("prompt", pa.string()),
        ("generator", pa.string()),
        ("num_frames", pa.int64()),
        ("fps", pa.float64()),
    ]
)
"""Columns of the ``clips`` config."""


def clip_hash(path: Path) -> str:
    """First 16 hex digits of the sha256 of a file's bytes (the clip id).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "c.mp4"; _ = p.write_bytes(b"abc")
    >>> clip_hash(p)
    'ba7816bf8f01cfea'
    """
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()[:16]


class _Clips:
    """Relative path -> clip id, each file resolved and hashed once."""

    def __init__(self, root: Path, mode: str) -> None:
        self.root, self.mode = root, mode
        self.media_root = MediaRoot(root)
        self.ids: dict[str, str | None] = {}

    def __call__(self, rel: str) -> str | None:
        if self.mode == "metadata":
            return hashlib.sha256(rel.encode()).hexdigest()[:16]
        if rel not in self.ids:
            path = self.media_root.resolve(rel)
            self.ids[rel] = clip_hash(path) if path.is_file() else None
        return self.ids[rel]

    def missing(self) -> list[str]:
        return [rel for rel, clip in self.ids.items() if clip is None]


def build_tables(
    source: Path,
    *,
    media_root: Path | None = None,
    allow_missing_media: bool = False,
    media: str = "copy",
    split: str = "test",
    extra_interventions: Mapping[str, str] | None = None,
) -> BuiltDataset:
    """Build ``all``, the per-intervention configs and ``clips`` (see the module doc).

    Args:
        source: pair table file or folder of split files.
        media_root: folder the clip paths are relative to (default: the source's folder).
        allow_missing_media: keep pairs whose clip is missing, with ``media_missing=True``.
        media: ``copy``, ``reference`` or ``metadata``.
        split: split name of a single-file source.
        extra_interventions: more intervention ids accepted (id -> dimension), e.g. a 16-step split.
    """
    if media not in MEDIA_MODES:
        raise ConfigError(f"media={media!r}: expected one of {MEDIA_MODES}")
    source = Path(source)
    files = find_split_files(source, split=split)
    root = Path(media_root) if media_root is not None else (source if source.is_dir() else source.parent)
    interventions = {**INTERVENTIONS, **(extra_interventions or {})}
    given = {"media_root": media_root and str(media_root), "allow_missing_media": allow_missing_media, "media": media}
    columns = _check_columns(files, {k: v for k, v in given.items() if v not in (None, False, "copy")})
    schema = _schema(files[0].path, columns, media_missing=media != "metadata")
    clips = _Clips(root, media)
    tmp = tempfile.TemporaryDirectory(prefix="mmjudge-isovrbench-")
    try:
        counts = _stage(files, Path(tmp.name), schema, clips, media, interventions)
        _missing_policy(clips, root, allow_missing_media)
    except BaseException:
        tmp.cleanup()
        raise
    staged = {f.split: Path(tmp.name) / f"{f.split}.parquet" for f in files}
    configs = [BuiltConfig("all", {s: _stream(p, schema) for s, p in staged.items()}, "every pair")]
    for name in interventions:
        present = {s: p for s, p in staged.items() if counts[s].get(name)}
        if present:
            splits = {s: _stream(p, schema, name) for s, p in present.items()}
            configs.append(
                BuiltConfig(name, splits, f"pairs of intervention `{name}` ({interventions[name]})")
            )
    clip_splits: dict[str, Split] = {
        s: BatchStream(CLIP_SCHEMA, functools.partial(_clip_rows, p)) for s, p in staged.items()
    }
    configs.append(BuiltConfig("clips", clip_splits, "each distinct (clip_id, prompt) once, for scoring"))
    media_files = {}
    if media == "copy":
        media_files = {f"media/{rel}": root / rel for rel, clip in clips.ids.items() if clip is not None}
    return BuiltDataset(
        benchmark="isovrbench",
        card_template=read_template("mmjudge.benchmarks.isovrbench"),
        configs=configs,
        media_files=media_files,
        media_root_required=media != "copy",
        card_context=_card_context(files, counts, media, clips),
        resources=[tmp],
    )


def _check_columns(files: list[SplitFile], options: Mapping[str, Any]) -> list[str]:
    columns = columns_of(files[0].path)
    for f in files:
        found = columns if f is files[0] else columns_of(f.path)
        _refuse_ab_table(f.path, found, options)
        require_columns(f.path, found, NATIVE_REQUIRED)
        if set(found) != set(columns):
            raise schema_error(
                f.path,
                expected=f"the same columns in every split (as {files[0].path.name}: {columns})",
                got=f"{found}",
            )
    return columns


_AB_MARKERS = ("path_A", "path_B")
"""The columns that make a table an A/B table (VideoGen-RewardBench's layout) rather than a pair table."""


def _refuse_ab_table(path: Path, columns: list[str], options: Mapping[str, Any]) -> None:
    """Refuse an A/B table (``path_A`` and ``path_B``, not the pair table's columns): it is the release format of
    ``videogen_rewardbench``, and the message gives the command that builds it so, with the build ``options`` given
    here (``media_root`` as text, ``allow_missing_media``, ``media``; only those not at their default).

    >>> _refuse_ab_table(Path("raw/vgrb.csv"), ["path_A", "path_B", "prompt", "Overall"],
    ...                  {"media": "reference"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: raw/vgrb.csv: expected an IsoVRBench pair table ... build this one as the \
videogen_rewardbench benchmark: `mmjudge build-dataset videogen_rewardbench --source raw/vgrb.csv --out DIR \
--option media=reference` (in Python: `mmjudge.benchmarks.build_dataset('videogen_rewardbench', 'raw/vgrb.csv', \
'DIR', media='reference')`).
    """
    if not all(c in columns for c in _AB_MARKERS) or all(c in columns for c in NATIVE_REQUIRED):
        return
    flags = {
        "media_root": "--media-root {}",
        "allow_missing_media": "--allow-missing-media",
        "media": "--option media={}",
    }
    csv = path.with_suffix(".csv")  # videogen_rewardbench reads the release's CSV
    cli = ["mmjudge", "build-dataset", "videogen_rewardbench", "--source", str(csv), "--out", "DIR"]
    for name, value in options.items():
        cli += [flag.format(value) for flag in flags[name].split(" ")]
    python = ", ".join(repr(str(v)) for v in ("videogen_rewardbench", csv, "DIR"))
    python += "".join(f", {k}={v!r}" for k, v in options.items())
    csv_note = "" if path == csv else f" It reads the release's CSV: write this table as {csv.name} first."
    raise schema_error(
        path,
        expected=f"an IsoVRBench pair table (columns {list(NATIVE_REQUIRED)})",
        got=f"an A/B table (columns {summarize(columns)}), VideoGen-RewardBench's layout",
        fix="IsoVRBench does not read A/B tables; build this one as the videogen_rewardbench benchmark: "
        f"`{shlex.join(cli)}` (in Python: `mmjudge.benchmarks.build_dataset({python})`).{csv_note}",
    )


def _schema(path: Path, columns: list[str], *, media_missing: bool) -> pa.Schema:
    base = base_schema(media_missing)
    known = set(base.names) | set(NATIVE_REQUIRED) | set(OPTIONAL)
    types: dict[str, pa.DataType] = {}
    if path.suffix == ".parquet":
        types = {f.name: f.type for f in pq.read_schema(path)}
    extras = []
    for name in columns:
        if name not in known:
            kind = types.get(name, pa.string())
            if pa.types.is_large_string(kind) or pa.types.is_null(kind):
                kind = pa.string()
            extras.append(pa.field(name, kind))
    return pa.schema(list(base) + extras)


def _stage(
    files: list[SplitFile],
    tmp: Path,
    schema: pa.Schema,
    clips: _Clips,
    media: str,
    interventions: Mapping[str, str],
) -> dict[str, Counter[str]]:
    """Check and transform every row once, writing each split to ``tmp/<split>.parquet``."""
    seen: set[bytes] = set()
    counts: dict[str, Counter[str]] = {}
    prefix = "media/" if media == "copy" else ""
    for f in files:
        counts[f.split] = Counter()
        with pq.ParquetWriter(tmp / f"{f.split}.parquet", schema) as writer:
            for first, chunk in iter_chunks(f.path, columns_of(f.path)):
                batch = transform_chunk(
                    f.path,
                    first,
                    chunk,
                    schema,
                    clip_id=clips,
                    video_prefix=prefix,
                    interventions=interventions,
                )
                _check_new_ids(f.path, first, batch.column("pair_id").to_pylist(), seen, files)
                counts[f.split].update(v for v in batch.column("intervention").to_pylist() if v)
                writer.write_batch(batch)
    return counts


def _key(*parts: str) -> bytes:
    """A 16-byte digest standing for a string key in the seen-sets (memory per key stays small)."""
    return hashlib.blake2b("\0".join(parts).encode(), digest_size=16).digest()


def _check_new_ids(path: Path, first: int, ids: list[str], seen: set[bytes], files: list[SplitFile]) -> None:
    for offset, pair_id in enumerate(ids):
        key = _key(pair_id)
        if key in seen:
            raise schema_error(
                path,
                row=f"{first + offset} (pair_id {pair_id!r})",
                column="pair_id",
                expected="unique pair ids",
                got=f"{pair_id!r} again (first in {_first_row_of(pair_id, files)})",
            )
        seen.add(key)


def _first_row_of(pair_id: str, files: list[SplitFile]) -> str:
    """Where ``pair_id`` first occurs (re-read on the error path only, so no id -> row map is kept)."""
    for f in files:
        for first, chunk in iter_chunks(f.path, columns_of(f.path)):
            for offset, value in enumerate(chunk["pair_id"]):
                if value == pair_id:
                    return f"{f.path.name}, row {first + offset}"
    return "an earlier row"


def _missing_policy(clips: _Clips, root: Path, allow: bool) -> None:
    missing = clips.missing()
    if not missing:
        return
    total = len(clips.ids)
    if not allow:
        raise MediaError(
            f"{len(missing)} of {total} clips are missing under {root}; first: {missing[:5]}. Pass the "
            "right media root (--media-root), or --allow-missing-media to keep those pairs marked "
            "media_missing=True"
        )
    warnings.warn(
        f"{len(missing)} of {total} clips are missing under {root} (first: {missing[:5]}); pairs kept with "
        "media_missing=True and left out of the clips config",
        UserWarning,
        stacklevel=3,
    )


def _stream(path: Path, schema: pa.Schema, intervention: str | None = None) -> BatchStream:
    def batches() -> Iterator[pa.RecordBatch]:
        for batch in pq.ParquetFile(path).iter_batches(batch_size=CHUNK_ROWS):
            if intervention is not None:
                batch = batch.filter(pc.equal(batch.column("intervention"), intervention))
            if batch.num_rows:
                yield batch

    return BatchStream(schema, batches)


_CLIP_SOURCE = (
    "prompt",
    "num_frames",
    "fps",
    *(f"{k}_{side}" for side in ("chosen", "rejected") for k in ("video", "clip_id", "generator")),
)


def _clip_rows(path: Path) -> Iterator[pa.RecordBatch]:
    seen: set[bytes] = set()
    for batch in pq.ParquetFile(path).iter_batches(batch_size=CHUNK_ROWS, columns=list(_CLIP_SOURCE)):
        data = batch.to_pydict()
        out: dict[str, list[Any]] = {name: [] for name in CLIP_SCHEMA.names}
        for i in range(batch.num_rows):
            for side in ("chosen", "rejected"):
                clip, prompt = data[f"clip_id_{side}"][i], data["prompt"][i]
                key = _key(clip, prompt) if clip is not None else b""
                if clip is None or key in seen:
                    continue
                seen.add(key)
                video, generator = data[f"video_{side}"][i], data[f"generator_{side}"][i]
                values = (clip, video, prompt, generator, data["num_frames"][i], data["fps"][i])
                for name, value in zip(CLIP_SCHEMA.names, values, strict=True):
                    out[name].append(value)
        if out["clip_id"]:
            yield pa.RecordBatch.from_pydict(out, schema=CLIP_SCHEMA)


def _card_context(
    files: list[SplitFile], counts: dict[str, Counter[str]], media: str, clips: _Clips
) -> dict[str, Any]:
    per = "; ".join(f"{s}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())) for s, c in counts.items())
    return {
        "source_files": ", ".join(f"`{f.path.name}` ({f.split})" for f in files),
        "intervention_counts": per,
        "media_mode": media,
        "num_clip_files": len(clips.ids) if media != "metadata" else "not counted (metadata mode)",
        "num_missing_clips": len(clips.missing()),
        "raw_release": release_section(RELEASES),
    }
