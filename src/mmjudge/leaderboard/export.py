"""Exports: tables as CSV/JSON, and each verified submission as a results file like ``mmjudge eval`` writes.

A results file holds the benchmark, the judge, the score dict of ``mmjudge.benchmarks.<id>.score`` under
``scores`` and the prediction file's header (fingerprint, versions, provenance) under ``provenance``,
plus where the row came from on the leaderboard.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mmjudge.leaderboard.store import StoredSubmission
from mmjudge.leaderboard.tables import Table

__all__ = ["results_record", "write_results_file", "write_table"]


def write_table(table: Table, path: str | Path) -> Path:
    """Write ``table``'s raw values as ``.csv`` or ``.json`` (records), chosen by the suffix.

    >>> import tempfile
    >>> t = Table("emoprefer", ["#", "Judge"], [[1, "j"]], [["1", "j"]], ["number", "str"])
    >>> write_table(t, Path(tempfile.mkdtemp()) / "t.csv").read_text().splitlines()
    ['#,Judge', '1,j']
    """
    path = Path(path)
    frame = table.frame()
    if path.suffix == ".csv":
        frame.to_csv(path, index=False)
    elif path.suffix == ".json":
        path.write_text(frame.to_json(orient="records", indent=1, force_ascii=False), encoding="utf-8")
    else:
        raise ValueError(f"expected a .csv or .json path, got {path.name!r}")
    return path


def results_record(sub: StoredSubmission) -> dict[str, Any]:
    """The results-file content of a stored submission."""
    header = dict(sub.header or {})
    return {
        "benchmark": sub.benchmark,
        "judge": sub.judge,
        "fingerprint": header.get("fingerprint", ""),
        "mmjudge_version": header.get("mmjudge_version", ""),
        "scores": dict(sub.results),
        "provenance": header.get("provenance", {}),
        "leaderboard": {
            "id": sub.id, "kind": sub.kind, "model": sub.model, "revision": sub.revision, "link": sub.link,
            "license": sub.license, "weights": sub.weights, "submitter": sub.submitter,
            "created_at": sub.created_at, "sha256": sub.sha256, "source": sub.source,
        },
    }  # fmt: skip


def write_results_file(sub: StoredSubmission, path: str | Path) -> Path:
    """Write :func:`results_record` of ``sub`` as JSON to ``path``."""
    path = Path(path)
    path.write_text(json.dumps(results_record(sub), indent=2, allow_nan=True) + "\n", encoding="utf-8")
    return path
