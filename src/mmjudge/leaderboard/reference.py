"""Published results shipped as data (``reference/<id>.json``), shown as ``reported`` rows.

Each file holds ``benchmark``, ``citation``, ``link``, ``note`` (which tables the rows come from, and
what is left out and why) and ``rows``. A row names its ``judge``, ``model``, the paper ``tables`` it
comes from and their ``protocol``, and ``results`` under result keys of ``mmjudge.benchmarks.<id>``,
in the scorer's units (percent for rates). A number goes under a key only when the paper's protocol is
the key's: a different pair set or an unstated definition stays out, and the note or the protocol
says so. The numbers are the printed ones (no rounding undone, nothing recomputed); reported rows carry
no CI keys (the papers print none), and EmoPrefer's carry the ``_std`` over rounds the paper prints.
They are never mixed with ``verified`` rows scored here.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from mmjudge.leaderboard.store import NewSubmission, Store, insert_row

__all__ = ["reference_note", "reference_rows", "seed_reference"]

SUBMITTER = "paper"
"""The submitter name of every shipped reported row."""


def _load(benchmark: str) -> dict[str, Any]:
    folder = resources.files("mmjudge.leaderboard") / "reference"
    path = folder / f"{benchmark}.json"
    if not path.is_file():
        return {"benchmark": benchmark, "rows": [], "note": ""}
    return dict(json.loads(path.read_text(encoding="utf-8")))


def _source(data: dict[str, Any], row: dict[str, Any]) -> str:
    return f"{data['citation']}, {row['tables']}. {row['protocol']}"


def reference_rows(benchmark: str) -> list[NewSubmission]:
    """The shipped published rows of ``benchmark`` as ``reported`` submissions.

    >>> rows = reference_rows("isovrbench")
    >>> len(rows), rows[0].judge, rows[0].results["average"], rows[0].source[:49]
    (11, 'VideoReward', 73.3, 'Li et al. 2026, IsoVRBench: Video Reward Modeling')
    >>> "Table 2: accuracy (%) over the 1,000 pairs of each intervention, ties and no-judgments wrong" in rows[0].source
    True
    """
    data = _load(benchmark)
    return [
        NewSubmission(
            benchmark=benchmark,
            kind="reported",
            judge=row["judge"],
            model=row["model"],
            submitter=SUBMITTER,
            results=row["results"],
            link=row.get("link", data.get("link", "")),
            source=_source(data, row),
        )
        for row in data["rows"]
    ]


def reference_note(benchmark: str) -> str:
    """Which published tables the reported rows of ``benchmark`` come from, and what is left out and why."""
    return str(_load(benchmark).get("note", ""))


def seed_reference(store: Store) -> int:
    """Insert the shipped reported rows not yet in the store (by benchmark, judge, source); returns how many.

    Reported rows of earlier versions of the shipped files (submitter ``paper``, no longer shipped) are
    hidden, not deleted, so a store created before the files changed shows the current rows only. All of
    it is one serialized transaction, so the Space and workers opening a new shared store at once add
    each row once.
    """
    from mmjudge import BENCHMARK_IDS

    shipped = {(r.benchmark, r.judge, r.source): r for b in BENCHMARK_IDS for r in reference_rows(b)}
    with store.transaction() as conn:  # one serialized transaction: processes opening a new store seed it once
        found = conn.execute(
            "SELECT id, benchmark, judge, source, submitter, hidden FROM submissions WHERE kind = 'reported'"
        ).fetchall()
        existing = set()
        for row_id, benchmark, judge, source, submitter, hidden in found:
            key = (benchmark, judge, source)
            existing.add(key)
            if submitter == SUBMITTER and key not in shipped and not hidden:
                conn.execute("UPDATE submissions SET hidden = 1 WHERE id = ?", (row_id,))
        missing = [row for key, row in shipped.items() if key not in existing]
        for row in missing:
            insert_row(conn, row)
    return len(missing)
