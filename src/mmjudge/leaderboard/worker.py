"""The model-request worker: claim a request, run ``mmjudge eval`` per benchmark, store verified rows.

The run goes through a seam, :data:`EvalFn` (``(job) -> predictions.jsonl path``), so tests substitute a
fake runner; the default, :func:`subprocess_eval`, runs ``python -m mmjudge eval`` in a child process and
keeps its log. The worker renews its lease from a background thread while a run is in progress; if the
worker dies, the lease runs out and another worker claims the request again.
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mmjudge.errors import MmjudgeError
from mmjudge.leaderboard.queue import ModelRequest, claim, finish, renew
from mmjudge.leaderboard.submit import Leaderboard
from mmjudge.leaderboard.validation import SubmissionMeta

__all__ = ["EvalFn", "EvalJob", "process_one", "run_worker", "subprocess_eval", "worker_id"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class EvalJob:
    """One ``mmjudge eval`` run."""

    benchmark: str
    """Benchmark id."""
    config_path: Path
    """Judge config YAML written from the request."""
    data_dir: Path
    """Built benchmark folder."""
    out_dir: Path
    """Output folder of the run."""
    log_path: Path
    """Where the run's log goes."""


EvalFn = Callable[[EvalJob], Path]
"""Runs one job and returns its ``predictions.jsonl``; raises on failure (the log says why)."""


def worker_id() -> str:
    """``host:pid`` of this process."""
    return f"{socket.gethostname()}:{os.getpid()}"


def subprocess_eval(job: EvalJob, *, timeout_s: float | None = None) -> Path:
    """Run ``python -m mmjudge eval --benchmark B --judge CONFIG --data DIR --out OUT`` in a child process."""
    command = [sys.executable, "-m", "mmjudge", "eval", "--benchmark", job.benchmark, "--judge",
               str(job.config_path), "--data", str(job.data_dir), "--out", str(job.out_dir)]  # fmt: skip
    with job.log_path.open("ab") as log:
        code = subprocess.run(
            command, stdout=log, stderr=subprocess.STDOUT, timeout=timeout_s, check=False
        ).returncode
    if code != 0:
        raise MmjudgeError(f"`{' '.join(command)}` exited with status {code}")
    return job.out_dir / "predictions.jsonl"


def process_one(board: Leaderboard, *, worker: str | None = None, eval_fn: EvalFn = subprocess_eval,
                lease_s: float = 600.0, work_dir: str | Path | None = None) -> ModelRequest | None:  # fmt: skip
    """Claim one request and run it to FINISHED or FAILED; ``None`` when the queue is empty."""
    worker = worker or worker_id()
    request = claim(board.store, worker, lease_s=lease_s)
    if request is None:
        return None
    logger.info("worker %s claimed request #%d (%s)", worker, request.id, request.model)
    stop = threading.Event()
    keeper = threading.Thread(
        target=_keep_lease, args=(board, request.id, worker, lease_s, stop), daemon=True
    )
    keeper.start()
    with tempfile.TemporaryDirectory(dir=work_dir, prefix=f"request{request.id}-") as tmp:
        log_path = Path(tmp) / "run.log"
        log_path.touch()
        try:
            lines = _run_request(board, request, eval_fn, Path(tmp), log_path)
            ok, tail = True, _tail(log_path, lines)
        except Exception as exc:  # any failure of a run is recorded on the request
            logger.exception("request #%d failed", request.id)
            ok, tail = False, _tail(log_path, [f"error: {type(exc).__name__}: {exc}"])
        finally:
            stop.set()
            keeper.join()
    if not finish(board.store, request.id, worker, ok=ok, log_tail=tail):
        logger.warning("request #%d: lease lost before finishing; another worker holds it", request.id)
    return request


def _run_request(
    board: Leaderboard, request: ModelRequest, eval_fn: EvalFn, tmp: Path, log_path: Path
) -> list[str]:
    import yaml

    root = board.settings.data_root
    if root is None:
        raise MmjudgeError("the worker needs --data-root with built benchmark folders")
    config_path = tmp / "config.yaml"
    config_path.write_text(yaml.safe_dump(dict(request.config), sort_keys=True), encoding="utf-8")
    name = str(request.config.get("name") or request.backend)
    notes = []
    for benchmark in request.benchmarks:
        job = EvalJob(benchmark, config_path, root / benchmark, tmp / benchmark, log_path)
        predictions = eval_fn(job)
        meta = SubmissionMeta(judge=name, model=request.model, revision=request.revision, weights="open")
        stored = board.submit(
            predictions.read_bytes(), meta, request.submitter, daily_limit=None, source=str(predictions)
        )
        notes.append(f"{benchmark}: stored as verified row #{stored.id}")
    return notes


def _keep_lease(
    board: Leaderboard, request_id: int, worker: str, lease_s: float, stop: threading.Event
) -> None:
    while not stop.wait(max(lease_s / 3.0, 0.05)):
        if not renew(board.store, request_id, worker, lease_s=lease_s):
            return


def _tail(log_path: Path, extra: list[str], n_chars: int = 4000) -> str:
    text = log_path.read_text(encoding="utf-8", errors="replace")
    return (text + "\n".join(extra))[-n_chars:]


def run_worker(board: Leaderboard, *, once: bool = False, poll_s: float = 30.0, lease_s: float = 600.0,
               eval_fn: EvalFn = subprocess_eval) -> int:  # fmt: skip
    """Process requests until interrupted (or, with ``once``, until the queue is empty); returns the count."""
    done = 0
    while True:
        request = process_one(board, eval_fn=eval_fn, lease_s=lease_s)
        if request is not None:
            done += 1
            continue
        if once:
            return done
        time.sleep(poll_s)
