"""Append-only JSON lines, one file per rank, read back whole: the resume logs of long runs.

The judge runner's verdict cache (:class:`mmjudge.runner.cache.VerdictCache`) and the generation build's
log of finished clips (``mmjudge.benchmarks.isovrbench.generate``) are both this log. Every rank appends
to its own ``rank<k>.jsonl`` and reads every rank's file when it starts; each append is flushed and
fsynced before it returns, so what a call wrote survives a kill. A line that does not read (a kill in
mid-write leaves a torn last line) is skipped and counted, and the rank's own file is ended with a newline
on open, so a later append never extends a torn line.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["RankLog"]

logger = logging.getLogger(__name__)


class RankLog:
    """The log of a folder: every rank's file read on open, this rank's file appended to.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> RankLog(folder, rank=1).append([{"key": "k1"}])
    >>> _ = (folder / "rank0.jsonl").write_text('{"key": "k0"}\\n{"ke')
    >>> log, seen = RankLog(folder, rank=0), []
    >>> log.read(lambda record: seen.append(record["key"])), sorted(seen), log.torn_lines
    (None, ['k0', 'k1'], 1)
    """

    def __init__(self, folder: str | Path, rank: int = 0) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / f"rank{rank}.jsonl"
        """This rank's file."""
        self.torn_lines = 0
        """Lines skipped by :meth:`read` (torn, not JSON, or refused by the reader)."""
        self._repair_own_tail()

    def read(self, take: Callable[[dict[str, Any]], Any]) -> None:
        """Call ``take`` on every record of every rank's file, in file order; a line that is not a JSON
        object, or that ``take`` refuses (``ValueError``, ``KeyError``, ``TypeError``), is skipped and counted."""
        for path in sorted(self.folder.glob("rank*.jsonl")):
            for line in path.read_bytes().split(b"\n"):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    if not isinstance(record, dict):
                        raise TypeError("not an object")
                    take(record)
                except (ValueError, KeyError, TypeError):
                    self.torn_lines += 1
                    logger.warning("%s: skipping a torn or unreadable line (%d bytes)", path, len(line))

    def append(self, records: Iterable[Mapping[str, Any]], *, sort_keys: bool = False) -> None:
        """Append ``records`` (one line each) and fsync them before returning; numpy values are written as
        plain numbers and lists."""
        lines = [json.dumps(dict(r), sort_keys=sort_keys, default=_json_default) for r in records]
        if not lines:
            return
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write("".join(line + "\n" for line in lines))
            handle.flush()
            os.fsync(handle.fileno())

    def _repair_own_tail(self) -> None:
        """End this rank's file with a newline so an append never extends a torn line."""
        if self.path.exists() and self.path.stat().st_size:
            with self.path.open("rb+") as handle:
                handle.seek(-1, os.SEEK_END)
                if handle.read(1) != b"\n":
                    handle.write(b"\n")


def _json_default(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)
