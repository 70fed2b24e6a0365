"""The two store backends behind :class:`~mmjudge.leaderboard.Store`: embedded SQLite and PostgreSQL.

The store's SQL is written once, with ``?`` placeholders and the syntax both databases share
(``INSERT ... ON CONFLICT``, partial indexes, ``COALESCE``). A backend differs only where the dialect
does:

- opening a connection, and what a write transaction is. SQLite's ``BEGIN IMMEDIATE`` takes the one
  database write lock, so every check-then-insert (duplicates, daily limit) is atomic. PostgreSQL
  writers run in ``READ COMMITTED`` transactions; those that need a global view (a duplicate check, the
  daily limit, migrations) first take one transaction-scoped advisory lock
  (``pg_advisory_xact_lock``), the same guarantee as SQLite's write lock. Transactions about one request
  (claim, renew, finish) lock its row instead: a claim reads with ``FOR UPDATE SKIP LOCKED``, so
  workers never wait on each other and never take the same request;
- placeholders (``?`` becomes ``%s`` for psycopg), the id of an inserted row (``lastrowid`` or
  ``RETURNING id``), row-lock clauses (empty on SQLite, whose write lock already covers them);
- where the schema version lives (``PRAGMA user_version``, or the one-row table ``mmjudge_schema``)
  and the DDL of the migrations (:mod:`mmjudge.leaderboard.store._migrations` holds both, step for step).

JSON columns stay ``TEXT`` on both: a result may hold ``NaN``, which ``jsonb`` refuses.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from mmjudge._deps import require
from mmjudge.errors import ConfigError

__all__ = [
    "POSTGRES_SCHEMES",
    "Backend",
    "Connection",
    "Dialect",
    "PostgresBackend",
    "SqliteBackend",
    "is_postgres_url",
    "open_backend",
    "redact_url",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""Store locations with these prefixes open a PostgreSQL store; anything else is an SQLite file path."""

_WRITE_LOCK = 0x6D6D6A756467  # "mmjudg": the advisory lock every serialized PostgreSQL writer takes


@dataclass(frozen=True)
class Dialect:
    """What differs in the SQL text between the backends."""

    name: str
    """``sqlite`` or ``postgresql``."""
    for_update: str
    """Suffix of a ``SELECT`` that locks the rows it returns until the transaction ends."""
    skip_locked: str
    """Suffix of a ``SELECT`` that locks its rows and skips rows another transaction holds."""


SQLITE = Dialect("sqlite", "", "")
POSTGRES = Dialect("postgresql", " FOR UPDATE", " FOR UPDATE SKIP LOCKED")


class Cursor(Protocol):
    """The part of a DB-API cursor the store uses."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """A connection of either backend: ``?`` placeholders, :meth:`insert` returns the new row's id."""

    dialect: Dialect

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...

    def insert(self, sql: str, parameters: Sequence[Any]) -> int: ...


class _SqliteConnection(sqlite3.Connection):
    dialect = SQLITE

    def insert(self, sql: str, parameters: Sequence[Any]) -> int:
        return int(self.execute(sql, parameters).lastrowid or 0)


class _PostgresConnection:
    """A psycopg connection speaking the store's ``?`` placeholders."""

    dialect = POSTGRES

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Any:
        return self.raw.execute(sql.replace("%", "%%").replace("?", "%s"), tuple(parameters))

    def insert(self, sql: str, parameters: Sequence[Any]) -> int:
        return int(self.execute(sql + " RETURNING id", parameters).fetchone()[0])


class Backend(Protocol):
    """Connections, transactions and the schema version of one database."""

    dialect: Dialect
    location: str
    """What the store was opened with (an SQLite path, or a PostgreSQL URL, password included)."""
    path: Path | None
    """The SQLite file (``None`` for PostgreSQL)."""

    def connect(self) -> contextlib.AbstractContextManager[Connection]: ...

    def transaction(self, serialized: bool = True) -> contextlib.AbstractContextManager[Connection]: ...

    def snapshot(self) -> contextlib.AbstractContextManager[Connection]: ...

    def get_version(self, conn: Connection) -> int: ...

    def set_version(self, conn: Connection, version: int) -> None: ...

    def integrity_check(self) -> str: ...

    def display(self) -> str: ...


class SqliteBackend:
    """One SQLite file in WAL mode; a fresh connection per use, writes under ``BEGIN IMMEDIATE``."""

    dialect = SQLITE

    def __init__(self, path: str | Path, timeout: float = 30.0) -> None:
        self.path: Path | None = Path(path)
        self.location = str(path)
        self.timeout = timeout
        self._file = Path(path)
        self._file.parent.mkdir(parents=True, exist_ok=True)
        with self.connect() as conn:
            conn.execute("PRAGMA journal_mode=WAL")

    @contextlib.contextmanager
    def connect(self) -> Iterator[Connection]:
        conn = sqlite3.connect(self._file, timeout=self.timeout, isolation_level=None, factory=_SqliteConnection)
        try:
            conn.execute(f"PRAGMA busy_timeout={int(self.timeout * 1000)}")
            conn.execute("PRAGMA synchronous=NORMAL")
            yield conn
        finally:
            conn.close()

    @contextlib.contextmanager
    def transaction(self, serialized: bool = True) -> Iterator[Connection]:
        """``BEGIN IMMEDIATE`` (SQLite has one write lock: every write transaction is serialized)."""
        with self.connect() as conn, _committed(conn, "BEGIN IMMEDIATE"):
            yield conn

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A read transaction: every read sees the database as of its first read (WAL)."""
        with self.connect() as conn, _committed(conn, "BEGIN DEFERRED"):
            yield conn

    def get_version(self, conn: Connection) -> int:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])

    def set_version(self, conn: Connection, version: int) -> None:
        conn.execute(f"PRAGMA user_version={int(version)}")

    def integrity_check(self) -> str:
        with self.connect() as conn:
            return str(conn.execute("PRAGMA integrity_check").fetchone()[0])

    def display(self) -> str:
        return str(self.path)


class PostgresBackend:
    """A PostgreSQL database reached by URL (psycopg 3); a fresh autocommit connection per use.

    Lock waits give up after ``timeout`` seconds (``lock_timeout``), as SQLite's busy timeout does.
    """

    dialect = POSTGRES

    def __init__(self, url: str, timeout: float = 30.0) -> None:

        self._psycopg = require("psycopg", "postgres", purpose="a PostgreSQL store (MMJUDGE_DB=postgresql://...)")
        self.location = url
        self.path: Path | None = None
        self.timeout = timeout

    @contextlib.contextmanager
    def connect(self) -> Iterator[Connection]:
        try:
            raw = self._psycopg.connect(self.location, autocommit=True, connect_timeout=max(1, int(self.timeout)))
        except self._psycopg.OperationalError as exc:
            reason = " ".join(str(exc).split())[:300]
            raise ConfigError(
                f"cannot reach the PostgreSQL store {self.display()} ({reason}); check the URL, that the "
                "server runs and accepts this host, and the credentials"
            ) from None
        try:
            raw.execute(f"SET lock_timeout = {int(self.timeout * 1000)}")
            yield _PostgresConnection(raw)
        finally:
            raw.close()

    @contextlib.contextmanager
    def transaction(self, serialized: bool = True) -> Iterator[Connection]:
        """A ``READ COMMITTED`` transaction; ``serialized`` ones first take the store's advisory lock."""
        with self.connect() as conn, _committed(conn, "BEGIN"):
            if serialized:
                conn.execute(f"SELECT pg_advisory_xact_lock({_WRITE_LOCK})")
            yield conn

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A read-only ``REPEATABLE READ`` transaction: one consistent view for every read."""
        with self.connect() as conn, _committed(conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"):
            yield conn

    def get_version(self, conn: Connection) -> int:
        conn.execute("CREATE TABLE IF NOT EXISTS mmjudge_schema (version INTEGER NOT NULL)")
        found = conn.execute("SELECT version FROM mmjudge_schema").fetchone()
        return 0 if found is None else int(found[0])

    def set_version(self, conn: Connection, version: int) -> None:
        conn.execute("DELETE FROM mmjudge_schema")
        conn.execute("INSERT INTO mmjudge_schema (version) VALUES (?)", (int(version),))

    def integrity_check(self) -> str:
        """``"ok"`` when the tables answer (PostgreSQL checks pages itself; there is no integrity pragma)."""
        with self.connect() as conn:
            for table in ("submissions", "requests"):
                conn.execute(f"SELECT count(*) FROM {table}").fetchone()
        return "ok"

    def display(self) -> str:
        return redact_url(self.location)


@contextlib.contextmanager
def _committed(conn: Connection, begin: str) -> Iterator[None]:
    conn.execute(begin)
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def is_postgres_url(location: str | Path) -> bool:
    """Whether ``location`` names a PostgreSQL store.

    >>> is_postgres_url("postgresql://lb@db.example/leaderboard"), is_postgres_url("/data/lb.sqlite")
    (True, False)
    """
    return isinstance(location, str) and location.startswith(POSTGRES_SCHEMES)


def open_backend(location: str | Path, timeout: float = 30.0) -> SqliteBackend | PostgresBackend:
    """The backend of a store location: a ``postgresql://`` URL, or an SQLite file path."""
    if is_postgres_url(location):
        return PostgresBackend(str(location), timeout)
    if isinstance(location, str) and "://" in location:
        raise ConfigError(
            f"store location {redact_url(location)!r}: expected an SQLite file path or a postgresql:// URL"
        )
    return SqliteBackend(location, timeout)


def redact_url(url: str) -> str:
    """``url`` with its password replaced by ``***`` (for logs and messages).

    >>> redact_url("postgresql://lb:s3cret@db.example:5432/leaderboard?sslmode=require")
    'postgresql://lb:***@db.example:5432/leaderboard?sslmode=require'
    >>> redact_url("postgresql:///lb?host=/tmp/pg&password=s3cret")
    'postgresql:///lb?host=/tmp/pg&password=***'
    """
    url = re.sub(r"^([A-Za-z][\w+.-]*://[^/@:]*:)[^/@]*@", r"\1***@", url)
    return re.sub(r"([?&]password=)[^&]*", r"\1***", url, flags=re.IGNORECASE)
