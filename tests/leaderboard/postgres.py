"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temp folder, a unix socket, no TCP.

PostgreSQL refuses to run as root, so under root (CI runs ``.ci/run`` as root) the server's commands
run as the ``postgres`` user that Debian's ``postgresql`` package creates (``runuser``). Each test gets
a database of its own (``CREATE DATABASE`` is fast on a fresh cluster). Without the server binaries or
psycopg, tests that need it skip locally and fail on CI (``CI`` set), like the browser test.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest

SERVER_SETTINGS = (
    "-c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    "-c max_connections=300 -c shared_buffers=32MB"
)


def find_bindir() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (on PATH, or Debian's ``/usr/lib/postgresql/<v>/bin``)."""
    for candidate in (shutil.which("pg_ctl"), *sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)):
        if candidate and Path(candidate).with_name("initdb").exists():
            return Path(candidate).resolve().parent
    return None


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} on CI: .ci/run must install Debian's postgresql and mmjudge[postgres]")
    pytest.skip(reason)


class PostgresServer:
    """One cluster in a temp folder, reachable through a unix socket in that folder."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="mmjudge-pg-"))
        self.data, self.socket = self.root / "data", self.root / "sock"
        self.socket.mkdir()
        self._as = []
        if os.geteuid() == 0:  # initdb and postgres refuse root: run them as Debian's postgres user
            shutil.chown(self.root, "postgres")
            shutil.chown(self.socket, "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *command: str) -> None:
        done = subprocess.run([*self._as, *command], capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")

    def start(self) -> PostgresServer:
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--no-sync", "--no-instructions")  # fmt: skip
        options = f"{SERVER_SETTINGS} -c unix_socket_directories='{self.socket}'"
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "server.log"),
                  "-o", options, "-w", "-t", "60", "start")  # fmt: skip
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket}"

    def create_database(self) -> str:
        """A fresh empty database; returns its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
