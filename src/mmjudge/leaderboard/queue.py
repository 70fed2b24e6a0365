"""Model requests: validated, queued ``PENDING``, claimed atomically with a lease, finished or failed.

A worker claims the oldest request that is ``PENDING`` or ``RUNNING`` with an expired lease, in one
``BEGIN IMMEDIATE`` transaction, so two workers never hold the same request and a crashed worker's
request returns to the queue once its lease runs out. Only the worker holding the lease may renew or
finish a request.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmjudge.leaderboard.store import Store, SubmissionRejected, check_daily_limit

__all__ = [
    "ModelRequest",
    "RequestSpec",
    "claim",
    "enqueue",
    "finish",
    "get_request",
    "list_requests",
    "renew",
    "validate_request",
]

STATUSES = ("PENDING", "RUNNING", "FINISHED", "FAILED")
_REPO_ID = re.compile(r"^(?:[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/)?[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$")
_REVISION = re.compile(r"^[A-Za-z0-9_.\-/]{0,100}$")


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
    """Benchmarks to run."""


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
    """Tail of the run log (or the error)."""


def validate_request(model: str, revision: str, backend: str, config: Mapping[str, Any] | str | None,
                     benchmarks: Iterable[str], *, known_backends: Iterable[str] | None = None,
                     allow_local_paths: bool = False) -> RequestSpec:  # fmt: skip
    """Check a model request: repo id syntax, backend known, config keys and types, benchmarks known.

    ``config`` is a mapping or YAML/JSON text of :class:`mmjudge.judges.JudgeConfig` keys (``judge``,
    ``model`` and ``revision`` are filled in from the other arguments).

    >>> validate_request("org/tiny", "main", "random", "seed: 3", ["isovrbench"], known_backends=["random"]).config["seed"]
    3
    >>> validate_request("not a repo", "", "random", None, ["isovrbench"], known_backends=["random"])
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: model must be a Hub repo id like 'org/name', got 'not a repo'
    """
    from mmjudge import BENCHMARK_IDS
    from mmjudge.errors import ConfigError
    from mmjudge.judges._config import config_from_mapping

    model, revision, backend = model.strip(), (revision or "").strip(), backend.strip()
    is_local = allow_local_paths and Path(model).is_absolute() and Path(model).is_dir()
    if not is_local and not _REPO_ID.match(model):
        raise SubmissionRejected(f"model must be a Hub repo id like 'org/name', got {model!r}")
    if not _REVISION.match(revision):
        raise SubmissionRejected(f"revision must be a commit, branch or tag name, got {revision!r}")
    known = sorted(known_backends) if known_backends is not None else _registered_judges()
    if backend not in known:
        raise SubmissionRejected(f"unknown judge backend {backend!r}; known: {known}")
    chosen = tuple(dict.fromkeys(b.strip() for b in benchmarks if b.strip()))
    if not chosen or any(b not in BENCHMARK_IDS for b in chosen):
        raise SubmissionRejected(
            f"benchmarks must be a non-empty subset of {list(BENCHMARK_IDS)}, got {list(chosen)}"
        )
    mapping = dict(_config_mapping(config))
    mapping.update(judge=backend, model=model, revision=revision or None)
    try:
        config_from_mapping(mapping, source="request config")
    except ConfigError as exc:
        raise SubmissionRejected(str(exc)) from exc
    return RequestSpec(model, revision, backend, mapping, chosen)


def _registered_judges() -> list[str]:
    from mmjudge.registry import JUDGES

    return sorted(JUDGES.names())


def _config_mapping(config: Mapping[str, Any] | str | None) -> Mapping[str, Any]:
    if config is None or (isinstance(config, str) and not config.strip()):
        return {}
    if isinstance(config, str):
        import yaml

        try:
            config = yaml.safe_load(config)
        except yaml.YAMLError as exc:
            raise SubmissionRejected(f"config must be YAML or JSON key: value pairs ({exc})") from exc
    if not isinstance(config, Mapping):
        raise SubmissionRejected(
            f"config must be a mapping of judge config keys, got {type(config).__name__}"
        )
    return config


def enqueue(store: Store, spec: RequestSpec, submitter: str, *, daily_limit: int | None = None,
            now: float | None = None) -> int:  # fmt: skip
    """Queue a validated request as ``PENDING``; duplicates (model, revision, backend, config) are refused."""
    now = time.time() if now is None else now
    config = json.dumps(dict(spec.config), sort_keys=True)
    with store.transaction() as conn:
        found = conn.execute(
            "SELECT id, status FROM requests WHERE model = ? AND revision = ? AND backend = ? AND config = ?",
            (spec.model, spec.revision, spec.backend, config),
        ).fetchone()
        if found:
            raise SubmissionRejected(f"the same request is already queued: request #{found[0]} ({found[1]})")
        if daily_limit is not None:
            check_daily_limit(conn, submitter, daily_limit, now)
        cursor = conn.execute(
            "INSERT INTO requests (model, revision, backend, config, benchmarks, submitter, created_at, status, "
            "updated_at) VALUES (?,?,?,?,?,?,?,'PENDING',?)",
            (
                spec.model,
                spec.revision,
                spec.backend,
                config,
                json.dumps(list(spec.benchmarks)),
                submitter,
                now,
                now,
            ),
        )
        return int(cursor.lastrowid or 0)


def claim(
    store: Store, worker: str, *, lease_s: float = 600.0, now: float | None = None
) -> ModelRequest | None:
    """Claim the oldest pending (or lease-expired running) request for ``worker``; ``None`` when none."""
    now = time.time() if now is None else now
    with store.transaction() as conn:
        found = conn.execute(
            "SELECT id FROM requests WHERE status = 'PENDING' OR (status = 'RUNNING' AND lease_expires < ?) "
            "ORDER BY created_at, id LIMIT 1",
            (now,),
        ).fetchone()
        if found is None:
            return None
        conn.execute(
            "UPDATE requests SET status = 'RUNNING', worker = ?, lease_expires = ?, attempts = attempts + 1, "
            "updated_at = ? WHERE id = ?",
            (worker, now + lease_s, now, found[0]),
        )
    return get_request(store, int(found[0]))


def renew(
    store: Store, request_id: int, worker: str, *, lease_s: float = 600.0, now: float | None = None
) -> bool:
    """Extend the lease; ``False`` when ``worker`` no longer holds it (it expired and was re-claimed)."""
    now = time.time() if now is None else now
    with store.transaction() as conn:
        cursor = conn.execute(
            "UPDATE requests SET lease_expires = ?, updated_at = ? WHERE id = ? AND worker = ? AND status = 'RUNNING'",
            (now + lease_s, now, request_id, worker),
        )
        return cursor.rowcount == 1


def finish(
    store: Store, request_id: int, worker: str, *, ok: bool, log_tail: str, now: float | None = None
) -> bool:
    """Mark a request FINISHED or FAILED with the log tail; ``False`` when ``worker`` lost the lease."""
    now = time.time() if now is None else now
    with store.transaction() as conn:
        cursor = conn.execute(
            "UPDATE requests SET status = ?, log_tail = ?, updated_at = ?, lease_expires = 0 "
            "WHERE id = ? AND worker = ? AND status = 'RUNNING'",
            ("FINISHED" if ok else "FAILED", log_tail[-4000:], now, request_id, worker),
        )
        return cursor.rowcount == 1


_REQUEST_COLUMNS = (
    "model, revision, backend, config, benchmarks, id, submitter, created_at, status, worker, lease_expires, "
    "attempts, log_tail"
)


def get_request(store: Store, request_id: int) -> ModelRequest | None:
    """One request by id."""
    with store.connect() as conn:
        found = conn.execute(
            f"SELECT {_REQUEST_COLUMNS} FROM requests WHERE id = ?", (request_id,)
        ).fetchone()
    return None if found is None else _request(found)


def list_requests(store: Store) -> list[ModelRequest]:
    """All requests, oldest first."""
    with store.connect() as conn:
        return [_request(r) for r in conn.execute(f"SELECT {_REQUEST_COLUMNS} FROM requests ORDER BY id")]


def _request(found: tuple[Any, ...]) -> ModelRequest:
    model, revision, backend, config, benchmarks, *rest = found
    row_id, submitter, created_at, status, worker, lease_expires, attempts, log_tail = rest
    return ModelRequest(
        model=model, revision=revision, backend=backend, config=json.loads(config),
        benchmarks=tuple(json.loads(benchmarks)), id=int(row_id), submitter=submitter,
        created_at=float(created_at), status=status, worker=worker, lease_expires=float(lease_expires),
        attempts=int(attempts), log_tail=log_tail,
    )  # fmt: skip
