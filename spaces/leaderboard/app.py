"""The mmjudge leaderboard Space: layout from ``mmjudge.leaderboard.ui``, configured by environment variables.

Environment: ``MMJUDGE_DB`` (SQLite store; default ``/data/leaderboard.sqlite`` when the Space has
persistent storage, else the user data dir), ``MMJUDGE_DATA_ROOT`` (built benchmark folders holding the
labels), ``MMJUDGE_ADMINS`` (comma-separated usernames), ``MMJUDGE_DAILY_LIMIT``, ``MMJUDGE_MAX_MB``,
``MMJUDGE_MIRROR_REPO`` (optional Hub dataset mirror of the store), ``MMJUDGE_NO_AUTH=1`` (local only).
"""

from __future__ import annotations

import os
from pathlib import Path

from mmjudge.leaderboard.startup import about_text, open_leaderboard, start_mirror
from mmjudge.leaderboard.ui import build_app


def _db_path() -> Path | None:
    if os.environ.get("MMJUDGE_DB"):
        return Path(os.environ["MMJUDGE_DB"])
    return Path("/data/leaderboard.sqlite") if Path("/data").is_dir() else None


board = open_leaderboard(
    _db_path(),
    data_root=os.environ.get("MMJUDGE_DATA_ROOT") or None,
    require_login=os.environ.get("MMJUDGE_NO_AUTH") != "1",
    admins=[a.strip() for a in os.environ.get("MMJUDGE_ADMINS", "").split(",") if a.strip()],
    daily_limit=int(os.environ.get("MMJUDGE_DAILY_LIMIT", "5")),
    max_bytes=int(float(os.environ.get("MMJUDGE_MAX_MB", "64")) * 1024 * 1024),
    demo_output=os.environ.get("MMJUDGE_DEMO_OUTPUT") or None,
)
if os.environ.get("MMJUDGE_MIRROR_REPO"):
    start_mirror(board.store, os.environ["MMJUDGE_MIRROR_REPO"])
app = build_app(board, about=about_text())
demo = app.blocks  # the Blocks, under the name gradio's reload mode looks for

if __name__ == "__main__":
    app.launch(max_file_size=board.settings.max_bytes)  # closes in order (waits for running handlers)
