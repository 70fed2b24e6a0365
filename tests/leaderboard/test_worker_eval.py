"""The worker through the real runner: ``python -m mmjudge eval`` in a child process, then a verified row."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mmjudge.leaderboard import queue as q
from mmjudge.leaderboard.worker import process_one

JUDGE_TESTS = Path(__file__).resolve().parents[1] / "judges"


def _run_request(board, spec):
    request_id = q.enqueue(board.store, spec, "alice")
    assert process_one(board, worker="w", lease_s=30.0) is not None
    return q.get_request(board.store, request_id)


def test_weight_free_request_runs_mmjudge_eval(board_factory, monkeypatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    board = board_factory()
    spec = q.validate_request("org/coin", "v1", "random", "seed: 3", ["isovrbench"])
    request = _run_request(board, spec)
    assert request.status == "FINISHED", request.log_tail
    rows = {s.benchmark: s for s in board.store.submissions() if s.kind == "verified"}
    assert set(rows) == {"isovrbench"}
    assert rows["isovrbench"].model == "org/coin" and rows["isovrbench"].header["judge"] == "random"
    assert 0.0 <= rows["isovrbench"].results["average"] <= 100.0


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
