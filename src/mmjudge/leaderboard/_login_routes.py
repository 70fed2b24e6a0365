"""The HTTP side of the leaderboard's login (:mod:`mmjudge.leaderboard.auth` decides when it is used): the
OAuth routes off a Space, the gate keeping anonymous files off the disk, and reading a login from a session.

The routes are gradio's real ones (``gradio.oauth._add_oauth_routes``) in substance: the OAuth code flow
with authlib, state and nonce kept in the session, the login stored as ``session["oauth_info"]`` in the
shape ``gr.OAuthProfile`` and ``gr.LoginButton`` read. They differ where off a Space needs it: the redirect
URL is one fixed URL (the one registered on the OAuth app), the page to return to waits in the session,
and the ID and refresh tokens are not kept (cookie size).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from mmjudge.leaderboard.auth import OAuthClient

__all__ = ["REMOTE_FILE_REFUSED", "UPLOAD_REFUSED", "UploadGate", "add_login_routes", "logged_in_username"]

UPLOAD_REFUSED = (
    "uploads need a Hugging Face login: sign in with the button at the top of the page, then upload again "
    "(API clients: log in through /login/huggingface and send the session cookie)"
)
REMOTE_FILE_REFUSED = (
    "remote files are not fetched for clients without a Hugging Face login: sign in first, then upload the "
    "file (POST /gradio_api/upload) and pass the path it returns"
)
_UPLOAD_SUFFIX = "/gradio_api/upload"
_API_PART = "/gradio_api/"
_MAX_ANONYMOUS_BODY = 4 * 1024 * 1024
_TARGET = "mmjudge_login_target"
_STATE_PREFIX = "_state_huggingface"


def logged_in_username(session: Any) -> str | None:
    """The username of a session holding an unexpired login (gradio's ``oauth_info``), else ``None``.

    >>> logged_in_username({"oauth_info": {"userinfo": {"preferred_username": "ada"}, "expires_at": 2**40}})
    'ada'
    >>> logged_in_username({"oauth_info": {"userinfo": {"preferred_username": "ada"}, "expires_at": 1}}) is None
    True
    """
    info = session.get("oauth_info") if isinstance(session, Mapping) else None
    if not isinstance(info, Mapping):
        return None
    expires = info.get("expires_at")
    if isinstance(expires, (int, float)) and expires < time.time():
        return None
    user = info.get("userinfo")
    name = user.get("preferred_username") if isinstance(user, Mapping) else None
    return name if isinstance(name, str) and name else None


class UploadGate:
    """ASGI middleware that keeps files from clients without a logged-in session off the disk.

    ``POST .../gradio_api/upload`` gets 401 with :data:`UPLOAD_REFUSED` before any of its body is read. Any
    other ``POST`` under ``/gradio_api/`` (``queue/join``, ``call``, ``run``) whose JSON names a remote file
    (a ``path`` or ``url`` that is an ``http(s)`` URL) gets 401 with :data:`REMOTE_FILE_REFUSED`: gradio
    downloads such a file into its cache, without a size limit, before any handler runs. It sits inside
    the session middleware; an app without one has no session, so every client counts as anonymous.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (
            scope["type"] != "http"
            or scope.get("method") != "POST"
            or logged_in_username(scope.get("session")) is not None
        ):
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", "")).rstrip("/")
        if path.endswith(_UPLOAD_SUFFIX):
            await _refused(UPLOAD_REFUSED, 401)(scope, receive, send)
            return
        if _API_PART in path:
            body = await _read_body(receive)
            if body is None:
                await _refused(f"requests over {_MAX_ANONYMOUS_BODY} bytes need a login", 413)(
                    scope, receive, send
                )
                return
            if _names_remote_file(body):
                await _refused(REMOTE_FILE_REFUSED, 401)(scope, receive, send)
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send)


def _refused(detail: str, status: int) -> Any:
    from starlette.responses import JSONResponse

    return JSONResponse({"detail": detail}, status_code=status)


async def _read_body(receive: Any) -> bytes | None:
    """The whole request body, or ``None`` past :data:`_MAX_ANONYMOUS_BODY` bytes."""
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > _MAX_ANONYMOUS_BODY:
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


def _http_errors() -> tuple[type[Exception], ...]:
    """The network errors of the HTTP client authlib talks to the provider with (``httpx2`` when installed,
    else ``httpx``: ``authlib.integrations.httpx_client`` picks it the same way)."""
    import importlib

    errors = []
    for name in ("httpx2", "httpx"):
        try:
            errors.append(importlib.import_module(name).HTTPError)
        except ImportError:
            continue
    return tuple(errors)


def add_login_routes(app: Any, client: OAuthClient) -> None:
    """``/login/huggingface``, ``/login/callback`` and ``/logout``: the OAuth code flow with authlib (the
    state and nonce live in the session), the login stored as gradio's ``oauth_info``."""
    from authlib.common.errors import AuthlibBaseError
    from authlib.integrations.starlette_client import OAuth
    from joserfc.errors import JoseError
    from starlette.responses import PlainTextResponse, RedirectResponse

    from mmjudge.leaderboard.auth import DEFAULT_SCOPES, PROVIDER, SCOPES

    provider = OAuth().register(
        name="huggingface", client_id=client.client_id, client_secret=client.client_secret,
        client_kwargs={"scope": client.scopes},
        server_metadata_url=f"{client.provider_url}/.well-known/openid-configuration",
    )  # fmt: skip
    unreachable = (
        f"the OpenID provider {client.provider_url} did not answer; try again later, or check {PROVIDER}"
    )

    async def login(request: Any) -> Any:
        request.session[_TARGET] = _local_path(request.query_params.get("_target_url"))
        try:
            return await provider.authorize_redirect(request, client.callback_url(request))
        except _http_errors():
            return PlainTextResponse(unreachable, status_code=502)

    async def callback(request: Any) -> Any:
        try:
            token = await provider.authorize_access_token(request)
        except (AuthlibBaseError, JoseError) as exc:
            for key in [k for k in request.session if k.startswith(_STATE_PREFIX)]:
                request.session.pop(key)
            reason = getattr(exc, "error", None) or type(exc).__name__
            return PlainTextResponse(
                f"login failed ({reason}): start again with the sign-in button", status_code=400
            )
        except _http_errors():
            return PlainTextResponse(unreachable, status_code=502)
        info = _oauth_info(token, client)
        if info is None:
            return PlainTextResponse("login failed: the provider's ID token names no user (preferred_username); "
                                     f"expected the scopes {DEFAULT_SCOPES!r} ({SCOPES})", status_code=400)  # fmt: skip
        request.session["oauth_info"] = info
        return RedirectResponse(request.session.pop(_TARGET, "/"), status_code=302)

    async def logout(request: Any) -> Any:
        request.session.pop("oauth_info", None)
        return RedirectResponse(_local_path(request.query_params.get("_target_url")), status_code=302)

    app.add_route("/login/huggingface", login, methods=["GET"], name="oauth_login")
    app.add_route("/login/callback", callback, methods=["GET"], name="oauth_redirect_callback")
    app.add_route("/logout", logout, methods=["GET"], name="oauth_logout")


def _oauth_info(token: Mapping[str, Any], client: OAuthClient) -> dict[str, Any] | None:
    """The session's ``oauth_info`` in gradio's shape (``gr.OAuthProfile`` reads ``userinfo``'s ``name``,
    ``preferred_username``, ``profile``, ``picture``), without the ID and refresh tokens (cookie size)."""
    user = dict(token.get("userinfo") or {})
    name = user.get("preferred_username")
    if not isinstance(name, str) or not name:
        return None
    user.setdefault("name", name)
    user.setdefault("profile", f"{client.provider_url}/{name}")
    user.setdefault("picture", "")
    expires_at = token.get("expires_at") or time.time() + float(token.get("expires_in") or 8 * 3600)
    keep = ("sub", "name", "preferred_username", "profile", "picture")
    return {"access_token": token.get("access_token"), "token_type": token.get("token_type", "bearer"),
            "scope": token.get("scope", client.scopes), "expires_at": int(expires_at),
            "userinfo": {k: user[k] for k in keep if k in user}}  # fmt: skip


def _local_path(target: str | None) -> str:
    """A redirect target reduced to a path on this server (no open redirect to another host).

    >>> _local_path("https://evil.example//x?a=1"), _local_path("////evil.example"), _local_path(None)
    ('/x?a=1', '/evil.example', '/')
    """
    parts = urlsplit(target or "/")
    path = "/" + parts.path.lstrip("/\\")
    return path + (f"?{parts.query}" if parts.query else "")
