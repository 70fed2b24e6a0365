"""File digests that every supported Python computes the same way (a leaf module).

``file_digest`` of ``hashlib`` exists only from Python 3.11 on, and the project declares ``>=3.10``:
files are read here in chunks instead, which gives the same digest on every version without holding a
large file (a clip, a parquet table) in memory at once.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["file_sha256"]

_CHUNK = 1 << 20
"""Bytes read at a time (1 MiB)."""


def file_sha256(path: str | Path) -> str:
    """SHA-256 hex digest of a file's bytes (``OSError`` propagates: a missing file is the caller's case).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "a.bin"
    >>> _ = p.write_bytes(b"abc")
    >>> file_sha256(p) == hashlib.sha256(b"abc").hexdigest()
    True
    """
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()
