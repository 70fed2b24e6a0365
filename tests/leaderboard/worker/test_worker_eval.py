"""The worker through the real runner: ``python -m mmjudge eval`` in a child process, then a verified row."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from mmjudge.leaderboard.core import queue as q
from mmjudge.leaderboard.worker.jobs import process_one

JUDGE_TESTS = Path(__file__).resolve().parents[2] / "judges"


def _run_request(board, spec):
    request_id = q.enqueue(board.store, spec, "alice")
    assert process_one(board, worker="w", lease_s=30.0) is not None
    return q.get_request(board.store, request_id)


def test_weight_free_request_runs_mmjudge_eval(board_factory, monkeypatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    board = board_factory()
    spec = q.validate_request("", "", "random", "seed: 3", ["isovrbench"])
    request = _run_request(board, spec)
    assert request.status == "FINISHED", request.log_tail
    rows = {s.benchmark: s for s in board.store.submissions() if s.kind == "verified"}
    assert set(rows) == {"isovrbench"}
    assert rows["isovrbench"].model == "random" and rows["isovrbench"].header["judge"] == "random"
    assert rows["isovrbench"].revision == "seed=3" and rows["isovrbench"].reference_line  # a baseline, named by its seed
    assert 0.0 <= rows["isovrbench"].results["average"] <= 100.0


def test_a_request_whose_clips_do_not_decode_fails_naming_the_count_and_first_error(
    board_factory, data_root: Path, tmp_path: Path, monkeypatch
) -> None:
    """``mmjudge eval`` exits 3 when items failed with an error; the worker stores no row and says why."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    broken = tmp_path / "data"
    shutil.copytree(data_root / "isovrbench", broken / "isovrbench")
    for clip in (broken / "isovrbench").rglob("*.mp4"):
        clip.write_bytes(b"\x00\x00\x00 not an mp4 at all")
    board = board_factory(data_root=broken)
    request = _run_request(board, q.validate_request("", "", "sharpness", "frames: 4", ["isovrbench"]))
    assert request.status == "FAILED"
    assert re.search(r"exited with status 3: (\d+) of \1 items failed with an error; first error: MediaError",
                     request.log_tail), request.log_tail[-2000:]  # fmt: skip
    assert board.store.submissions() == []


@pytest.mark.parametrize(("errored", "status"), [(2, "FAILED"), (0, "FINISHED")])
def test_the_worker_stores_no_run_whose_results_record_errored_items(
    board_factory, reference, errored: int, status: str
) -> None:
    """Whatever runner the worker calls: a ``results.json`` recording items that failed with an error
    fails the request; no-judgment answers alone (the fake file holds some) are stored as usual."""
    from mmjudge.leaderboard.worker.jobs import EvalJob
    from mmjudge.results import write_results

    from ..conftest import prediction_bytes

    def fake_eval(job: EvalJob) -> Path:
        job.out_dir.mkdir(parents=True)
        path = job.out_dir / "predictions.jsonl"
        path.write_bytes(prediction_bytes(job.benchmark, reference[job.benchmark]))
        first = ["MediaError: 'a000/anchor' has no video frames"] if errored else []
        run = {"items": 16, "failed": 3, "errored": errored, "first_errors": first}
        write_results(job.out_dir / "results.json", job.benchmark, "j", {}, {}, run)
        return path

    board = board_factory()
    request_id = q.enqueue(board.store, q.validate_request("", "", "random", "seed: 3", ["isovrbench"]),
                           "alice")  # fmt: skip
    assert process_one(board, worker="w", eval_fn=fake_eval, lease_s=30.0) is not None
    request = q.get_request(board.store, request_id)
    assert request.status == status, request.log_tail
    if errored:
        assert ("isovrbench: 2 of 16 items failed with an error; first error: MediaError: 'a000/anchor' has no "
                "video frames; nothing stored") in request.log_tail  # fmt: skip
        assert board.store.submissions() == []
    else:
        assert [s.benchmark for s in board.store.submissions()] == ["isovrbench"]


@pytest.mark.slow
def test_tiny_local_model_request_becomes_a_verified_row(board_factory, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.syspath_prepend(str(JUDGE_TESTS))
    from tiny_models import build_clip

    model = build_clip(tmp_path / "tiny-clip")
    board = board_factory()
    config = {"local_files_only": True, "batch_size": 8, "frames": 4, "dtype": "float32"}
    with pytest.raises(q.SubmissionRejected, match="repo id"):
        q.validate_request(str(model), "", "clip_score", config, ["isovrbench"])  # Space mode: no local paths
    spec = q.validate_request(str(model), "", "clip_score", config, ["isovrbench"], allow_local_paths=True)
    request = _run_request(board, spec)
    assert request.status == "FINISHED", request.log_tail
    (row,) = [s for s in board.store.submissions("isovrbench") if s.kind == "verified"]
    assert row.model == str(model) and row.header["benchmark"] == "isovrbench"
    assert row.results["n_pairs"] == 16
    del sys.modules["tiny_models"]


def test_worker_command_on_a_postgresql_store(postgres_url, data_root, tmp_path) -> None:
    """`mmjudge leaderboard worker --data-root DIR --gpus 0 --once` with ``MMJUDGE_DB=postgresql://...``,
    a separate process as on a GPU machine, runs a queued request and leaves its heartbeat."""
    import os
    import subprocess

    from mmjudge.leaderboard import Store
    from mmjudge.leaderboard.core.heartbeats import list_workers

    store = Store(postgres_url)
    spec = q.validate_request("", "", "random", "seed: 3", ["isovrbench"])
    request_id = q.enqueue(store, spec, "alice")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "MMJUDGE_DB": postgres_url, "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run(
        [sys.executable, "-m", "mmjudge", "leaderboard", "worker", "--data-root", str(data_root), "--gpus",
         "0", "--worker-id", "gpu-box", "--once", "--work-dir", str(tmp_path / "work")],
        capture_output=True, text=True, timeout=600, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "processed 1 requests" in done.stdout
    (beat,) = list_workers(store)
    request = q.get_request(store, request_id)
    assert request.status == "FINISHED" and request.worker == "gpu-box", request.log_tail
    assert (beat.id, beat.state, beat.gpus) == ("gpu-box", "stopped", 0)


@pytest.mark.slow
def test_worker_launches_accelerate_over_two_ranks(postgres_url, data_root, monkeypatch) -> None:
    """On two GPUs the worker runs the eval through ``accelerate launch --multi_gpu --num_processes 2``
    (gloo ranks here, one per GPU on a GPU machine): the run's results say two ranks judged it."""
    import json
    import time

    from mmjudge.leaderboard import Leaderboard, Settings, Store
    from mmjudge.leaderboard.worker.jobs import EvalJob, subprocess_eval

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    board = Leaderboard(Store(postgres_url), Settings(data_root=data_root, require_login=False))
    worlds = []

    def on_two_gpus(job: EvalJob) -> Path:
        predictions = subprocess_eval(job, gpus=2)
        worlds.append(json.loads((job.out_dir / "results.json").read_text())["run"]["world"])
        return predictions

    request_id = q.enqueue(board.store, q.validate_request("", "", "random", "seed: 4", ["isovrbench"]),
                           "alice")  # fmt: skip
    started = time.perf_counter()
    assert process_one(board, worker="gpu-box", eval_fn=on_two_gpus, lease_s=60.0, gpus=2) is not None
    elapsed = time.perf_counter() - started
    request = q.get_request(board.store, request_id)
    assert request.status == "FINISHED", request.log_tail
    assert worlds == [2]
    (row,) = [s for s in board.store.submissions("isovrbench") if s.kind == "verified"]
    assert row.request_id == request_id and row.results["n_pairs"] == 16
    assert (row.tier, row.reference_line) == ("run here", True)  # the server ran it; a weight-free judge: a baseline
    print(f"worker with accelerate launch over 2 ranks: {elapsed:.1f} s")
