"""Model requests after issue 11: per-backend allow-list checked at enqueue, admin-only API judges,
resumable per-benchmark steps, lease-fenced stores, cleanup of a killed worker's folder, the attempt
cap, resubmission of FAILED requests, duplicates over the benchmarks too, a queue view without paths."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from mmjudge.leaderboard import SubmissionMeta, SubmissionRejected
from mmjudge.leaderboard.app.ui import Handlers
from mmjudge.leaderboard.core import queue as q
from mmjudge.leaderboard.worker.jobs import EvalJob, process_one

from ..conftest import HUB_RANDOM_RULES, prediction_bytes, request_spec, shown

KNOWN = ["random", "openai_compatible", "video_reward", "clip_score"]


@pytest.fixture
def store_location(both_backends: str) -> str:
    """Every test of this module runs on SQLite and on PostgreSQL."""
    return both_backends


@pytest.fixture
def board_factory(board_factory):
    def make(**settings):
        settings.setdefault("request_rules", HUB_RANDOM_RULES)
        return board_factory(**settings)

    return make


def _spec(**kw):
    return request_spec(KNOWN, **kw)


# --- item 1: a request carries only what a requester may choose -------------------------------------


@pytest.mark.parametrize(
    ("backend", "config", "key"),
    [
        ("openai_compatible", {"options": {"base_url": "http://requester.example/v1"}}, "options.base_url"),
        ("openai_compatible", {"options": {"api_key_env": "HF_TOKEN"}}, "options.api_key_env"),
        ("video_reward", {"options": {"checkpoint": "/etc"}}, "options.checkpoint"),
        ("video_reward", {"options": {"checkpoint": "../../etc"}}, "options.checkpoint"),
        ("video_reward", {"options": {"checkpoint": "https://evil.example/ckpt"}}, "options.checkpoint"),
        ("video_reward", {"options": {"means": {"VQ": 1.0}}}, "options.means"),
        ("clip_score", {"options": {"model_class": "os.system"}}, "options.model_class"),
        ("random", {"prompt_template": "{prompt}"}, "prompt_template"),
        ("random", {"options": {"no_such_option": 1}}, "options.no_such_option"),
        ("random", {"model": "/etc"}, "model"),
    ],
)
def test_request_keys_off_the_allow_list_are_refused_at_enqueue_naming_the_key(backend, config, key) -> None:
    with pytest.raises(SubmissionRejected, match=rf"request key `{key}`"):
        _spec(backend=backend, config=config, admin=True)


def test_api_judges_are_admin_only_and_never_take_endpoint_or_key_from_the_request() -> None:
    with pytest.raises(SubmissionRejected, match="only an admin can queue it"):
        _spec(backend="openai_compatible", config={"frames": 8})
    spec = _spec(backend="openai_compatible", model="gpt-4.1", config={"frames": 8}, admin=True)
    assert "base_url" not in json.dumps(dict(spec.config)) and "api_key_env" not in json.dumps(
        dict(spec.config)
    )


def test_worker_takes_endpoint_and_key_name_from_the_server_only(board_factory, reference) -> None:
    board = board_factory(
        admins=frozenset({"root"}),
        server_options={
            "openai_compatible": {"base_url": "http://127.0.0.1:9/v1", "api_key_env": "SERVER_KEY"}
        },
    )
    spec = _spec(
        backend="openai_compatible", model="gpt-4.1", config={"options": {"max_tokens": 64}}, admin=True
    )
    q.enqueue(board.store, spec, "root")
    configs = []

    def fake(job: EvalJob) -> Path:
        configs.append(yaml.safe_load(job.config_path.read_text()))
        return _write_predictions(job, reference)

    done = process_one(board, worker="w", eval_fn=fake, lease_s=30.0)
    assert q.get_request(board.store, done.id).status == "FINISHED"
    assert configs[0]["options"] == {
        "max_tokens": 64,
        "base_url": "http://127.0.0.1:9/v1",
        "api_key_env": "SERVER_KEY",
    }


def test_a_request_row_with_a_url_in_the_store_is_refused_by_the_worker(board_factory, reference) -> None:
    """A request queued before the allow-list (or written to the store by hand) never reaches eval."""
    board = board_factory(admins=frozenset({"root"}))
    spec = _spec(backend="openai_compatible", model="gpt-4.1", config={}, admin=True)
    request_id = q.enqueue(board.store, spec, "root")
    hostile = dict(
        spec.config, options={"base_url": "http://requester.example/v1", "api_key_env": "HF_TOKEN"}
    )
    with board.store.transaction() as conn:
        conn.execute("UPDATE requests SET config = ? WHERE id = ?", (json.dumps(hostile), request_id))
    ran = []
    process_one(board, worker="w", eval_fn=lambda job: ran.append(job) or Path("x"), lease_s=30.0)
    request = q.get_request(board.store, request_id)
    assert ran == [] and request.status == "FAILED" and "options.base_url" in request.log_tail


def test_handler_refuses_api_judges_for_non_admins_and_names_the_key(board_factory) -> None:
    handlers = Handlers(board_factory(admins=frozenset({"root"})))
    refused = handlers.request_model("org/m", "main", "openai_compatible", "frames: 8", ["emorealm"], None)
    assert "Rejected" in refused and "only an admin" in refused
    refused = handlers.request_model(
        "org/m", "main", "video_reward", "options: {checkpoint: /etc}", ["isovrbench"], None
    )
    assert "Rejected" in refused and "options.checkpoint" in shown(refused)
    assert q.list_requests(handlers.board.store) == []


# --- item 3: resumable steps, lease-fenced stores, cleanup ---------------------------------------------


def _write_predictions(job: EvalJob, reference) -> Path:
    job.out_dir.mkdir(parents=True, exist_ok=True)
    path = job.out_dir / "predictions.jsonl"
    path.write_bytes(prediction_bytes(job.benchmark, reference[job.benchmark], seed=len(job.benchmark)))
    return path


_KILLED_AFTER_FIRST_STEP = """
import os, sys
from pathlib import Path
from mmjudge.leaderboard import Leaderboard, Settings, Store
from mmjudge.leaderboard.worker.jobs import process_one
from mmjudge.scoring import load_reference_rows

root = Path(sys.argv[2])
board = Leaderboard(Store(sys.argv[1]), Settings(data_root=root, require_login=False))

def eval_then_die(job):
    if job.benchmark == "emoprefer":
        os._exit(9)  # killed while running benchmark 2 of 2, after storing benchmark 1
    sys.path.insert(0, sys.argv[4])
    from conftest import prediction_bytes
    job.out_dir.mkdir(parents=True)
    path = job.out_dir / "predictions.jsonl"
    rows = load_reference_rows(job.benchmark, root / job.benchmark)
    path.write_bytes(prediction_bytes(job.benchmark, rows, seed=1))
    return path

process_one(board, worker="doomed", eval_fn=eval_then_die, lease_s=1.0, work_dir=sys.argv[3])
"""


def test_a_worker_killed_after_step_one_is_resumed_at_step_two(
    board_factory, data_root, reference, tmp_path
) -> None:
    board = board_factory()
    work = tmp_path / "work"
    request_id = q.enqueue(board.store, _spec(benchmarks=["isovrbench", "emoprefer"]), "alice")
    child = subprocess.run(
        [sys.executable, "-c", _KILLED_AFTER_FIRST_STEP, board.store.location, str(data_root), str(work),
         str(Path(__file__).parents[1])],
        timeout=300, check=False,
    )  # fmt: skip
    assert child.returncode == 9
    assert set(board.store.request_benchmarks(request_id)) == {"isovrbench"}
    assert [p.name for p in work.iterdir()] == [f"request{request_id}-attempt1"]  # left behind by the kill
    time.sleep(1.1)  # the dead worker's lease runs out
    ran = []

    def rescue(job: EvalJob) -> Path:
        assert not (work / f"request{request_id}-attempt1").exists()  # removed on the next claim
        ran.append(job.benchmark)
        return _write_predictions(job, reference)

    process_one(board, worker="rescuer", eval_fn=rescue, lease_s=30.0, work_dir=work)
    request = q.get_request(board.store, request_id)
    assert ran == ["emoprefer"], "the stored benchmark is skipped, not rerun"
    assert request.status == "FINISHED" and request.attempts == 2, request.log_tail
    assert "isovrbench: already stored as verified row" in request.log_tail
    assert sorted(s.benchmark for s in board.store.submissions() if s.request_id == request_id) == [
        "emoprefer",
        "isovrbench",
    ]
    assert list(work.iterdir()) == []


def test_a_worker_that_lost_its_lease_stores_nothing(board_factory, reference) -> None:
    from mmjudge.leaderboard.store import LeaseLost

    board = board_factory()
    request_id = q.enqueue(board.store, _spec(benchmarks=["emoprefer"]), "alice", now=100.0)
    stale = q.claim(board.store, "A", lease_s=10.0, now=200.0)
    holder = q.claim(board.store, "B", lease_s=10.0, now=211.0)
    data = prediction_bytes("emoprefer", reference["emoprefer"], seed=4)
    meta = SubmissionMeta("random", "org/tiny", "main")
    with pytest.raises(LeaseLost, match=f"request #{request_id} is no longer held by worker 'A'"):
        board.submit(data, meta, "alice", limited=False, lease=stale.lease)
    assert board.store.submissions() == []
    stored = board.submit(data, meta, "alice", limited=False, lease=holder.lease)
    assert stored.request_id == request_id and stored.tier == "run here"
    assert q.finish(board.store, holder.lease, ok=True, log_tail="done")
    assert not q.finish(board.store, stale.lease, ok=False, log_tail="late")
    assert q.get_request(board.store, request_id).status == "FINISHED"


# --- item 4: attempt cap, resubmission, duplicates, the queue view ----------------------------------------


def test_a_request_that_kills_its_worker_ends_failed_after_the_attempt_cap(board_factory) -> None:
    store = board_factory().store
    request_id = q.enqueue(store, _spec(), "alice", now=0.0)
    later = q.enqueue(store, _spec(model="org/next"), "bob", now=1.0)
    for attempt in range(1, 4):  # each claim dies without finishing; the lease runs out
        claimed = q.claim(store, f"w{attempt}", lease_s=10.0, now=100.0 * attempt)
        assert claimed.id == request_id and claimed.attempts == attempt
        assert q.renew(
            store, claimed.lease, lease_s=10.0, now=100.0 * attempt, log_tail=f"log of attempt {attempt}"
        )
    nxt = q.claim(store, "w4", lease_s=10.0, now=1000.0)
    assert nxt.id == later  # the crashing request is not served again
    failed = q.get_request(store, request_id)
    assert failed.status == "FAILED" and failed.attempts == 3
    assert "log of attempt 3" in failed.log_tail and "gave up after 3 attempts" in failed.log_tail


def test_the_attempt_cap_is_configurable(board_factory) -> None:
    board = board_factory(max_attempts=1)
    request_id = q.enqueue(board.store, _spec(), "alice")
    with board.store.transaction() as conn:  # one claim already died
        conn.execute(
            "UPDATE requests SET status = 'RUNNING', attempts = 1, lease_expires = 0 WHERE id = ?",
            (request_id,),
        )
    assert process_one(board, worker="w", eval_fn=lambda job: Path("never")) is None
    assert q.get_request(board.store, request_id).status == "FAILED"


def test_a_failed_request_can_be_asked_for_again(board_factory) -> None:
    store = board_factory().store
    first = q.enqueue(store, _spec(), "alice")
    with pytest.raises(SubmissionRejected, match=f"request #{first} \\(PENDING\\)"):
        q.enqueue(store, _spec(), "alice")
    claimed = q.claim(store, "w")
    q.finish(store, claimed.lease, ok=False, log_tail="boom")
    again = q.enqueue(store, _spec(), "alice")
    assert again != first and q.get_request(store, again).status == "PENDING"


def test_duplicates_cover_the_benchmarks_and_ignore_case_and_trailing_slash(board_factory) -> None:
    store = board_factory().store
    first = q.enqueue(store, _spec(benchmarks=["emorealm"]), "alice")
    q.enqueue(store, _spec(benchmarks=["emorealm", "mist"]), "alice")  # not a duplicate of emorealm-only
    for model in ("Org/Tiny", "ORG/TINY", "org/TINY"):
        with pytest.raises(SubmissionRejected, match=f"request #{first}"):
            q.enqueue(store, _spec(model=model, benchmarks=["emorealm"]), "bob")
    for model in ("org/tiny/", "org/ti\u200bny"):  # refused as repo ids before any comparison
        with pytest.raises(SubmissionRejected, match="Hub repo id"):
            _spec(model=model, benchmarks=["emorealm"])
    with pytest.raises(SubmissionRejected, match="already queued"):
        q.enqueue(store, _spec(benchmarks=["mist", "emorealm"]), "bob")  # order does not matter


def test_queue_view_shows_status_attempts_and_log_tail_without_server_paths(
    board_factory, data_root, tmp_path
) -> None:
    board = board_factory()
    q.enqueue(board.store, _spec(), "alice")
    work = tmp_path / "private-work"

    def broken(job: EvalJob) -> Path:
        job.log_path.write_text(
            f"reading {job.data_dir}/data/test.parquet\n"
            f'  File "{sys.prefix}/lib/python3.11/site-packages/torch/x.py", line 3\n'
            f"writing {job.out_dir}/cache/rank0.jsonl\nCUDA out of memory\n"
        )
        raise RuntimeError(f"eval failed in {job.out_dir}")

    process_one(board, worker="w", eval_fn=broken, lease_s=30.0, work_dir=work)
    (row,) = Handlers(board).queue_value()
    assert row[1] == "FAILED" and row[7] == 1
    tail = row[8]
    assert "CUDA out of memory" in tail and "RuntimeError" in tail
    for private in (str(work), str(data_root), sys.prefix, str(tmp_path)):
        assert private not in tail, private
    assert "<data>/isovrbench/data/test.parquet" in tail


def test_public_log_removes_secret_values_and_internal_urls() -> None:
    from mmjudge.leaderboard.worker.jobs import public_log

    text = public_log(
        "GET https://huggingface.co/org/m/resolve/main/config.json; POST http://10.1.2.3:8000/v1 with sk-live-123456",
        environ=[("OPENAI_API_KEY", "sk-live-123456"), ("HOME", "/root")],
    )
    assert "sk-live" not in text and "10.1.2.3" not in text and "https://huggingface.co/org/m" in text


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://lb:Pg-s3cret-pw@db.internal:5432/leaderboard",
        "postgres://lb:Pg-s3cret-pw@10.0.0.7/leaderboard?sslmode=require",
        "redis://:Pg-s3cret-pw@cache.internal:6379/0",
        "amqp://worker:Pg-s3cret-pw@rabbit.internal:5672/vhost",
        "https://ci-bot:Pg-s3cret-pw@git.internal/org/repo.git",
        "postgresql:///lb?host=/run/pg&password=Pg-s3cret-pw",
    ],
)
def test_public_log_redacts_the_credentials_of_any_url(url) -> None:
    """The password of a database, cache or broker URL never reaches the public queue, whatever the
    scheme, and whether or not the worker knows the URL as a setting."""
    from mmjudge.leaderboard.worker.jobs import public_log

    text = public_log(f"psycopg.OperationalError: connection to {url} failed: timeout", environ=[])
    assert "Pg-s3cret-pw" not in text and "OperationalError" in text
    assert "internal" not in text and "10.0.0.7" not in text  # internal hosts go with their URL


def test_public_log_redacts_every_configured_secret_whatever_its_name() -> None:
    """``--db`` given on the command line, ``MMJUDGE_DB`` and ``HF_TOKEN`` set, the API key variable named by
    ``--api-key-env``: their values are masked even where they appear without a URL around them."""
    from types import SimpleNamespace

    from mmjudge.leaderboard.worker.jobs import public_log, secret_values

    board = SimpleNamespace(
        store=SimpleNamespace(location="postgresql://lb:Db-pass-2718@db.internal:5432/lb"),
        settings=SimpleNamespace(server_options={"openai_compatible": {"api_key_env": "SERVER_KEY"}}),
    )
    environ = {"MMJUDGE_DB": "postgresql://w:Env-db-pass-31@h/lb", "HF_TOKEN": "hf_abcdefghijklmnop",
               "SERVER_KEY": "Server-key-value-42", "PATH": "/usr/bin"}  # fmt: skip
    secrets = secret_values(board, environ)
    assert "Db-pass-2718" in secrets and "Server-key-value-42" in secrets and "hf_abcdefghijklmnop" in secrets
    log = ("auth failed for password Db-pass-2718; key Server-key-value-42 rejected; token hf_abcdefghijklmnop; "
           "dsn postgresql://w:Env-db-pass-31@h/lb")  # fmt: skip
    text = public_log(log, environ=[], secrets=secrets)
    for value in ("Db-pass-2718", "Server-key-value-42", "hf_abcdefghijklmnop", "Env-db-pass-31"):
        assert value not in text, value
    assert text.count("***") >= 3 and "auth failed" in text


def test_worker_command_takes_the_attempt_cap_admins_and_api_endpoint(tmp_path) -> None:
    from mmjudge.cli import build_parser, main

    argv = ["leaderboard", "worker", "--max-attempts", "2", "--admin", "root", "--api-base-url", "http://h/v1",
            "--api-key-env", "SERVER_KEY", "--work-dir", str(tmp_path / "w")]  # fmt: skip
    args = build_parser().parse_args(argv)
    assert (args.max_attempts, args.admin, args.api_base_url, args.api_key_env) == (
        2,
        ["root"],
        "http://h/v1",
        "SERVER_KEY",
    )
    assert (
        main(["leaderboard", "worker", "--db", str(tmp_path / "w.sqlite"), "--once", "--max-attempts", "0"])
        == 1
    )
