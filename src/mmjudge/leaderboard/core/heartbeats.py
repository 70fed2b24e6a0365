"""Worker heartbeats: each ``mmjudge leaderboard worker`` reports itself, so the queue tab shows who runs.

A worker upserts its row in the store (:func:`mmjudge.leaderboard.store.upsert_worker`) when it starts,
on every poll of the queue, and from its lease keeper while it runs a request; the row says what it
does (``idle``, ``running`` with the request, ``stopped``), how many GPUs it launches the runner on, its
mmjudge version, and the time of the last beat. A worker whose beat is older than a few lease periods is
shown as silent: it was killed, or lost the store.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from mmjudge._version import __version__
from mmjudge.leaderboard.store import Store, upsert_worker, worker_rows

__all__ = ["WorkerStatus", "beat", "list_workers"]

STATES = ("idle", "running", "stopped")


@dataclass(frozen=True)
class WorkerStatus:
    """A worker as its last heartbeat left it."""

    id: str
    """Worker id (``host:pid`` unless the worker was given ``--worker-id``)."""
    started_at: float
    """Unix time the worker started."""
    heartbeat: float
    """Unix time of its last beat."""
    state: str
    """``idle``, ``running`` or ``stopped``."""
    request_id: int | None
    """The request it runs (``running`` only)."""
    gpus: int
    """GPUs it launches the runner on (0: CPU)."""
    version: str
    """Its mmjudge version."""

    def age(self, now: float | None = None) -> float:
        """Seconds since the last beat."""
        return max(0.0, (time.time() if now is None else now) - self.heartbeat)


def beat(store: Store, worker: str, *, state: str = "idle", request_id: int | None = None, gpus: int = 0,
         now: float | None = None) -> None:  # fmt: skip
    """Record a heartbeat of ``worker`` (creating its row on the first beat).

    >>> import tempfile
    >>> from pathlib import Path
    >>> store = Store(Path(tempfile.mkdtemp()) / "lb.sqlite")
    >>> beat(store, "gpu-1:42", gpus=8, now=100.0); beat(store, "gpu-1:42", state="running", request_id=3, gpus=8, now=160.0)
    >>> [(w.id, w.state, w.request_id, w.gpus, w.started_at, w.heartbeat) for w in list_workers(store)]
    [('gpu-1:42', 'running', 3, 8, 100.0, 160.0)]
    """
    if state not in STATES:
        raise ValueError(f"worker state must be one of {STATES}, got {state!r}")
    now = time.time() if now is None else now
    upsert_worker(store, worker, state=state, request_id=request_id, gpus=gpus, now=now, version=__version__)


def list_workers(store: Store) -> list[WorkerStatus]:
    """Every worker that ever beat on this store, latest beat first."""
    return [
        WorkerStatus(str(i), float(s), float(h), str(st), None if r is None else int(r), int(g), str(v))
        for i, s, h, st, r, g, v in worker_rows(store)
    ]
