"""The login of a served leaderboard, over real HTTP: real OAuth off a Space (never gradio's mock), session
cookies only from the server's own key, no anonymous uploads, and a refusal to start without a login.

Off a Space the app runs against :class:`FakeProvider`, an OpenID provider on a loopback port (discovery,
authorize, token with an RS256 ID token, JWKS), so the whole code flow runs without the network.
"""

from __future__ import annotations

import base64
import hashlib
import inspect
import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest

from mmjudge.errors import ConfigError
from mmjudge.leaderboard import Store

from ..conftest import free_port, prediction_bytes

ADMIN = "root"
CLIENT_ID, CLIENT_SECRET = "fake-client-id", "fake-client-secret"
GRADIO_MOCK_KEY = hashlib.sha256(b"-v4").hexdigest()
"""The key gradio signs session cookies with off a Space (``sha256(OAUTH_CLIENT_SECRET or "" + "-v4")``)."""


class FakeProvider:
    """An OpenID provider on a loopback port that signs in ``username`` for the client ``CLIENT_ID``."""

    def __init__(self, username: str = ADMIN) -> None:
        from joserfc.jwk import RSAKey

        self.username = username
        self.token_html = False
        """Answer the token request with an HTML error page (a misconfigured or failing provider)."""
        self.key = RSAKey.generate_key(2048, parameters={"kid": "k1"})
        self.nonces: dict[str, str] = {}
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _json(self, value: Any, status: int = 200) -> None:
                body = json.dumps(value).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                if parts.path == "/.well-known/openid-configuration":
                    self._json(provider.metadata())
                elif parts.path == "/oauth/jwks":
                    self._json({"keys": [provider.key.as_dict(private=False)]})
                elif parts.path == "/oauth/authorize":  # the user consents at once
                    code = secrets.token_hex(8)
                    provider.nonces[code] = query["nonce"]
                    self.send_response(302)
                    self.send_header(
                        "Location",
                        f"{query['redirect_uri']}?{urlencode({'code': code, 'state': query['state']})}",
                    )
                    self.end_headers()
                else:
                    self._json({"error": "not_found"}, 404)

            def do_POST(self) -> None:
                form = {
                    k: v[0]
                    for k, v in parse_qs(
                        self.rfile.read(int(self.headers["Content-Length"])).decode()
                    ).items()
                }
                expected = "Basic " + base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
                if provider.token_html:
                    body = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                elif self.path != "/oauth/token" or self.headers.get("Authorization") != expected:
                    self._json({"error": "invalid_client"}, 401)
                elif form.get("code") not in provider.nonces:
                    self._json({"error": "invalid_grant"}, 400)
                else:
                    self._json(provider.token(provider.nonces.pop(form["code"])))

        return Handler

    def metadata(self) -> dict[str, Any]:
        return {"issuer": self.url, "authorization_endpoint": f"{self.url}/oauth/authorize",
                "token_endpoint": f"{self.url}/oauth/token", "jwks_uri": f"{self.url}/oauth/jwks",
                "id_token_signing_alg_values_supported": ["RS256"], "response_types_supported": ["code"]}  # fmt: skip

    def token(self, nonce: str) -> dict[str, Any]:
        from joserfc import jwt

        now = int(time.time())
        claims = {"iss": self.url, "aud": CLIENT_ID, "sub": "42", "iat": now, "exp": now + 3600, "nonce": nonce,
                  "preferred_username": self.username, "name": "Root User",
                  "profile": f"https://huggingface.co/{self.username}", "picture": ""}  # fmt: skip
        id_token = jwt.encode({"alg": "RS256", "kid": "k1"}, claims, self.key)
        return {"access_token": "hf_oauth_fake", "token_type": "Bearer", "expires_in": 3600,
                "scope": "openid profile", "id_token": id_token}  # fmt: skip

    def __enter__(self) -> FakeProvider:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


def _off_a_space(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No Space, no login variables, uploads into a folder of the test's own (returned)."""
    for name in ("SPACE_ID", "SYSTEM", "SPACE_HOST", "OAUTH_CLIENT_ID", "OAUTH_CLIENT_SECRET", "OAUTH_SCOPES",
                 "OPENID_PROVIDER_URL", "MMJUDGE_SESSION_SECRET", "MMJUDGE_PUBLIC_URL", "GRADIO_NUM_WORKERS"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    uploads = tmp_path / "gradio-uploads"
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(uploads))
    return uploads


@contextmanager
def _serve(board: Any, port: int) -> Iterator[Any]:
    from mmjudge.leaderboard.app.startup import about_text
    from mmjudge.leaderboard.app.ui import build_app

    app = build_app(board, about=about_text())
    app.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield app
    finally:
        assert app.close(timeout=120), "handlers still running 120 s after closing"


class Served:
    """A launched app, an HTTP client for it and the session key it signs cookies with."""

    def __init__(self, app: Any, url: str, uploads: Path, key: str | None) -> None:
        self.app, self.url, self.uploads, self.key = app, url, uploads, key
        self.http = httpx.Client(base_url=url, follow_redirects=False, timeout=60)

    def fn_index(self, name: str) -> int:
        return next(i for i, fn in self.app.blocks.fns.items() if getattr(fn.fn, "__name__", None) == name)

    def call(self, name: str, data: list[Any], cookie: str | None = None) -> list[Any]:
        """Run a handler the way the page does (``queue/join``, then the event stream); its outputs."""
        headers = {"Cookie": f"session={cookie}"} if cookie else {}
        session_hash = secrets.token_hex(8)
        body = {
            "data": data,
            "fn_index": self.fn_index(name),
            "session_hash": session_hash,
            "trigger_id": None,
        }
        joined = self.http.post("/gradio_api/queue/join", json=body, headers=headers)
        assert joined.status_code == 200, joined.text
        with self.http.stream("GET", "/gradio_api/queue/data", params={"session_hash": session_hash},
                              headers=headers) as stream:  # fmt: skip
            for line in stream.iter_lines():
                message = json.loads(line[5:]) if line.startswith("data:") else {}
                if message.get("msg") == "process_completed":
                    assert message["success"], message
                    return list(message["output"]["data"])
        raise AssertionError(f"no answer from {name}")

    def submit_data(self, file: dict[str, Any] | None) -> list[Any]:
        import gradio as gr

        fn = self.app.blocks.fns[self.fn_index("submit")]
        typed = {"submit-judge": "judge-login", "submit-model": "org/model-login", "submit-revision": "r1"}
        return [file if isinstance(c, gr.File) else typed.get(c.elem_id, c.value) for c in fn.inputs]

    def upload(self, data: bytes, cookie: str | None = None) -> Any:
        headers = {"Cookie": f"session={cookie}"} if cookie else {}
        return self.http.post(
            "/gradio_api/upload", files={"files": ("predictions.jsonl", data)}, headers=headers
        )

    def files_written(self) -> list[Path]:
        return sorted(p for p in self.uploads.rglob("*") if p.is_file()) if self.uploads.exists() else []


def forged_cookie(key: str, username: str = ADMIN, store: Any = None) -> str:
    """A session cookie as starlette's ``SessionMiddleware`` signs it, naming ``username`` as logged in; with
    ``store``, naming a session opened there (as the login callback does), so that the server holds the login."""
    import itsdangerous

    from mmjudge.leaderboard.store import open_session

    info = {"access_token": "x", "token_type": "bearer", "scope": "openid profile",
            "expires_at": int(time.time()) + 3600,
            "userinfo": {"sub": "1", "name": username, "preferred_username": username,
                         "profile": f"https://huggingface.co/{username}", "picture": ""}}  # fmt: skip
    session: dict[str, Any] = {"oauth_info": info}
    if store is not None:
        session["mmjudge_session"] = open_session(store, username, expires_at=info["expires_at"])
    data = base64.b64encode(json.dumps(session).encode())
    return itsdangerous.TimestampSigner(key).sign(data).decode()


@pytest.fixture
def provider() -> Iterator[FakeProvider]:
    with FakeProvider() as running:
        yield running


@pytest.fixture
def login_app(board_factory, provider, tmp_path, monkeypatch) -> Iterator[Served]:
    """Login required, off a Space, the leaderboard's OAuth app configured against :class:`FakeProvider`."""
    from mmjudge.leaderboard.app.auth import secret_file

    uploads = _off_a_space(monkeypatch, tmp_path)
    port = free_port()
    monkeypatch.setenv("OAUTH_CLIENT_ID", CLIENT_ID)
    monkeypatch.setenv("OAUTH_CLIENT_SECRET", CLIENT_SECRET)
    monkeypatch.setenv("OPENID_PROVIDER_URL", provider.url)
    monkeypatch.setenv("MMJUDGE_PUBLIC_URL", f"http://127.0.0.1:{port}")
    board = board_factory(require_login=True, admins=frozenset({ADMIN}), daily_limit=100)
    with _serve(board, port) as app:
        key = secret_file(board.store.path).read_text().strip()
        yield Served(app, f"http://127.0.0.1:{port}", uploads, key)


def _stored_row(board: Any, reference: dict[str, Any]) -> int:
    from mmjudge.leaderboard import SubmissionMeta

    return board.submit(prediction_bytes("isovrbench", reference["isovrbench"], seed=9),
                        SubmissionMeta("judge-a", "org/a", "r1"), "someone").id  # fmt: skip


def test_login_off_a_space_goes_to_the_provider_and_the_mock_path_logs_nobody_in(
    login_app, provider, reference
) -> None:
    start = login_app.http.get("/login/huggingface", params={"_target_url": "/?tab=submit"})
    assert start.status_code == 302
    to = urlsplit(start.headers["location"])
    query = {k: v[0] for k, v in parse_qs(to.query).items()}
    assert f"{to.scheme}://{to.netloc}{to.path}" == f"{provider.url}/oauth/authorize"
    assert query["client_id"] == CLIENT_ID and query["redirect_uri"] == f"{login_app.url}/login/callback"
    assert query["scope"] == "openid profile" and query["response_type"] == "code" and query["state"]
    # gradio's mock logs in at /login/callback without any code; here that is a failed login, with no session
    row = _stored_row(login_app.app.handlers.board, reference)
    for mock in ("/login/callback", "/login/callback?_target_url=%2F"):
        visitor = httpx.Client(base_url=login_app.url, follow_redirects=False)
        answer = visitor.get(mock)
        assert answer.status_code == 400 and "login failed" in answer.text
        assert "oauth_info" not in _session_of(visitor, login_app.key)
        [message] = login_app.call("hide", [row], visitor.cookies.get("session"))
        assert "only admins" in message
    assert login_app.app.handlers.board.store.get_submission(row).hidden is False


def _session_of(client: Any, key: str) -> dict[str, Any]:
    import itsdangerous

    cookie = client.cookies.get("session")
    if not cookie:
        return {}
    return json.loads(base64.b64decode(itsdangerous.TimestampSigner(key).unsign(cookie)))


def test_the_oauth_code_flow_signs_in_and_the_user_can_upload_submit_and_hide(
    login_app, provider, reference
) -> None:
    http = login_app.http
    to_provider = http.get("/login/huggingface", params={"_target_url": "/?tab=submit"}).headers["location"]
    back = httpx.get(to_provider, follow_redirects=False).headers["location"]  # the user consents
    assert back.startswith(f"{login_app.url}/login/callback?")
    done = http.get(back)
    assert done.status_code == 302 and done.headers["location"] == "/?tab=submit"
    assert _session_of(http, login_app.key)["oauth_info"]["userinfo"]["preferred_username"] == ADMIN
    uploaded = http.post("/gradio_api/upload", files={"files": ("predictions.jsonl",
                         prediction_bytes("isovrbench", reference["isovrbench"], seed=3))})  # fmt: skip
    assert uploaded.status_code == 200, uploaded.text
    [path] = uploaded.json()
    file = {"path": path, "orig_name": "predictions.jsonl", "meta": {"_type": "gradio.FileData"}}
    cookie = http.cookies["session"]
    [stored] = login_app.call("submit", login_app.submit_data(file), cookie)
    assert stored.startswith("**Stored**"), stored
    row = next(
        s
        for s in login_app.app.handlers.board.store.submissions("isovrbench")
        if s.model == "org/model-login"
    )
    assert row.submitter == ADMIN
    assert login_app.call("hide", [row.id], cookie) == [f"Row #{row.id} hidden."]
    logout = http.get("/logout")
    assert logout.status_code == 302 and "oauth_info" not in _session_of(http, login_app.key)


def test_an_unreachable_provider_is_a_clear_502(login_app, provider) -> None:
    provider.server.shutdown()
    provider.server.server_close()
    answer = login_app.http.get("/login/huggingface")
    assert answer.status_code == 502 and f"the OpenID provider {provider.url} did not answer" in answer.text


def test_a_session_cookie_forged_with_gradios_keys_is_refused(login_app, reference) -> None:
    row = _stored_row(login_app.app.handlers.board, reference)
    board = login_app.app.handlers.board
    space_key = hashlib.sha256(f"{CLIENT_SECRET}-v4".encode()).hexdigest()  # gradio's, for this client secret
    for key in (GRADIO_MOCK_KEY, space_key):
        forged = forged_cookie(key)
        [message] = login_app.call("hide", [row], forged)
        assert "only admins" in message
        [refused] = login_app.call("submit", login_app.submit_data(None), forged)
        assert "please sign in" in refused
        assert board.store.get_submission(row).hidden is False
    # the same cookie signed with the server's own key is a login: the refusals above are the key's doing
    assert login_app.call("hide", [row], forged_cookie(login_app.key, store=board.store)) == [f"Row #{row} hidden."]
    assert board.store.get_submission(row).hidden is True


def test_an_anonymous_upload_is_refused_before_anything_is_written(login_app, reference) -> None:
    from mmjudge.leaderboard.app.auth import UPLOAD_REFUSED

    data = prediction_bytes("isovrbench", reference["isovrbench"], seed=5)
    before = login_app.files_written()
    for cookie in (None, forged_cookie(GRADIO_MOCK_KEY)):
        refused = login_app.upload(data, cookie)
        assert refused.status_code == 401 and refused.json() == {"detail": UPLOAD_REFUSED}
    assert login_app.http.post("/gradio_api/upload/", files={"files": ("p.jsonl", data)}).status_code == 403  # no such route
    assert login_app.files_written() == before == []
    assert login_app.upload(data, forged_cookie(login_app.key, store=login_app.app.handlers.board.store)).status_code == 200
    assert len(login_app.files_written()) == 1


REMOTE = {"path": "https://files.example/huge.jsonl", "meta": {"_type": "gradio.FileData"}}


def _record_downloads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """gradio's download of a remote file named in an event call, replaced by a recorder (no network)."""
    import gradio.processing_utils

    fetched: list[str] = []

    async def download(url: str, cache_dir: str) -> str:
        fetched.append(url)
        raise OSError("no network in the tests")

    monkeypatch.setattr(gradio.processing_utils, "async_ssrf_protected_download", download)
    return fetched


def _join(served: Served, name: str, data: list[Any]) -> Any:
    body = {"data": data, "fn_index": served.fn_index(name), "session_hash": secrets.token_hex(8)}
    return served.http.post("/gradio_api/queue/join", json=body)


def test_an_anonymous_call_naming_a_remote_file_is_refused_before_gradio_fetches_it(
    login_app, monkeypatch
) -> None:
    from mmjudge.leaderboard.app.auth import REMOTE_FILE_REFUSED

    fetched = _record_downloads(monkeypatch)
    refused = _join(login_app, "submit", login_app.submit_data(REMOTE))
    assert refused.status_code == 401 and refused.json() == {"detail": REMOTE_FILE_REFUSED}
    assert fetched == [] and login_app.files_written() == []
    assert isinstance(login_app.call("queue_value", []), list)  # other anonymous calls go through whole


def test_the_no_auth_mode_accepts_anonymous_uploads(board_factory, reference, tmp_path, monkeypatch) -> None:
    uploads = _off_a_space(monkeypatch, tmp_path)
    port = free_port()
    with _serve(board_factory(require_login=False), port) as app:
        served = Served(app, f"http://127.0.0.1:{port}", uploads, None)
        answer = served.upload(prediction_bytes("isovrbench", reference["isovrbench"], seed=6))
        assert answer.status_code == 200, answer.text
        [path] = answer.json()
        assert Path(path).is_file() and Path(path).is_relative_to(uploads)
        # without login nothing is gated: gradio fetches a remote file named in a call (what the gate stops)
        fetched = _record_downloads(monkeypatch)
        assert _join(served, "submit", served.submit_data(REMOTE)).status_code == 200
        deadline = time.time() + 30
        while not fetched and time.time() < deadline:
            time.sleep(0.05)
        assert fetched == [REMOTE["path"]]


def test_login_required_without_an_oauth_app_refuses_to_start(
    board_factory, data_root, tmp_path, monkeypatch, capsys
) -> None:
    from mmjudge.cli import main
    from mmjudge.leaderboard.app.ui import build_app

    _off_a_space(monkeypatch, tmp_path)
    app = build_app(board_factory(require_login=True))
    with pytest.raises(ConfigError) as caught:
        app.launch(server_name="127.0.0.1", server_port=free_port(), prevent_thread_lock=True, quiet=True)
    message = str(caught.value)
    for part in ("OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET are not set", "https://huggingface.co/settings/applications/new",
                 "<server>/login/callback", "openid profile", "MMJUDGE_SESSION_SECRET", "--no-auth"):  # fmt: skip
        assert part in message, part
    assert "\n" not in message and not app.blocks.is_running
    monkeypatch.setenv("OAUTH_CLIENT_ID", CLIENT_ID)  # half a configuration names the missing half
    assert main(["leaderboard", "--db", str(tmp_path / "cli.sqlite"), "--data-root", str(data_root)]) == 1
    err = capsys.readouterr().err
    assert "OAUTH_CLIENT_SECRET is not set" in err and "--no-auth" in err
    assert not (tmp_path / "cli.sqlite").exists()  # refused before the store was opened


def test_the_session_key_is_generated_once_kept_0600_and_checked(tmp_path) -> None:
    from mmjudge.leaderboard.app.auth import secret_file, session_secret

    store = tmp_path / "lb.sqlite"
    first = session_secret({}, store)
    assert len(first) >= 32 and session_secret({}, store) == first  # kept across restarts
    path = secret_file(store)
    assert path == tmp_path / "lb.sqlite.session-secret" and (path.stat().st_mode & 0o777) == 0o600
    assert session_secret({}, tmp_path / "other.sqlite") != first  # one key per deployment
    given = secrets.token_urlsafe(40)
    assert session_secret({"MMJUDGE_SESSION_SECRET": given}, store) == given
    with pytest.raises(
        ConfigError, match="MMJUDGE_SESSION_SECRET: expected a random session key of at least 32"
    ):
        session_secret({"MMJUDGE_SESSION_SECRET": "short"}, store)
    path.chmod(0o644)
    with pytest.raises(ConfigError, match="has mode 0644: expected 0600"):
        session_secret({}, store)


def test_gradio_picks_mock_or_real_login_and_its_key_in_the_function_the_hook_replaces(board_factory, provider, tmp_path,
                                                                                    monkeypatch) -> None:  # fmt: skip
    """What this module relies on in gradio: ``App.create_app`` calls ``gradio.routes.attach_oauth`` for a
    Blocks with a LoginButton; gradio's own function decides mock or real by ``get_space()`` and keys the
    cookies with ``OAUTH_CLIENT_SECRET``. A guarded Blocks gets the leaderboard's routes, any other gradio's."""
    import gradio as gr
    import gradio.oauth
    import gradio.routes

    from mmjudge.leaderboard.app import auth

    assert "attach_oauth(app)" in inspect.getsource(gradio.routes.App.create_app)
    source = inspect.getsource(gradio.oauth.attach_oauth)
    assert (
        "get_space()" in source and "OAUTH_CLIENT_SECRET" in source and "_add_mocked_oauth_routes" in source
    )
    _off_a_space(monkeypatch, tmp_path)
    monkeypatch.setenv("OAUTH_CLIENT_ID", CLIENT_ID)
    monkeypatch.setenv("OAUTH_CLIENT_SECRET", CLIENT_SECRET)
    monkeypatch.setenv("OPENID_PROVIDER_URL", provider.url)
    mocked: list[Any] = []
    monkeypatch.setattr(gradio.oauth, "_add_mocked_oauth_routes", mocked.append)
    with gr.Blocks() as guarded:
        gr.LoginButton()
        auth.reserve_login(guarded)
    assert gradio.routes.attach_oauth is auth._attach_oauth and mocked == []
    assert not [r for r in guarded.app.routes if getattr(r, "path", "") == "/login/huggingface"]  # none yet
    auth.guard_login(guarded, Store(tmp_path / "lb.sqlite"))
    app = gradio.routes.App.create_app(guarded)
    login = next(r for r in app.routes if getattr(r, "path", None) == "/login/huggingface")
    assert login.endpoint.__module__.startswith("mmjudge.leaderboard.") and mocked == []
    with gr.Blocks() as other:
        gr.LoginButton()
    assert mocked == [other.app]  # gradio's own attach_oauth ran for the Blocks nobody reserved
    # a gradio that stopped calling the hook: the launch is refused rather than served without the login
    guard = auth.guard_login(guarded, Store(tmp_path / "lb.sqlite"))
    monkeypatch.setattr(gradio.routes, "attach_oauth", lambda app: None)
    guarded.server_app = gradio.routes.App.create_app(
        guarded, app_kwargs=guard.launch_kwargs({})["app_kwargs"]
    )
    with pytest.raises(auth.LoginSetupError, match=r"did not call gradio\.routes\.attach_oauth"):
        guard.verify(guarded)


def test_on_a_space_gradios_oauth_stays_and_uploads_still_need_a_login(board_factory, provider, reference, tmp_path,
                                                                      monkeypatch) -> None:  # fmt: skip
    import gradio.oauth

    uploads = _off_a_space(monkeypatch, tmp_path)
    monkeypatch.setattr(gradio.oauth, "get_space", lambda: "org/leaderboard")
    with pytest.raises(ConfigError, match="hf_oauth: true"):
        from mmjudge.leaderboard.app.auth import login_plan

        login_plan({})
    space_secret = "space-client-secret"
    for name, value in (("OAUTH_CLIENT_ID", CLIENT_ID), ("OAUTH_CLIENT_SECRET", space_secret),
                        ("OAUTH_SCOPES", "openid profile"), ("OPENID_PROVIDER_URL", provider.url)):  # fmt: skip
        monkeypatch.setattr(gradio.oauth, name, value)
    port = free_port()
    board = board_factory(require_login=True, admins=frozenset({ADMIN}))
    with _serve(board, port) as app:
        served = Served(app, f"http://127.0.0.1:{port}", uploads, None)
        start = served.http.get("/login/huggingface")
        assert start.status_code == 302 and start.headers["location"].startswith(
            f"{provider.url}/oauth/authorize?"
        )
        login = next(
            r for r in app.blocks.server_app.routes if getattr(r, "path", None) == "/login/huggingface"
        )
        assert login.endpoint.__module__ == "gradio.oauth"  # gradio's real route, not the leaderboard's
        assert not (tmp_path / "lb.sqlite.session-secret").exists()
        data = prediction_bytes("isovrbench", reference["isovrbench"], seed=7)
        assert served.upload(data).status_code == 401
        assert served.upload(data, forged_cookie(GRADIO_MOCK_KEY)).status_code == 401
        assert served.files_written() == []
        space_key = hashlib.sha256(f"{space_secret}-v4".encode()).hexdigest()
        assert served.upload(data, forged_cookie(space_key, store=board.store)).status_code == 200  # gradio's session


def test_login_settings_are_documented_and_secret_ones_masked() -> None:
    from mmjudge.leaderboard.app.space import SECRETS as SPACE_SECRETS
    from mmjudge.leaderboard.app.space import VARIABLES as SPACE_VARIABLES
    from mmjudge.leaderboard.core.login_settings import SECRETS, VARIABLES

    assert set(VARIABLES) <= set(SPACE_VARIABLES) and set(SECRETS) <= set(SPACE_SECRETS)
    assert {"OAUTH_CLIENT_SECRET", "MMJUDGE_SESSION_SECRET"} <= set(SPACE_SECRETS)
    page = (Path(__file__).resolve().parents[3] / "docs" / "leaderboard.md").read_text()
    deploy = page[page.index("## Deploy") :]
    for name in (*VARIABLES, "/login/callback", "openid profile", "settings/applications/new"):
        assert name in deploy, name


# --- leaderboard trust, round three: routes, the session-key file, logout, a garbled provider ------------------------


def _gradio_routes(routes: Any, prefix: str = "") -> Iterator[tuple[str, frozenset[str]]]:
    """Every route of the app, with its methods: FastAPI's included routers and mounts walked through."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _gradio_routes(included.routes, prefix + route.include_context.prefix)
        elif getattr(route, "routes", None) is not None and not hasattr(route, "methods"):  # a mount
            yield from _gradio_routes(route.routes, prefix + route.path)
        else:
            methods = getattr(route, "methods", None) or {"WEBSOCKET" if "WebSocket" in type(route).__name__ else "GET"}
            yield prefix + route.path, frozenset(methods)


def _concrete(template: str) -> str:
    """A path the template matches (``{name}`` -> ``x1``, ``{name:path}`` -> ``a/b``)."""
    import re

    return re.sub(r"\{[^}:]+:path\}", "a/b", re.sub(r"\{[^}:]+\}", "x1", template))


def test_every_route_gradio_serves_is_refused_unless_the_app_uses_it(login_app, monkeypatch) -> None:
    """``POST /gradio_api/process_recording`` answered 200 to anonymous callers, kept ~6 MiB per call in temp
    folders and ran ffmpeg. Now only the routes of ``ROUTES`` are served; every other route gradio serves (all
    of them are enumerated here, so a route a new gradio adds fails this test until it is listed) is refused
    with 403 before gradio reads the request, for anonymous and signed-in callers alike."""
    from mmjudge.leaderboard.app.auth import ANYONE, ROUTE_REFUSED, ROUTES, route_of

    app = login_app.app.blocks.server_app
    app.add_api_route("/gradio_api/added-by-a-later-gradio", lambda: {"ok": True}, methods=["GET", "POST"])
    served = sorted(set(_gradio_routes(app.routes)), key=lambda r: r[0])
    assert len(served) > 70 and ("/gradio_api/process_recording", frozenset({"POST"})) in served
    signed_in = forged_cookie(login_app.key, store=login_app.app.handlers.board.store)
    listed = {(r.path, m) for r in ROUTES for m in r.methods}
    refused = []
    for template, methods in served:
        path = _concrete(template)
        for method in sorted(methods - {"HEAD"}):
            if (template, method) in listed:
                assert route_of(method, path) is not None
                continue
            refused.append(f"{method} {template}")
            for cookie in (None, signed_in):
                headers = {"Cookie": f"session={cookie}"} if cookie else {}
                answer = login_app.http.request(method, path, headers=headers, content=b"x" * 1024)
                assert answer.status_code == 403, (method, template, answer.status_code)
                assert answer.json() == {"detail": ROUTE_REFUSED.format(method=method, path=path)}
    assert "POST /gradio_api/process_recording" in refused and "GET /gradio_api/added-by-a-later-gradio" in refused
    assert {r.who for r in ROUTES if "upload" in r.path} == {"signed in"}
    assert all(r.who == ANYONE for r in ROUTES if "upload" not in r.path)
    # the recording route's case: 6 MiB of anonymous bytes, refused, nothing written
    data = {"video": ("clip.webm", b"\x1a\x45\xdf\xa3" + b"\0" * (6 * 1024 * 1024), "video/webm")}
    answer = login_app.http.post("/gradio_api/process_recording", files=data)
    assert answer.status_code == 403 and login_app.files_written() == []


def test_the_page_and_its_events_still_work_for_readers_and_users(login_app, reference) -> None:
    """What the gate lets through: the page, its assets and config, the public table events, exports."""
    page = login_app.http.get("/")
    assert page.status_code == 200 and "mmjudge leaderboard" in page.text
    assert login_app.http.get("/config").status_code == 200
    assert login_app.http.get("/gradio_api/info").status_code == 200
    assert isinstance(login_app.call("queue_value", []), list)


def test_a_session_key_file_another_user_could_have_written_is_refused(tmp_path) -> None:
    """A key file planted in a shared store folder (a regular file or a symlink, mode 0600) was accepted, and a
    cookie signed with it performed admin actions. Now the file is read only as the server's own."""
    import os

    from mmjudge.leaderboard.app.auth import secret_file, session_secret

    planted_key = secrets.token_urlsafe(48)
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # a folder every user can write
    (shared / "lb.sqlite.session-secret").write_text(planted_key)
    (shared / "lb.sqlite.session-secret").chmod(0o600)
    with pytest.raises(ConfigError, match="writable by other users"):
        session_secret({}, shared / "lb.sqlite")
    own = tmp_path / "own"
    own.mkdir(mode=0o700)
    elsewhere = tmp_path / "planted-key"
    elsewhere.write_text(planted_key)
    elsewhere.chmod(0o600)
    secret_file(own / "lb.sqlite").symlink_to(elsewhere)
    with pytest.raises(ConfigError, match="symlink is refused"):
        session_secret({}, own / "lb.sqlite")
    secret_file(own / "lb.sqlite").unlink()
    if os.getuid() == 0:  # a file of another user (only root can give one away)
        path = secret_file(own / "lb.sqlite")
        path.write_text(planted_key)
        path.chmod(0o600)
        os.chown(path, 54321, 54321)
        with pytest.raises(ConfigError, match="not a regular file of this server's user"):
            session_secret({}, own / "lb.sqlite")
        path.unlink()
    made = session_secret({}, own / "lb.sqlite")  # the server's own file: made, and read again
    assert made != planted_key and session_secret({}, own / "lb.sqlite") == made


def test_logout_ends_the_session_for_every_copy_of_its_cookie(login_app, provider, reference) -> None:
    """A cookie captured before ``/logout`` still uploaded (the session lived in the cookie, 14 days). Now the
    store holds the login and logout deletes it: the captured copy is anonymous."""
    http = login_app.http
    to_provider = http.get("/login/huggingface").headers["location"]
    http.get(httpx.get(to_provider, follow_redirects=False).headers["location"])
    captured = http.cookies["session"]
    data = prediction_bytes("isovrbench", reference["isovrbench"], seed=12)
    assert login_app.upload(data, captured).status_code == 200  # signed in
    row = _stored_row(login_app.app.handlers.board, reference)
    assert http.get("/logout").status_code == 302
    assert login_app.upload(data, captured).status_code == 401  # the copy taken before logout
    [message] = login_app.call("hide", [row], captured)
    assert "only admins" in message
    assert login_app.app.handlers.board.store.get_submission(row).hidden is False


def test_a_token_endpoint_answering_html_is_one_line_with_502(login_app, provider) -> None:
    provider.token_html = True
    http = login_app.http
    to_provider = http.get("/login/huggingface").headers["location"]
    answer = http.get(httpx.get(to_provider, follow_redirects=False).headers["location"])
    assert answer.status_code == 502, answer.text[:500]
    assert "\n" not in answer.text.strip() and "Traceback" not in answer.text
    assert f"the OpenID provider {provider.url} answered with something other than JSON" in answer.text


@pytest.mark.browser
def test_the_page_works_through_the_gate_for_a_reader_and_a_signed_in_user(login_app, reference, tmp_path) -> None:
    """The routes the page uses are the ones :data:`ROUTES` allows: a reader sees the tables, a user signs in
    through the provider and submits a file; nothing the page asks for is refused."""
    from browser_helpers import STEP_MS, choose_file, chromium

    answers: list[tuple[str, str, int]] = []
    with chromium() as browser:
        page = browser.new_page()
        page.on("response", lambda r: answers.append((r.request.method, r.url, r.status)))
        page.goto(login_app.url + "/")
        page.locator("#tiers-isovrbench input").first.wait_for(state="visible", timeout=STEP_MS)
        # the table and figure events ran through the queue: the controls are enabled once both are in
        page.wait_for_function("() => !document.querySelector('#tiers-isovrbench input').disabled", timeout=STEP_MS)
        page.get_by_text("Sign in").first.click()
        page.get_by_text("Logout").first.wait_for(timeout=STEP_MS)
        page.get_by_role("tab", name="Submit").click()
        upload = tmp_path / "browser.jsonl"
        upload.write_bytes(prediction_bytes("isovrbench", reference["isovrbench"], seed=21))
        choose_file(page, "#submit-file", upload)
        page.locator("#submit-judge textarea, #submit-judge input").first.fill("browser judge")
        page.locator("#submit-model textarea, #submit-model input").first.fill("org/browser")
        page.locator("#submit-button").click()
        message = page.locator("#submit-message")
        page.wait_for_function("el => /Stored|Rejected/.test(el.innerText)", arg=message.element_handle())
        assert "Stored" in message.inner_text(), message.inner_text()
    ours = [a for a in answers if a[1].startswith(login_app.url)]
    assert ours and not [a for a in ours if a[2] in (401, 403)], [a for a in ours if a[2] in (401, 403)]
