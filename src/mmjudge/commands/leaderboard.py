"""``mmjudge leaderboard``: serve the leaderboard locally; ``mmjudge leaderboard worker``: run model requests.

``mmjudge leaderboard [--db PATH|URL] [--port N] [--data-root DIR] [--no-auth] [--demo-output DIR]``
serves the Gradio app on an SQLite store (default ``<user data dir>/mmjudge/leaderboard.sqlite``) or a
PostgreSQL database (``--db postgresql://...``, or ``MMJUDGE_DB`` in the environment, which keeps the
password off the command line). Without ``--no-auth`` submissions need a Hugging Face login: on a Space
the Space's OAuth, elsewhere an OAuth app of the leaderboard's own (``OAUTH_CLIENT_ID``,
``OAUTH_CLIENT_SECRET``; :mod:`mmjudge.leaderboard.app.auth`), else the command refuses to start.
``mmjudge leaderboard worker [--db PATH|URL] [--data-root DIR] [--gpus N] [--worker-id NAME]
[--once] [--max-attempts N] [--admin USER] [--api-base-url URL --api-key-env NAME] [--remote-code ORG/NAME@COMMIT]
[--max-run-hours H] [--work-dir DIR]`` claims queued model requests and runs ``mmjudge eval`` for each (through
``accelerate launch`` on the machine's GPUs when it has several), each run within a time budget derived from
its options and the benchmark's size (:mod:`mmjudge.leaderboard.worker.budget`), in a private work folder
(default: in this user's cache folder); API-judge requests run only when their submitter is an ``--admin``,
against the endpoint and key variable the worker is given (never ones from the request), and a request that runs a
repo's own code only when the worker's ``--remote-code`` allow-lists that repo at the request's commit.
"""

from __future__ import annotations

import argparse
import os

from mmjudge.leaderboard.core.settings import add_flags, board_settings, default, from_flags
from mmjudge.leaderboard.worker.budget import DEFAULT_MAX_RUN_HOURS

NAME = "leaderboard"
HELP = "serve the leaderboard app (SQLite or PostgreSQL store), or `leaderboard worker` to run queued model requests"


def configure(parser: argparse.ArgumentParser) -> None:
    """Serve options (a flag per setting of :data:`mmjudge.leaderboard.core.settings.SETTINGS`), and the ``worker``
    subcommand."""
    add_flags(parser)
    parser.add_argument("--port", type=int, default=7860, help="port (default 7860)")
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    sub = parser.add_subparsers(dest="leaderboard_action", metavar="ACTION")
    worker = sub.add_parser("worker", help="claim queued model requests and run them through `mmjudge eval`",
                            description="Claim queued model requests from the leaderboard store, run each "
                            "benchmark through `mmjudge eval` and store the scored rows as `run here`.")  # fmt: skip
    add_flags(worker, ("db", "data_root", "remote_code"), absent=argparse.SUPPRESS)
    worker.add_argument("--once", action="store_true", help="stop when the queue is empty")
    worker.add_argument("--poll", type=float, default=30.0, help="seconds between polls of an empty queue")
    worker.add_argument("--lease", type=float, default=600.0, help="lease in seconds (renewed while running)")
    worker.add_argument(
        "--max-attempts", type=int, default=default("max_attempts"),
        help=f"claims of one request before it ends FAILED (default {default('max_attempts')})",
    )
    worker.add_argument(
        "--admin", action="append", default=[], help="username whose API-judge requests may run (repeatable)"
    )
    worker.add_argument(
        "--work-dir", default=None,
        help="folder for the runs, made (or checked to be) private: this user's, mode 0700, no symlink, in a "
        "folder no other user can change (default: <user cache dir>/mmjudge/worker/<store hash>)",
    )  # fmt: skip
    worker.add_argument(
        "--max-run-hours", type=float, default=None,
        help="cap on the time budget of one run (one benchmark of a request); a run past its budget is stopped "
        f"and the request fails (default: $MMJUDGE_MAX_RUN_HOURS, else {DEFAULT_MAX_RUN_HOURS:g})",
    )  # fmt: skip
    worker.add_argument(
        "--gpus",
        type=int,
        default=None,
        help="GPUs to run each eval on; >1 uses `accelerate launch --multi_gpu` (default: the machine's, "
        "from CUDA_VISIBLE_DEVICES or nvidia-smi)",
    )
    worker.add_argument(
        "--worker-id", default=None, help="name shown in the queue tab (default: <host>:<pid>)"
    )
    worker.add_argument(
        "--api-base-url", default=None, help="endpoint of openai_compatible requests (default: the backend's)"
    )
    worker.add_argument(
        "--api-key-env",
        default=None,
        help="environment variable holding the key for openai_compatible requests (default: the backend's)",
    )


def run(args: argparse.Namespace) -> int:
    from mmjudge._deps import require
    from mmjudge.leaderboard.app.startup import about_text, default_data_root, open_leaderboard, start_mirror

    if getattr(args, "leaderboard_action", None) == "worker":
        from mmjudge.errors import ConfigError
        from mmjudge.leaderboard.worker.jobs import run_worker
        from mmjudge.leaderboard.worker.launch import detect_gpus

        if args.max_attempts < 1:
            raise ConfigError(f"--max-attempts must be a positive integer, got {args.max_attempts}")
        if args.gpus is not None and args.gpus < 0:
            raise ConfigError(f"--gpus must be 0 or more, got {args.gpus}")
        gpus = detect_gpus() if args.gpus is None else args.gpus
        max_hours = _max_run_hours(args.max_run_hours)
        api = {"base_url": args.api_base_url, "api_key_env": args.api_key_env}
        remote_code = from_flags(args, ("remote_code",))["remote_code"]
        board = open_leaderboard(
            _db(args.db), data_root=default_data_root(args.data_root, "demo-output"), admins=args.admin,
            max_attempts=args.max_attempts, rank_cells="inline", remote_code=remote_code,
            server_options={"openai_compatible": {k: v for k, v in api.items() if v is not None}},
        )  # fmt: skip
        print(f"worker on store {board.store.display()}; runs on {gpus or 'no'} GPU(s), at most {max_hours:g} h "
              "each", flush=True)  # fmt: skip
        done = run_worker(board, once=args.once, poll_s=args.poll, lease_s=args.lease, work_dir=args.work_dir,
                          worker=args.worker_id, gpus=gpus, max_run_hours=max_hours)  # fmt: skip
        print(f"processed {done} requests")
        return 0
    values = from_flags(args)
    data_root = default_data_root(values["data_root"], values["demo_output"])  # --data-root without labels: refused
    _check_login_possible(not values["require_login"], values["no_auth_on_space"])
    require("gradio", "space", purpose="serving the leaderboard")
    from mmjudge.leaderboard.app.ui import build_app

    board = open_leaderboard(_db(values["db"]), demo_output=values["demo_output"],
                             **{**board_settings(values), "data_root": data_root})  # fmt: skip
    if values["mirror_repo"]:
        start_mirror(board.store, values["mirror_repo"], private_labels=board.settings.private_labels)
    print(
        f"store: {board.store.display()}; labels for: {', '.join(board.benchmarks_available()) or 'none (--data-root)'}"
    )
    app = build_app(board, about=about_text())
    app.launch(server_name=args.host, server_port=args.port, max_file_size=board.settings.max_bytes)
    return 0


def _max_run_hours(given: float | None) -> float:
    """``--max-run-hours``, else ``$MMJUDGE_MAX_RUN_HOURS``, else the default; a positive finite number."""
    import math

    from mmjudge.errors import ConfigError

    text = os.environ.get("MMJUDGE_MAX_RUN_HOURS", "").strip()
    source = "--max-run-hours" if given is not None else "MMJUDGE_MAX_RUN_HOURS"
    try:
        hours = given if given is not None else (float(text) if text else DEFAULT_MAX_RUN_HOURS)
    except ValueError:
        hours = math.nan
    if not (math.isfinite(hours) and hours > 0):
        raise ConfigError(f"{source} must be a positive number of hours, got {given if given is not None else text!r}")
    return hours


def _db(given: str | None) -> str | None:
    """``--db``, else ``$MMJUDGE_DB``, else ``None`` (the default SQLite file)."""
    return given or os.environ.get("MMJUDGE_DB") or None


def _check_login_possible(no_auth: bool, no_auth_on_space: bool) -> None:
    """Refuse to start (before the store is opened): with login, when this machine offers no real login (off a
    Space gradio would only mock it, see :func:`mmjudge.leaderboard.app.auth.login_plan`); without, on a Space
    unless allowed (:func:`mmjudge.leaderboard.app.auth.check_no_auth`)."""
    from mmjudge.leaderboard.app.auth import check_no_auth, login_plan

    check_no_auth(not no_auth, no_auth_on_space)
    if not no_auth:
        login_plan(os.environ)
