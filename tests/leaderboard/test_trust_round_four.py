"""Leaderboard trust, round four: the worker's and gradio's folders, the open file proxy, every repo a row depends
on pinned, a time limit on worker runs, the Type column, allow-listed remote-code requests, and ``--no-auth`` on a
Space.

Each test fails on the leaderboard before these fixes. The local-user attacks run as a second uid
(:data:`ATTACKER`, through ``setpriv``), as another user of the machine would; they need root to switch users and
are skipped without it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from mmjudge.errors import ConfigError
from mmjudge.leaderboard import SubmissionMeta, SubmissionRejected
from mmjudge.leaderboard.app._gate import FILE_REFUSED, FileRule, RouteGate
from mmjudge.leaderboard.app.ui import Handlers
from mmjudge.leaderboard.core import queue as q
from mmjudge.leaderboard.worker import jobs
from mmjudge.leaderboard.worker.jobs import EvalJob, process_one

from .conftest import prediction_bytes, prediction_lines, served, shown

ATTACKER = 54321
"""The uid of the other local user."""
COMMIT = "0123456789abcdef0123456789abcdef01234567"
OTHER = "fedcba9876543210fedcba9876543210fedcba98"
as_root = pytest.mark.skipif(
    not hasattr(os, "getuid") or os.getuid() != 0 or shutil.which("setpriv") is None,
    reason="switching to a second uid needs root and setpriv",
)


def as_attacker(script: str) -> subprocess.CompletedProcess[str]:
    """Run a shell ``script`` as the other local user (no groups, uid/gid :data:`ATTACKER`)."""
    command = ["setpriv", f"--reuid={ATTACKER}", f"--regid={ATTACKER}", "--clear-groups", "sh", "-c", script]
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.fixture
def shared_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temp folder every user may write (mode 1777, as /tmp; in the machine's /tmp, which every user reaches),
    made this process's temp folder, and a home of its own (so that the user's cache folder is not the machine's)."""
    shared = Path(tempfile.mkdtemp(prefix="mmjudge-shared-", dir="/tmp"))
    shared.chmod(0o1777)
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    yield shared
    shutil.rmtree(shared, ignore_errors=True)


def _queue_random(board: Any, **config: Any) -> int:
    spec = q.validate_request("", "", "random", {"seed": 1, **config}, ["isovrbench"], known_backends=["random"],
                              admin=True)  # fmt: skip
    return q.enqueue(board.store, spec, "root")


def _writing_eval(reference: dict[str, Any], seen: list[bytes], before: Any = None) -> Any:
    """A runner that records the config it was given (``before(job)`` first: what happens while the run starts)
    and writes a valid file."""

    def run(job: EvalJob) -> Path:
        if before is not None:
            before(job)
        seen.append(job.config_path.read_bytes())
        job.out_dir.mkdir(parents=True)
        path = job.out_dir / "predictions.jsonl"
        path.write_bytes(prediction_bytes(job.benchmark, reference[job.benchmark], seed=len(seen)))
        return path

    return run


# --- item 1: the worker's folders ---------------------------------------------------------------------------


@as_root
def test_another_user_cannot_swap_the_config_the_worker_runs(board_factory, reference, shared_tmp) -> None:
    """The attack: another user pre-creates ``<tmp>/mmjudge-requests`` (mode 777) and, once the worker made its
    attempt folder there, swaps in a folder of their own holding their ``config.yaml``; the worker ran it. Now the
    worker's folder is in its own cache folder, private, so the swap finds nothing to swap."""
    board = board_factory(admins=frozenset({"root"}))
    digest = hashlib.sha256(str(Path(board.store.location).resolve()).encode()).hexdigest()[:12]  # predictable
    planted = as_attacker(f"mkdir -m 777 {shared_tmp}/mmjudge-requests {shared_tmp}/mmjudge-requests/{digest}")
    assert planted.returncode == 0, planted.stderr
    evil = "judge: random\ntrust_remote_code: true\nmodel: /home/mallory/model\n"

    def swap(job: EvalJob) -> None:  # the other user, while the run starts: every attempt folder they can reach
        script = (f"for d in $(find {shared_tmp}/mmjudge-requests -name 'request*-attempt*' -type d); do "
                  f"mv $d $d.old && mkdir $d && printf '{evil}' > $d/config.yaml; done")  # fmt: skip
        as_attacker(script)

    seen: list[bytes] = []
    request_id = _queue_random(board)
    process_one(board, worker="w", eval_fn=_writing_eval(reference, seen, swap), lease_s=30.0)
    assert q.get_request(board.store, request_id).status == "FINISHED"
    assert seen and all(b"trust_remote_code" not in config and b"/home/mallory" not in config for config in seen)
    assert yaml.safe_load(seen[0])["seed"] == 1
    root = jobs.default_work_dir(board.store.location)
    assert not root.is_relative_to(shared_tmp)
    for folder in (root, root.parent, root.parent.parent):  # <cache>/mmjudge/worker/<hash>: private each
        info = folder.lstat()
        assert info.st_uid == os.getuid() and info.st_mode & 0o777 == 0o700, (folder, oct(info.st_mode))


@as_root
def test_a_work_dir_another_user_made_or_could_swap_is_refused_before_a_claim(board_factory, shared_tmp) -> None:
    board = board_factory(admins=frozenset({"root"}))
    request_id = _queue_random(board)
    assert as_attacker(f"mkdir -m 777 {shared_tmp}/work && mkdir -m 700 {shared_tmp}/theirs").returncode == 0
    for work, why in [(shared_tmp / "work", "not a folder of this user's alone"),
                      (shared_tmp / "theirs", "not a folder of this user's alone")]:  # fmt: skip
        with pytest.raises(ConfigError, match=why):
            process_one(board, worker="w", eval_fn=lambda job: job.out_dir, work_dir=work)
    open_folder = shared_tmp / "open"
    open_folder.mkdir()
    open_folder.chmod(0o777)  # this user's, but anyone may write (and swap) what is inside
    with pytest.raises(ConfigError, match="could be changed by another user"):
        process_one(board, worker="w", eval_fn=lambda job: job.out_dir, work_dir=open_folder / "work")
    (shared_tmp / "mine").mkdir(mode=0o700)
    (shared_tmp / "link").symlink_to(shared_tmp / "mine")
    with pytest.raises(ConfigError, match="symlink"):
        process_one(board, worker="w", eval_fn=lambda job: job.out_dir, work_dir=shared_tmp / "link")
    assert q.get_request(board.store, request_id).status == "PENDING"  # nothing was claimed


def test_the_config_is_the_one_the_worker_wrote(board_factory, reference, tmp_path) -> None:
    """Between two runs of a request the config on disk changes: the second run is refused, nothing stored."""
    board = board_factory(admins=frozenset({"root"}))
    spec = q.validate_request("", "", "random", {"seed": 1}, ["isovrbench", "emorealm"], known_backends=["random"],
                              admin=True)  # fmt: skip
    request_id = q.enqueue(board.store, spec, "root")

    def tamper(job: EvalJob) -> None:
        if job.benchmark == "emorealm":
            return
        text = job.config_path.read_text()
        job.config_path.write_text(text.replace("seed: 1", "seed: 2"))

    seen: list[bytes] = []
    process_one(board, worker="w", eval_fn=_writing_eval(reference, seen, tamper), lease_s=30.0,
                work_dir=tmp_path / "work")  # fmt: skip
    request = q.get_request(board.store, request_id)
    assert request.status == "FAILED" and "not the file this process wrote" in request.log_tail, request.log_tail
    assert len(seen) == 1 and not board.store.submissions("emorealm")


# --- item 2: gradio's folder ----------------------------------------------------------------------------------


def _secret_folder(tmp_path: Path) -> Path:
    secret = tmp_path / "srv"
    (secret / "labels").mkdir(parents=True)
    (secret / "labels" / "x.parquet").write_bytes(b"PAR1 private labels")
    (secret / "lb.sqlite.session-secret").write_text("k" * 48)
    return secret


@as_root
def test_a_planted_gradio_folder_serves_nothing(board_factory, shared_tmp, tmp_path, monkeypatch) -> None:
    """The attack: before the server starts, another user links ``<tmp>/gradio`` to the server's folder; gradio,
    with ``GRADIO_TEMP_DIR`` unset, took it for its upload folder and served the labels, the store and the session
    key to anyone. Now the server makes a private folder of its own and ``file=`` serves only from it."""
    secret = _secret_folder(tmp_path)
    assert as_attacker(f"ln -s {secret} {shared_tmp}/gradio").returncode == 0
    monkeypatch.setenv("GRADIO_TEMP_DIR", "unset below")  # restored after the test
    monkeypatch.delenv("GRADIO_TEMP_DIR")
    board = board_factory()
    with served(board) as (app, url):
        for target in (secret / "labels" / "x.parquet", secret / "lb.sqlite.session-secret",
                       Path(board.store.path)):  # fmt: skip
            answer = httpx.get(f"{url}gradio_api/file={target}", timeout=30)
            assert answer.status_code == 403 and b"private" not in answer.content, (target, answer.status_code)
        own = app.files
        assert not own.is_relative_to(secret) and own.lstat().st_mode & 0o777 == 0o700
        assert os.environ["GRADIO_TEMP_DIR"] == str(own)
        exported = Path(app.handlers.export("isovrbench", None, "csv"))
        assert exported.is_relative_to(own)
        assert httpx.get(f"{url}gradio_api/file={exported}", timeout=30).status_code == 200


def test_a_gradio_temp_dir_that_is_a_symlink_or_shared_is_refused(board_factory, tmp_path, monkeypatch) -> None:
    from mmjudge.leaderboard.app.ui import build_app

    secret = _secret_folder(tmp_path)
    (tmp_path / "link").symlink_to(secret)
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    for folder, why in [(tmp_path / "link", "symlink"), (shared, "not a folder of this user's alone")]:
        monkeypatch.setenv("GRADIO_TEMP_DIR", str(folder))
        with pytest.raises(ConfigError, match=why):
            build_app(board_factory())


# --- item 3: no file proxy ------------------------------------------------------------------------------------

URLS = ["https://files.example.org/a.png", "HTTP://files.example.org/a.txt", "//files.example.org/a",
        "%68ttps://files.example.org/a", "ftp://files.example.org/a", "file:///etc/passwd", "/\\files.example.org/a",
        "https:/files.example.org/a"]  # fmt: skip


def test_file_with_a_url_is_refused_before_gradio_fetches_it(board_factory, monkeypatch) -> None:
    """gradio fetched an ``http(s)`` URL given to ``file=`` and served it from the leaderboard's origin (256 KiB
    relayed as ``image/png``); now every spelling of a URL gets 403 from the gate and gradio fetches nothing."""
    import gradio.routes

    fetched: list[str] = []

    async def fetch(url: str, request: Any) -> Any:
        fetched.append(url)
        from starlette.responses import Response

        return Response(b"relayed", media_type="image/png")

    monkeypatch.setattr(gradio.routes, "secure_url_stream_response", fetch)
    with served(board_factory()) as (_, url):
        for target in URLS:
            answer = httpx.get(f"{url}gradio_api/file={target}", timeout=30)
            assert answer.status_code == 403 and answer.json()["detail"] == FILE_REFUSED, (target, answer.text)
    assert fetched == []


@pytest.mark.parametrize("login", [True, False])
def test_the_gate_serves_files_only_from_the_apps_folder_in_both_modes(tmp_path, login) -> None:
    """The gate itself, before any app: in both modes ``file=`` reaches the app only for a file under its roots."""
    import asyncio

    own = tmp_path / "own"
    own.mkdir()
    (own / "a.csv").write_text("x")
    (tmp_path / "other.csv").write_text("y")
    (own / "escape").symlink_to(tmp_path / "other.csv")
    reached: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    gate = RouteGate(app, login=login, files=FileRule.under(own))

    async def get(path: str) -> int:
        transport = httpx.ASGITransport(app=gate)
        async with httpx.AsyncClient(transport=transport, base_url="http://lb") as client:
            return (await client.get(path)).status_code

    statuses = {p: asyncio.run(get(f"/gradio_api/file={p}")) for p in
                (own / "a.csv", tmp_path / "other.csv", own / "escape", own / ".." / "other.csv", *URLS)}  # fmt: skip
    assert statuses.pop(own / "a.csv") == 200 and set(statuses.values()) == {403}, statuses
    assert reached == [f"/gradio_api/file={own / 'a.csv'}"]
    assert asyncio.run(get("/gradio_api/proxy=https://files.example.org/a")) == 403
    assert RouteGate(app, files=None).files is None  # a gate told no roots serves no file at all


# --- item 4: every repo a run loads is pinned ----------------------------------------------------------------


def _resolver(known: dict[str, str]) -> Any:
    from huggingface_hub.errors import RepositoryNotFoundError

    def resolve(repo: str, revision: str) -> str:
        if repo not in known:
            raise RepositoryNotFoundError(f"404 {repo}", response=None)
        return known[repo]

    return resolve


@pytest.mark.parametrize(
    ("backend", "benchmark", "options", "key"),
    [
        ("audio_language", "emoprefer", {"strategy": "S3", "text_model": "mallory/answers"}, "text_model"),
        ("pairwise_describe", "emoprefer", {"strategy": "S4", "text_model": "mallory/answers"}, "text_model"),
        ("video_reward", "isovrbench", {"checkpoint": "mallory/answers"}, "checkpoint"),
        ("clip_score", "isovrbench", {"processor": "mallory/answers"}, "processor"),
    ],
)
def test_a_second_repo_is_pinned_when_queued_and_refused_when_unknown(board_factory, backend, benchmark, options,
                                                                      key) -> None:  # fmt: skip
    """``{strategy: S3, text_model: mallory/answers}`` was queued with ``text_model_revision: None``: the row named
    only the model's commit. Now every repo is pinned when queued, and one the Hub does not know queues nothing."""
    board = board_factory(resolve_revision=_resolver({"org/judge": COMMIT, "mallory/answers": OTHER}))
    queued = board.request_model("org/judge", "", backend, {"options": options}, [benchmark], "alice")
    assert queued.spec.revision == COMMIT and queued.spec.config["options"][f"{key}_revision"] == OTHER
    unknown = board_factory(resolve_revision=_resolver({"org/judge": COMMIT}))
    with pytest.raises(SubmissionRejected, match=f"`options.{key}`: could not pin mallory/answers@main"):
        unknown.request_model("org/judge", "", backend, {"options": options}, [benchmark], "bob")
    assert [r.submitter for r in q.list_requests(unknown.store)] == ["alice"]  # nothing queued for bob


def test_the_row_and_its_provenance_name_the_second_repo_at_its_commit(board_factory, reference) -> None:
    board = board_factory(resolve_revision=_resolver({"org/audio": COMMIT, "mallory/answers": OTHER}),
                          admins=frozenset({"root"}))  # fmt: skip
    options = {"strategy": "S3", "text_model": "mallory/answers"}
    board.request_model("org/audio", "", "audio_language", {"options": options}, ["emoprefer"], "alice")
    configs: list[dict[str, Any]] = []

    def run(job: EvalJob) -> Path:
        config = yaml.safe_load(job.config_path.read_text())
        configs.append(config)
        lines = prediction_lines(job.benchmark, reference[job.benchmark], seed=3)
        header = {**json.loads(lines[0]), "provenance": {"judge_config": config}}
        job.out_dir.mkdir(parents=True)
        path = job.out_dir / "predictions.jsonl"
        path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
        return path

    process_one(board, worker="w", eval_fn=run, lease_s=30.0)
    assert configs[0]["options"]["text_model_revision"] == OTHER and configs[0]["revision"] == COMMIT
    (row,) = [s for s in board.store.submissions("emoprefer") if s.tier == "run here"]
    assert row.revision == f"{COMMIT} + text_model mallory/answers@{OTHER[:12]}"
    assert row.header["provenance"]["judge_config"]["options"]["text_model_revision"] == OTHER


def test_eval_pin_pins_every_repo_or_stops_before_the_run(tmp_path, monkeypatch, capsys) -> None:
    from mmjudge.cli import main
    from mmjudge.judges.repos import pin_config

    config = {"judge": "audio_language", "model": "org/audio", "options": {"strategy": "S4",
              "text_model": "mallory/answers", "text_model_revision": "v2"}}  # fmt: skip
    asked: list[tuple[str, str]] = []

    def resolve(repo: str, revision: str) -> str:
        asked.append((repo, revision))
        return {"org/audio": COMMIT, "mallory/answers": OTHER}[repo]

    assert pin_config({"judge": "openai_compatible", "model": "gpt-4o"}, resolve) == {"judge": "openai_compatible",
                                                                                      "model": "gpt-4o"}  # fmt: skip
    assert asked == []  # an API judge's model is a name the endpoint serves, not a Hub repo
    pinned = pin_config(config, resolve)
    assert asked == [("org/audio", "main"), ("mallory/answers", "v2")]
    assert pinned["revision"] == COMMIT and pinned["options"]["text_model_revision"] == OTHER
    assert pin_config(pinned, resolve) == pinned and len(asked) == 2  # a commit is kept as it is
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump(config))
    import mmjudge._hub

    def offline(repo: str, revision: str) -> str:
        raise OSError("the Hub is not reachable")

    monkeypatch.setattr(mmjudge._hub, "hub_commit", offline)
    out = tmp_path / "out"
    code = main(["eval", "--benchmark", "emoprefer", "--judge", str(path), "--data", str(tmp_path), "--out",
                 str(out), "--pin"])  # fmt: skip
    err = capsys.readouterr().err
    assert code != 0 and "`model`: could not pin org/audio@main" in err and not out.exists(), err


# --- item 5: a time limit on worker runs ----------------------------------------------------------------------


def test_a_run_past_its_budget_is_stopped_with_its_whole_process_group(board_factory, tmp_path, monkeypatch) -> None:
    """A worker run had no time limit (``timeout=None``, the lease renewed while it ran). Now each run has a
    budget, capped by the worker's ``max_run_hours``; past it the run and every process it started are stopped
    and the request fails with the reason."""

    pids = tmp_path / "pids"
    child = ("import os, subprocess, sys, time; "
             f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); "
             f"open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{p.pid}}'); time.sleep(600)")  # fmt: skip
    monkeypatch.setattr(jobs, "eval_command", lambda args, gpus: [sys.executable, "-c", child])
    board = board_factory(admins=frozenset({"root"}))
    request_id = _queue_random(board)
    started = time.monotonic()
    process_one(board, worker="w", lease_s=30.0, work_dir=tmp_path / "work", max_run_hours=2 / 3600)
    assert time.monotonic() - started < 60
    request = q.get_request(board.store, request_id)
    assert request.status == "FAILED" and "ran past its time budget" in request.log_tail, request.log_tail
    assert "capped at the worker's" in request.log_tail
    for pid in map(int, pids.read_text().split()):
        assert not _running(pid), pid


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie left for a parent to reap has stopped running)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"temperature": 2.0}, "options.temperature"),
        ({"max_new_tokens": 4096}, "options.max_new_tokens"),
        ({"total_pixels": 1 << 30}, "options.total_pixels"),
        ({"min_pixels": 16_777_216}, "options.min_pixels"),
    ],
)
def test_requests_past_the_protocols_bounds_are_refused(board_factory, options, key) -> None:
    board = board_factory()
    with pytest.raises(SubmissionRejected, match=f"request key `{key}` of videoscore2"):
        board.request_model("org/vs2", "", "videoscore2", {"options": {"do_sample": True, **options}}, ["isovrbench"],
                            "alice")  # fmt: skip
    with pytest.raises(SubmissionRejected, match="request key `frames` of videoscore2"):
        board.request_model("org/vs2", "", "videoscore2", {"frames": 256}, ["isovrbench"], "alice")


def test_the_budget_grows_with_the_options_and_the_benchmark() -> None:
    from mmjudge.leaderboard.worker.budget import START_S, run_budget

    small = run_budget({"judge": "videoscore2", "options": {"max_new_tokens": 64}}, 100)
    long = run_budget({"judge": "videoscore2", "options": {"max_new_tokens": 1024}}, 100)
    many = run_budget({"judge": "videoscore2", "options": {"max_new_tokens": 64}}, 1000)
    split = run_budget({"judge": "videoscore2", "options": {"max_new_tokens": 64}}, 1000, ranks=4)
    assert START_S < small.seconds < long.seconds and small.seconds < many.seconds
    assert split.seconds - START_S == pytest.approx((many.seconds - START_S) / 4)
    assert run_budget({"judge": "videoscore2"}, 10**6, max_hours=1).seconds == 3600


# --- item 6: the Type column ----------------------------------------------------------------------------------

PAYLOADS = ["vlm\u202edigit", "vlm_digit\u200b", "vlm\x00digit", "vlm\tdigit", "vlm\ndigit", "x" * 5000,
            "<script>alert(1)</script>", "video_reward ", "VLM_DIGIT", "random\u0301", 7, {"judge": "vlm_digit"}]  # fmt: skip


def test_the_type_column_shows_only_registered_judges(board_factory, reference) -> None:
    """``provenance.judge_config.judge`` reached 10 table cells and the filter's choices as the file said it
    (an RTL override, a zero-width space, NUL, tab, newline, 5,000 characters). Now a name that is not a
    registered judge shows ``unknown``."""
    from mmjudge.judges import JUDGES

    board = board_factory(daily_limit=100)
    for k, claimed in enumerate([*PAYLOADS, "vlm_digit"]):
        lines = prediction_lines("emorealm", reference["emorealm"], seed=100 + k)
        header = {**json.loads(lines[0]), "provenance": {"judge_config": {"judge": claimed}}}
        data = ("\n".join([json.dumps(header), *lines[1:]]) + "\n").encode()
        board.submit(data, SubmissionMeta("j", f"org/m{k}", "r1"), "alice")
    handlers = Handlers(board)
    types = handlers.judge_types("emorealm")
    assert set(types) <= {*JUDGES.names(), "unknown", "published", *_groups("emorealm")}, types
    assert "vlm_digit" in types and "unknown" in types


def _groups(benchmark: str) -> set[str]:
    from mmjudge.leaderboard.board.facets import reported_groups

    return set(reported_groups(benchmark).values())


# --- item 7: allow-listed remote-code requests run ------------------------------------------------------------


def test_an_allow_listed_remote_code_request_runs_end_to_end(board_factory, reference) -> None:
    """The queue took it at the pinned commit, but the worker re-checked the config with the
    ``trust_remote_code`` key and failed every such request. Now the worker re-checks its own allow-list."""
    board = board_factory(remote_code={"org/remote": COMMIT})
    queued = board.request_model("org/remote", "", "clip_score", "trust_remote_code: true", ["isovrbench"], "alice")
    seen: list[bytes] = []
    process_one(board, worker="w", eval_fn=_writing_eval(reference, seen), lease_s=30.0)
    request = q.get_request(board.store, queued.id)
    assert request.status == "FINISHED", request.log_tail
    config = yaml.safe_load(seen[0])
    assert config["trust_remote_code"] is True and config["revision"] == COMMIT
    (row,) = [s for s in board.store.submissions("isovrbench") if s.tier == "run here"]
    assert row.model == "org/remote" and row.revision == COMMIT


@pytest.mark.parametrize("allowed", [{}, {"org/remote": OTHER}])
def test_a_worker_whose_list_does_not_pin_the_repo_there_refuses_it(board_factory, reference, allowed) -> None:
    server = board_factory(remote_code={"org/remote": COMMIT})
    queued = server.request_model("org/remote", "", "clip_score", "trust_remote_code: true", ["isovrbench"], "alice")
    worker = board_factory(remote_code=allowed)
    worker.store = server.store
    seen: list[bytes] = []
    process_one(worker, worker="w", eval_fn=_writing_eval(reference, seen), lease_s=30.0)
    request = q.get_request(server.store, queued.id)
    assert request.status == "FAILED" and seen == [] and "org/remote" in request.log_tail, request.log_tail


def test_the_worker_takes_the_remote_code_list_from_its_flag() -> None:
    from mmjudge.cli import build_parser
    from mmjudge.leaderboard.core.settings import from_flags

    args = build_parser().parse_args(["leaderboard", "worker", "--remote-code", f"org/remote@{COMMIT}"])
    assert from_flags(args, ("remote_code",)) == {"remote_code": {"org/remote": COMMIT}}


# --- item 8: --no-auth on a Space -----------------------------------------------------------------------------


def test_no_auth_is_refused_on_a_space_unless_allowed(tmp_path, data_root, monkeypatch, capsys) -> None:
    from mmjudge.cli import main
    from mmjudge.leaderboard.app.space import open_space

    monkeypatch.setenv("SPACE_ID", "org/leaderboard")
    db = tmp_path / "lb.sqlite"
    assert main(["leaderboard", "--no-auth", "--db", str(db), "--data-root", str(data_root)]) == 1
    err = capsys.readouterr().err
    assert "--no-auth (MMJUDGE_NO_AUTH=1) on the Hugging Face Space org/leaderboard" in err and "--no-auth-on-space" in err
    assert not db.exists()
    env = {"SPACE_ID": "org/leaderboard", "MMJUDGE_NO_AUTH": "1", "MMJUDGE_DATA_ROOT": str(data_root),
           "MMJUDGE_DB": str(db)}  # fmt: skip
    with pytest.raises(ConfigError, match="MMJUDGE_NO_AUTH_ON_SPACE=1"):
        open_space(env, persistent=tmp_path / "no-persistent")
    board, app = open_space({**env, "MMJUDGE_NO_AUTH_ON_SPACE": "1"}, persistent=tmp_path / "no-persistent")
    assert board.settings.require_login is False
    app.close()


def test_shown_messages_for_the_queue_still_name_the_pinned_commit(board_factory) -> None:
    handlers = Handlers(board_factory(resolve_revision=_resolver({"org/judge": COMMIT, "mallory/answers": OTHER})))
    message = shown(handlers.request_model("org/judge", "", "audio_language",
                                           "options: {strategy: S3, text_model: mallory/answers}", ["emoprefer"], None))  # fmt: skip
    assert f"at commit {COMMIT}" in message, message
