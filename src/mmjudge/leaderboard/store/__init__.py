"""The leaderboard's store: every SQL statement of the leaderboard lives in this package.

One store, SQLite (a file) or PostgreSQL (a URL the Space and the workers on other machines share); what
differs between the two is :mod:`._sql` (connections, placeholders, locking, upserts), and the schema and
its migrations, step for step on both, :mod:`._migrations`. :class:`Store` (:mod:`._store`) opens it and
migrates it. The rows: submissions (scored files, published rows, the worker's rows; :mod:`._submissions`),
their rank cells (:mod:`._ranks`), model requests (:mod:`._requests`), worker heartbeats (:mod:`._workers`)
and login sessions (:mod:`._sessions`). The rest of the leaderboard holds the rules (what a request may set, how rows rank)
and calls these functions.
"""

from __future__ import annotations

from mmjudge.leaderboard.store._migrations import MIGRATIONS, POSTGRES_MIGRATIONS
from mmjudge.leaderboard.store._requests import (
    DEFAULT_MAX_ATTEMPTS,
    REQUEST_COLUMNS,
    ModelRequest,
    RequestSpec,
    all_requests,
    claim,
    finish,
    get_request,
    insert_request,
    list_requests,
    renew,
    request_row,
)
from mmjudge.leaderboard.store._sessions import close_session, open_session, session_user
from mmjudge.leaderboard.store._sql import Connection, is_postgres_url
from mmjudge.leaderboard.store._store import Store
from mmjudge.leaderboard.store._submissions import (
    PUBLISHED,
    RUN_HERE,
    SUBMITTED,
    TIERS,
    LadderRule,
    Lease,
    LeaseLost,
    NewSubmission,
    StoredSubmission,
    SubmissionRejected,
    check_daily_limit,
    check_lease,
    insert_row,
    sync_reported,
    visible_submissions,
)
from mmjudge.leaderboard.store._workers import upsert_worker, worker_rows

__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "MIGRATIONS",
    "POSTGRES_MIGRATIONS",
    "PUBLISHED",
    "REQUEST_COLUMNS",
    "RUN_HERE",
    "SUBMITTED",
    "TIERS",
    "Connection",
    "LadderRule",
    "Lease",
    "LeaseLost",
    "ModelRequest",
    "NewSubmission",
    "RequestSpec",
    "Store",
    "StoredSubmission",
    "SubmissionRejected",
    "all_requests",
    "check_daily_limit",
    "check_lease",
    "claim",
    "close_session",
    "finish",
    "get_request",
    "insert_request",
    "insert_row",
    "is_postgres_url",
    "list_requests",
    "open_session",
    "renew",
    "request_row",
    "session_user",
    "sync_reported",
    "upsert_worker",
    "visible_submissions",
    "worker_rows",
]
