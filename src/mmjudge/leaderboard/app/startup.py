"""Starting a leaderboard: the store at its default path, reported rows, baseline demo rows, mirroring.

Mirroring (off by default): with ``mirror_repo`` set, the store's public tables are exported (one
consistent snapshot, either backend) into a folder that ``huggingface_hub.CommitScheduler`` pushes to
that Hub dataset repo every ``mirror_every_min`` minutes (:mod:`mmjudge.leaderboard.app.mirror`). It needs
a write token in the environment (``HF_TOKEN``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mmjudge._configs import validated
from mmjudge.benchmarks import benchmark_ids
from mmjudge.errors import MissingFileError
from mmjudge.judges.coverage import coverage_markdown
from mmjudge.leaderboard.app import mirror
from mmjudge.leaderboard.board.ranks import InlineRanks, RankRefresher
from mmjudge.leaderboard.core.reported import seed_reported
from mmjudge.leaderboard.core.revisions import hub_commit
from mmjudge.leaderboard.core.service import Leaderboard
from mmjudge.leaderboard.core.settings import Settings, default
from mmjudge.leaderboard.core.submit import ingest_demo_output
from mmjudge.leaderboard.store import Store

__all__ = ["about_text", "check_data_root", "default_data_root", "default_db_path", "open_leaderboard", "start_mirror"]

logger = logging.getLogger(__name__)


def default_db_path() -> Path:
    """``<user data dir>/mmjudge/leaderboard.sqlite`` (``platformdirs``)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("mmjudge")) / "leaderboard.sqlite"


def default_data_root(data_root: str | Path | None, demo_output: str | Path | None) -> Path | None:
    """``data_root`` if given (checked by :func:`check_data_root`), else ``<demo_output>/sample-data`` when
    ``mmjudge demo`` wrote it, else ``None``.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = (root / "mist").mkdir(), (root / "mist" / "README.md").write_text("card")
    >>> default_data_root(root, "demo-output") == root
    True
    """
    if data_root is not None:
        return check_data_root(data_root)
    if demo_output is not None and (Path(demo_output) / "sample-data").is_dir():
        return Path(demo_output) / "sample-data"
    return None


def check_data_root(data_root: str | Path) -> Path:
    """``data_root`` as a path, refused unless it holds at least one built benchmark folder ``<id>/README.md``.

    A board on a root without labels would start, skip every baseline and score no submission, so the
    command stops before serving and says which folders it looked for and how to make them.

    >>> check_data_root("no-such-folder")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mmjudge.errors.MissingFileError: --data-root 'no-such-folder' does not exist: expected a folder holding built benchmark folders (isovrbench/, mist/, ..., each with its README.md); make one with `mmjudge sample-data --out no-such-folder` or ...
    """
    root = Path(data_root)
    ids = benchmark_ids()
    if any((root / b / "README.md").is_file() for b in ids):
        return root
    expected = ", ".join(f"{b}/" for b in ids)
    found = "does not exist" if not root.exists() else (
        "is not a folder" if not root.is_dir() else "holds no built benchmark folder"
    )  # fmt: skip
    todo = (
        f"{root / 'sample-data'} looks like one: pass that" if (root / "sample-data").is_dir() else
        f"make one with `mmjudge sample-data --out {root}` or `mmjudge build-dataset <id> ...`, or pass "
        "demo-output/sample-data after `make demo`"
    )  # fmt: skip
    raise MissingFileError(
        f"--data-root {str(root)!r} {found}: expected a folder holding built benchmark folders ({expected}, each "
        f"with its README.md); {todo}"
    )


def about_text() -> str:
    """The About tab: the Markdown shipped with the package, then the judges the papers evaluate and which
    of them run here (:func:`mmjudge.judges.coverage.coverage_markdown`, the table the README shows)."""
    from importlib import resources

    about = (resources.files("mmjudge.leaderboard.app") / "about.md").read_text(encoding="utf-8")
    return f"{about.rstrip()}\n\n## Judges the papers evaluate\n\n{coverage_markdown()}"


def open_leaderboard(db: str | Path | None = None, *, data_root: str | Path | None = None,
                     admins: Iterable[str] = (), demo_output: str | Path | None = None,
                     server_options: Mapping[str, Mapping[str, Any]] | None = None,
                     label_names: Mapping[str, str] | None = None, pin_revisions: bool | None = None,
                     rank_cells: str = "background", **settings: Any) -> Leaderboard:  # fmt: skip
    """Open (or create) the store, add the shipped reported rows and, when given, the demo baselines.

    ``db`` is an SQLite file path or a ``postgresql://`` URL (default: :func:`default_db_path`).
    ``data_root``, ``admins``, ``server_options`` and ``label_names`` are the :class:`Settings` of the same
    names in looser types; ``settings`` are further :class:`Settings` (``require_login``, ``daily_limit``,
    ``max_bytes``, ``max_attempts``, ``private_labels``, ``ladder_margin``), validated with their defaults.
    ``pin_revisions``: model requests are queued at the commit the Hub says their revision names
    (:mod:`mmjudge.leaderboard.core.revisions`); default: when login is required (a served leaderboard, which
    reaches the Hub for its login anyway), not in the local no-login mode.
    ``rank_cells``: when a stored or hidden row's board gets its rank cells stored: ``"background"`` (a thread,
    :class:`~mmjudge.leaderboard.board.ranks.RankRefresher`: a submission does not wait for them; a server) or
    ``"inline"`` (:class:`~mmjudge.leaderboard.board.ranks.InlineRanks`; the worker).

    >>> import tempfile
    >>> board = open_leaderboard(Path(tempfile.mkdtemp()) / "lb.sqlite", require_login=False)
    >>> all(s.kind == "reported" for s in board.store.submissions())
    True
    """
    login = settings.get("require_login", default("require_login"))
    policy: Settings = validated(Settings, {
        **settings, "data_root": None if data_root is None else Path(data_root), "admins": frozenset(admins),
        "server_options": {k: dict(v) for k, v in (server_options or {}).items() if v},
        "label_names": dict(label_names or {}),
        "resolve_revision": hub_commit if (login if pin_revisions is None else pin_revisions) else None,
    }, "open_leaderboard")  # fmt: skip
    if rank_cells not in ("background", "inline"):
        raise ValueError(f"rank_cells must be 'background' or 'inline', got {rank_cells!r}")
    store = Store(db or default_db_path())
    seed_reported(store)
    keeper = RankRefresher if rank_cells == "background" else InlineRanks
    board = Leaderboard(store, policy, on_change=keeper(store, private=policy.private_labels))
    if demo_output is not None and Path(demo_output).is_dir():
        for line in ingest_demo_output(board, demo_output):
            logger.info("demo baselines: %s", line)
    return board


def start_mirror(store: Store, repo_id: str, *, every_min: float = 10.0, private_labels: bool = False) -> Any:
    """Mirror the store's public tables to the Hub dataset ``repo_id`` (returns the ``CommitScheduler``);
    ``private_labels``: the board's mode (a submitted row is mirrored with its Ladder score only)."""
    return mirror.start_mirror(store, repo_id, every_min=every_min, private_labels=private_labels)
