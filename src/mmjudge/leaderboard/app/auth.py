"""Logging in to a served leaderboard: real Hugging Face OAuth on and off a Space; no anonymous files.

How gradio does it: a Blocks holding a ``gr.LoginButton`` gets its login routes from
``gradio.oauth.attach_oauth``, which ``App.create_app`` calls through the name ``gradio.routes.attach_oauth``.
On a Space (``gradio.oauth.get_space()``: ``SYSTEM=spaces`` and ``SPACE_ID`` set) that registers the
OAuth client of the Space (``OAUTH_CLIENT_ID``, ``OAUTH_CLIENT_SECRET``, ``OAUTH_SCOPES``,
``OPENID_PROVIDER_URL``, set by ``hf_oauth: true``) and signs the session cookie with
``sha256(OAUTH_CLIENT_SECRET + "-v4")``, a key secret to the Space: fine. Anywhere else it *mocks* the
login: ``/login/huggingface`` signs the visitor in as this machine's Hugging Face user, and the key is
``sha256("-v4")``, the same everywhere, so anyone can sign a session cookie naming any user, an admin too.

So with login required, :meth:`mmjudge.leaderboard.app.ui.LeaderboardApp.launch` calls :func:`guard_login`:

- on a Space gradio's OAuth stays; its variables are checked first (``hf_oauth: true``);
- off a Space the leaderboard uses an OAuth app of its own (:class:`OAuthClient`, from the environment)
  and a session key of its own (:func:`session_secret`), or refuses to start, naming what to set. gradio
  offers no option for either, so ``gradio.routes.attach_oauth``, the one place where gradio picks mock or
  real and the key, is replaced (:func:`_install_hook`): for a guarded Blocks it adds routes that run the
  OAuth code flow with authlib, as gradio's real ones do (:mod:`mmjudge.leaderboard.app._login_routes`), and a
  ``SessionMiddleware`` with that key; any other Blocks still gets gradio's function. The Blocks are
  reserved while they are built (:func:`reserve_login`), because gradio already makes apps then.
  :meth:`LoginGuard.verify` checks after the launch that the hook ran, so a gradio that stops calling
  that name fails loudly instead of serving its mock;
- in both cases :class:`~mmjudge.leaderboard.app._gate.RouteGate` serves only the routes the app uses (anyone
  reads; a signed-in user may upload; any other gradio route gets 403), answers ``POST /gradio_api/upload``
  without a login with 401 before reading the body, refuses anonymous event calls that name a remote file
  (gradio would download it into its cache first), and holds the logins in the store: a cookie is a login
  only while its session is there, and ``/logout`` deletes it; gradio's static file workers
  (``num_workers``), which take uploads in processes of their own, stay off.

A handler's ``gr.OAuthProfile`` comes only from ``scope["session"]``, which only the session middleware
fills, from a cookie whose signature it checked against the key, and which the gate empties when the store
no longer holds its session.

The generated session key (:func:`session_secret`) is trusted only as this server's own file: opened without
following a symlink, owned by this process's user, mode 0600, in a folder no other user can write.
"""

from __future__ import annotations

import os
import secrets
import stat
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mmjudge.errors import ConfigError, MmjudgeError
from mmjudge.leaderboard.app._gate import (
    ANYONE,
    REMOTE_FILE_REFUSED,
    ROUTE_REFUSED,
    ROUTES,
    SIGNED_IN,
    UPLOAD_REFUSED,
    FileRule,
    RouteGate,
    route_of,
)
from mmjudge.leaderboard.app._login_routes import add_login_routes, logged_in_username
from mmjudge.leaderboard.core.login_settings import (
    CLIENT_ID,
    CLIENT_SECRET,
    DEFAULT_PROVIDER,
    DEFAULT_SCOPES,
    MIN_SECRET_CHARS,
    NEW_APP_URL,
    PROVIDER,
    PUBLIC_URL,
    SCOPES,
    SESSION_SECRET,
)

__all__ = [
    "ANYONE",
    "REMOTE_FILE_REFUSED",
    "ROUTES",
    "ROUTE_REFUSED",
    "SIGNED_IN",
    "UPLOAD_REFUSED",
    "LoginGuard",
    "LoginPlan",
    "LoginSetupError",
    "OAuthClient",
    "RouteGate",
    "check_no_auth",
    "gated",
    "guard_login",
    "logged_in_username",
    "login_plan",
    "reserve_login",
    "route_of",
    "secret_file",
    "session_secret",
]



_NO_OAUTH = (
    "login is required but {missing} not set: off a Hugging Face Space gradio only mocks the login (anyone "
    "could sign in as anyone), so the leaderboard needs an OAuth app of its own: create one at "
    f"{NEW_APP_URL} with the redirect URL <server>/login/callback and the scopes `{DEFAULT_SCOPES}`, then set "
    f"{CLIENT_ID} and {CLIENT_SECRET} (optionally {PUBLIC_URL} and {SESSION_SECRET}; README, Deploy); or "
    "serve without login: `mmjudge leaderboard --no-auth` (MMJUDGE_NO_AUTH=1 for the Space app)"
)


class LoginSetupError(MmjudgeError, RuntimeError):
    """The installed gradio did not set up the login the way this module relies on."""


def _url(name: str, value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ConfigError(
            f"{name}={value!r}: expected an http:// or https:// URL such as https://lb.example.org"
        )
    return value.rstrip("/")


@dataclass(frozen=True)
class OAuthClient:
    """The leaderboard's own OAuth app on the provider, used off a Space."""

    client_id: str
    """``OAUTH_CLIENT_ID``."""
    client_secret: str = field(repr=False)
    """``OAUTH_CLIENT_SECRET``."""
    scopes: str = DEFAULT_SCOPES
    """``OAUTH_SCOPES`` (must hold ``openid``: the username comes from the ID token)."""
    provider_url: str = DEFAULT_PROVIDER
    """``OPENID_PROVIDER_URL``; its ``/.well-known/openid-configuration`` names the endpoints."""
    public_url: str | None = None
    """``MMJUDGE_PUBLIC_URL``: the redirect URL is ``<public_url>/login/callback`` (``None``: the request's)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> OAuthClient:
        """Read :data:`~mmjudge.leaderboard.core.login_settings.VARIABLES`; raises :class:`ConfigError` naming what to set.

        >>> OAuthClient.from_env({"OAUTH_CLIENT_ID": "id", "OAUTH_CLIENT_SECRET": "s"}).provider_url
        'https://huggingface.co'
        """
        env = {
            name: environ.get(name, "").strip()
            for name in (CLIENT_ID, CLIENT_SECRET, SCOPES, PROVIDER, PUBLIC_URL)
        }
        missing = [name for name in (CLIENT_ID, CLIENT_SECRET) if not env[name]]
        if missing:
            raise ConfigError(
                _NO_OAUTH.format(missing=" and ".join(missing) + (" are" if len(missing) > 1 else " is"))
            )
        scopes = env[SCOPES] or DEFAULT_SCOPES
        if "openid" not in scopes.split():
            raise ConfigError(f"{SCOPES}={scopes!r}: expected scopes that include openid, e.g. {DEFAULT_SCOPES!r} "
                              "(the username is read from the ID token)")  # fmt: skip
        public = _url(PUBLIC_URL, env[PUBLIC_URL]) if env[PUBLIC_URL] else None
        return cls(
            env[CLIENT_ID],
            env[CLIENT_SECRET],
            scopes,
            _url(PROVIDER, env[PROVIDER] or DEFAULT_PROVIDER),
            public,
        )

    @property
    def secure_cookie(self) -> bool:
        """Whether the session cookie is ``Secure`` (all but an ``http://`` public URL; browsers accept Secure
        cookies from ``http://localhost`` too)."""
        return self.public_url is None or self.public_url.startswith("https://")

    def callback_url(self, request: Any) -> str:
        """The redirect URL registered on the OAuth app: ``<public URL>/login/callback``."""
        base = self.public_url or str(request.base_url).rstrip("/")
        return f"{base}/login/callback"


@dataclass(frozen=True)
class LoginPlan:
    """Who runs the login of a launched leaderboard."""

    on_space: bool
    """``True``: gradio's OAuth of the Space; ``False``: :attr:`client`."""
    client: OAuthClient | None = None
    """The leaderboard's own OAuth app (off a Space)."""


def login_plan(environ: Mapping[str, str] | None = None) -> LoginPlan:
    """Check that a login-required leaderboard can start here; imports gradio.

    A Space is what gradio takes for one (``gradio.oauth.get_space()``, the test its ``attach_oauth`` makes).

    Raises:
        ConfigError: on a Space without ``hf_oauth: true``; off a Space without an OAuth app (the message
            says what to set).
    """
    from gradio import oauth

    if oauth.get_space() is not None:
        names = (CLIENT_ID, CLIENT_SECRET, SCOPES, PROVIDER)
        missing = [name for name in names if getattr(oauth, name) is None]  # what gradio read at import
        if missing:
            raise ConfigError(f"login is required on this Space but {', '.join(missing)} not set: expected "
                              "`hf_oauth: true` in the Space's README.md (the Space then sets them); or set "
                              "MMJUDGE_NO_AUTH=1 to serve without login")  # fmt: skip
        return LoginPlan(on_space=True)
    return LoginPlan(on_space=False, client=OAuthClient.from_env(os.environ if environ is None else environ))


def check_no_auth(require_login: bool, on_space_allowed: bool, environ: Mapping[str, str] | None = None) -> None:
    """Refuse the no-login mode on a Hugging Face Space (``SPACE_ID`` set) unless ``on_space_allowed``
    (``--no-auth-on-space``, ``MMJUDGE_NO_AUTH_ON_SPACE=1``): there anyone who reaches the Space would submit as
    ``local`` and every admin action would be open.

    >>> check_no_auth(False, False, {"SPACE_ID": "org/lb"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: --no-auth (MMJUDGE_NO_AUTH=1) on the Hugging Face Space org/lb: ...
    >>> check_no_auth(False, False, {}), check_no_auth(False, True, {"SPACE_ID": "org/lb"})
    (None, None)
    """
    env = os.environ if environ is None else environ
    space = env.get("SPACE_ID", "").strip()
    if require_login or on_space_allowed or not space:
        return
    raise ConfigError(
        f"--no-auth (MMJUDGE_NO_AUTH=1) on the Hugging Face Space {space}: without a login anyone who reaches the "
        "Space submits as 'local' and may hide rows; remove it (the Space's own login needs `hf_oauth: true`), or, "
        "for a private Space of your own, also set --no-auth-on-space (MMJUDGE_NO_AUTH_ON_SPACE=1)"
    )


def secret_file(store_path: Path | None) -> Path:
    """Where the generated session key is kept: beside the SQLite store, or in the user data dir for a
    PostgreSQL store (``None``).

    >>> secret_file(Path("/srv/lb/leaderboard.sqlite")).as_posix()
    '/srv/lb/leaderboard.sqlite.session-secret'
    """
    if store_path is not None:
        return store_path.with_name(store_path.name + ".session-secret")
    from platformdirs import user_data_dir

    return Path(user_data_dir("mmjudge")) / "session-secret"


def session_secret(environ: Mapping[str, str], store_path: Path | None) -> str:
    """The key signing the session cookies off a Space: ``MMJUDGE_SESSION_SECRET``, else the content of
    :func:`secret_file`, written once with a random key (mode 0600) and read again on every start.

    The file is this server's only when nobody else could have put it there: its folder is writable by no
    other user (a key planted in a shared folder would let its planter sign an admin's cookie), and the file is
    opened without following a symlink, is a regular file owned by this process's user, mode 0600.

    Raises:
        ConfigError: a key shorter than :data:`MIN_SECRET_CHARS`, a folder other users may write, or a key
            file that is a symlink, not a regular file, another user's, or readable by others.
    """
    given = environ.get(SESSION_SECRET, "").strip()
    if given:
        return _strong(given, SESSION_SECRET)
    path = secret_file(store_path)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    _check_folder(path.parent)
    if not os.path.lexists(path):
        _create_secret(path)
    return _strong(_read_own_file(path).strip(), str(path))


def _check_folder(folder: Path) -> None:
    """Refuse a folder another user may write (or owns): anyone who can write it can plant the key file."""
    info = folder.stat()
    if info.st_uid not in (os.getuid(), 0) or stat.S_IMODE(info.st_mode) & 0o022:
        raise ConfigError(f"{folder} (the folder of the session key) is writable by other users (mode "
                          f"{stat.S_IMODE(info.st_mode):04o}, owner uid {info.st_uid}): keep the store in a folder "
                          f"of your own (`chmod go-w {folder}`), or set {SESSION_SECRET}")  # fmt: skip


def _read_own_file(path: Path) -> str:
    """The text of ``path``, opened without following a symlink, when it is a regular file of this process's
    user with mode 0600 (checked on the open file, so nothing can swap it in between)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise ConfigError(f"{path} (the session key) cannot be opened as a file of its own ({exc.strerror}; a "
                          f"symlink is refused): remove it, and a new key is made at the next start") from None  # fmt: skip
    with os.fdopen(fd, encoding="utf-8") as file:
        info = os.fstat(file.fileno())
        mode = stat.S_IMODE(info.st_mode)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            raise ConfigError(f"{path} (the session key) is not a regular file of this server's user (uid "
                              f"{os.getuid()}; it belongs to uid {info.st_uid}): someone else may have written it; "
                              "remove it, and a new key is made at the next start")  # fmt: skip
        if mode & 0o077:
            raise ConfigError(f"{path} (the session key) has mode {mode:04o}: expected 0600, readable by its owner "
                              f"only; run `chmod 600 {path}`")  # fmt: skip
        return file.read()


def _strong(value: str, name: str) -> str:
    if len(value) < MIN_SECRET_CHARS:
        raise ConfigError(f"{name}: expected a random session key of at least {MIN_SECRET_CHARS} characters, got "
                          f"{len(value)}; make one with `python -c \"import secrets; print(secrets.token_urlsafe(48))\"`")  # fmt: skip
    return value


def _create_secret(path: Path) -> None:
    """Write a fresh key to ``path`` atomically: a concurrent start either links its file or reads this one."""
    scratch = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(secrets.token_urlsafe(48) + "\n")
    try:
        os.link(scratch, path)  # fails when another start made the file first; that one is kept
    except FileExistsError:
        pass
    finally:
        scratch.unlink()


@dataclass(eq=False)
class LoginGuard:
    """The login of one login-required launch (:func:`guard_login`)."""

    plan: LoginPlan
    """Who runs the login."""
    session_secret: str | None = field(default=None, repr=False)
    """The cookie key off a Space (on a Space gradio derives it from ``OAUTH_CLIENT_SECRET``)."""
    attached: weakref.WeakSet[Any] = field(default_factory=weakref.WeakSet, repr=False)
    """The gradio apps the hook gave this login to."""
    sessions: Any = field(default=None, repr=False)
    """The leaderboard's store, which holds the logins (:class:`~mmjudge.leaderboard.app._gate.RouteGate`)."""

    def launch_kwargs(self, kwargs: Mapping[str, Any], files: FileRule | None = None) -> dict[str, Any]:
        """``Blocks.launch`` keyword arguments with :class:`RouteGate` (serving ``files``) in the app (constructor
        middleware runs inside the session middleware gradio or :meth:`attach` adds later), see :func:`gated`."""
        from starlette.middleware import Middleware

        return gated(kwargs, Middleware(RouteGate, sessions=self.sessions, files=files))

    def attach(self, app: Any) -> None:
        """What ``attach_oauth`` does for this app off a Space: the OAuth routes and the session middleware."""
        from starlette.middleware.sessions import SessionMiddleware

        if self.plan.client is None or self.session_secret is None:
            raise LoginSetupError(
                "a Space's login is gradio's: the hook must not attach one (report this bug)"
            )
        add_login_routes(app, self.plan.client)
        # lax: the callback is a top-level redirect from the provider; off a Space the page is not in an iframe
        app.add_middleware(SessionMiddleware, secret_key=self.session_secret, same_site="lax",
                           https_only=self.plan.client.secure_cookie)  # fmt: skip
        self.attached.add(app)

    def verify(self, blocks: Any) -> None:
        """Raise :class:`LoginSetupError` when the launched app of ``blocks`` lacks this login or the gate."""
        app = blocks.server_app
        if not self.plan.on_space and app not in self.attached:
            missing = "gradio did not call gradio.routes.attach_oauth while creating the app"
        elif not any(getattr(m, "cls", None) is RouteGate for m in app.user_middleware):
            missing = "gradio did not pass app_kwargs['middleware'] to the app it served (no route gate)"
        else:
            return
        raise LoginSetupError(f"{missing}, so the leaderboard refuses to serve with login required: install the "
                              "gradio version pinned in constraints.txt, or serve with --no-auth")  # fmt: skip


def gated(kwargs: Mapping[str, Any], gate: Any) -> dict[str, Any]:
    """``Blocks.launch`` keyword arguments with the middleware ``gate`` added to the app and gradio's static
    file workers off (``num_workers=0``: they take uploads in processes of their own, past any middleware)."""
    app_kwargs = dict(kwargs.get("app_kwargs") or {})
    app_kwargs["middleware"] = [*app_kwargs.get("middleware", ()), gate]
    return {**kwargs, "app_kwargs": app_kwargs, "num_workers": 0}


_LOGINS: weakref.WeakKeyDictionary[Any, LoginGuard | None] = weakref.WeakKeyDictionary()
"""The Blocks whose login this module runs (:func:`reserve_login`), with their guard once launched."""


def reserve_login(blocks: Any) -> None:
    """Take over the login of ``blocks`` (call it while building them, before their ``with`` ends).

    gradio makes an app each time a Blocks' ``with`` ends and on ``queue()``, and each one gets a login:
    off a Space that would be the mock, which needs this machine's Hugging Face login and asks the Hub who
    it is. A reserved Blocks gets no login at all in those apps (no routes, no session: nobody is logged in)
    until :func:`guard_login` configures the real one at launch; on a Space gradio's stays.
    """
    _install_hook()
    _LOGINS.setdefault(blocks, None)


def guard_login(blocks: Any, store: Any, environ: Mapping[str, str] | None = None) -> LoginGuard:
    """Set up the login of ``blocks`` (which must hold a ``gr.LoginButton``) before it is launched; ``store``
    (the leaderboard's :class:`~mmjudge.leaderboard.store.Store`) holds the logins, and the generated session
    key is kept beside its SQLite file (:func:`secret_file`).

    Raises:
        ConfigError: no usable login here (:func:`login_plan`, :func:`session_secret`).
        LoginSetupError: ``blocks`` holds no ``gr.LoginButton`` (gradio would add no login at all).
    """
    env = os.environ if environ is None else environ
    plan = login_plan(env)
    if not blocks.expects_oauth:
        raise LoginSetupError(
            "login is required but the Blocks hold no gr.LoginButton: add one (build_app does)"
        )
    guard = LoginGuard(plan, None if plan.on_space else session_secret(env, store.path), sessions=store)
    reserve_login(blocks)
    _LOGINS[blocks] = guard
    return guard


def _attach_oauth(app: Any) -> None:
    """``gradio.routes.attach_oauth`` while this module is in use: gradio's own function (looked up in
    ``gradio.oauth``) on a Space and for Blocks not reserved; else the guard's login, or none before launch."""
    from gradio import oauth

    if app.blocks not in _LOGINS or oauth.get_space() is not None:
        oauth.attach_oauth(app)
        return
    guard = _LOGINS[app.blocks]
    if guard is not None:
        guard.attach(app)


def _install_hook() -> None:
    """Point ``gradio.routes.attach_oauth`` at :func:`_attach_oauth` (idempotent). Why a patch: gradio offers
    no option to use its real OAuth routes off a Space, nor to choose the session key, and both are chosen
    inside this one function, which ``App.create_app`` looks up by this name (``tests/leaderboard/app/test_auth.py``
    fails if that changes)."""
    import gradio.routes

    if gradio.routes.attach_oauth is not _attach_oauth:
        gradio.routes.attach_oauth = _attach_oauth
