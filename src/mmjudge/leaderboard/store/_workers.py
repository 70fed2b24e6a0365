"""The store's worker heartbeats: the upsert each beat makes and the read the queue tab makes.

One row per worker id (``INSERT ... ON CONFLICT``, the same SQL on both backends); what a beat means and
how old is silent is :mod:`mmjudge.leaderboard.core.heartbeats`.
"""

from __future__ import annotations

from typing import Any

from mmjudge.leaderboard.store._store import Store

__all__ = ["upsert_worker", "worker_rows"]


def upsert_worker(store: Store, worker: str, *, state: str, request_id: int | None, gpus: int, now: float,
                  version: str) -> None:  # fmt: skip
    """Create ``worker``'s row on its first beat, else update its beat, state, request, GPUs and version."""
    with store.transaction(serialized=False) as conn:
        conn.execute(
            "INSERT INTO workers (id, started_at, heartbeat, state, request_id, gpus, version) "
            "VALUES (?,?,?,?,?,?,?) ON CONFLICT (id) DO UPDATE SET heartbeat = excluded.heartbeat, "
            "state = excluded.state, request_id = excluded.request_id, gpus = excluded.gpus, "
            "version = excluded.version",
            (worker, now, now, state, request_id, int(gpus), version),
        )


def worker_rows(store: Store) -> list[tuple[Any, ...]]:
    """``(id, started_at, heartbeat, state, request_id, gpus, version)`` of every worker, latest beat first."""
    with store.connect() as conn:
        return list(conn.execute(
            "SELECT id, started_at, heartbeat, state, request_id, gpus, version FROM workers "
            "ORDER BY heartbeat DESC, id"
        ).fetchall())  # fmt: skip
