"""The store's model requests: the rows of the queue, and every statement that reads or changes them.

:mod:`mmjudge.leaderboard.core.queue` holds the rules (what a request may set, when two requests are the same run,
the attempt cap's message); this module holds the SQL, on either backend (``SELECT ... FOR UPDATE SKIP
LOCKED`` on PostgreSQL, SQLite's write lock otherwise: two workers never claim the same request). The
worker's :class:`~mmjudge.leaderboard.store.Lease` (worker and attempt) fences every renewal and finish.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mmjudge.leaderboard.store._sql import Connection
from mmjudge.leaderboard.store._store import Store
from mmjudge.leaderboard.store._submissions import Lease, SubmissionRejected, check_daily_limit

__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "REQUEST_COLUMNS",
    "ModelRequest",
    "RequestSpec",
    "all_requests",
    "claim",
    "finish",
    "get_request",
    "insert_request",
    "list_requests",
    "renew",
    "request_row",
]

DEFAULT_MAX_ATTEMPTS = 3
"""Claims of one request before it ends FAILED."""


@dataclass(frozen=True)
class RequestSpec:
    """A validated model request."""

    model: str
    """Hub repo id, or a local folder where local paths are allowed."""
    revision: str
    """Revision (commit, branch or tag; empty for the default branch)."""
    backend: str
    """Registered judge backend."""
    config: Mapping[str, Any]
    """Judge config (a mapping accepted by ``config_from_mapping``), model and revision included."""
    benchmarks: tuple[str, ...]
    """Benchmarks to run, in the canonical order of :func:`mmjudge.benchmarks.benchmark_ids`."""
    ladder_margin: float | None = None
    """Private-label mode, a non-admin's request: its rows go under the submitter's Ladder with this margin
    (:class:`~mmjudge.leaderboard.store.LadderRule`); ``None``: its rows are shown in full."""


@dataclass(frozen=True)
class ModelRequest(RequestSpec):
    """A queued request as stored."""

    id: int = 0
    """Row id."""
    submitter: str = ""
    """Who asked."""
    created_at: float = 0.0
    """Unix time queued."""
    status: str = "PENDING"
    """PENDING, RUNNING, FINISHED or FAILED."""
    worker: str = ""
    """Worker holding (or last holding) the lease."""
    lease_expires: float = 0.0
    """Unix time the current lease runs out."""
    attempts: int = 0
    """How many times it was claimed."""
    log_tail: str = ""
    """Tail of the run log (or the error), without server paths."""

    @property
    def lease(self) -> Lease:
        """The hold of the worker that made the latest claim."""
        return Lease(self.id, self.worker, self.attempts)


def insert_request(store: Store, spec: RequestSpec, submitter: str, *,
                   same: Callable[[str, str, Mapping[str, Any]], bool], daily_limit: int | None = None,
                   now: float | None = None) -> int:  # fmt: skip
    """Store ``spec`` as ``PENDING`` and return its id, in one serialized transaction.

    Raises:
        SubmissionRejected: a PENDING, RUNNING or FINISHED request with the same backend and benchmarks is
            the same run by ``same(model, revision, config)`` (the message names it), or the submitter
            reached ``daily_limit``.
    """
    now = time.time() if now is None else now
    benchmarks = json.dumps(list(spec.benchmarks))
    with store.transaction() as conn:
        cursor = conn.execute(
            "SELECT id, status, model, revision, config FROM requests WHERE backend = ? AND benchmarks = ? "
            "AND status != 'FAILED' ORDER BY id",
            (spec.backend, benchmarks),
        )
        for found_id, status, model, revision, found_config in cursor:
            if same(model, revision, json.loads(found_config)):
                raise SubmissionRejected(
                    f"the same request is already queued: request #{found_id} ({status}); a FAILED request "
                    "can be asked for again"
                )
        if daily_limit is not None:
            check_daily_limit(conn, submitter, daily_limit, now)
        return conn.insert(
            "INSERT INTO requests (model, revision, backend, config, benchmarks, submitter, created_at, status, "
            "updated_at, ladder_margin) VALUES (?,?,?,?,?,?,?,'PENDING',?,?)",
            (spec.model, spec.revision, spec.backend, json.dumps(dict(spec.config), sort_keys=True), benchmarks,
             submitter, now, now, spec.ladder_margin),
        )  # fmt: skip


def claim(store: Store, worker: str, *, lease_s: float = 600.0, now: float | None = None,
          max_attempts: int = DEFAULT_MAX_ATTEMPTS) -> ModelRequest | None:  # fmt: skip
    """Claim the oldest pending (or lease-expired running) request for ``worker``; ``None`` when none.

    A lease-expired request that already had ``max_attempts`` claims is not claimed again: it ends
    ``FAILED`` with its last log and a line saying so, and the next request is considered.
    """
    now = time.time() if now is None else now
    with store.transaction(serialized=False) as conn:
        while True:
            found = conn.execute(
                "SELECT id, attempts, log_tail FROM requests WHERE status = 'PENDING' "
                f"OR (status = 'RUNNING' AND lease_expires < ?) ORDER BY created_at, id LIMIT 1{conn.dialect.skip_locked}",
                (now,),
            ).fetchone()
            if found is None:
                return None
            request_id, attempts, log_tail = int(found[0]), int(found[1]), str(found[2])
            if attempts < max_attempts:
                break
            note = (
                f"\ngave up after {attempts} attempts (cap {max_attempts}): each claim ended without the "
                "request finishing (the worker was killed, or lost its lease); ask for it again once the "
                "cause is fixed"
            )
            conn.execute(
                "UPDATE requests SET status = 'FAILED', log_tail = ?, lease_expires = 0, updated_at = ? "
                "WHERE id = ?",
                ((log_tail + note)[-4000:], now, request_id),
            )
        conn.execute(
            "UPDATE requests SET status = 'RUNNING', worker = ?, lease_expires = ?, attempts = attempts + 1, "
            "updated_at = ? WHERE id = ?",
            (worker, now + lease_s, now, request_id),
        )
    return get_request(store, request_id)


def renew(store: Store, lease: Lease, *, lease_s: float = 600.0, now: float | None = None,
          log_tail: str | None = None) -> bool:  # fmt: skip
    """Extend the lease (and keep the latest log tail); ``False`` when ``lease`` no longer holds the request."""
    now = time.time() if now is None else now
    with store.transaction(serialized=False) as conn:
        cursor = conn.execute(
            "UPDATE requests SET lease_expires = ?, updated_at = ?, log_tail = COALESCE(?, log_tail) "
            "WHERE id = ? AND worker = ? AND attempts = ? AND status = 'RUNNING'",
            (now + lease_s, now, None if log_tail is None else log_tail[-4000:], *_fence(lease)),
        )
        return cursor.rowcount == 1


def finish(store: Store, lease: Lease, *, ok: bool, log_tail: str, now: float | None = None) -> bool:
    """Mark a request FINISHED or FAILED with the log tail; ``False`` when ``lease`` no longer holds it."""
    now = time.time() if now is None else now
    with store.transaction(serialized=False) as conn:
        cursor = conn.execute(
            "UPDATE requests SET status = ?, log_tail = ?, updated_at = ?, lease_expires = 0 "
            "WHERE id = ? AND worker = ? AND attempts = ? AND status = 'RUNNING'",
            ("FINISHED" if ok else "FAILED", log_tail[-4000:], now, *_fence(lease)),
        )
        return cursor.rowcount == 1


def _fence(lease: Lease) -> tuple[int, str, int]:
    return lease.request_id, lease.worker, lease.attempt


REQUEST_COLUMNS = (
    "model, revision, backend, config, benchmarks, id, submitter, created_at, status, worker, lease_expires, "
    "attempts, log_tail, ladder_margin"
)


def get_request(store: Store, request_id: int) -> ModelRequest | None:
    """One request by id."""
    with store.connect() as conn:
        found = conn.execute(
            f"SELECT {REQUEST_COLUMNS} FROM requests WHERE id = ?", (request_id,)
        ).fetchone()
    return None if found is None else request_row(found)


def list_requests(store: Store) -> list[ModelRequest]:
    """All requests, oldest first."""
    with store.connect() as conn:
        return all_requests(conn)


def request_row(found: tuple[Any, ...]) -> ModelRequest:
    model, revision, backend, config, benchmarks, *rest = found
    row_id, submitter, created_at, status, worker, lease_expires, attempts, log_tail, ladder_margin = rest
    return ModelRequest(
        model=model, revision=revision, backend=backend, config=json.loads(config),
        benchmarks=tuple(json.loads(benchmarks)), id=int(row_id), submitter=submitter,
        created_at=float(created_at), status=status, worker=worker, lease_expires=float(lease_expires),
        attempts=int(attempts), log_tail=log_tail, ladder_margin=None if ladder_margin is None else float(ladder_margin),
    )  # fmt: skip


def all_requests(conn: Connection) -> list[ModelRequest]:
    """Every request, oldest first, read in ``conn``."""
    return [request_row(r) for r in conn.execute(f"SELECT {REQUEST_COLUMNS} FROM requests ORDER BY id")]
