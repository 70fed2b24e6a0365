"""The leaderboard: store (SQLite or PostgreSQL), submission validation and handling, tables, plots, model-request
queue and its workers, the Space's start-up and build.

No scoring happens here: submissions are scored by :func:`mmjudge.scoring.score_predictions`, the same
core the ``evaluate`` modules call. The Gradio layout is :mod:`mmjudge.leaderboard.ui` (imports gradio);
importing this package does not.
"""

from __future__ import annotations

from mmjudge.leaderboard.store import NewSubmission, Store, StoredSubmission, SubmissionRejected
from mmjudge.leaderboard.submit import LOCAL_USER, Leaderboard, Settings, ingest_demo_output
from mmjudge.leaderboard.tables import Table, build_table
from mmjudge.leaderboard.validation import SubmissionMeta, validate_file, validate_meta

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
