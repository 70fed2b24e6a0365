"""The store's login sessions: what a signed session cookie must name to be a login.

A login is a random id the server made when the user signed in (:func:`open_session`); the cookie carries the
id, the store keeps only its sha256 with the username and the time it ends. Every request holding a login is
checked against the store (:func:`session_user`), so deleting the row (:func:`close_session`, on logout) ends
the login wherever a copy of the cookie is: a cookie captured before logout names a session that no longer
exists. Expired rows are removed when a new session opens.
"""

from __future__ import annotations

import hashlib
import secrets
import time

from mmjudge.leaderboard.store._store import Store

__all__ = ["close_session", "open_session", "session_user"]


def _key(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


def open_session(store: Store, username: str, *, expires_at: float, now: float | None = None) -> str:
    """Record a login of ``username`` until ``expires_at`` (Unix time); returns its new random id."""
    now = time.time() if now is None else now
    session_id = secrets.token_urlsafe(32)
    with store.transaction(serialized=False) as conn:
        conn.execute("DELETE FROM sessions WHERE expires_at < ?", (now,))
        conn.execute(
            "INSERT INTO sessions (id, username, created_at, expires_at) VALUES (?,?,?,?)",
            (_key(session_id), username, now, float(expires_at)),
        )
    return session_id


def session_user(store: Store, session_id: str, *, now: float | None = None) -> str | None:
    """The username of the live session ``session_id``; ``None`` when it was closed, expired or never opened."""
    now = time.time() if now is None else now
    with store.connect() as conn:
        found = conn.execute(
            "SELECT username FROM sessions WHERE id = ? AND expires_at >= ?", (_key(session_id), now)
        ).fetchone()
    return None if found is None else str(found[0])


def close_session(store: Store, session_id: str) -> bool:
    """End the session ``session_id`` (logout); returns whether it was open."""
    with store.transaction(serialized=False) as conn:
        return conn.execute("DELETE FROM sessions WHERE id = ?", (_key(session_id),)).rowcount == 1
