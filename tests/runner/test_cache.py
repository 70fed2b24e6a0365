"""The verdict cache: per-rank append-only files, torn lines, and what the cache key depends on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mmjudge.judges import Diagnostics, MediaRequest, ScoreQuery, Verdict
from mmjudge.runner.cache import MediaHasher, VerdictCache, cache_key, verdict_from_dict, verdict_to_dict


def test_verdicts_round_trip_with_diagnostics() -> None:
    verdict = Verdict(
        "c1", {"VQ": 0.5, "overall": 1.0}, diagnostics=Diagnostics("7", 0.9, 0.1, {"method": "expected"})
    )
    failed = Verdict.failed("c2", "MediaError: gone")
    for v in (verdict, failed):
        assert verdict_from_dict(json.loads(json.dumps(verdict_to_dict(v)))) == v


def test_every_rank_file_is_read_and_each_rank_appends_to_its_own(tmp_path: Path) -> None:
    rank0, rank1 = VerdictCache(tmp_path, rank=0), VerdictCache(tmp_path, rank=1)
    rank0.put("a", Verdict("a", 1.0))
    rank1.put("b", Verdict("b", 2.0))
    merged = VerdictCache(tmp_path, rank=0)
    assert sorted(merged.keys()) == ["a", "b"] and merged.get("b").value == 2.0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rank0.jsonl", "rank1.jsonl"]
    assert len((tmp_path / "rank0.jsonl").read_text().splitlines()) == 1


def test_a_torn_last_line_is_skipped_and_the_next_append_is_whole(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path, rank=0)
    cache.put("a", Verdict("a", 1.0))
    with (tmp_path / "rank0.jsonl").open("a") as handle:
        handle.write('{"key": "b", "verdict": {"item_id": "b", "val')  # killed mid-write
    reopened = VerdictCache(tmp_path, rank=0)
    assert reopened.keys() == ["a"] and reopened.torn_lines == 1
    reopened.put("c", Verdict("c", 3.0))
    again = VerdictCache(tmp_path, rank=0)
    assert sorted(again.keys()) == ["a", "c"] and again.torn_lines == 1


def test_a_record_is_on_disk_when_put_returns(tmp_path: Path) -> None:
    """A process killed right after ``put`` (no close, no atexit) leaves the record readable."""
    code = (
        "import os, sys; from mmjudge.runner.cache import VerdictCache; from mmjudge.judges import Verdict;"
        f"VerdictCache({str(tmp_path)!r}, rank=3).put('k', Verdict('x', 0.25)); os._exit(9)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False, timeout=60).returncode == 9
    assert VerdictCache(tmp_path, rank=0).get("k") == Verdict("x", 0.25)


def test_the_key_follows_content_fingerprint_and_request_not_the_path(tmp_path: Path) -> None:
    first, moved = tmp_path / "a.mp4", tmp_path / "sub" / "b.mp4"
    moved.parent.mkdir()
    first.write_bytes(b"same bytes")
    moved.write_bytes(b"same bytes")
    hasher = MediaHasher()
    request = MediaRequest(num_frames=8)
    key = cache_key("fp1", ScoreQuery("c", first, "a prompt"), request, hasher)
    assert key == cache_key("fp1", ScoreQuery("c", moved, "a prompt"), request, MediaHasher())
    assert key != cache_key("fp2", ScoreQuery("c", first, "a prompt"), request, hasher)
    assert key != cache_key("fp1", ScoreQuery("c", first, "another prompt"), request, hasher)
    assert key != cache_key("fp1", ScoreQuery("c", first, "a prompt"), MediaRequest(num_frames=16), hasher)
    first.write_bytes(b"other bytes")
    assert key != cache_key("fp1", ScoreQuery("c", first, "a prompt"), request, MediaHasher())
    os.remove(first)
    assert MediaHasher().digest(first) == "missing"


def test_transient_failures_are_not_cached_and_deterministic_ones_are(tmp_path: Path) -> None:
    """Issue 11 item 5: connection, timeout, 5xx and out-of-memory failures are judged again on resume;
    an unreadable clip stays a cached no_judgment."""
    cache = VerdictCache(tmp_path, rank=0)
    cache.put_many([
        ("down", Verdict.failed("a", "ApiError: gave up after 6 attempts; last error: HTTP 503", transient=True)),
        ("oom", Verdict.failed("b", "OutOfMemoryError: CUDA out of memory", transient=True)),
        ("bad", Verdict.failed("c", "MediaError: c.mp4 is not a video file")),
        ("ok", Verdict("d", 1.0)),
    ])  # fmt: skip
    assert sorted(cache.keys()) == ["bad", "down", "ok", "oom"]  # this run still sees them
    reopened = VerdictCache(tmp_path, rank=0)
    assert sorted(reopened.keys()) == ["bad", "ok"]


def test_older_cache_lines_holding_a_transient_error_are_judged_again(tmp_path: Path) -> None:
    lines = [
        {"key": "down", "verdict": {"item_id": "a", "value": None, "no_judgment": True,
                                    "error": "ApiError: http://h/v1/chat/completions: gave up after 6 attempts; "
                                             "last error: cannot reach http://h/v1/chat/completions"}},
        {"key": "bad", "verdict": {"item_id": "c", "value": None, "no_judgment": True,
                                   "error": "MediaError: c.mp4 is not a video file"}},
    ]  # fmt: skip
    (tmp_path / "rank0.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    cache = VerdictCache(tmp_path, rank=0)
    assert cache.keys() == ["bad"] and cache.retried == 1


def test_a_model_that_runs_out_of_memory_gives_a_transient_verdict() -> None:
    from mmjudge.judges import JudgeInput
    from mmjudge.runner.runner import _call_judge

    class OutOfMemoryError(RuntimeError):
        pass

    class Exploding:
        config = type("C", (), {"judge": "fake"})()

        def judge_batch(self, inputs):
            raise OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")

    item = ScoreQuery("c1", Path("c1.mp4"), "a cat")
    (verdict,) = _call_judge(Exploding(), [JudgeInput(item)])  # type: ignore[arg-type]
    assert verdict.no_judgment and verdict.transient


def test_errors_and_no_label_answers_stay_apart_through_the_cache_and_in_older_lines(tmp_path: Path) -> None:
    """A verdict that failed with an error stays errored after the cache round trip; a reply without a label
    stays an answer. A line written before verdicts carried the flag: a no-label reply is an answer,
    any other ``no_judgment`` came from ``Verdict.failed``."""
    errored = Verdict.failed("c1", "MediaError: 'c1' has no video frames (clip c1.mp4)")
    unlabelled = Verdict("c2", None, no_judgment=True, error="no FF/WF/FL/LL label in the reply 'hmm'")
    cache = VerdictCache(tmp_path, rank=0)
    cache.put_many([("k1", errored), ("k2", unlabelled), ("k3", Verdict("c3", "FF"))])
    with (tmp_path / "rank0.jsonl").open("a") as handle:
        for key, error in (("old1", "MediaError: moov atom not found"), ("old2", unlabelled.error)):
            line = {"key": key, "verdict": {"item_id": key, "value": None, "no_judgment": True, "error": error}}
            handle.write(json.dumps(line) + "\n")
    reopened = VerdictCache(tmp_path, rank=0)
    assert reopened.get("k1") == errored and reopened.get("k1").errored
    assert reopened.get("k2") == unlabelled and not reopened.get("k2").errored
    assert not reopened.get("k3").errored
    assert reopened.get("old1").errored and not reopened.get("old2").errored
    with pytest.raises(ValueError, match="errored=True needs no_judgment=True"):
        Verdict("c4", "FF", errored=True)
