"""The leaderboard store's schema: migrations, applied in order by :class:`~mmjudge.leaderboard.Store`.

:data:`MIGRATIONS` is the SQLite DDL, :data:`POSTGRES_MIGRATIONS` the PostgreSQL DDL of the same steps:
step ``i`` of both gives the same tables, columns, constraints and indexes (a test compares the two
schemas). A new step is added to both tuples.
"""

from __future__ import annotations

__all__ = ["MIGRATIONS", "POSTGRES_MIGRATIONS"]

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
    # 3: workers report a heartbeat (shown in the queue tab), whether or not they hold a request.
    """
    CREATE TABLE workers (
        id TEXT PRIMARY KEY,
        started_at REAL NOT NULL,
        heartbeat REAL NOT NULL,
        state TEXT NOT NULL DEFAULT 'idle',
        request_id INTEGER,
        gpus INTEGER NOT NULL DEFAULT 0,
        version TEXT NOT NULL DEFAULT ''
    );
    """,
    # 4: verified rows keep the per-unit paired data of their headline keys (mmjudge.leaderboard.significance),
    # so the table can test a row against the best one; rows stored before have none ('').
    """
    ALTER TABLE submissions ADD COLUMN paired TEXT NOT NULL DEFAULT '';
    """,
    # 5: provenance and the set a row was scored on (leaderboard trust round two). ``tier``: published (a paper
    # table), run here (the server's own worker or its operator's baselines), submitted (uploaded predictions);
    # ``reference_line``: a weight-free baseline of the operator, shown but not ranked; ``scored_on``: the data
    # (JSON: dataset, revision or content hash, units); ``ladder``: the score shown in private-label mode.
    # Rows stored before: reported -> published, a request's rows -> run here, the demo baselines (submitter
    # 'baseline') -> run here reference lines, the rest submitted; their set is unknown ('{}'). One verified row
    # per model, revision and tier: a submitted file cannot block the server's own run of that model.
    """
    ALTER TABLE submissions ADD COLUMN tier TEXT NOT NULL DEFAULT 'submitted'
        CHECK (tier IN ('published', 'run here', 'submitted'));
    ALTER TABLE submissions ADD COLUMN reference_line INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE submissions ADD COLUMN scored_on TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE submissions ADD COLUMN ladder REAL;
    UPDATE submissions SET tier = 'published',
        scored_on = '{"dataset": "' || benchmark || ' as published", "revision": "paper", "units": null}'
        WHERE kind = 'reported';
    UPDATE submissions SET tier = 'run here' WHERE request_id IS NOT NULL;
    UPDATE submissions SET tier = 'run here', reference_line = 1
        WHERE kind = 'verified' AND request_id IS NULL AND submitter = 'baseline';
    DROP INDEX submissions_model;
    CREATE UNIQUE INDEX submissions_model ON submissions (benchmark, model, revision, tier)
        WHERE kind = 'verified';
    """,
)
"""Schema migrations; migration ``i`` brings ``PRAGMA user_version`` from ``i`` to ``i + 1``."""

POSTGRES_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE submissions (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        benchmark TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('verified', 'reported')),
        judge TEXT NOT NULL,
        model TEXT NOT NULL,
        revision TEXT NOT NULL DEFAULT '',
        link TEXT NOT NULL DEFAULT '',
        license TEXT NOT NULL DEFAULT '',
        weights TEXT NOT NULL DEFAULT 'unknown',
        submitter TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
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
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        model TEXT NOT NULL,
        revision TEXT NOT NULL DEFAULT '',
        backend TEXT NOT NULL,
        config TEXT NOT NULL,
        benchmarks TEXT NOT NULL,
        submitter TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'FINISHED', 'FAILED')),
        worker TEXT NOT NULL DEFAULT '',
        lease_expires DOUBLE PRECISION NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        log_tail TEXT NOT NULL DEFAULT '',
        updated_at DOUBLE PRECISION NOT NULL,
        CONSTRAINT requests_same UNIQUE (model, revision, backend, config)
    );
    CREATE INDEX requests_by_status ON requests (status, created_at);
    """,
    """
    ALTER TABLE requests DROP CONSTRAINT requests_same;
    ALTER TABLE submissions ADD COLUMN request_id BIGINT;
    ALTER TABLE submissions ADD COLUMN coverage TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE submissions ADD COLUMN side_results TEXT NOT NULL DEFAULT '{}';
    CREATE UNIQUE INDEX submissions_request_step ON submissions (request_id, benchmark)
        WHERE request_id IS NOT NULL;
    """,
    """
    CREATE TABLE workers (
        id TEXT PRIMARY KEY,
        started_at DOUBLE PRECISION NOT NULL,
        heartbeat DOUBLE PRECISION NOT NULL,
        state TEXT NOT NULL DEFAULT 'idle',
        request_id BIGINT,
        gpus INTEGER NOT NULL DEFAULT 0,
        version TEXT NOT NULL DEFAULT ''
    );
    """,
    """
    ALTER TABLE submissions ADD COLUMN paired TEXT NOT NULL DEFAULT '';
    """,
    # 5: provenance and the set a row was scored on (leaderboard trust round two). ``tier``: published (a paper
    # table), run here (the server's own worker or its operator's baselines), submitted (uploaded predictions);
    # ``reference_line``: a weight-free baseline of the operator, shown but not ranked; ``scored_on``: the data
    # (JSON: dataset, revision or content hash, units); ``ladder``: the score shown in private-label mode.
    # Rows stored before: reported -> published, a request's rows -> run here, the demo baselines (submitter
    # 'baseline') -> run here reference lines, the rest submitted; their set is unknown ('{}'). One verified row
    # per model, revision and tier: a submitted file cannot block the server's own run of that model.
    """
    ALTER TABLE submissions ADD COLUMN tier TEXT NOT NULL DEFAULT 'submitted'
        CHECK (tier IN ('published', 'run here', 'submitted'));
    ALTER TABLE submissions ADD COLUMN reference_line INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE submissions ADD COLUMN scored_on TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE submissions ADD COLUMN ladder DOUBLE PRECISION;
    UPDATE submissions SET tier = 'published',
        scored_on = '{"dataset": "' || benchmark || ' as published", "revision": "paper", "units": null}'
        WHERE kind = 'reported';
    UPDATE submissions SET tier = 'run here' WHERE request_id IS NOT NULL;
    UPDATE submissions SET tier = 'run here', reference_line = 1
        WHERE kind = 'verified' AND request_id IS NULL AND submitter = 'baseline';
    DROP INDEX submissions_model;
    CREATE UNIQUE INDEX submissions_model ON submissions (benchmark, model, revision, tier)
        WHERE kind = 'verified';
    """,
)
"""The same steps for PostgreSQL; the version is kept in the one-row table ``mmjudge_schema``."""
