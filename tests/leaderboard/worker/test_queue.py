"""Model requests: validation, duplicates, atomic claims, lease expiry, the worker through a fake runner."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from mmjudge.leaderboard import SubmissionRejected
from mmjudge.leaderboard.core import queue as q
from mmjudge.leaderboard.worker.jobs import EvalJob, process_one

from ..conftest import BENCHMARKS, HUB_RANDOM_RULES, prediction_bytes, request_spec

BACKENDS = ["random", "frame_smoothness"]


@pytest.fixture
def board_factory(board_factory):
    def make(**settings):
        settings.setdefault("request_rules", HUB_RANDOM_RULES)
        return board_factory(**settings)

    return make


@pytest.fixture
def store_location(both_backends: str) -> str:
    """Every test of this module runs on SQLite and on PostgreSQL."""
    return both_backends


def _spec(**kw):
    return request_spec(BACKENDS, **kw)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"model": "bad repo id"}, "Hub repo id"),
        ({"model": "org/x/y"}, "Hub repo id"),
        ({"revision": "a b"}, "revision"),
        ({"backend": "nope"}, "unknown judge backend 'nope'; known: \\['frame_smoothness', 'random'\\]"),
        ({"config": "frame: 8"}, "request key `frame` is not something a requester may set for random"),
        (
            {"config": "batch_size: four"},
            "request key `batch_size` of random: expected an integer from 1 to 64",
        ),
        ({"config": "[1, 2]"}, "mapping"),
        ({"benchmarks": []}, "non-empty subset"),
        ({"benchmarks": ["imagenet"]}, "non-empty subset"),
    ],
)
def test_bad_requests_are_refused(kw, message) -> None:
    with pytest.raises(SubmissionRejected, match=message):
        _spec(**kw)


def test_local_paths_only_where_allowed(tmp_path: Path) -> None:
    with pytest.raises(SubmissionRejected):
        _spec(model=str(tmp_path))
    assert _spec(model=str(tmp_path), allow_local_paths=True).model == str(tmp_path)


def test_duplicate_requests_are_refused(board_factory) -> None:
    store = board_factory().store
    first = q.enqueue(store, _spec(), "u")
    with pytest.raises(SubmissionRejected, match=f"request #{first}"):
        q.enqueue(store, _spec(), "v")
    q.enqueue(store, _spec(config="seed: 2"), "u")
    assert [r.status for r in q.list_requests(store)] == ["PENDING", "PENDING"]


def test_requests_count_toward_the_daily_limit(board_factory) -> None:
    store = board_factory().store
    q.enqueue(store, _spec(), "u", daily_limit=2, now=100.0)
    q.enqueue(store, _spec(config="seed: 2"), "u", daily_limit=2, now=101.0)
    with pytest.raises(SubmissionRejected, match="limit 2"):
        q.enqueue(store, _spec(config="seed: 3"), "u", daily_limit=2, now=102.0)
    q.enqueue(store, _spec(config="seed: 3"), "v", daily_limit=2, now=102.0)


def test_claims_are_exclusive_and_expired_leases_return_to_the_queue(board_factory) -> None:
    store = board_factory().store
    request_id = q.enqueue(store, _spec(), "u", now=100.0)
    first = q.claim(store, "A", lease_s=10.0, now=200.0)
    assert first is not None and first.id == request_id and first.status == "RUNNING"
    assert q.claim(store, "B", lease_s=10.0, now=205.0) is None  # lease still held
    again = q.claim(store, "B", lease_s=10.0, now=211.0)  # A's lease ran out
    assert again is not None and again.id == request_id and again.worker == "B" and again.attempts == 2
    assert not q.renew(store, first.lease, now=212.0)
    assert not q.finish(store, first.lease, ok=True, log_tail="late", now=212.0)
    assert q.finish(store, again.lease, ok=False, log_tail="boom", now=213.0)
    final = q.get_request(store, request_id)
    assert final.status == "FAILED" and final.log_tail == "boom"
    assert q.claim(store, "C", now=10_000.0) is None


def _fake_eval(reference):
    def run(job: EvalJob) -> Path:
        job.out_dir.mkdir(parents=True)
        with job.log_path.open("a") as log:
            log.write(f"judging {job.benchmark} with {job.config_path.name}\n")
        path = job.out_dir / "predictions.jsonl"
        path.write_bytes(prediction_bytes(job.benchmark, reference[job.benchmark], seed=len(job.benchmark)))
        return path

    return run


def test_worker_turns_a_request_into_verified_rows(board_factory, reference) -> None:
    board = board_factory()
    q.enqueue(board.store, _spec(benchmarks=["isovrbench", "emoprefer"]), "alice")
    done = process_one(board, worker="w1", eval_fn=_fake_eval(reference), lease_s=5.0)
    assert done is not None
    request = q.get_request(board.store, done.id)
    assert request.status == "FINISHED" and "stored as verified row" in request.log_tail
    assert "judging isovrbench" in request.log_tail
    rows = [(s.benchmark, s.kind, s.model, s.revision, s.submitter) for s in board.store.submissions()]
    assert sorted(rows) == [("emoprefer", "verified", "org/tiny", "main", "alice"),
                            ("isovrbench", "verified", "org/tiny", "main", "alice")]  # fmt: skip
    assert process_one(board, worker="w1", eval_fn=_fake_eval(reference)) is None


def test_a_failing_run_is_marked_failed_with_the_log_tail(board_factory) -> None:
    board = board_factory()
    q.enqueue(board.store, _spec(), "alice")

    def broken(job: EvalJob) -> Path:
        job.log_path.write_text("loading weights...\nCUDA out of memory\n")
        raise RuntimeError("eval exited with status 1")

    done = process_one(board, worker="w1", eval_fn=broken, lease_s=5.0)
    request = q.get_request(board.store, done.id)
    assert request.status == "FAILED"
    assert "CUDA out of memory" in request.log_tail and "eval exited with status 1" in request.log_tail
    assert board.store.submissions() == []


_DIE_MID_RUN = """
import os, sys
from pathlib import Path
from mmjudge.leaderboard import Leaderboard, Settings, Store
from mmjudge.leaderboard.worker.jobs import process_one

board = Leaderboard(Store(sys.argv[1]), Settings(data_root=Path(sys.argv[2]), require_login=False))

def killed(job):
    os._exit(9)  # the worker dies in the middle of the run, without finishing the request

process_one(board, worker="doomed", eval_fn=killed, lease_s=1.0)
"""


def test_a_killed_worker_leaves_the_request_claimable_after_the_lease(board_factory, data_root) -> None:
    board = board_factory()
    request_id = q.enqueue(board.store, _spec(), "alice")
    child = subprocess.run(
        [sys.executable, "-c", _DIE_MID_RUN, board.store.location, str(data_root)], timeout=120, check=False
    )
    assert child.returncode == 9
    stuck = q.get_request(board.store, request_id)
    assert stuck.status == "RUNNING" and stuck.worker == "doomed"
    assert (
        q.claim(board.store, "rescuer", now=stuck.lease_expires - 0.01) is None
    )  # not before the lease ends
    deadline = time.time() + 5.0
    rescued = None
    while rescued is None and time.time() < deadline:
        rescued = q.claim(board.store, "rescuer", lease_s=5.0)
        time.sleep(0.1)
    assert rescued is not None and rescued.id == request_id and rescued.attempts == 2


def test_workers_show_in_the_queue_tab_with_their_heartbeat(board_factory, reference) -> None:
    from mmjudge.leaderboard.app.ui import QUEUE_HEADERS, WORKER_HEADERS, Handlers
    from mmjudge.leaderboard.worker.jobs import run_worker

    board = board_factory()
    request_id = q.enqueue(board.store, _spec(), "alice")
    assert run_worker(board, once=True, eval_fn=_fake_eval(reference), lease_s=5.0, worker="gpu-7", gpus=8) == 1
    handlers = Handlers(board)
    (row,) = handlers.queue_value()
    assert dict(zip(QUEUE_HEADERS, row, strict=True))["Worker"] == "gpu-7" and row[0] == request_id
    (worker,) = [dict(zip(WORKER_HEADERS, w, strict=True)) for w in handlers.workers_value()]
    assert worker["Worker"] == "gpu-7" and worker["State"] == "stopped" and worker["GPUs"] == 8
    assert worker["Heartbeat"].endswith(" s ago") and float(worker["Heartbeat"].split()[0]) < 60


def test_subprocess_eval_launches_accelerate_on_several_gpus(tmp_path, monkeypatch) -> None:
    from mmjudge.leaderboard.worker import jobs as worker

    commands = []

    class FakePopen:
        def __init__(self, command, **kwargs):
            commands.append(command)
            assert kwargs["start_new_session"] is True  # its own process group, stopped whole past its budget

        def wait(self, timeout=None):
            return 0

    monkeypatch.setattr(worker.subprocess, "Popen", FakePopen)
    job = EvalJob("isovrbench", tmp_path / "c.yaml", tmp_path / "data", tmp_path / "out", tmp_path / "log")
    for gpus in (0, 1, 4):
        worker.subprocess_eval(job, gpus=gpus)
    assert [c[1:4] for c in commands] == [["-m", "mmjudge", "eval"]] * 2 + [
        ["-m", "accelerate.commands.launch", "--multi_gpu"]
    ]
    assert commands[2][commands[2].index("--num_processes") + 1] == "4"
    assert commands[2][-12:-8] == ["-m", "mmjudge", "eval", "--benchmark"]


def test_a_request_counts_once_and_its_worker_rows_are_not_uploads(board_factory, reference, tmp_path) -> None:
    """A request for every served benchmark uses one of the requester's daily submissions, when it is made;
    the rows the worker stores for it do not count, so the requester can still upload (default limit 5)."""
    from mmjudge.leaderboard.core.validation import SubmissionMeta

    board = board_factory(daily_limit=5)
    benchmarks = list(BENCHMARKS)
    q.enqueue(board.store, _spec(benchmarks=benchmarks), "alice", daily_limit=5)
    claimed = q.claim(board.store, "worker-1")
    for k, benchmark in enumerate(benchmarks):
        board.submit(prediction_bytes(benchmark, reference[benchmark], seed=50 + k),
                     SubmissionMeta("random", "org/tiny", "main"), "alice", limited=False, lease=claimed.lease)  # fmt: skip
    assert q.finish(board.store, claimed.lease, ok=True, log_tail="done")
    assert len([s for s in board.store.submissions() if s.submitter == "alice"]) == len(benchmarks)
    for k in range(4):  # the request used 1 of 5: four uploads remain
        board.submit(prediction_bytes("emoprefer", reference["emoprefer"], seed=60 + k),
                     SubmissionMeta("mine", f"org/upload-{k}", "r1"), "alice")  # fmt: skip
    with pytest.raises(SubmissionRejected, match="already made 5 submissions in the last 24 hours"):
        board.submit(prediction_bytes("emoprefer", reference["emoprefer"], seed=70),
                     SubmissionMeta("mine", "org/upload-5", "r1"), "alice")  # fmt: skip


def test_the_submit_tab_states_the_quota_rule(board_factory) -> None:
    import gradio as gr

    from mmjudge.leaderboard.app.ui import build_app
    from mmjudge.leaderboard.core.submit import quota_text

    app = build_app(board_factory(daily_limit=3))
    [policy] = [b for b in app.blocks.blocks.values() if isinstance(b, gr.Markdown) and b.elem_id == "submit-policy"]
    assert quota_text(3) in policy.value and "whatever its number of benchmarks" in policy.value


@pytest.mark.parametrize(
    ("revision", "config"),
    [
        ("", "seed: 1"),  # no revision: the default branch
        ("refs/heads/main", "seed: 1"),  # the branch's full ref name
        ("main", "seed: 1\nbatch_size: 1"),  # a default spelled out
        ("main", "seed: 1\noptions: {}"),  # empty options
        ("main", "seed: 1\nname: another display name"),  # a display field
        (" main ", "{seed: 1, batch_size: 1}"),  # JSON-style flow mapping, a default, padded revision
    ],
)
def test_an_equivalent_request_is_not_queued_again(board_factory, revision, config) -> None:
    store = board_factory().store
    first = q.enqueue(store, _spec(revision="main", config="seed: 1"), "u")
    with pytest.raises(SubmissionRejected, match=f"the same request is already queued: request #{first}"):
        q.enqueue(store, _spec(revision=revision, config=config), "v")
    assert q.enqueue(store, _spec(revision="main", config="seed: 2"), "v") != first  # a real difference runs
