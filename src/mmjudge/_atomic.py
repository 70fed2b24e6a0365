"""Files written whole or not at all (a low-level module).

Every file mmjudge writes for a reader to trust (prediction files, ``results.json``, the generated dataset's
tables, the leaderboard's Hub mirror) goes through :func:`write_atomic`: the text goes to a hidden temporary
file beside the target, is flushed and fsynced, and is renamed over the target in one step. A reader sees
the old file or the new one, never half of one; when producing the text fails (a record that does not
serialise, a kill), the old file is left as it was and the temporary file is removed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["write_atomic"]


def write_atomic(path: str | Path, text: str | Iterable[str]) -> Path:
    """Write ``text`` (one string, or chunks written in turn) to ``path`` atomically; returns the path.

    The parent folder is created. An exception while the chunks are produced or written propagates, with
    ``path`` unchanged and no temporary file left.

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "a.jsonl"
    >>> _ = write_atomic(p, "old\\n")
    >>> def lines():
    ...     yield "new\\n"
    ...     raise ValueError("record 2 does not serialise")
    >>> write_atomic(p, lines())
    Traceback (most recent call last):
    ...
    ValueError: record 2 does not serialise
    >>> p.read_text(), sorted(f.name for f in p.parent.iterdir())
    ('old\\n', ['a.jsonl'])
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            for chunk in (text,) if isinstance(text, str) else text:
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return path
