"""The leaderboard: store (SQLite or PostgreSQL), submission validation and handling, tables, plots, model-request
queue and its workers, the Space's start-up and build.

No scoring happens here: submissions are scored by :func:`mmjudge.scoring.score_predictions`, the same
core the ``evaluate`` modules call. The Gradio layout is :mod:`mmjudge.leaderboard.ui` (imports gradio);
importing this package does not.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mmjudge.leaderboard.service import LOCAL_USER, Leaderboard
    from mmjudge.leaderboard.settings import Settings
    from mmjudge.leaderboard.store import NewSubmission, Store, StoredSubmission, SubmissionRejected
    from mmjudge.leaderboard.submit import ingest_demo_output
    from mmjudge.leaderboard.table_model import Table, build_table
    from mmjudge.leaderboard.validation import SubmissionMeta, validate_file, validate_meta

_HOMES = {
    "Settings": "settings",
    **dict.fromkeys(("NewSubmission", "Store", "StoredSubmission", "SubmissionRejected"), "store"),
    **dict.fromkeys(("LOCAL_USER", "Leaderboard"), "service"),
    "ingest_demo_output": "submit",
    **dict.fromkeys(("Table", "build_table"), "table_model"),
    **dict.fromkeys(("SubmissionMeta", "validate_file", "validate_meta"), "validation"),
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
