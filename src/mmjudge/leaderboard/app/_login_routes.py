"""The HTTP side of the leaderboard's login (:mod:`mmjudge.leaderboard.app.auth` decides when it is used): the
OAuth routes off a Space and reading a login from a session (the routes a request may reach and the logins the
store holds: :mod:`mmjudge.leaderboard.app._gate`).

The routes are gradio's real ones (``gradio.oauth._add_oauth_routes``) in substance: the OAuth code flow
with authlib, state and nonce kept in the session, the login stored as ``session["oauth_info"]`` in the
shape ``gr.OAuthProfile`` and ``gr.LoginButton`` read. They differ where off a Space needs it: the redirect
URL is one fixed URL (the one registered on the OAuth app), the page to return to waits in the session,
and the ID and refresh tokens are not kept (cookie size). A provider that does not answer, or answers with
something other than JSON (an HTML error page), is one line with status 502, never a traceback.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mmjudge.leaderboard.core.login_settings import (
    DEFAULT_SCOPES,
    PROVIDER,
    SCOPES,
)

if TYPE_CHECKING:
    from mmjudge.leaderboard.app.auth import OAuthClient

__all__ = ["add_login_routes", "logged_in_username"]

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

    provider = OAuth().register(
        name="huggingface", client_id=client.client_id, client_secret=client.client_secret,
        client_kwargs={"scope": client.scopes},
        server_metadata_url=f"{client.provider_url}/.well-known/openid-configuration",
    )  # fmt: skip
    unreachable = (
        f"the OpenID provider {client.provider_url} did not answer; try again later, or check {PROVIDER}"
    )
    garbled = (f"the OpenID provider {client.provider_url} answered with something other than JSON (an error "
               f"page?); try again later, or check {PROVIDER}")  # fmt: skip

    async def login(request: Any) -> Any:
        request.session[_TARGET] = _local_path(request.query_params.get("_target_url"))
        try:
            return await provider.authorize_redirect(request, client.callback_url(request))
        except _http_errors():
            return PlainTextResponse(unreachable, status_code=502)
        except ValueError:  # its metadata is not JSON
            return PlainTextResponse(garbled, status_code=502)

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
        except ValueError:  # the token endpoint's answer is not JSON
            return PlainTextResponse(garbled, status_code=502)
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
