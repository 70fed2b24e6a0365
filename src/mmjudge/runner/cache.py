"""The runner's verdict cache: a rank log (:class:`mmjudge._rank_log.RankLog`: append-only JSON lines, one
file per rank), fsynced per judge call.

A record is ``{"key": ..., "item_id": ..., "verdict": {...}}``. The key hashes the judge fingerprint,
the content of every media file the query uses, the query's other fields and the media request, so a
changed clip, prompt or frame setting is judged again while an unchanged one never is. Every rank
appends to its own file (``rank<k>.jsonl``); on start the runner reads every rank file, so a run
killed at any point resumes exactly. A torn last line (a kill mid-write) is skipped.

Transient failures (``Verdict.transient``: connection, timeout, 5xx, out of memory) are held in memory
for the run but never written, and a line written before verdicts carried the flag whose error reads
as transient (:func:`mmjudge.judges._failures.looks_transient`) is not loaded: a rerun into the same
folder judges those queries again. Deterministic failures (unreadable media) stay cached.

A line keeps whether its verdict failed with an error (``Verdict.errored``) or is an answer without a
label; a line written before verdicts carried the flag is read as errored when it is a ``no_judgment``
whose error is not the no-label message of :func:`mmjudge.judges.free_text_verdict` (the only
``no_judgment`` answer mmjudge made then; every other one came from ``Verdict.failed``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from mmjudge._hashing import file_sha256
from mmjudge._rank_log import RankLog
from mmjudge.judges import MediaRequest, looks_transient
from mmjudge.queries import Diagnostics, Query, Verdict

logger = logging.getLogger(__name__)

_MEDIA_FIELDS = ("video", "audio", "image")
_NO_LABEL = re.compile(r"no .+ label in the reply ['\"]", re.DOTALL)
"""The error of a reply without a parseable label (``free_text_verdict``): an answer, not a failure."""


def verdict_to_dict(verdict: Verdict) -> dict[str, Any]:
    """A verdict as a JSON-able dict (the inverse of :func:`verdict_from_dict`).

    >>> v = Verdict("c1", {"VQ": 1.0}, diagnostics=Diagnostics(raw_text="7", latency_s=0.5))
    >>> verdict_from_dict(verdict_to_dict(v)) == v
    True
    """
    return {
        "item_id": verdict.item_id,
        "value": verdict.value,
        "no_judgment": verdict.no_judgment,
        "error": verdict.error,
        "diagnostics": dataclasses.asdict(verdict.diagnostics),
        "transient": verdict.transient,
        "errored": verdict.errored,
    }


def verdict_from_dict(data: Mapping[str, Any]) -> Verdict:
    """Rebuild a :class:`Verdict` from :func:`verdict_to_dict`'s output (or from an older line without
    ``errored``).

    >>> old = {"item_id": "c1", "no_judgment": True, "error": "MediaError: unreadable"}
    >>> verdict_from_dict(old).errored
    True
    >>> verdict_from_dict({**old, "error": "no A/B label in the reply 'maybe'"}).errored
    False
    """
    no_judgment = bool(data.get("no_judgment", False))
    error = data.get("error")
    return Verdict(
        item_id=str(data["item_id"]),
        value=data.get("value"),
        no_judgment=no_judgment,
        error=error,
        diagnostics=Diagnostics(**(data.get("diagnostics") or {})),
        transient=bool(data.get("transient", False)),
        errored=bool(data["errored"]) if "errored" in data else _errored_before_the_flag(no_judgment, error),
    )


def _errored_before_the_flag(no_judgment: bool, error: Any) -> bool:
    """Whether an unflagged (older) cached ``no_judgment`` failed with an error rather than held no label."""
    return no_judgment and not (isinstance(error, str) and _NO_LABEL.match(error))


class MediaHasher:
    """SHA-256 of media files, computed once per path per process (threads: hashing releases the GIL)."""

    def __init__(self) -> None:
        self._known: dict[Path, str] = {}

    def prime(self, paths: Iterable[Path], workers: int = 4) -> None:
        """Hash ``paths`` in a thread pool ahead of use."""
        todo = sorted({p for p in paths if p not in self._known})
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for path, digest in zip(todo, pool.map(_file_digest, todo), strict=True):
                self._known[path] = digest

    def digest(self, path: Path) -> str:
        """The file's SHA-256 hex digest, or ``"missing"`` / ``"unreadable"``."""
        if path not in self._known:
            self._known[path] = _file_digest(path)
        return self._known[path]


def _file_digest(path: Path) -> str:
    try:
        return file_sha256(path)
    except FileNotFoundError:
        return "missing"
    except OSError:
        return "unreadable"


def media_paths(query: Query) -> list[Path]:
    """The media files a query refers to."""
    return [p for name in _MEDIA_FIELDS if isinstance(p := getattr(query, name, None), Path)]


def cache_key(fingerprint: str, item: Query, request: MediaRequest, hasher: MediaHasher) -> str:
    """Hash of (judge fingerprint, media content, the query's other fields, the media request).

    Paths are left out: the same content under another folder hits the cache.
    """
    names = [f.name for f in dataclasses.fields(item)] if dataclasses.is_dataclass(item) else list(vars(item))
    fields = {name: getattr(item, name) for name in names if name not in _MEDIA_FIELDS}
    media = {
        name: hasher.digest(p) if isinstance(p := getattr(item, name, None), Path) else None
        for name in _MEDIA_FIELDS
        if hasattr(item, name)
    }
    payload = {
        "fingerprint": fingerprint,
        "type": type(item).__name__,
        "item": fields,
        "media": media,
        "request": dataclasses.asdict(request),
    }
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class VerdictCache:
    """Cached verdicts of a run folder: all rank files read on open, this rank's file appended to.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> cache = VerdictCache(folder, rank=1)
    >>> cache.put("k1", Verdict("c1", 0.5))
    >>> _ = (folder / "rank0.jsonl").write_text('{"key": "k0", "verdict": {"item_id": "c0", "value": 1}}\\n{"ke')
    >>> reopened = VerdictCache(folder, rank=0)
    >>> sorted(reopened.keys()), reopened.get("k1").value, reopened.torn_lines
    (['k0', 'k1'], 0.5, 1)
    """

    def __init__(self, folder: str | Path, rank: int = 0) -> None:
        self._log = RankLog(folder, rank)
        self.folder, self.path = self._log.folder, self._log.path
        self.retried = 0
        """Cached transient failures left out on open (judged again)."""
        self._verdicts: dict[str, Verdict] = {}
        self._log.read(self._take)

    @property
    def torn_lines(self) -> int:
        """Unreadable cache lines skipped on open."""
        return self._log.torn_lines

    def _take(self, record: Mapping[str, Any]) -> None:
        verdict = verdict_from_dict(record["verdict"])
        if _retry(verdict, record["verdict"]):
            self.retried += 1
            return
        self._verdicts[str(record["key"])] = verdict

    def keys(self) -> list[str]:
        """Cached keys."""
        return list(self._verdicts)

    def __contains__(self, key: object) -> bool:
        return key in self._verdicts

    def __len__(self) -> int:
        return len(self._verdicts)

    def get(self, key: str) -> Verdict:
        """The cached verdict under ``key``."""
        return self._verdicts[key]

    def remember(self, key: str, verdict: Verdict) -> None:
        """Hold a verdict another rank wrote (no write)."""
        self._verdicts[key] = verdict

    def put(self, key: str, verdict: Verdict) -> None:
        """Append one verdict and fsync it before returning."""
        self.put_many([(key, verdict)])

    def put_many(self, pairs: Sequence[tuple[str, Verdict]]) -> None:
        """Append the verdicts of one judge call (one line each) and fsync them before returning.

        The runner calls this once per ``judge_batch``: what a judge call returned is on disk before the
        next call starts, and a kill loses at most the call in flight (whose verdicts were never returned).
        """
        lasting = [(k, v) for k, v in pairs if not v.transient]  # transient failures: this run only
        self._log.append({"key": k, "verdict": verdict_to_dict(v)} for k, v in lasting)
        self._verdicts.update(pairs)


def _retry(verdict: Verdict, raw: Mapping[str, Any]) -> bool:
    """A cached failure to judge again: flagged transient, or an unflagged (older) line reading as one."""
    if not verdict.no_judgment:
        return False
    return verdict.transient if "transient" in raw else looks_transient(verdict.error)


__all__ = ["MediaHasher", "VerdictCache", "cache_key", "media_paths", "verdict_from_dict", "verdict_to_dict"]
