"""The optional Hub mirror: the store's public tables exported to a dataset repo, on either backend.

:func:`export_public_tables` reads both tables in one snapshot (a read-only transaction) and writes
``submissions.jsonl`` (the rows the tables show: hidden rows left out) and ``requests.jsonl`` (the
fields the queue tab shows; a request's config, lease and the raw log are not exported, and the log
tail goes through :func:`~mmjudge.leaderboard.core.redaction.public_log` again). A row's scores are what its
results file publishes (:func:`~mmjudge.leaderboard.board.export.public_scores`: a submitted row without its raw
counts) and, with private labels, what the table shows of a submitted row (its Ladder score only:
:func:`~mmjudge.leaderboard.board.table.public_row`). Non-finite numbers become
``null`` so every line is strict JSON. :func:`start_mirror` has ``huggingface_hub.CommitScheduler``
push that folder every few minutes, exporting just before each push; it needs a write token
(``HF_TOKEN``).
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any

from mmjudge._atomic import write_atomic
from mmjudge.leaderboard.board.export import public_scores
from mmjudge.leaderboard.board.table import public_row
from mmjudge.leaderboard.core.redaction import public_log
from mmjudge.leaderboard.store import Store, StoredSubmission, all_requests, visible_submissions

__all__ = ["MIRROR_FILES", "PUBLIC_REQUEST_FIELDS", "default_mirror_folder", "export_public_tables", "start_mirror"]

MIRROR_FILES = ("submissions.jsonl", "requests.jsonl")
"""The files a mirror holds."""
PUBLIC_REQUEST_FIELDS = (
    "id", "status", "model", "revision", "backend", "benchmarks", "submitter", "created_at", "attempts",
    "worker", "log_tail",
)  # fmt: skip
"""What the mirror exports of a model request: what the queue tab shows."""
# ``paired`` holds per-item outcomes (and EmoPrefer's gold classes): public, it would give away the labels
# the server keeps private; ``pairing`` is the server's own summary of it
_PRIVATE_SUBMISSION_FIELDS = ("hidden", "paired", "pairing")


def export_public_tables(store: Store, folder: str | Path, *, private_labels: bool = False) -> list[Path]:
    """Write the public tables of ``store`` into ``folder``; returns the files written (``private_labels``:
    the board's mode).

    >>> import tempfile
    >>> from mmjudge.leaderboard.store import NewSubmission
    >>> store = Store(Path(tempfile.mkdtemp()) / "lb.sqlite")
    >>> _ = store.insert_submission(NewSubmission("mist", "reported", "j", "m", "paper", {"x": float("nan")}))
    >>> out = export_public_tables(store, tempfile.mkdtemp())
    >>> [p.name for p in out], json.loads(out[0].read_text())["results"]
    (['submissions.jsonl', 'requests.jsonl'], {'x': None})
    """

    with store.snapshot() as conn:  # both tables as of one moment
        submissions, requests = visible_submissions(conn), all_requests(conn)
    sub_records = [_public_submission(s, private_labels) for s in submissions]
    req_records = [
        {**{k: getattr(r, k) for k in PUBLIC_REQUEST_FIELDS}, "log_tail": public_log(r.log_tail)} for r in requests
    ]
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return [_write_jsonl(folder / name, records) for name, records in zip(MIRROR_FILES, (sub_records, req_records), strict=True)]


def _public_submission(sub: StoredSubmission, private_labels: bool) -> dict[str, Any]:
    """A stored row as the mirror publishes it: what its table row and results file show, nothing more."""

    shown = public_row(sub, private=private_labels)
    record = {k: v for k, v in asdict(shown).items() if k not in _PRIVATE_SUBMISSION_FIELDS}
    record["results"] = public_scores(shown)
    return record


def _write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    # a push never sees half a file
    return write_atomic(path, (json.dumps(_finite(r), ensure_ascii=False, allow_nan=False) + "\n" for r in records))


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def default_mirror_folder(store: Store) -> Path:
    """``mirror/`` beside an SQLite store; for PostgreSQL, a folder in the user cache named by the URL's hash."""
    if store.path is not None:
        return store.path.parent / "mirror"
    from platformdirs import user_cache_dir

    digest = hashlib.sha256(store.display().encode("utf-8")).hexdigest()[:12]
    return Path(user_cache_dir("mmjudge")) / f"mirror-{digest}"


def start_mirror(store: Store, repo_id: str, *, every_min: float = 10.0, folder: str | Path | None = None,
                 private_labels: bool = False) -> Any:  # fmt: skip
    """Mirror the public tables of ``store`` to the Hub dataset ``repo_id`` (returns the ``CommitScheduler``;
    ``private_labels``: the board's mode, :func:`export_public_tables`)."""
    from huggingface_hub import CommitScheduler

    target = Path(folder) if folder is not None else default_mirror_folder(store)
    target.mkdir(parents=True, exist_ok=True)
    scheduler = CommitScheduler(repo_id=repo_id, repo_type="dataset", folder_path=target, every=every_min)
    lock = threading.Lock()
    original = scheduler.push_to_hub

    def push() -> Any:
        with lock, scheduler.lock:
            export_public_tables(store, target, private_labels=private_labels)
        return original()

    scheduler.push_to_hub = push  # type: ignore[method-assign]
    return scheduler
