"""The leaderboard Space's start-up: configuration from environment variables, labels fetched from the Hub.

A Space (``app.py`` written by ``mmjudge space build``) calls :func:`start`. Every setting is an
environment variable (:data:`VARIABLES`); the labels the server scores against come either from a
folder on disk (``MMJUDGE_DATA_ROOT``, for local runs) or, on a Space, from one Hub dataset repo per
benchmark at a pinned commit: ``MMJUDGE_LABELS_<ID>=org/name@<40-hex commit>``, downloaded with
``huggingface_hub.snapshot_download`` into persistent storage (``/data`` when the Space has it) and
reused on the next start without a download. A missing or unpinned repo, or a download that fails,
stops start-up with one line saying what to set (:class:`~mmjudge.errors.ConfigError`); :func:`start`
exits with that line instead of a traceback.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError, MmjudgeError
from mmjudge.leaderboard.auth import VARIABLES as AUTH_VARIABLES
from mmjudge.leaderboard.redaction import SECRETS
from mmjudge.leaderboard.settings import default

__all__ = [
    "SECRETS",
    "VARIABLES",
    "LabelSource",
    "SpaceConfig",
    "check_private",
    "fetch_labels",
    "label_variable",
    "open_space",
    "start",
]

MiB = 1024 * 1024
"""Bytes in a mebibyte (``MMJUDGE_MAX_MB``)."""

VARIABLES: dict[str, str] = {
    "MMJUDGE_DB": "store: SQLite file, or postgresql:// URL shared with the workers (set it as a secret: "
    "it holds the password); default /data/leaderboard.sqlite with persistent storage",
    "MMJUDGE_BENCHMARKS": "comma-separated benchmarks to serve (default: all four)",
    "MMJUDGE_LABELS_<ID>": "Hub dataset repo with the labels of benchmark <ID> at a pinned commit: "
    "org/name@<40-hex commit> (one per served benchmark)",
    "MMJUDGE_LABELS_DIR": "where the labels are downloaded (default /data/mmjudge-labels with persistent "
    "storage, else the user cache)",
    "MMJUDGE_DATA_ROOT": "local runs: a folder of built benchmark folders <id>/ used instead of the Hub repos",
    "MMJUDGE_ADMINS": "comma-separated usernames who may hide rows",
    "MMJUDGE_DAILY_LIMIT": "uploads + model requests per user per 24 h (a request once, whatever its benchmarks; "
    f"worker rows not counted; default {default('daily_limit')})",
    "MMJUDGE_MAX_MB": f"size limit of a prediction file in MiB (default {default('max_bytes') / MiB:g})",
    "MMJUDGE_DEMO_OUTPUT": "`mmjudge demo` output to ingest as baselines (weight-free judges, shown, never ranked)",
    "MMJUDGE_MIRROR_REPO": "mirror the public tables to this Hub dataset repo (needs HF_TOKEN with write access)",
    "MMJUDGE_NO_AUTH": "1: local no-login mode (never on a public Space)",
    "MMJUDGE_PRIVATE_LABELS": "1: the label repos are private (checked at start-up): a submitted row, and each row of a "
    "non-admin's model request, shows only its Ladder score, its breakdowns and results file are withheld; "
    "weight-free judges are requestable by admins only",
    "MMJUDGE_REMOTE_CODE": "comma-separated model repos whose own Python code a model request may run "
    "(trust_remote_code), each pinned: org/name@<40-hex commit> (default: none)",
    "MMJUDGE_LADDER_MARGIN": "private labels: the Ladder's margin and rounding step, in headline points "
    f"(default {default('ladder_margin'):g})",
    **AUTH_VARIABLES,
}
"""Every environment variable the Space app reads, with its meaning (the login's only off a Space)."""


_COMMIT = re.compile(r"[0-9a-f]{40}")
_REPO = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+")
Download = Callable[..., Any]
"""``huggingface_hub.snapshot_download``'s signature (tests pass a fake that copies a local folder)."""


def label_variable(benchmark: str) -> str:
    """The variable naming the label repo of ``benchmark``.

    >>> label_variable("emorealm")
    'MMJUDGE_LABELS_EMOREALM'
    """
    return f"MMJUDGE_LABELS_{benchmark.upper()}"


@dataclass(frozen=True)
class LabelSource:
    """Where one benchmark's labels come from."""

    benchmark: str
    """Benchmark id."""
    repo_id: str
    """Hub dataset repo ``org/name``."""
    revision: str
    """The pinned commit (40 hex digits)."""

    @classmethod
    def parse(cls, benchmark: str, value: str) -> LabelSource:
        """Read ``org/name@<commit>``.

        >>> LabelSource.parse("mist", "org/mist-labels@" + "a" * 40).repo_id
        'org/mist-labels'
        >>> LabelSource.parse("mist", "org/mist-labels@main")
        Traceback (most recent call last):
        ...
        mmjudge.errors.ConfigError: MMJUDGE_LABELS_MIST='org/mist-labels@main' is not pinned: expected org/name@<40-hex commit> (a branch or tag can move; take the commit from the repo's history or `mmjudge push-dataset` output)
        """
        name = label_variable(benchmark)
        repo_id, _, revision = value.strip().partition("@")
        if not _REPO.fullmatch(repo_id):
            raise ConfigError(f"{name}={value!r}: expected org/name@<40-hex commit> of a Hub dataset repo")
        if not _COMMIT.fullmatch(revision):
            raise ConfigError(
                f"{name}={value!r} is not pinned: expected org/name@<40-hex commit> (a branch or tag can move; "
                "take the commit from the repo's history or `mmjudge push-dataset` output)"
            )
        return cls(benchmark, repo_id, revision)


@config_dataclass
class SpaceConfig:
    """The Space's settings, read from the environment by :meth:`from_env`."""

    db: str | None = None
    """Store location (``None``: the user data dir, lost on a Space restart)."""
    data_root: Path | None = None
    """A local folder of built benchmark folders (replaces the Hub label repos)."""
    labels: tuple[LabelSource, ...] = ()
    """The pinned label repos, one per served benchmark."""
    labels_dir: Path = Path("labels")
    """Where :func:`fetch_labels` downloads them."""
    admins: tuple[str, ...] = ()
    """Admin usernames."""
    daily_limit: int = default("daily_limit")
    """Submissions + requests per user per day."""
    max_mb: float = default("max_bytes") / MiB
    """Size limit of a prediction file in MiB."""
    demo_output: str | None = None
    """``mmjudge demo`` output to ingest."""
    mirror_repo: str | None = None
    """Hub dataset repo mirroring the public tables."""
    require_login: bool = True
    """``False`` only with ``MMJUDGE_NO_AUTH=1``."""
    private_labels: bool = False
    """``MMJUDGE_PRIVATE_LABELS=1``: the Ladder mode of submitted rows (the label repos must be private)."""
    ladder_margin: float = default("ladder_margin")
    """The Ladder's margin (``MMJUDGE_LADDER_MARGIN``)."""
    remote_code: tuple[tuple[str, str], ...] = ()
    """``(repo, commit)`` pairs whose code a model request may run (``MMJUDGE_REMOTE_CODE``)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str], *, persistent: Path = Path("/data")) -> SpaceConfig:
        """Read and check every variable of :data:`VARIABLES`; raises :class:`ConfigError` with one line
        naming each problem.

        >>> SpaceConfig.from_env({"MMJUDGE_BENCHMARKS": "mist"}, persistent=Path("/nonexistent"))
        Traceback (most recent call last):
        ...
        mmjudge.errors.ConfigError: MMJUDGE_LABELS_MIST is not set: expected the Hub dataset repo holding the mist labels at a pinned commit, org/name@<40-hex commit> (or set MMJUDGE_DATA_ROOT to a folder of built benchmark folders for a local run)
        """
        from mmjudge.benchmarks import benchmark_ids

        known = benchmark_ids()
        env = {k: v.strip() for k, v in environ.items() if k.startswith("MMJUDGE_") and v.strip()}
        problems: list[str] = []
        served = [b.strip() for b in env.get("MMJUDGE_BENCHMARKS", ",".join(known)).split(",") if b.strip()]
        unknown = [b for b in served if b not in known]
        if unknown or not served:
            problems.append(f"MMJUDGE_BENCHMARKS={env.get('MMJUDGE_BENCHMARKS', '')!r}: expected ids among "
                            f"{', '.join(known)}")  # fmt: skip
        data_root = Path(env["MMJUDGE_DATA_ROOT"]) if "MMJUDGE_DATA_ROOT" in env else None
        labels = []
        for benchmark in [] if data_root is not None else [b for b in served if b in known]:
            value = env.get(label_variable(benchmark))
            if value is None:
                problems.append(
                    f"{label_variable(benchmark)} is not set: expected the Hub dataset repo holding the {benchmark} "
                    "labels at a pinned commit, org/name@<40-hex commit> (or set MMJUDGE_DATA_ROOT to a folder of "
                    "built benchmark folders for a local run)"
                )
                continue
            try:
                labels.append(LabelSource.parse(benchmark, value))
            except ConfigError as exc:
                problems.append(str(exc))
        remote_code = _remote_code(env.get("MMJUDGE_REMOTE_CODE", ""), problems)
        numbers = {name: _number(env, name, fallback, problems) for name, fallback in
                   (("MMJUDGE_DAILY_LIMIT", cls.daily_limit), ("MMJUDGE_MAX_MB", cls.max_mb),
                    ("MMJUDGE_LADDER_MARGIN", cls.ladder_margin))}  # fmt: skip
        if problems:
            raise ConfigError("; ".join(problems))
        on_space = persistent.is_dir()
        default_labels = persistent / "mmjudge-labels" if on_space else _cache_dir() / "labels"
        return cls(
            db=env.get("MMJUDGE_DB") or (str(persistent / "leaderboard.sqlite") if on_space else None),
            data_root=data_root, labels=tuple(labels),
            labels_dir=Path(env.get("MMJUDGE_LABELS_DIR", str(default_labels))),
            admins=tuple(a.strip() for a in env.get("MMJUDGE_ADMINS", "").split(",") if a.strip()),
            daily_limit=int(numbers["MMJUDGE_DAILY_LIMIT"]), max_mb=numbers["MMJUDGE_MAX_MB"],
            demo_output=env.get("MMJUDGE_DEMO_OUTPUT"), mirror_repo=env.get("MMJUDGE_MIRROR_REPO"),
            require_login=env.get("MMJUDGE_NO_AUTH") != "1",
            private_labels=env.get("MMJUDGE_PRIVATE_LABELS") == "1", ladder_margin=numbers["MMJUDGE_LADDER_MARGIN"],
            remote_code=remote_code,
        )  # fmt: skip


def _remote_code(value: str, problems: list[str]) -> tuple[tuple[str, str], ...]:
    """``MMJUDGE_REMOTE_CODE``'s ``org/name@<commit>`` entries (each problem appended to ``problems``).

    >>> _remote_code("THUDM/VisionReward-Video@" + "a" * 40, [])
    (('THUDM/VisionReward-Video', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'),)
    >>> problems = []; _remote_code("org/m@main", problems), problems
    ((), ["MMJUDGE_REMOTE_CODE entry 'org/m@main': expected org/name@<40-hex commit>"])
    """
    pairs = []
    for entry in (e.strip() for e in value.split(",") if e.strip()):
        repo, _, commit = entry.partition("@")
        if not (_REPO.fullmatch(repo) and _COMMIT.fullmatch(commit)):
            problems.append(f"MMJUDGE_REMOTE_CODE entry {entry!r}: expected org/name@<40-hex commit>")
            continue
        pairs.append((repo, commit))
    return tuple(pairs)


def _number(env: Mapping[str, str], name: str, default: float, problems: list[str]) -> float:
    try:
        value = float(env.get(name, default))
    except ValueError:
        value = -1.0
    if not value > 0:
        problems.append(f"{name}={env.get(name)!r}: expected a positive number")
    return value


def _cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("mmjudge"))


_MARKER = ".mmjudge-source"


def fetch_labels(config: SpaceConfig, *, download: Download | None = None) -> Path:
    """The data root holding ``<id>/`` folders: ``config.data_root``, or the pinned label repos downloaded
    into ``config.labels_dir`` (a folder already holding the same repo and commit is not downloaded again).

    Raises:
        ConfigError: a download failed (missing repo or commit, no access); one line naming the variable.
    """
    if config.data_root is not None:
        if not config.data_root.is_dir():
            raise ConfigError(f"MMJUDGE_DATA_ROOT={str(config.data_root)!r}: expected a folder of built "
                              "benchmark folders <id>/")  # fmt: skip
        return config.data_root
    if download is None:
        from huggingface_hub import snapshot_download

        download = snapshot_download
    for source in config.labels:
        target = config.labels_dir / source.benchmark
        stamp = f"{source.repo_id}@{source.revision}"
        if (target / _MARKER).is_file() and (target / _MARKER).read_text(encoding="utf-8") == stamp:
            continue
        try:
            download(repo_id=source.repo_id, repo_type="dataset", revision=source.revision, local_dir=target)
        except Exception as exc:  # any Hub or network failure stops start-up with one line
            reason = " ".join(str(exc).split())[:200]
            raise ConfigError(
                f"{label_variable(source.benchmark)}={stamp}: could not download the {source.benchmark} labels "
                f"({type(exc).__name__}: {reason}); check the repo and commit exist and HF_TOKEN may read them"
            ) from None
        (target / _MARKER).write_text(stamp, encoding="utf-8")
    return config.labels_dir


def check_private(config: SpaceConfig, *, is_private: Callable[[str, str], bool] | None = None) -> None:
    """In private-label mode, refuse a label repo that anyone can read (the Ladder would bound nothing).

    ``is_private(repo_id, revision)`` defaults to ``HfApi().dataset_info(...).private``.

    Raises:
        ConfigError: a label repo is public, or its visibility cannot be read; one line naming the variable.
    """
    if not config.private_labels:
        return
    if is_private is None:
        from huggingface_hub import HfApi

        def is_private(repo_id: str, revision: str) -> bool:
            return bool(HfApi().dataset_info(repo_id, revision=revision).private)

    for source in config.labels:
        try:
            private = is_private(source.repo_id, source.revision)
        except Exception as exc:  # any Hub failure stops start-up with one line
            raise ConfigError(
                f"MMJUDGE_PRIVATE_LABELS=1 but the visibility of {label_variable(source.benchmark)}={source.repo_id} "
                f"could not be read ({type(exc).__name__}); check HF_TOKEN may read it"
            ) from None
        if not private:
            raise ConfigError(
                f"MMJUDGE_PRIVATE_LABELS=1 but {label_variable(source.benchmark)}={source.repo_id} is a public repo: "
                "anyone can read its labels; make the repo private, or unset MMJUDGE_PRIVATE_LABELS"
            )


def open_space(environ: Mapping[str, str], *, download: Download | None = None,
               persistent: Path = Path("/data"),
               is_private: Callable[[str, str], bool] | None = None) -> tuple[Any, Any]:  # fmt: skip
    """Read the configuration, fetch the labels, open the store and build the app: ``(board, app)``."""
    from mmjudge.leaderboard.startup import about_text, open_leaderboard, start_mirror
    from mmjudge.leaderboard.ui import build_app

    config = SpaceConfig.from_env(environ, persistent=persistent)
    check_private(config, is_private=is_private)
    data_root = fetch_labels(config, download=download)
    board = open_leaderboard(
        config.db, data_root=data_root, require_login=config.require_login, admins=config.admins,
        daily_limit=config.daily_limit, max_bytes=int(config.max_mb * 1024 * 1024), demo_output=config.demo_output,
        private_labels=config.private_labels, ladder_margin=config.ladder_margin,
        remote_code=dict(config.remote_code), label_names={source.benchmark: source.repo_id for source in config.labels},
    )  # fmt: skip
    if config.mirror_repo:
        start_mirror(board.store, config.mirror_repo, private_labels=board.settings.private_labels)
    return board, build_app(board, about=about_text())


def start(environ: Mapping[str, str] | None = None) -> tuple[Any, Any]:
    """:func:`open_space` on ``os.environ``; a configuration problem exits with its one line."""
    import os

    try:
        return open_space(os.environ if environ is None else environ)
    except MmjudgeError as exc:
        sys.exit(f"mmjudge space: {exc}")
