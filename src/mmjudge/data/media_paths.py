"""Media paths in dataset rows: relative strings resolved against a root, never escaping it.

Rows store media as relative POSIX path strings (``video/sample_001.mp4``). :func:`resolve_media`
joins one to a root and refuses anything that could point outside it; :func:`check_media` applies the
missing-media policy of a build (fail listing the first missing files, or keep and mark the rows);
:func:`mark_missing_media` applies it to the media columns of a table and appends ``media_missing``.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING

import numpy as np

from mmjudge.errors import MediaError, SchemaError

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["MediaRoot", "check_media", "mark_missing_media", "resolve_media", "validate_relpath"]

_SHOWN = 5
_PLAIN = re.compile(r"^(?!\./)(?!.*//)(?!.*/\./)(?!.*/\.$)[^/\\:\s][^\\:]*(?<![/\s])$")
"""Already-normal relative POSIX paths: no leading or doubled slash, no ``.`` part, no ``\\`` or ``:``."""


def validate_relpath(relpath: str, *, root: str | Path | None = None) -> str:
    """Check a stored media path without touching the disk; return it ``/``-separated.

    Args:
        relpath: the path string from a row.
        root: named in the message only.

    >>> validate_relpath("./clips/a.mp4")
    'clips/a.mp4'
    >>> validate_relpath("/etc/passwd")
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: media path '/etc/passwd' is absolute: expected a relative path inside the media root without '..' components
    """
    text = "" if relpath is None else str(relpath)
    if "\x00" in text:
        where = f"the root {root}" if root is not None else "the media root"
        raise SchemaError(
            f"media path {text!r} contains a NUL byte (position {text.index(chr(0)) + 1}): expected a relative "
            f"path inside {where}; fix the path in the table"
        )
    if _PLAIN.match(text) and ".." not in text.split("/"):
        return text  # the common case, without building path objects
    where = f"the root {root}" if root is not None else "the media root"
    expected = f"expected a relative path inside {where} without '..' components"
    if not text.strip():
        raise SchemaError(f"media path is empty: {expected}")
    posix = PurePosixPath(text.replace("\\", "/"))
    if posix.is_absolute() or PureWindowsPath(text).is_absolute() or PureWindowsPath(text).drive:
        raise SchemaError(f"media path {text!r} is absolute: {expected}")
    if ".." in posix.parts:
        raise SchemaError(f"media path {text!r} escapes {where}: {expected}")
    return posix.as_posix()


class MediaRoot:
    """A media root whose real path is computed once; :meth:`resolve` is :func:`resolve_media`.

    >>> MediaRoot("/data/dfew").resolve("clips/1.mp4").as_posix()
    '/data/dfew/clips/1.mp4'
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self._real = os.path.realpath(self.root)

    def resolve(self, relpath: str) -> Path:
        """``root / relpath``, refusing paths that escape the root (see :func:`resolve_media`)."""
        rel = validate_relpath(relpath, root=self.root)
        joined = os.path.join(self.root, rel)
        real = os.path.realpath(joined)
        if real != self._real and not real.startswith(self._real.rstrip(os.sep) + os.sep):
            raise SchemaError(
                f"media path {relpath!r} resolves to {real}, outside its root {self._real} (a symlink out of "
                "the root?): expected a file inside the root; copy the file into the root instead"
            )
        return Path(joined)


def resolve_media(relpath: str, root: str | Path) -> Path:
    """Join ``relpath`` to ``root``, refusing paths that escape the root.

    Rejected with :class:`~mmjudge.errors.SchemaError`: empty paths, absolute paths (POSIX or
    Windows), ``..`` components, and paths whose resolved target (following symlinks) lies outside
    the resolved root. The file need not exist; see :func:`check_media` for that.

    Args:
        relpath: a relative path string as stored in a row, ``/``-separated.
        root: the folder the path is relative to.

    Returns:
        ``root / relpath`` (not resolved, so a symlink inside the root keeps its name).

    >>> resolve_media("video/a.mp4", "/data/mer").as_posix()
    '/data/mer/video/a.mp4'
    >>> resolve_media("../secret.mp4", "/data/mer")
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: media path '../secret.mp4' escapes the root /data/mer: expected a relative path inside the root /data/mer without '..' components
    """
    return MediaRoot(root).resolve(relpath)


def check_media(
    relpaths: Sequence[str],
    root: str | Path,
    *,
    allow_missing: bool = False,
    source: str | Path = "",
    column: str = "video",
    ids: Sequence[object] | None = None,
) -> np.ndarray:
    """Resolve every path under ``root`` and apply the missing-media policy.

    Args:
        relpaths: relative media paths, one per row.
        root: the media root they are relative to.
        allow_missing: keep rows whose file is missing (and warn with the count) instead of failing.
        source: the file the rows came from, for messages.
        column: the column holding the paths, for messages.
        ids: row ids for messages (row numbers when ``None``).

    Returns:
        Boolean mask, ``True`` where the file is missing (all ``False`` when nothing is missing).

    Raises:
        SchemaError: a path escapes the root (names the row and column).
        MediaError: files are missing and ``allow_missing`` is false (names the first few and the count).

    >>> import tempfile, warnings
    >>> root = Path(tempfile.mkdtemp()); _ = (root / "a.mp4").write_bytes(b"x")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     check_media(["a.mp4", "b.mp4"], root, allow_missing=True).tolist()
    [False, True]
    >>> "1 of 2 media files" in str(caught[0].message)
    True
    """
    root = Path(root)
    media_root = MediaRoot(root)
    missing = np.zeros(len(relpaths), dtype=bool)
    for index, rel in enumerate(relpaths):
        where = ids[index] if ids is not None else index
        try:
            path = media_root.resolve(rel)
        except SchemaError as exc:
            raise SchemaError(f"{source or 'input'}: row {where!r}, column {column!r}: {exc}") from None
        missing[index] = not path.is_file()
    count = int(missing.sum())
    if count:
        first = [str(relpaths[i]) for i in np.flatnonzero(missing)[:_SHOWN]]
        if not allow_missing:
            raise MediaError(
                f"{count} of {len(relpaths)} media files in column {column!r} of {source or 'input'} are "
                f"missing under {root}; first: {first}. Pass the right media root (--media-root), or "
                "--allow-missing-media to keep those rows marked media_missing=True"
            )
        warnings.warn(
            f"{count} of {len(relpaths)} media files in column {column!r} of {source or 'input'} are "
            f"missing under {root} (first: {first}); rows kept with media_missing=True",
            UserWarning,
            stacklevel=2,
        )
    return missing


def mark_missing_media(
    table: pa.Table,
    root: str | Path,
    *,
    allow_missing: bool,
    source: str | Path,
    id_column: str,
    columns: Sequence[tuple[str, str]] = (("video_path", "video_path"), ("audio_path", "audio_path")),
    warn: bool = True,
) -> tuple[pa.Table, int]:
    """Run :func:`check_media` on each media column and append ``media_missing`` (any file missing).

    Args:
        table: rows with the media columns and ``id_column``.
        root: the media root the paths are relative to.
        allow_missing: keep rows whose file is missing instead of failing (see :func:`check_media`).
        source: the file the rows came from, for messages.
        id_column: the column whose values name the rows in messages.
        columns: ``(table column, column named in messages)`` pairs, checked in this order.
        warn: emit the missing-files warning (``False`` silences it, e.g. for a mirrored table).

    Returns:
        The table with a ``media_missing`` bool column appended, and the number of rows marked.

    >>> import tempfile, pyarrow as pa
    >>> root = Path(tempfile.mkdtemp()); _ = (root / "a.mp4").write_bytes(b"x")
    >>> rows = pa.table({"id": [1, 2], "video_path": ["a.mp4", "b.mp4"]})
    >>> marked, count = mark_missing_media(
    ...     rows, root, allow_missing=True, source="x.json", id_column="id",
    ...     columns=[("video_path", "video")], warn=False)
    >>> marked.column("media_missing").to_pylist(), count
    ([False, True], 1)
    """
    import pyarrow as pa

    ids = table.column(id_column).to_pylist()
    missing = np.zeros(table.num_rows, dtype=bool)
    with warnings.catch_warnings():
        if not warn:
            warnings.simplefilter("ignore")
        for name, label in columns:
            missing |= check_media(
                table.column(name).to_pylist(),
                root,
                allow_missing=allow_missing,
                source=source,
                column=label,
                ids=ids,
            )
    return table.append_column("media_missing", pa.array(missing, pa.bool_())), int(missing.sum())
