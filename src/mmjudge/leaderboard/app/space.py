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

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmjudge._configs import config_dataclass
from mmjudge.benchmarks import benchmark_ids
from mmjudge.errors import ConfigError, MmjudgeError
from mmjudge.leaderboard.app.auth import check_no_auth
from mmjudge.leaderboard.app.startup import about_text, open_leaderboard, start_mirror
from mmjudge.leaderboard.core.login_settings import VARIABLES as AUTH_VARIABLES
from mmjudge.leaderboard.core.redaction import SECRETS
from mmjudge.leaderboard.core.setting_kinds import COMMIT, REPO, Names
from mmjudge.leaderboard.core.settings import SETTINGS, board_settings, from_environment

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

VARIABLES: dict[str, str] = {
    "MMJUDGE_BENCHMARKS": "comma-separated benchmarks to serve (default: all four)",
    "MMJUDGE_LABELS_<ID>": "Hub dataset repo with the labels of benchmark <ID> at a pinned commit: "
    "org/name@<40-hex commit> (one per served benchmark)",
    "MMJUDGE_LABELS_DIR": "where the labels are downloaded (default /data/mmjudge-labels with persistent "
    "storage, else the user cache)",
    **{s.variable: s.help for s in SETTINGS if s.variable is not None},
    **AUTH_VARIABLES,
}
"""Every environment variable the Space app reads, with its meaning: its label sources, every setting of
:data:`~mmjudge.leaderboard.core.settings.SETTINGS` with a variable, and the login's (read only off a Space)."""


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
        if not REPO.fullmatch(repo_id):
            raise ConfigError(f"{name}={value!r}: expected org/name@<40-hex commit> of a Hub dataset repo")
        if not COMMIT.fullmatch(revision):
            raise ConfigError(
                f"{name}={value!r} is not pinned: expected org/name@<40-hex commit> (a branch or tag can move; "
                "take the commit from the repo's history or `mmjudge push-dataset` output)"
            )
        return cls(benchmark, repo_id, revision)


@config_dataclass
class SpaceConfig:
    """The Space's settings, read from the environment by :meth:`from_env`."""

    settings: Mapping[str, Any] = field(default_factory=dict)
    """``{name: value}`` of every setting of :data:`~mmjudge.leaderboard.core.settings.SETTINGS` with a variable
    (set, or its default; ``db`` defaults to the persistent storage's SQLite file)."""
    labels: tuple[LabelSource, ...] = ()
    """The pinned label repos, one per served benchmark (none with ``MMJUDGE_DATA_ROOT``)."""
    labels_dir: Path = Path("labels")
    """Where :func:`fetch_labels` downloads them."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str], *, persistent: Path = Path("/data")) -> SpaceConfig:
        """Read and check every variable of :data:`VARIABLES`; raises :class:`ConfigError` with one line
        naming each problem.

        >>> SpaceConfig.from_env({"MMJUDGE_BENCHMARKS": "mist"}, persistent=Path("/nonexistent"))
        Traceback (most recent call last):
        ...
        mmjudge.errors.ConfigError: MMJUDGE_LABELS_MIST is not set: expected the Hub dataset repo holding the mist labels at a pinned commit, org/name@<40-hex commit> (or set MMJUDGE_DATA_ROOT to a folder of built benchmark folders for a local run)
        """
        env = {k: v.strip() for k, v in environ.items() if k.startswith("MMJUDGE_") and v.strip()}
        problems: list[str] = []
        settings = from_environment(env, problems)
        served = _served(env.get("MMJUDGE_BENCHMARKS"), problems)
        labels = () if settings["data_root"] is not None else _label_sources(env, served, problems)
        if problems:
            raise ConfigError("; ".join(problems))
        on_space = persistent.is_dir()
        default_labels = persistent / "mmjudge-labels" if on_space else _cache_dir() / "labels"
        if settings["db"] is None and on_space:
            settings["db"] = str(persistent / "leaderboard.sqlite")
        return cls(settings=settings, labels=labels, labels_dir=Path(env.get("MMJUDGE_LABELS_DIR", str(default_labels))))


def _served(value: str | None, problems: list[str]) -> list[str]:
    """The known benchmark ids ``MMJUDGE_BENCHMARKS`` names (default: every registered one).

    >>> problems = []; _served("mist, imagenet", problems), problems  # doctest: +ELLIPSIS
    (['mist'], ["MMJUDGE_BENCHMARKS='mist, imagenet': expected ids among isovrbench, ..."])
    """

    known = benchmark_ids()
    served = Names().from_text(",".join(known) if value is None else value, "MMJUDGE_BENCHMARKS")
    if not served or any(b not in known for b in served):
        problems.append(f"MMJUDGE_BENCHMARKS={value or ''!r}: expected ids among {', '.join(known)}")
    return [b for b in served if b in known]


def _label_sources(env: Mapping[str, str], served: list[str], problems: list[str]) -> tuple[LabelSource, ...]:
    """The pinned label repo of each served benchmark (each problem appended to ``problems``)."""
    labels = []
    for benchmark in served:
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
    return tuple(labels)


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
    data_root = config.settings.get("data_root")
    if data_root is not None:
        if not Path(data_root).is_dir():
            raise ConfigError(f"MMJUDGE_DATA_ROOT={str(data_root)!r}: expected a folder of built "
                              "benchmark folders <id>/")  # fmt: skip
        return Path(data_root)
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
    if not config.settings.get("private_labels"):
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
    from mmjudge.leaderboard.app.ui import build_app

    config = SpaceConfig.from_env(environ, persistent=persistent)
    check_no_auth(config.settings["require_login"], config.settings["no_auth_on_space"], environ)
    check_private(config, is_private=is_private)
    data_root = fetch_labels(config, download=download)
    board = open_leaderboard(
        config.settings["db"], demo_output=config.settings["demo_output"],
        **{**board_settings(config.settings), "data_root": data_root},
        label_names={source.benchmark: source.repo_id for source in config.labels},
    )  # fmt: skip
    if config.settings["mirror_repo"]:
        start_mirror(board.store, config.settings["mirror_repo"], private_labels=board.settings.private_labels)
    return board, build_app(board, about=about_text())


def start(environ: Mapping[str, str] | None = None) -> tuple[Any, Any]:
    """:func:`open_space` on ``os.environ``; a configuration problem exits with its one line."""
    import os

    try:
        return open_space(os.environ if environ is None else environ)
    except MmjudgeError as exc:
        sys.exit(f"mmjudge space: {exc}")
