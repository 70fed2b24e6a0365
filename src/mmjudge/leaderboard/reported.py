"""Published results shipped with each benchmark (``reported.json`` in its package), shown as ``reported`` rows.

Each file holds ``benchmark``, ``citation``, ``link``, ``note`` (which tables the rows come from, and
what is left out and why) and ``rows``. A row names its ``judge``, ``model``, the paper ``tables`` it
comes from and their ``protocol``, and ``results`` under the benchmark's result keys, in the scorer's
units (percent for rates). A number goes under a key only when the paper's protocol is the key's: a
different pair set or an unstated definition stays out, and the note or the protocol says so. The
numbers are the printed ones (no rounding undone, nothing recomputed); reported rows carry no CI keys
(the papers print none), and some carry the ``_std`` over rounds their paper prints. They are never
mixed with ``verified`` rows scored here.
"""

from __future__ import annotations

from typing import Any

from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.leaderboard.store import NewSubmission, Store

__all__ = ["reported_note", "reported_rows", "seed_reported"]

SUBMITTER = "paper"
"""The submitter name of every shipped reported row."""


def _load(benchmark: str) -> dict[str, Any]:
    data = get_benchmark(benchmark).reported()
    return data if data else {"benchmark": benchmark, "rows": [], "note": ""}


def _source(data: dict[str, Any], row: dict[str, Any]) -> str:
    return f"{data['citation']}, {row['tables']}. {row['protocol']}"


def reported_rows(benchmark: str) -> list[NewSubmission]:
    """The shipped published rows of ``benchmark`` as ``reported`` submissions."""
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


def reported_note(benchmark: str) -> str:
    """Which published tables the reported rows of ``benchmark`` come from, and what is left out and why."""
    return str(_load(benchmark).get("note", ""))


def seed_reported(store: Store) -> int:
    """Insert the shipped reported rows not yet in the store (by benchmark, judge, source); returns how many.

    Reported rows of earlier versions of the shipped files (submitter ``paper``, no longer shipped) are
    hidden, not deleted, so a store created before the files changed shows the current rows only.
    """
    shipped = {(r.benchmark, r.judge, r.source): r for b in benchmark_ids() for r in reported_rows(b)}
    existing = set()
    for sub in store.submissions(include_hidden=True):
        if sub.kind != "reported":
            continue
        key = (sub.benchmark, sub.judge, sub.source)
        existing.add(key)
        if sub.submitter == SUBMITTER and key not in shipped and not sub.hidden:
            store.set_hidden(sub.id)
    added = 0
    for key, row in shipped.items():
        if key not in existing:
            store.insert_submission(row)
            added += 1
    return added
