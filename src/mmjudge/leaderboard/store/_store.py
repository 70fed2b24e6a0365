"""The leaderboard store: embedded SQLite (default) or PostgreSQL, schema migrations, atomic transactions.

``Store(path)`` opens one SQLite file in WAL mode; ``Store("postgresql://...")`` a PostgreSQL database
that the Space and workers on other machines share (:mod:`mmjudge.leaderboard.store._sql` holds what differs
between the two). Every write is one transaction on a fresh connection, and writes that check before
they insert are serialized (SQLite's ``BEGIN IMMEDIATE``; PostgreSQL's store-wide advisory lock), so
concurrent writers (Gradio worker threads, ``mmjudge leaderboard worker`` processes on any machine)
never both pass a check, and a crash leaves either the whole row or nothing. Duplicate checks and the
daily limit run inside the same transaction as the insert, so two simultaneous submissions of one file
cannot both get in. A row a model request stores carries the worker's :class:`Lease`; the insert
checks, in the same transaction and with the request's row locked, that the worker still holds that
request (same worker, same attempt, still running), so a worker that lost its lease stores nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Mapping
from pathlib import Path

from mmjudge.leaderboard.store._migrations import MIGRATIONS, POSTGRES_MIGRATIONS
from mmjudge.leaderboard.store._ranks import insert_rank_cells, select_rank_cells
from mmjudge.leaderboard.store._sql import Connection, open_backend
from mmjudge.leaderboard.store._submissions import (
    SUBMISSION_COLUMNS,
    LadderRule,
    Lease,
    NewSubmission,
    StoredSubmission,
    insert_row,
    read_submission,
)

__all__ = ["Store"]


class Store:
    """The leaderboard database at ``location`` (created and migrated on open).

    ``location`` is an SQLite file path or a ``postgresql://`` URL (needs ``mmjudge[postgres]``).

    >>> import tempfile
    >>> store = Store(Path(tempfile.mkdtemp()) / "lb.sqlite")
    >>> row = NewSubmission("bench", "verified", "j", "m", "local", {"average": 50.0}, sha256="ab")
    >>> store.insert_submission(row)
    1
    >>> [s.model for s in store.submissions("bench")]
    ['m']
    """

    def __init__(self, location: str | Path, *, timeout: float = 30.0) -> None:
        self.backend = open_backend(location, timeout)
        self.location = self.backend.location
        """What the store was opened with (pass it to another process to open the same store)."""
        self.path: Path | None = self.backend.path
        """The SQLite file; ``None`` for a PostgreSQL store."""
        self.timeout = timeout
        self._migrate()

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.backend.dialect.name

    def display(self) -> str:
        """The location for messages (a URL's password replaced by ``***``)."""
        return self.backend.display()

    def connect(self) -> contextlib.AbstractContextManager[Connection]:
        """A connection for reads (each statement sees the latest committed data)."""
        return self.backend.connect()

    def transaction(self, *, serialized: bool = True) -> contextlib.AbstractContextManager[Connection]:
        """A write transaction: committed on success, rolled back on any error.

        ``serialized`` (the default) transactions run one at a time across every process using the
        store; pass ``False`` for one that locks the rows it changes itself (a queue claim).
        """
        return self.backend.transaction(serialized)

    def snapshot(self) -> contextlib.AbstractContextManager[Connection]:
        """A read-only transaction: all its reads see one consistent state of the store."""
        return self.backend.snapshot()

    def _migrate(self) -> None:
        migrations = POSTGRES_MIGRATIONS if self.dialect == "postgresql" else MIGRATIONS
        with self.transaction() as conn:
            version = self.backend.get_version(conn)
            for index in range(version, len(migrations)):
                for statement in migrations[index].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                self.backend.set_version(conn, index + 1)

    def schema_version(self) -> int:
        """The number of migrations applied (``PRAGMA user_version`` on SQLite)."""
        with self.connect() as conn:
            return self.backend.get_version(conn)

    def integrity_check(self) -> str:
        """``"ok"`` for an intact database (SQLite's ``PRAGMA integrity_check``)."""
        return self.backend.integrity_check()

    def insert_submission(self, row: NewSubmission, *, daily_limit: int | None = None, now: float | None = None,
                          lease: Lease | None = None, ladder: LadderRule | None = None) -> int:  # fmt: skip
        """Store one submission atomically and return its id.

        Args:
            row: the scored submission.
            daily_limit: refuse when the submitter reached this many submissions in 24 hours.
            now: the time of the insert (default: now).
            lease: the storing worker's hold on its request; the row is stored only while it is valid,
                and records the request (one row per request and benchmark).
            ladder: private-label mode: store the score shown for this row (:class:`LadderRule`), from the
                submitter's earlier rows of the same benchmark, read in the same serialized transaction.

        Raises:
            SubmissionRejected: same content (sha256) or same (model, revision, benchmark) already stored
                as verified (names compared case-insensitively, without a trailing ``/``; the message
                names the existing row), or the submitter reached ``daily_limit`` submissions in the
                last 24 hours.
            LeaseLost: ``lease`` is no longer valid.
        """
        with self.transaction() as conn:
            return insert_row(conn, row, daily_limit=daily_limit, now=now, lease=lease, ladder=ladder)

    def request_benchmarks(self, request_id: int) -> dict[str, int]:
        """Benchmarks a model request already stored, each with its row id (hidden rows included)."""
        with self.connect() as conn:
            cursor = conn.execute(
                "SELECT benchmark, id FROM submissions WHERE request_id = ? ORDER BY id", (request_id,)
            )
            return {str(b): int(i) for b, i in cursor.fetchall()}

    def submissions(
        self, benchmark: str | None = None, *, include_hidden: bool = False
    ) -> list[StoredSubmission]:
        """Stored submissions in insertion order, optionally of one benchmark and with hidden ones."""
        where, args = [], []
        if benchmark is not None:
            where.append("benchmark = ?")
            args.append(benchmark)
        if not include_hidden:
            where.append("hidden = 0")
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        with self.connect() as conn:
            cursor = conn.execute(f"SELECT {SUBMISSION_COLUMNS} FROM submissions{clause} ORDER BY id", args)
            return [read_submission(r) for r in cursor.fetchall()]

    def get_submission(self, submission_id: int) -> StoredSubmission | None:
        """One submission by id (hidden or not), or ``None``."""
        with self.connect() as conn:
            cursor = conn.execute(
                f"SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE id = ?", (submission_id,)
            )
            found = cursor.fetchone()
        return None if found is None else read_submission(found)

    def set_pairing(self, pairings: Mapping[int, str]) -> None:
        """Write the pairing summaries of rows stored before the store kept them (row id -> summary; a row
        that already has one keeps it)."""
        if pairings:
            with self.transaction(serialized=False) as conn:
                for row_id, text in pairings.items():
                    conn.execute("UPDATE submissions SET pairing = ? WHERE id = ? AND pairing = ''", (text, row_id))

    def rank_cells(self, benchmark: str, key: str, families: Collection[str]) -> dict[str, str]:
        """The stored cells of those ``families`` of ``benchmark``'s rows on ``key`` that the store holds
        (family hash -> cells, as :meth:`put_rank_cells` wrote them)."""
        with self.connect() as conn:
            return select_rank_cells(conn, benchmark, key, families)

    def put_rank_cells(self, benchmark: str, key: str, layout: str, family: str, cells: str, *,
                       latest: bool = False, now: float | None = None) -> None:  # fmt: skip
        """Store the cells of one family (kept when already there); ``latest``: drop the other families of
        the same ``layout`` (the rows stored since made this one the board's)."""
        with self.transaction(serialized=False) as conn:
            insert_rank_cells(conn, benchmark, key, layout, family, cells, latest=latest, now=now)

    def set_hidden(self, submission_id: int, hidden: bool = True) -> bool:
        """Hide (or show again) a submission; returns whether the row exists."""
        with self.transaction() as conn:
            cursor = conn.execute(
                "UPDATE submissions SET hidden = ? WHERE id = ?", (int(hidden), submission_id)
            )
            return cursor.rowcount == 1
