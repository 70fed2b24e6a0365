"""The leaderboard, in five layers, lowest first (each a subpackage; ``pyproject.toml``'s import-linter contract
holds the order):

* ``store``: every SQL statement (SQLite or PostgreSQL), migrations, submissions, requests, sessions;
* ``core``: the rules, without gradio: settings (each declared once), validation, the
  :class:`~mmjudge.leaderboard.core.service.Leaderboard` service (submit, request, hide), a row's paired data
  (made when it is stored), the benchmark's board columns, the request queue with its policy and revisions,
  worker heartbeats, and what is never shown (``redaction``);
* ``board``: the board model, without gradio: the :class:`~mmjudge.leaderboard.board.grid.Table` of rows and
  typed columns (a table reads what the store holds), ranking, paired significance and the rank keeper that
  computes and stores the rank cells (and owns the server's caches), facets, plots and exports;
* ``app``: the gradio UI, login, the Space's build and start-up, the Hub mirror;
* ``worker``: the model-request worker (claims a request, runs ``mmjudge eval``, stores the row).

``app`` and ``worker`` never import each other.

No scoring happens here: submissions are scored by :func:`mmjudge.scoring.score_predictions`, the same
core the ``evaluate`` modules call. The Gradio layout is :mod:`mmjudge.leaderboard.app.ui` (imports gradio);
importing this package does not.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mmjudge.leaderboard.board.grid import Table
    from mmjudge.leaderboard.board.table import build_table
    from mmjudge.leaderboard.core.service import LOCAL_USER, Leaderboard
    from mmjudge.leaderboard.core.settings import Settings
    from mmjudge.leaderboard.core.submit import ingest_demo_output
    from mmjudge.leaderboard.core.validation import SubmissionMeta, validate_file, validate_meta
    from mmjudge.leaderboard.store import NewSubmission, Store, StoredSubmission, SubmissionRejected

_HOMES = {
    "Settings": "core.settings",
    **dict.fromkeys(("NewSubmission", "Store", "StoredSubmission", "SubmissionRejected"), "store"),
    **dict.fromkeys(("LOCAL_USER", "Leaderboard"), "core.service"),
    "ingest_demo_output": "core.submit",
    "Table": "board.grid",
    "build_table": "board.table",
    **dict.fromkeys(("SubmissionMeta", "validate_file", "validate_meta"), "core.validation"),
}
"""Public name -> its module; imported on first use, so that a light module of this package (its settings)
imports nothing heavy."""


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'mmjudge.leaderboard' has no attribute {name!r}")
    return getattr(importlib.import_module(f"mmjudge.leaderboard.{_HOMES[name]}"), name)


__all__ = [
    "LOCAL_USER",
    "Leaderboard",
    "NewSubmission",
    "Settings",
    "Store",
    "StoredSubmission",
    "SubmissionMeta",
    "SubmissionRejected",
    "Table",
    "build_table",
    "ingest_demo_output",
    "validate_file",
    "validate_meta",
]
