"""The model-request worker: claim a request, run ``mmjudge eval`` per benchmark, store verified rows.

Each benchmark of a request is one resumable step: a benchmark the request already stored is skipped,
so a worker killed after storing benchmark 1 of 2 is followed by one that runs benchmark 2 only. Every
store and the final status are fenced by the worker's lease (a worker that lost its lease stores
nothing). Each attempt works in its own folder ``<work dir>/request<id>-attempt<k>``; a claim removes
the folders earlier attempts left behind (a killed worker never cleans up). A background thread renews
the lease and copies the log tail into the store, so a request that kills its worker still shows
its last log when it ends FAILED after the attempt cap. Log tails are public (the queue tab shows
them): server paths, internal URLs and secret values are removed before they are stored.

What a row names follows the backend's model source (:attr:`~mmjudge.leaderboard.core.policy.BackendRules.model_source`):
a Hub model at the pinned commit (``run here``); a weight-free backend no model (its row is a baseline, shown
and never ranked, named by its settings); an API model the endpoint and the date of the run. The rows of a
request a non-admin made with private labels go under the submitter's Ladder (``ModelRequest.ladder_margin``),
and its public log tail holds the worker's own lines only: ``mmjudge eval`` prints the scores it computed.

Each run has a wall-time budget derived from its options and the benchmark's size, capped by the worker's
``max_run_hours`` (:mod:`mmjudge.leaderboard.worker.budget`); a run past it is stopped with its whole process
group and the request fails with the reason. A request that runs a repo's own code (``trust_remote_code``) runs
only when this worker's own ``remote_code`` allow-list (``--remote-code``) pins that repo at the request's commit.

A run with items that failed with an error (unreadable media, the model raised; ``run.errored`` in the
``results.json`` beside the predictions) is never stored: the request fails with how many items failed
and the first error. A ``no_judgment`` answer (a reply without a readable label) is scored as usual.

The run goes through a seam, :data:`EvalFn` (``(job) -> predictions.jsonl path``), so tests substitute a
fake runner; the default, :func:`subprocess_eval`, runs ``mmjudge eval`` in a child process (through
``accelerate launch`` over the machine's GPUs when it has several, :mod:`mmjudge.leaderboard.worker.launch`)
and keeps its log. The worker beats on the store (:mod:`mmjudge.leaderboard.core.heartbeats`) when it starts,
on each poll and while it runs, so the queue tab shows it; the store may be a PostgreSQL database the
Space shares, so workers run on any machine that reaches it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from mmjudge._private import private_folder, private_path, read_own_file, write_own_file
from mmjudge._secrets import url_credentials
from mmjudge.errors import MmjudgeError
from mmjudge.judges import get_judge, validate_options
from mmjudge.judges.repos import loaded_repos
from mmjudge.leaderboard.core.heartbeats import beat
from mmjudge.leaderboard.core.policy import (
    ENDPOINT_MODEL,
    NO_MODEL,
    check_request_config,
    remote_code_revision,
)
from mmjudge.leaderboard.core.queue import ModelRequest, canonical_config, claim, finish, renew
from mmjudge.leaderboard.core.redaction import SECRETS, public_log
from mmjudge.leaderboard.core.revisions import endpoint_name
from mmjudge.leaderboard.core.service import Leaderboard
from mmjudge.leaderboard.core.validation import SubmissionMeta
from mmjudge.leaderboard.store import Lease, LeaseLost, is_postgres_url
from mmjudge.leaderboard.worker.budget import DEFAULT_MAX_RUN_HOURS, Budget, run_budget
from mmjudge.leaderboard.worker.launch import eval_command

__all__ = [
    "EvalFn",
    "EvalJob",
    "Pace",
    "default_work_dir",
    "errored_items",
    "process_one",
    "public_log",
    "revision_text",
    "run_worker",
    "secret_values",
    "subprocess_eval",
    "work_root",
    "worker_id",
]

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
    budget: Budget | None = None
    """How long the run may take (``None``: no limit)."""


EvalFn = Callable[[EvalJob], Path]
"""Runs one job and returns its ``predictions.jsonl``; raises on failure (the log says why)."""


def worker_id() -> str:
    """``host:pid`` of this process."""
    return f"{socket.gethostname()}:{os.getpid()}"


def default_work_dir(store_location: str | Path) -> Path:
    """``<user cache dir>/mmjudge/worker/<hash of the store location>``: where attempts work unless ``work_dir``
    is given (one folder per store, so workers of two leaderboards never remove each other's folders). It is in
    this user's own cache folder, not in a temp folder other users share."""
    from platformdirs import user_cache_dir

    key = str(store_location) if is_postgres_url(store_location) else str(Path(store_location).resolve())
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]
    return Path(user_cache_dir("mmjudge")) / "worker" / digest


def work_root(work_dir: str | Path | None, store_location: str | Path) -> Path:
    """The worker's folder, made or checked private (:mod:`mmjudge._private`): ``work_dir``, else
    :func:`default_work_dir` (each of its folders below the user's cache folder).

    Raises:
        ConfigError: a folder of the path is a symlink, another user's, or writable by others, or its parent
            could be changed by another user.
    """
    if work_dir is not None:
        return private_folder(work_dir, what="the worker's --work-dir")
    folder = default_work_dir(store_location)
    base = folder.parents[2]  # the user's cache folder, above mmjudge/worker/<hash>
    base.mkdir(parents=True, exist_ok=True, mode=0o700)
    return private_path(base, *folder.parts[-3:], what="the worker's folder")


def subprocess_eval(job: EvalJob, *, gpus: int = 0) -> Path:
    """Run ``mmjudge eval --benchmark B --judge CONFIG --data DIR --out OUT`` in a child process (its own
    process group), through ``accelerate launch`` with one rank per GPU when ``gpus`` > 1; past ``job.budget``
    the whole group is stopped."""

    command = eval_command(["--benchmark", job.benchmark, "--judge", str(job.config_path), "--data",
                            str(job.data_dir), "--out", str(job.out_dir), "--no-progress"], gpus)  # fmt: skip
    with job.log_path.open("ab") as log:
        child = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = child.wait(timeout=None if job.budget is None else job.budget.seconds)
        except subprocess.TimeoutExpired:
            _stop_group(child)
            raise MmjudgeError(
                f"`mmjudge eval --benchmark {job.benchmark}` ran past its time budget and was stopped "
                f"(budget {job.budget.why if job.budget else ''}); nothing stored"
            ) from None
        except BaseException:  # the worker is stopping: leave no run behind
            _stop_group(child)
            raise
    if code != 0:
        errored = errored_items(job.out_dir / "results.json")
        why = f": {errored}" if errored else ""
        raise MmjudgeError(f"`mmjudge eval --benchmark {job.benchmark}` exited with status {code}{why}")
    return job.out_dir / "predictions.jsonl"


def _stop_group(child: subprocess.Popen[bytes], grace_s: float = 10.0) -> None:
    """Stop ``child`` and every process of its group (``accelerate launch`` ranks): SIGTERM, ``grace_s`` to
    finish, then SIGKILL for whatever is left."""
    try:
        os.killpg(child.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    with contextlib.suppress(subprocess.TimeoutExpired):
        child.wait(timeout=grace_s)
    with contextlib.suppress(ProcessLookupError):  # ranks that outlive the launcher, or one that ignored SIGTERM
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()


def errored_items(results: Path) -> str | None:
    """Why a run must not become a row: the items its ``results.json`` says failed with an error, with the
    first error (``None``: none did, or the file is missing or records no count, as a fake runner's)."""
    from mmjudge.results import read_results

    if not results.is_file():
        return None
    run = read_results(results).run
    count = int(run.get("errored") or 0)
    if count == 0:
        return None
    first = list(run.get("first_errors") or [])
    shown = f"; first error: {first[0]}" if first else ""
    return f"{count} of {run.get('items')} items failed with an error{shown}"


def process_one(board: Leaderboard, *, worker: str | None = None, eval_fn: EvalFn = subprocess_eval,
                lease_s: float = 600.0, work_dir: str | Path | None = None, gpus: int = 0,
                max_run_hours: float = DEFAULT_MAX_RUN_HOURS) -> ModelRequest | None:  # fmt: skip
    """Claim one request and run it to FINISHED or FAILED; ``None`` when the queue is empty.

    ``gpus`` is reported in the worker's heartbeat and divides the runs' time budgets (``eval_fn`` decides how
    the run is launched); ``max_run_hours`` caps each budget (:func:`~mmjudge.leaderboard.worker.budget.run_budget`).

    Raises:
        ConfigError: the work folder is not private (:func:`work_root`); checked before a request is claimed.
    """
    worker = worker or worker_id()
    root = work_root(work_dir, board.store.location)
    request = claim(board.store, worker, lease_s=lease_s, max_attempts=board.settings.max_attempts)
    if request is None:
        return None
    lease = request.lease
    beat(board.store, worker, state="running", request_id=request.id, gpus=gpus)
    logger.info("worker %s claimed request #%d (%s), attempt %d", worker, request.id, request.model,
                lease.attempt)  # fmt: skip
    folder = _attempt_folder(root, lease)
    log_path = folder / "run.log"
    write_own_file(log_path, b"")
    hidden = _Private(_private_folders(board, folder), tuple(secret_values(board)))
    # a laddered request's log is not public: the run prints the scores the Ladder withholds
    public_path = log_path if request.ladder_margin is None else None
    stop = threading.Event()
    keeper = threading.Thread(
        target=_keep_lease, args=(board, lease, lease_s, stop, public_path, hidden, gpus), daemon=True
    )
    keeper.start()
    try:
        lines = _run_request(board, request, lease, eval_fn, folder, log_path, Pace(gpus, max_run_hours))
        ok, tail = True, _tail(public_path, lines, hidden)
    except LeaseLost as exc:
        logger.warning("request #%d: %s", request.id, exc)
        ok, tail = False, ""
    except Exception as exc:  # any failure of a run is recorded on the request
        logger.exception("request #%d failed", request.id)
        if public_path is None:  # the operator still sees the run's log, here
            logger.warning("request #%d log (not public):\n%s", request.id, _tail(log_path, [], hidden))
        ok, tail = False, _tail(public_path, [f"error: {type(exc).__name__}: {exc}"], hidden)
    finally:
        stop.set()
        keeper.join()
        shutil.rmtree(folder, ignore_errors=True)
    if not finish(board.store, lease, ok=ok, log_tail=tail):
        logger.warning("request #%d: lease lost before finishing; another worker holds it", request.id)
    return request


def _attempt_folder(root: Path, lease: Lease) -> Path:
    """A fresh private folder for this attempt; folders of earlier attempts (killed workers) are removed."""
    root = private_folder(root, what="the worker's folder")
    for stale in root.glob(f"request{lease.request_id}-*"):
        logger.info("removing %s left by an earlier attempt", stale)
        shutil.rmtree(stale, ignore_errors=True)
    folder = root / f"request{lease.request_id}-attempt{lease.attempt}"
    os.mkdir(folder, 0o700)
    return private_folder(folder, what="the attempt's folder")


class Pace(NamedTuple):
    """What a run's time budget depends on besides its request (:func:`~mmjudge.leaderboard.worker.budget.run_budget`)."""

    gpus: int
    """GPUs each run is spread over."""
    max_run_hours: float
    """The worker's cap on every budget."""


def _run_request(board: Leaderboard, request: ModelRequest, lease: Lease, eval_fn: EvalFn, tmp: Path,
                 log_path: Path, pace: Pace) -> list[str]:  # fmt: skip
    import yaml

    from mmjudge.scoring import expected_ids

    root = board.settings.data_root
    if root is None:
        raise MmjudgeError("the worker needs --data-root with built benchmark folders")
    config = _run_config(board, request)
    config_path = tmp / "config.yaml"
    written = write_own_file(config_path, yaml.safe_dump(config, sort_keys=True).encode("utf-8"))
    name = str(request.config.get("name") or request.backend)
    stored = board.store.request_benchmarks(request.id)
    notes = []
    for benchmark in request.benchmarks:
        if benchmark in stored:
            notes.append(f"{benchmark}: already stored as verified row #{stored[benchmark]} (step skipped)")
            continue
        calls = len(expected_ids(benchmark, board.reference_rows(benchmark)))
        budget = run_budget(config, calls, ranks=max(pace.gpus, 1), max_hours=pace.max_run_hours)
        job = EvalJob(benchmark, config_path, root / benchmark, tmp / benchmark, log_path, budget)
        private_folder(tmp, what="the attempt's folder")  # checked again before each run...
        read_own_file(config_path, written, what="the run's config")  # ...and the config is the one written
        predictions = eval_fn(job)
        errored = errored_items(predictions.parent / "results.json")
        if errored:  # never a row from a run whose items failed with an error
            raise MmjudgeError(f"{benchmark}: {errored}; nothing stored (a row must judge every item)")
        source = board.settings.request_rules[request.backend].model_source
        row = board.submit(
            predictions.read_bytes(), _row_meta(board, request, name), request.submitter, limited=False,
            source="predictions.jsonl", lease=lease, reference_line=source == NO_MODEL,
            ladder_margin=request.ladder_margin,
        )  # fmt: skip
        notes.append(f"{benchmark}: stored as verified row #{row.id}")
    return notes


def _row_meta(board: Leaderboard, request: ModelRequest, name: str) -> SubmissionMeta:
    """What the row names: a Hub model at its pinned commit; a weight-free judge its own name (as judge and
    model) and its settings, never a model or display name a request gave it; an API model the endpoint and
    the date of this run."""
    source = board.settings.request_rules[request.backend].model_source
    if source == NO_MODEL:
        return SubmissionMeta(judge=request.backend, model=request.backend, revision=_settings_text(request.config),
                              weights="open")  # fmt: skip
    if source == ENDPOINT_MODEL:

        fixed = board.settings.server_options.get(request.backend, {})
        options = validate_options(get_judge(request.backend).Options, dict(fixed), source="server options")
        day = time.strftime("%Y-%m-%d", time.gmtime())
        revision = f"{endpoint_name(str(getattr(options, 'base_url', '')))} {day}"
        return SubmissionMeta(judge=name, model=request.model, revision=revision, weights="unknown")
    return SubmissionMeta(judge=name, model=request.model, revision=revision_text(request.revision, request.config),
                          weights="open")  # fmt: skip


def revision_text(revision: str, config: Mapping[str, Any], limit: int = 200) -> str:
    """A row's revision: the model's, then each second repo the run loaded (:func:`mmjudge.judges.repos.loaded_repos`)
    at its commit (12 characters: the provenance keeps the whole), within ``limit`` characters.

    >>> revision_text("a" * 40, {"judge": "audio_language", "model": "org/m", "options": {"strategy": "S3",
    ...               "text_model": "mallory/answers", "text_model_revision": "b" * 40}})
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa + text_model mallory/answers@bbbbbbbbbbbb'
    """

    parts = [revision]
    for repo in loaded_repos(config):
        if repo.key != "model":
            pin = (repo.revision or "unpinned")[:12]
            parts.append(f"{repo.key.removeprefix('options.')} {repo.repo}@{pin}")
    text = " + ".join(parts)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def _settings_text(config: Mapping[str, Any]) -> str:
    """A weight-free judge's settings that differ from the defaults (``seed=3``), or ``defaults``: what tells
    its rows apart, as a revision tells a model's.

    >>> _settings_text({"judge": "random", "seed": 3, "options": {"include_same": False}})
    'seed=3, include_same=False'
    """

    changed = {k: v for k, v in canonical_config(config).items() if k not in ("judge", "options")}
    options = dict(canonical_config(config).get("options") or {})
    text = ", ".join(f"{k}={v}" for k, v in [*sorted(changed.items()), *sorted(options.items())]) or "defaults"
    return text if len(text) <= 120 else f"settings {hashlib.sha256(text.encode('utf-8')).hexdigest()[:12]}"


def _run_config(board: Leaderboard, request: ModelRequest) -> dict[str, Any]:
    """The request's config, checked again against the rules (a ``trust_remote_code`` request against this
    worker's own allow-list, at the request's commit), with the server's fixed options added."""
    chosen = {k: v for k, v in request.config.items() if k not in ("judge", "model", "revision", "trust_remote_code")}
    check_request_config(
        request.backend, chosen, board.settings.request_rules, admin=board.is_admin(request.submitter)
    )
    trust = request.config.get("trust_remote_code", False)
    if trust is not False:
        pinned = remote_code_revision(request.model, request.revision, trust, board.settings.remote_code)
        if pinned != request.revision:
            raise MmjudgeError(
                f"{request.model!r} runs its own code here only at the commit this worker's --remote-code allow-lists, "
                f"{pinned}; the request is at {request.revision!r}"
            )
    config = dict(request.config)
    fixed = board.settings.server_options.get(request.backend, {})
    if fixed:
        config["options"] = {**dict(config.get("options") or {}), **dict(fixed)}
    return config


def _keep_lease(board: Leaderboard, lease: Lease, lease_s: float, stop: threading.Event, log_path: Path | None,
                hidden: _Private, gpus: int) -> None:  # fmt: skip
    while not stop.wait(max(lease_s / 3.0, 0.05)):
        if not renew(board.store, lease, lease_s=lease_s, log_tail=_tail(log_path, [], hidden)):
            return
        beat(board.store, lease.worker, state="running", request_id=lease.request_id, gpus=gpus)


class _Private(NamedTuple):
    """What a public log must not show: folders (-> placeholders) and secret values."""

    folders: dict[str, str]
    secrets: tuple[str, ...]


def _tail(log_path: Path | None, extra: list[str], hidden: _Private, n_chars: int = 4000) -> str:
    """The public tail: the log's (none when ``log_path`` is ``None``) and ``extra`` lines, without secrets."""
    try:
        text = "" if log_path is None else log_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    return public_log((text + "\n".join(extra))[-4 * n_chars :], hidden.folders, secrets=hidden.secrets)[-n_chars:]


def secret_values(board: Leaderboard, environ: Mapping[str, str] | None = None) -> list[str]:
    """The values this worker was configured with as secrets, whatever their names: the store's location
    and its credentials (:func:`mmjudge._secrets.url_credentials` of a ``postgresql://`` URL given with ``--db``), the settings marked secret
    (:data:`mmjudge.leaderboard.core.redaction.SECRETS`: ``MMJUDGE_DB``, ``HF_TOKEN``) and the API key variable of
    ``openai_compatible`` requests (``--api-key-env``)."""
    env = os.environ if environ is None else environ
    values = [str(board.store.location), *url_credentials(str(board.store.location))]
    names = [*SECRETS, *(str(o["api_key_env"]) for o in board.settings.server_options.values() if o.get("api_key_env"))]
    values += [env.get(name, "") for name in names]
    return [v for v in values if v]


def _private_folders(board: Leaderboard, folder: Path) -> dict[str, str]:
    folders = {str(folder): "<work>", str(folder.resolve()): "<work>", sys.prefix: "<python>",
               str(Path.home()): "~", os.getcwd(): "<cwd>"}  # fmt: skip
    if board.settings.data_root is not None:
        folders[str(board.settings.data_root)] = "<data>"
        folders[str(Path(board.settings.data_root).resolve())] = "<data>"
    return folders


def run_worker(board: Leaderboard, *, once: bool = False, poll_s: float = 30.0, lease_s: float = 600.0,
               eval_fn: EvalFn | None = None, work_dir: str | Path | None = None, worker: str | None = None,
               gpus: int = 0, max_run_hours: float = DEFAULT_MAX_RUN_HOURS) -> int:  # fmt: skip
    """Process requests until interrupted (or, with ``once``, until the queue is empty); returns the count.

    Runs go through ``eval_fn`` (default: :func:`subprocess_eval` on ``gpus`` GPUs), each within its time
    budget (capped at ``max_run_hours``). The worker beats ``idle`` on every poll and ``stopped`` when it
    returns. Its work folder is checked before anything is claimed (:func:`work_root`).
    """
    work_root(work_dir, board.store.location)
    worker = worker or worker_id()
    run = eval_fn or functools.partial(subprocess_eval, gpus=gpus)
    done = 0
    try:
        while True:
            beat(board.store, worker, state="idle", gpus=gpus)
            request = process_one(board, worker=worker, eval_fn=run, lease_s=lease_s, work_dir=work_dir, gpus=gpus,
                                  max_run_hours=max_run_hours)  # fmt: skip
            if request is not None:
                done += 1
                continue
            if once:
                return done
            time.sleep(poll_s)
    finally:
        try:
            beat(board.store, worker, state="stopped", gpus=gpus)
        except Exception as exc:  # the store may be what stopped the worker; keep the original error
            logger.warning("could not record that worker %s stopped: %s", worker, exc)
