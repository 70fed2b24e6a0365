"""The rank and test cells of the significance column, stored per family of rows (migration 7).

A family is the verified rows of one benchmark scored on the same items, ranked together on one key
(:mod:`mmjudge.leaderboard.board.significance`); its cells are stored under a hash of everything they depend on
(the rows and their files, the resamples, the level), so a row added or hidden changes the hash and never
reads cells made for another set of rows.
"""

from __future__ import annotations

import time
from collections.abc import Collection

from mmjudge.leaderboard.store._sql import Connection

__all__ = ["insert_rank_cells", "select_rank_cells"]


def select_rank_cells(
    conn: Connection, benchmark: str, key: str, families: Collection[str]
) -> dict[str, str]:
    """Family hash -> stored cells, for those of ``families`` the store holds."""
    wanted = sorted(set(families))
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    cursor = conn.execute(
        f"SELECT family, cells FROM rank_cells WHERE benchmark = ? AND result_key = ? AND family IN ({marks})",
        (benchmark, key, *wanted),
    )
    return {str(family): str(cells) for family, cells in cursor.fetchall()}


def insert_rank_cells(conn: Connection, benchmark: str, key: str, layout: str, family: str, cells: str, *,
                      latest: bool = False, now: float | None = None) -> None:  # fmt: skip
    """Store one family's cells (kept when already there); ``latest``: drop the layout's other families."""
    if latest:
        conn.execute(
            "DELETE FROM rank_cells WHERE benchmark = ? AND result_key = ? AND layout = ? AND family <> ?",
            (benchmark, key, layout, family),
        )
    conn.execute(
        "INSERT INTO rank_cells (benchmark, result_key, layout, family, cells, created_at) VALUES (?,?,?,?,?,?) "
        "ON CONFLICT (benchmark, result_key, family) DO NOTHING",
        (benchmark, key, layout, family, cells, time.time() if now is None else now),
    )
