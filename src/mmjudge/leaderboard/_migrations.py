"""The leaderboard store's schema: SQLite migrations, applied in order by :class:`~mmjudge.leaderboard.Store`."""

from __future__ import annotations

__all__ = ["MIGRATIONS"]

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE submissions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        benchmark TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('verified', 'reported')),
        judge TEXT NOT NULL,
        model TEXT NOT NULL,
        revision TEXT NOT NULL DEFAULT '',
        link TEXT NOT NULL DEFAULT '',
        license TEXT NOT NULL DEFAULT '',
        weights TEXT NOT NULL DEFAULT 'unknown',
        submitter TEXT NOT NULL,
        created_at REAL NOT NULL,
        sha256 TEXT UNIQUE,
        results TEXT NOT NULL,
        header TEXT NOT NULL DEFAULT '{}',
        source TEXT NOT NULL DEFAULT '',
        hidden INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX submissions_model ON submissions (benchmark, model, revision)
        WHERE kind = 'verified';
    CREATE INDEX submissions_by_user ON submissions (submitter, created_at);
    CREATE TABLE requests (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        model TEXT NOT NULL,
        revision TEXT NOT NULL DEFAULT '',
        backend TEXT NOT NULL,
        config TEXT NOT NULL,
        benchmarks TEXT NOT NULL,
        submitter TEXT NOT NULL,
        created_at REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'FINISHED', 'FAILED')),
        worker TEXT NOT NULL DEFAULT '',
        lease_expires REAL NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        log_tail TEXT NOT NULL DEFAULT '',
        updated_at REAL NOT NULL,
        UNIQUE (model, revision, backend, config)
    );
    CREATE INDEX requests_by_status ON requests (status, created_at);
    """,
    # 2: requests are duplicates only with the same benchmarks too, and a FAILED one may be asked again
    # (the check moved into the enqueue transaction); submissions remember the request that stored them
    # (one row per request and benchmark), the file's coverage and secondary scorings.
    """
    CREATE TABLE requests_v2 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        model TEXT NOT NULL,
        revision TEXT NOT NULL DEFAULT '',
        backend TEXT NOT NULL,
        config TEXT NOT NULL,
        benchmarks TEXT NOT NULL,
        submitter TEXT NOT NULL,
        created_at REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'FINISHED', 'FAILED')),
        worker TEXT NOT NULL DEFAULT '',
        lease_expires REAL NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        log_tail TEXT NOT NULL DEFAULT '',
        updated_at REAL NOT NULL
    );
    INSERT INTO requests_v2 (id, model, revision, backend, config, benchmarks, submitter, created_at, status,
        worker, lease_expires, attempts, log_tail, updated_at)
        SELECT id, model, revision, backend, config, benchmarks, submitter, created_at, status, worker,
        lease_expires, attempts, log_tail, updated_at FROM requests;
    DROP TABLE requests;
    ALTER TABLE requests_v2 RENAME TO requests;
    CREATE INDEX requests_by_status ON requests (status, created_at);
    ALTER TABLE submissions ADD COLUMN request_id INTEGER;
    ALTER TABLE submissions ADD COLUMN coverage TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE submissions ADD COLUMN side_results TEXT NOT NULL DEFAULT '{}';
    CREATE UNIQUE INDEX submissions_request_step ON submissions (request_id, benchmark)
        WHERE request_id IS NOT NULL;
    """,
)
"""Schema migrations; migration ``i`` brings ``PRAGMA user_version`` from ``i`` to ``i + 1``."""
