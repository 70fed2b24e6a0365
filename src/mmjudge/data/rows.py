"""Reading a built benchmark folder: its configs as rows (``datasets.load_dataset``, private cache), its hash."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mmjudge._hashing import file_sha256
from mmjudge.errors import MissingFileError, SchemaError

__all__ = ["dataset_hash", "load_rows"]


def load_rows(data_dir: str | Path, config: str, *, split: str = "test") -> list[dict[str, Any]]:
    """Load one config of a built folder with ``datasets.load_dataset``, bypassing the shared cache.

    The rows are read through a private, temporary ``cache_dir``: datasets 5 keys the cache of a local
    folder by the folder's name and config, so a rebuilt folder, or another folder with the same name,
    would otherwise return stale cached rows. Rows are returned undecoded: an image column
    (``datasets.Image``, e.g. MIST's) gives ``{"bytes", "path"}`` per row; read its relative path with
    :func:`mmjudge.data.images.image_path`.

    Raises:
        MissingFileError: ``data_dir`` is not an existing folder (it is never looked up on the Hub).
        SchemaError: the folder has no such config (it is not a built benchmark folder).
    """
    import tempfile

    if not Path(data_dir).is_dir():
        raise MissingFileError(
            f"{data_dir} is not an existing folder: expected a built benchmark folder (a README.md with "
            "configs and parquet files); build one with `mmjudge build-dataset <id>` or `mmjudge sample-data`, "
            "or check the --data path"
        )
    from datasets import load_dataset

    with tempfile.TemporaryDirectory(prefix="mmjudge-rows-") as cache_dir, _quiet_datasets():
        try:
            dataset = load_dataset(str(data_dir), config, split=split, cache_dir=cache_dir)
        except (ValueError, FileNotFoundError) as exc:
            raise SchemaError(
                f"{data_dir} is not a built benchmark folder with config {config!r} ({exc}); build one with "
                "`mmjudge build-dataset <id>` or `mmjudge sample-data`"
            ) from exc
        return list(dataset.to_list())


@contextmanager
def _quiet_datasets() -> Iterator[None]:
    """``datasets`` without its progress bars and info messages while mmjudge reads its own folder.

    Reading a local parquet folder draws a "Generating test split" bar on every call (once per process
    of a multi-process run); it says nothing about the user's work. The user's settings (progress bars
    on or off, the logging verbosity) are restored on exit.
    """
    import datasets
    from datasets.utils import logging as datasets_logging

    bars_were_on = not datasets.are_progress_bars_disabled()
    verbosity = datasets_logging.get_verbosity()
    datasets.disable_progress_bars()
    datasets_logging.set_verbosity(max(verbosity, datasets_logging.ERROR))
    try:
        yield
    finally:
        datasets_logging.set_verbosity(verbosity)
        if bars_were_on:
            datasets.enable_progress_bars()


def dataset_hash(data_dir: str | Path) -> str:
    """SHA-256 (16 hex digits) of a built folder's card and tables (``README.md``, ``data/**``).

    Media files are not hashed here; the verdict cache hashes each one an item uses.
    """
    root = Path(data_dir)
    digest = hashlib.sha256()
    files = [root / "README.md", *sorted(p for p in (root / "data").rglob("*") if p.is_file())]
    for path in files:
        if path.is_file():
            digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
            digest.update(bytes.fromhex(file_sha256(path)))
    return digest.hexdigest()[:16]
