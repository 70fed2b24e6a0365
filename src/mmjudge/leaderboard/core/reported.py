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
from mmjudge.leaderboard.store import PUBLISHED, NewSubmission, Store, sync_reported

__all__ = ["published_set", "reported_note", "reported_rows", "seed_reported"]

SUBMITTER = "paper"
"""The submitter name of every shipped reported row."""


def published_set(benchmark: str) -> dict[str, Any]:
    """The set every published row of ``benchmark`` was scored on: the paper's own test set, as printed.

    The store cannot check that a paper's set is the one this server holds, so published rows are ranked
    among themselves (and with rows scored on this same set), never against rows scored on the server's labels.

    >>> published_set("mist")
    {'dataset': 'mist as published', 'revision': 'paper', 'units': None}
    """
    return {"dataset": f"{benchmark} as published", "revision": "paper", "units": None}


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
            tier=PUBLISHED,
            scored_on=published_set(benchmark),
        )
        for row in data["rows"]
    ]


def reported_note(benchmark: str) -> str:
    """Which published tables the reported rows of ``benchmark`` come from, and what is left out and why."""
    return str(_load(benchmark).get("note", ""))


def seed_reported(store: Store) -> int:
    """Insert the shipped reported rows not yet in the store (by benchmark, judge, source); returns how many.

    Reported rows of earlier versions of the shipped files (submitter ``paper``, no longer shipped) are
    hidden, not deleted, so a store created before the files changed shows the current rows only. All of
    it is one serialized transaction, so the Space and workers opening a new shared store at once add
    each row once.
    """
    shipped = {(r.benchmark, r.judge, r.source): r for b in benchmark_ids() for r in reported_rows(b)}
    return sync_reported(store, shipped, SUBMITTER)
