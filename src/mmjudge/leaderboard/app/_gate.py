"""The HTTP gate of a login-required leaderboard: a default-deny list of the routes the app uses, and logins
the store holds (:mod:`mmjudge.leaderboard.app.auth` installs it).

**Routes.** gradio serves about eighty routes (recording, streaming, proxies, "vibe" editing, monitoring),
whatever an app uses; ``POST /gradio_api/process_recording`` took anonymous bytes, kept them in temporary
folders and ran ffmpeg on them. :data:`ROUTES` lists what this app's pages and its public API use, each for
anyone (reading: the page, its assets, the queue that runs the table and figure events, the login) or for a
signed-in user (uploads); every other route, and any route a later gradio adds, is refused with 403 before
gradio sees the request (``tests/leaderboard/test_trust_round_three.py`` enumerates gradio's routes). An
anonymous ``POST`` the list allows is read whole (at most :data:`MAX_ANONYMOUS_BODY` bytes) and refused when
it names a remote file, which gradio would download into its cache before any handler runs.

**Files.** ``/gradio_api/file=<path>`` serves only files the app itself produced: those under the server's own
private gradio folder (:func:`private_gradio_dir`: exports, figures and uploads, made 0700 by this server), and
the icons of the installed gradio package its page shows; never a path elsewhere, whatever gradio would allow, and never a URL (gradio fetches an ``http(s)`` URL itself and
serves it from this origin: an open proxy): anything that is not an absolute path inside that folder, once
symlinks are resolved, gets 403 before gradio reads the request (:meth:`FileRule.allows`).

The gate runs in both modes: with login required it holds the logins as below; in the local ``--no-auth`` mode
every client counts as signed in (the routes, files and proxies are refused all the same).

**Logins.** A signed session cookie is a login only while the store holds its session
(:mod:`mmjudge.leaderboard.store._sessions`): when a response signs a user in, the gate opens a session in the
store and puts its random id into the cookie; every later request (but the static assets) is checked against
the store, and a login whose session is gone is removed from the request before gradio reads it; ``/logout``
deletes the session, so a copy of the cookie taken before logout logs nobody in. This holds for gradio's
OAuth routes on a Space and for the leaderboard's own off a Space.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from mmjudge._private import private_folder
from mmjudge.leaderboard.app._login_routes import logged_in_username
from mmjudge.leaderboard.store import close_session, open_session, session_user

__all__ = [
    "ANYONE",
    "FILE_REFUSED",
    "GRADIO_TEMP_DIR",
    "MAX_ANONYMOUS_BODY",
    "REMOTE_FILE_REFUSED",
    "ROUTES",
    "ROUTE_REFUSED",
    "SESSION_KEY",
    "SIGNED_IN",
    "UPLOAD_REFUSED",
    "FileRule",
    "Route",
    "RouteGate",
    "private_gradio_dir",
    "route_of",
]

ANYONE, SIGNED_IN = "anyone", "signed in"
"""Who may call a route of :data:`ROUTES`."""
SESSION_KEY = "mmjudge_session"
"""The key of the session cookie that holds the login's session id."""
MAX_ANONYMOUS_BODY = 4 * 1024 * 1024
"""The largest body an anonymous ``POST`` may send."""
UPLOAD_REFUSED = (
    "uploads need a Hugging Face login: sign in with the button at the top of the page, then upload again "
    "(API clients: log in through /login/huggingface and send the session cookie)"
)
REMOTE_FILE_REFUSED = (
    "remote files are not fetched for clients without a Hugging Face login: sign in first, then upload the "
    "file (POST /gradio_api/upload) and pass the path it returns"
)
ROUTE_REFUSED = "this leaderboard does not serve {method} {path}"
FILE_REFUSED = (
    "this leaderboard serves only the files it made (exports and figures, under its own folder): never another "
    "path, and never a URL (it fetches nothing for a client)"
)
GRADIO_TEMP_DIR = "GRADIO_TEMP_DIR"
"""The variable naming gradio's upload and cache folder (gradio reads it whenever it needs the folder)."""
FILE_ROUTE = "/gradio_api/file="


class Route(NamedTuple):
    """One route the app uses."""

    methods: frozenset[str]
    """HTTP methods (``HEAD`` goes with ``GET``)."""
    path: str
    """gradio's path template (``{name}`` one part, ``{name:path}`` the rest)."""
    who: str
    """:data:`ANYONE` or :data:`SIGNED_IN`."""
    static: bool = False
    """An asset that reads no login (its session is not checked against the store)."""


def _routes(methods: str, who: str, *paths: str, static: bool = False) -> list[Route]:
    return [Route(frozenset(methods.split()), path, who, static) for path in paths]


ROUTES: tuple[Route, ...] = (
    *_routes("GET HEAD", ANYONE, "/static/{path:path}", "/assets/{path:path}", "/svelte/{path:path}", "/favicon.ico",
             "/theme.css", "/robots.txt", "/gradio_api/theme.css", static=True),
    *_routes("GET HEAD", ANYONE, "/", "/config", "/config/", "/gradio_api/info", "/gradio_api/info/",
             "/gradio_api/heartbeat/{session_hash}", "/gradio_api/queue/data", "/gradio_api/startup-events",
             "/gradio_api/file={path_or_url:path}", "/gradio_api/call/{api_name}/{event_id}",
             "/gradio_api/call/v2/{api_name}/{event_id}", "/login/huggingface", "/login/callback", "/logout"),
    *_routes("POST", ANYONE, "/gradio_api/queue/join", "/gradio_api/cancel", "/gradio_api/call/{api_name}",
             "/gradio_api/call/{api_name}/", "/gradio_api/call/v2/{api_name}", "/gradio_api/call/v2/{api_name}/"),
    *_routes("POST", SIGNED_IN, "/gradio_api/upload"),
    *_routes("GET", SIGNED_IN, "/gradio_api/upload_progress"),
)  # fmt: skip
"""The routes this app uses (anything else is refused). Anyone may read: the page, its assets and config, the
API description, the queue (the table and figure events are public; the handlers that change the store
refuse a call without a login themselves), exported files, the login routes and the startup events (``launch``
calls them); a signed-in user may also upload."""


def _pattern(template: str) -> re.Pattern[str]:
    """The regular expression of a path template: ``{name}`` one path part, ``{name:path}`` the rest.

    >>> bool(_pattern("/gradio_api/file={path_or_url:path}").fullmatch("/gradio_api/file=/tmp/a/b.csv"))
    True
    >>> bool(_pattern("/pwa_icon/{size}").fullmatch("/pwa_icon/a/b"))
    False
    """
    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile("".join((".+" if p.endswith(":path}") else "[^/]+") if p.startswith("{") else re.escape(p)
                              for p in parts if p))  # fmt: skip


_COMPILED = tuple((_pattern(r.path), r) for r in ROUTES)


def route_of(method: str, path: str) -> Route | None:
    """The entry of :data:`ROUTES` a request goes to (``None``: refused).

    >>> route_of("POST", "/gradio_api/upload").who, route_of("POST", "/gradio_api/process_recording")
    ('signed in', None)
    """
    method = "GET" if method == "HEAD" else method
    for pattern, route in _COMPILED:
        if method in route.methods and pattern.fullmatch(path):
            return route
    return None


def private_gradio_dir(environ: Mapping[str, str] | None = None) -> Path:
    """gradio's upload and cache folder for this server, private to it (:mod:`mmjudge._private`): the folder
    ``GRADIO_TEMP_DIR`` names, made or checked (this user's, mode 0700, no symlink, in a parent no other user can
    change), else a fresh ``mkdtemp`` folder (mode 0700, a random name made atomically; removed at exit), which
    ``GRADIO_TEMP_DIR`` then names for gradio. Never gradio's default ``<temp dir>/gradio``, which any local user
    can create first (or plant as a symlink to the store's folder) before the server starts.

    Raises:
        ConfigError: ``GRADIO_TEMP_DIR`` names a symlink, another user's folder, or one others may write.
    """
    env = os.environ if environ is None else environ
    given = env.get(GRADIO_TEMP_DIR, "").strip()
    if given:
        return private_folder(given, what=f"{GRADIO_TEMP_DIR} (gradio's upload and cache folder)")
    made = Path(tempfile.mkdtemp(prefix="mmjudge-gradio-"))
    atexit.register(shutil.rmtree, made, True)
    os.environ[GRADIO_TEMP_DIR] = str(made)
    return made


@dataclass(frozen=True)
class FileRule:
    """Which files ``/gradio_api/file=`` may serve: those under ``roots`` (the app's own folders)."""

    roots: tuple[str, ...]
    """Folders, symlinks resolved."""

    @classmethod
    def under(cls, *folders: str | Path) -> FileRule:
        return cls(tuple(os.path.realpath(folder) for folder in folders))

    def allows(self, target: str) -> bool:
        """Whether ``target`` (the path after ``file=``, decoded) is a file under one of the roots: an absolute
        local path (no scheme, no ``//`` or backslash), inside a root once symlinks are resolved.

        >>> rule = FileRule(("/srv/app",))
        >>> rule.allows("/srv/app/x/a.csv"), rule.allows("/srv/app/../secret"), rule.allows("https://x.example/a")
        (True, False, False)
        >>> rule.allows("//x.example/a"), rule.allows("HTTP://x.example"), rule.allows("srv/app/a")
        (False, False, False)
        """
        if not target.startswith("/") or target.startswith("//") or "\\" in target or "\0" in target:
            return False
        real = os.path.realpath(target)
        return any(real != root and os.path.commonpath([real, root]) == root for root in self.roots)


class RouteGate:
    """ASGI middleware: :data:`ROUTES`, the files ``file=`` may serve and the store's sessions (see the module
    docstring).

    It sits inside the session middleware (``scope["session"]``); an app without one has no session, so every
    client counts as anonymous. ``sessions`` is the leaderboard's store; ``login`` is ``False`` in the local
    no-login mode, where every client counts as signed in; ``files`` says what ``file=`` may serve (``None``:
    nothing).
    """

    def __init__(self, app: Any, sessions: Any = None, *, login: bool = True, files: FileRule | None = None) -> None:
        self.app = app
        self.sessions = sessions
        self.login = login
        self.files = files

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = _path(scope)
        method = str(scope.get("method", "GET")) if scope["type"] == "http" else "WEBSOCKET"
        route = route_of(method, path)
        if route is None:
            await _refuse(scope, receive, send, ROUTE_REFUSED.format(method=method, path=path[:200]), 403)
            return
        if path.startswith(FILE_ROUTE) and not (self.files is not None and self.files.allows(path[len(FILE_ROUTE) :])):
            await _refuse(scope, receive, send, FILE_REFUSED, 403)
            return
        if not self.login:  # the local no-login mode: every client is the machine's own user
            await self.app(scope, receive, send)
            return
        session = scope.get("session")
        user = None if route.static else await self._check_login(session, path)
        if route.who == SIGNED_IN and user is None:
            await _refuse(scope, receive, send, UPLOAD_REFUSED, 401)
            return
        if user is None and method == "POST":
            body = await _read_body(receive)
            if body is None:
                await _refuse(scope, receive, send, f"requests over {MAX_ANONYMOUS_BODY} bytes need a login", 413)
                return
            if _names_remote_file(body):
                await _refuse(scope, receive, send, REMOTE_FILE_REFUSED, 401)
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send if route.static else self._keeping_sessions(session, send))

    async def _check_login(self, session: Any, path: str) -> str | None:
        """The user the store still holds a session for, else ``None`` (a stale login leaves ``session``)."""
        user = logged_in_username(session)
        if user is None:
            return None
        session_id = session.get(SESSION_KEY)
        live = isinstance(session_id, str) and await _in_thread(self._user_of, session_id) == user
        if live and path.rstrip("/") == "/logout":
            await _in_thread(self._close, session_id)
            live = False
        if not live:
            session.pop("oauth_info", None)
            session.pop(SESSION_KEY, None)
            return None
        return user

    def _keeping_sessions(self, session: Any, send: Any) -> Any:
        """``send`` that, as a response starts, opens a store session for a login this request made and
        drops the session id of a session that holds no login any more."""

        async def wrapped(message: Any) -> None:
            if message["type"] == "http.response.start" and isinstance(session, dict):
                user = logged_in_username(session)
                if user is not None and not session.get(SESSION_KEY):
                    expires = session["oauth_info"].get("expires_at") or time.time() + 8 * 3600
                    session[SESSION_KEY] = await _in_thread(self._open, user, float(expires))
                elif user is None:
                    session.pop(SESSION_KEY, None)
            await send(message)

        return wrapped

    def _user_of(self, session_id: str) -> str | None:

        return None if self.sessions is None else session_user(self.sessions, session_id)

    def _open(self, user: str, expires_at: float) -> str:

        if self.sessions is None:  # no store: no login can be kept
            return ""
        return open_session(self.sessions, user, expires_at=expires_at)

    def _close(self, session_id: str) -> None:

        if self.sessions is not None:
            close_session(self.sessions, session_id)


async def _in_thread(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in a worker thread (the store's calls block)."""
    import anyio.to_thread

    return await anyio.to_thread.run_sync(fn, *args)


def _path(scope: Mapping[str, Any]) -> str:
    """The request's path below the app's root path."""
    path, root = str(scope.get("path", "")), str(scope.get("root_path", "") or "")
    return path[len(root) :] or "/" if root and path.startswith(root) else path


async def _refuse(scope: Any, receive: Any, send: Any, detail: str, status: int) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    from starlette.responses import JSONResponse

    await JSONResponse({"detail": detail}, status_code=status)(scope, receive, send)


async def _read_body(receive: Any) -> bytes | None:
    """The whole request body, or ``None`` past :data:`MAX_ANONYMOUS_BODY` bytes."""
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > MAX_ANONYMOUS_BODY:
            return None
        more = message.get("more_body", False)
    return b"".join(chunks)


def _replay(body: bytes, receive: Any) -> Any:
    """A ``receive`` that hands over ``body`` first, then the connection's own messages (a disconnect)."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> Any:
        return pending.pop() if pending else await receive()

    return replay


def _names_remote_file(body: bytes) -> bool:
    """Whether a JSON body holds an object whose ``path`` or ``url`` is an ``http(s)`` URL.

    >>> _names_remote_file(b'{"data": [{"path": "HTTPS://x.example/a", "meta": {}}]}')
    True
    >>> _names_remote_file(b'{"data": [{"path": "/tmp/gradio/ab/p.jsonl"}, "https://x.example"]}')
    False
    """
    try:
        stack = [json.loads(body)]
    except ValueError:  # not JSON: gradio refuses it on its own
        return False
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if any(
                str(value.get(key, "")).lower().startswith(("http://", "https://")) for key in ("path", "url")
            ):
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False
