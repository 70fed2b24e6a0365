"""Rebuilding MIST from the AdMIRe source release (parquet) into the ``items`` table.

Source: one parquet file, or a folder whose ``*.parquet`` files (searched recursively, sorted by path)
together hold the release (e.g. its ``train`` and ``test`` shards). Required columns: ``id, language,
compound, sentence_type, sentence, style, correct_image, image_1_prompt .. image_5_prompt, image_1 ..
image_5``; others are ignored. Ids must be unique across all files. An image cell is a Hugging Face
image struct ``{"bytes", "path"}`` (the bytes are used; ``path`` alone is a file name) or a file name
relative to ``media_root`` (default: the source folder, or the parquet file's folder).

Only the text columns are read for the draw (:mod:`mmjudge.benchmarks.mist._draw`); the images of the drawn
items are then read batch by batch, so memory stays flat on the multi-gigabyte release. Embedded
images are copied to ``media/images/sha256-<first 16 hex of the bytes' sha256>.<ext>``; images given
by file name keep their relative name under ``media/images/``.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from mmjudge.benchmarks.mist._draw import AdmireRow, ImageRef, normalize_sense
from mmjudge.data.media_paths import resolve_media
from mmjudge.errors import SchemaError, summarize

__all__ = ["IMAGE_COLUMNS", "PROMPT_COLUMNS", "TEXT_COLUMNS", "AdmireSource", "ImageFiles", "read_admire"]

PROMPT_COLUMNS = tuple(f"image_{k}_prompt" for k in range(1, 6))
"""The five image prompt columns."""
IMAGE_COLUMNS = tuple(f"image_{k}" for k in range(1, 6))
"""The five image columns."""
TEXT_COLUMNS = (
    "id",
    "language",
    "compound",
    "sentence_type",
    "sentence",
    "style",
    "correct_image",
    *PROMPT_COLUMNS,
)
"""Columns read for the draw."""

_MAGIC = ((b"\x89PNG", ".png"), (b"\xff\xd8\xff", ".jpg"), (b"GIF8", ".gif"), (b"BM", ".bmp"))


class AdmireSource(NamedTuple):
    """The text of the release and where each row lives."""

    rows: list[AdmireRow]
    """One row per record, in file order."""
    location: dict[int, tuple[Path, int]]
    """AdMIRe ``id`` -> (parquet file, row index inside it)."""


class ImageFiles(NamedTuple):
    """The image files of the drawn items."""

    relpaths: dict[ImageRef, str]
    """Image -> path relative to the output folder (``media/images/...``)."""
    sources: dict[ImageRef, Path]
    """Image -> file on disk to copy (a staged copy for embedded bytes; may be missing for names)."""
    names: dict[ImageRef, str]
    """Image -> file name relative to the media root, for images given by name (not embedded)."""


def _parquet_files(source: Path) -> list[Path]:
    files = [source] if source.is_file() else sorted(source.rglob("*.parquet"))
    if not files:
        raise SchemaError(
            f"{source}: no parquet files found; expected the AdMIRe release (a .parquet file or a folder of "
            "them) or a released MIST table (a folder with items.csv)"
        )
    return files


def _read_text(path: Path) -> list[dict[str, Any]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        names = pq.read_schema(path).names
        missing = [c for c in (*TEXT_COLUMNS, *IMAGE_COLUMNS) if c not in names]
        if missing:
            raise SchemaError(
                f"{path}: missing columns {missing}; expected the AdMIRe columns {[*TEXT_COLUMNS, *IMAGE_COLUMNS]}, "
                f"got {names}"
            )
        table = pq.read_table(path, columns=list(TEXT_COLUMNS))
    except (pa.ArrowException, OSError) as exc:
        raise SchemaError(
            f"{path}: not a readable parquet file ({exc}); expected the AdMIRe release"
        ) from None
    if table.num_rows == 0:
        raise SchemaError(f"{path}: the file has no rows; expected AdMIRe records")
    return table.to_pylist()


def _row(record: dict[str, Any], path: Path) -> AdmireRow:
    row_id = record["id"]
    if not isinstance(row_id, int):
        raise SchemaError(f"{path}: a row has id {row_id!r}, column 'id': expected an integer")
    sense = normalize_sense(record["sentence_type"] or "")
    if sense is None:
        raise SchemaError(
            f"{path}: row id {row_id}, column 'sentence_type': expected 'idiomatic', 'figurative' or "
            f"'literal', got {record['sentence_type']!r}"
        )
    correct = record["correct_image"]
    if not isinstance(correct, int) or not 1 <= correct <= 5:
        raise SchemaError(f"{path}: row id {row_id}, column 'correct_image': expected 1..5, got {correct!r}")
    for column in ("compound", "sentence", *PROMPT_COLUMNS):
        if not isinstance(record[column], str) or not record[column].strip():
            raise SchemaError(
                f"{path}: row id {row_id}, column {column!r}: expected text, got {record[column]!r}"
            )
    return AdmireRow(
        row_id=row_id,
        language=str(record["language"] or ""),
        compound=record["compound"],
        sense=sense,
        sentence=record["sentence"],
        style=str(record["style"] or ""),
        correct_image=correct,
        prompts=tuple(record[c] for c in PROMPT_COLUMNS),
    )


def read_admire(source: Path) -> AdmireSource:
    """Read and check the text columns of the release at ``source`` (see the module docstring)."""
    rows: list[AdmireRow] = []
    location: dict[int, tuple[Path, int]] = {}
    duplicates = []
    for path in _parquet_files(source):
        for index, record in enumerate(_read_text(path)):
            row = _row(record, path)
            if row.row_id in location:
                duplicates.append(row.row_id)
            location[row.row_id] = (path, index)
            rows.append(row)
    if duplicates:
        raise SchemaError(
            f"{source}: column 'id' has {len(duplicates)} duplicated ids {summarize(duplicates)}; expected "
            "each AdMIRe id once across all files"
        )
    return AdmireSource(rows, location)


def _suffix(data: bytes, name: str | None) -> str:
    """File suffix from the bytes' magic number, else from the struct's ``path``, else ``.img``."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ".webp"
    for magic, suffix in _MAGIC:
        if data.startswith(magic):
            return suffix
    if name and Path(name).suffix:
        return Path(name).suffix.lower()
    return ".img"


def _cells(path: Path, wanted: dict[int, set[int]]) -> Iterable[tuple[int, int, Any]]:
    """(row index, position, cell value) for the wanted cells of one file, batch by batch."""
    import pyarrow.parquet as pq

    positions = sorted({p for ps in wanted.values() for p in ps})
    columns = [IMAGE_COLUMNS[p - 1] for p in positions]
    column_of = {p: i for i, p in enumerate(positions)}
    offset = 0
    for batch in pq.ParquetFile(path).iter_batches(batch_size=32, columns=columns):
        for local in range(batch.num_rows):
            for position in sorted(wanted.get(offset + local, ())):
                yield offset + local, position, batch.column(column_of[position])[local].as_py()
        offset += batch.num_rows


def stage_images(
    refs: Sequence[ImageRef], source: AdmireSource, root: Path, resources: list[Any]
) -> ImageFiles:
    """Locate or stage the files of ``refs``; embedded bytes go to a temporary folder.

    The temporary folder is appended to ``resources`` (a :class:`~mmjudge.data.BuiltDataset`'s
    ``resources``, cleaned up once the folder is written). Images given by file name are resolved
    against ``root`` and listed in ``names``; whether they exist is the caller's check.
    """
    temporary = tempfile.TemporaryDirectory(prefix="mmjudge-mist-")
    resources.append(temporary)
    staging = Path(temporary.name)
    by_file: dict[Path, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    by_cell: dict[tuple[Path, int, int], list[ImageRef]] = defaultdict(list)
    for ref in refs:
        path, index = source.location[ref.row_id]
        by_file[path][index].add(ref.position)
        by_cell[(path, index, ref.position)].append(ref)
    relpaths: dict[ImageRef, str] = {}
    sources: dict[ImageRef, Path] = {}
    names: dict[ImageRef, str] = {}
    for path, wanted in by_file.items():
        for index, position, value in _cells(path, wanted):
            refs_here = by_cell[(path, index, position)]
            where = f"{path}: row id {refs_here[0].row_id}, column {IMAGE_COLUMNS[position - 1]!r}"
            rel, src, name = _place(value, where, root, staging)
            for ref in refs_here:
                relpaths[ref], sources[ref] = rel, src
                if name is not None:
                    names[ref] = name
    return ImageFiles(relpaths, sources, names)


def _place(value: Any, where: str, root: Path, staging: Path) -> tuple[str, Path, str | None]:
    data = value.get("bytes") if isinstance(value, dict) else None
    name = value.get("path") if isinstance(value, dict) else value
    if data:
        digest = hashlib.sha256(data).hexdigest()[:16]
        staged = staging / f"sha256-{digest}{_suffix(data, name)}"
        if not staged.exists():
            staged.write_bytes(data)
        return f"media/images/{staged.name}", staged, None
    if not isinstance(name, str) or not name.strip():
        raise SchemaError(f"{where}: expected image bytes or a file name, got {summarize([value], 1)}")
    try:
        file = resolve_media(name, root)
    except SchemaError as exc:
        raise SchemaError(f"{where}: {exc}") from None
    name = name.replace("\\", "/")
    return f"media/images/{name}", file, name
