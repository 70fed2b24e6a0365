"""Resume log of a build: a rank log (:class:`mmjudge._rank_log.RankLog`, the judge runner's verdict cache
is one too), fsynced after each finished clip.

Every rank appends to its own ``records/rank<k>.jsonl`` and reads every rank's file on start; a torn last
line (a kill mid-write) is skipped. A line is written only after its clip file was written under a temporary name, fsynced and
renamed into place, so a recorded clip is always complete on disk. A clip counts as finished when its
line carries the same spec key (a hash of everything that determines it) and the file on disk still
has the recorded size and modification time, or else the recorded sha256; anything else is generated
again.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mmjudge._hashing import file_sha256
from mmjudge._rank_log import RankLog

__all__ = ["ClipLog", "spec_key"]

logger = logging.getLogger(__name__)


def spec_key(spec: Mapping[str, Any]) -> str:
    """Hash of a clip's generation spec (16 hex digits); key order does not matter.

    >>> spec_key({"a": 1, "b": [2]}) == spec_key({"b": [2], "a": 1})
    True
    """
    text = json.dumps(spec, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class ClipLog:
    """Finished clips of a build folder (all rank files read on open; this rank's file appended to).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> log = ClipLog(folder, rank=1)
    >>> log.put({"clip": "c/a.mp4", "key": "k1", "sha256": "x"})
    >>> _ = (folder / "rank0.jsonl").write_text('{"clip": "c/b.mp4", "key": "k2", "sha256": "y"}\\n{"cl')
    >>> reopened = ClipLog(folder, rank=0)
    >>> sorted(reopened.records), reopened.torn_lines
    (['c/a.mp4', 'c/b.mp4'], 1)
    """

    def __init__(self, folder: str | Path, rank: int = 0) -> None:
        self._log = RankLog(folder, rank)
        self.folder, self.path = self._log.folder, self._log.path
        self.records: dict[str, dict[str, Any]] = {}
        """Clip path (relative to the build folder) -> its latest record."""
        self._log.read(lambda record: self.records.__setitem__(str(record["clip"]), record))

    @property
    def torn_lines(self) -> int:
        """Unreadable lines skipped on open."""
        return self._log.torn_lines

    def finished(self, clip: str, key: str, root: Path) -> dict[str, Any] | None:
        """The record of ``clip`` if it was made from spec ``key`` and its file is intact, else ``None``.

        A file with the recorded size and modification time is taken as intact without reading it (a
        resume over thousands of clips stays quick); otherwise (a copied folder, say) its sha256 decides.
        """
        record = self.records.get(clip)
        if record is None or record.get("key") != key:
            return None
        path = root / clip
        try:
            stat = path.stat()
        except OSError:
            stat = None
        if stat is not None and (stat.st_size, stat.st_mtime_ns) == (
            record.get("bytes"),
            record.get("mtime_ns"),
        ):
            return record
        if stat is None or file_sha256(path) != record.get("sha256"):
            logger.warning("%s is missing or changed since it was recorded; generating it again", path)
            return None
        return record

    def put(self, record: Mapping[str, Any]) -> None:
        """Append one record and fsync it before returning."""
        self._log.append([record], sort_keys=True)
        self.records[str(record["clip"])] = dict(record)
