"""Published results shipped as data (``reference/<id>.json``), shown as ``reported`` rows.

Each file holds ``benchmark``, ``rows`` (``judge``, ``model``, ``source``, ``link``, ``results`` with the
score keys of ``mmjudge.benchmarks.<id>``) and ``missing`` (what is not shipped and why). Only numbers
with a source are shipped; they are never mixed with ``verified`` rows scored here.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from mmjudge.leaderboard.store import NewSubmission, Store

__all__ = ["missing_reference", "reference_rows", "seed_reference"]


def _load(benchmark: str) -> dict[str, Any]:
    folder = resources.files("mmjudge.leaderboard") / "reference"
    path = folder / f"{benchmark}.json"
    if not path.is_file():
        return {"benchmark": benchmark, "rows": [], "missing": "no reference file"}
    return dict(json.loads(path.read_text(encoding="utf-8")))


def reference_rows(benchmark: str) -> list[NewSubmission]:
    """The shipped published rows of ``benchmark`` as ``reported`` submissions.

    >>> [(r.judge, r.results["average"]) for r in reference_rows("isovrbench")]
    [('Human', 96.375)]
    """
    return [
        NewSubmission(
            benchmark=benchmark,
            kind="reported",
            judge=row["judge"],
            model=row["model"],
            submitter="paper",
            results=row["results"],
            link=row.get("link", ""),
            source=row["source"],
        )
        for row in _load(benchmark)["rows"]
    ]


def missing_reference(benchmark: str) -> str:
    """What published results are not shipped for ``benchmark`` (empty when none are missing)."""
    return str(_load(benchmark).get("missing", ""))


def seed_reference(store: Store) -> int:
    """Insert the shipped reported rows not yet in the store (by benchmark, judge, source); returns how many."""
    from mmjudge import BENCHMARK_IDS

    existing = {
        (s.benchmark, s.judge, s.source)
        for s in store.submissions(include_hidden=True)
        if s.kind == "reported"
    }
    added = 0
    for benchmark in BENCHMARK_IDS:
        for row in reference_rows(benchmark):
            if (row.benchmark, row.judge, row.source) not in existing:
                store.insert_submission(row)
                added += 1
    return added
