"""Exports: tables as CSV/JSON, and each verified submission as a ``results.json`` like ``mmjudge eval``'s.

A results file has the runner's layout (:func:`mmjudge.results.write_results`: ``results_version``,
``benchmark``, ``judge``, ``scores`` = the dict of ``mmjudge.benchmarks.<id>.score``, ``provenance`` = the
prediction file's header provenance with its fingerprint and mmjudge version, ``run``); ``run`` says where
the row came from on the leaderboard instead of the run's timings, and where the board ranks it: per view, the
row's rank set and its test against the best row, as the table shows them (:func:`rank_entry`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks import get_benchmark
from mmjudge.estimates import Estimate, score_keys, with_its_interval
from mmjudge.leaderboard.board.facets import row_tier
from mmjudge.leaderboard.board.grid import Role, Table
from mmjudge.leaderboard.core.columns import ranked_column
from mmjudge.leaderboard.store import SUBMITTED, StoredSubmission

__all__ = [
    "FORMULA_START", "csv_text", "public_scores", "rank_entry", "results_record", "write_results_file", "write_table",
]  # fmt: skip


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""First characters a spreadsheet reads as the start of a formula (OWASP CSV injection)."""


def csv_text(value: Any) -> Any:
    """A text cell as a CSV export writes it: prefixed with ``'`` when a spreadsheet would read it as a
    formula (OWASP's advice), else unchanged; numbers stay numbers.

    >>> csv_text("=1+2"), csv_text("-3.1 [-5.0, -1.2]"), csv_text("org/model"), csv_text(-3.1)
    ("'=1+2", "'-3.1 [-5.0, -1.2]", 'org/model', -3.1)
    """
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_START) else value


def write_table(table: Table, path: str | Path) -> Path:
    """Write ``table`` as ``.csv`` or ``.json`` (records), chosen by the suffix (:meth:`Table.export_frame`:
    scores as numbers with their interval ends in columns of their own). In CSV a text cell that a
    spreadsheet would read as a formula is prefixed with ``'`` (:func:`csv_text`); JSON keeps the text.

    >>> import tempfile
    >>> from mmjudge.leaderboard.board.grid import Cell, Role, TableColumn
    >>> t = Table("bench", (TableColumn("#", Role.RANK, "number"), TableColumn("Judge", Role.JUDGE)),
    ...           ((Cell(1, "1"), Cell("=1+1", "=1+1")),))
    >>> write_table(t, Path(tempfile.mkdtemp()) / "t.csv").read_text().splitlines()
    ['#,Judge', "1,'=1+1"]
    """
    path = Path(path)
    frame = table.export_frame()
    if path.suffix == ".csv":
        frame.map(csv_text).to_csv(path, index=False)
    elif path.suffix == ".json":
        path.write_text(frame.to_json(orient="records", indent=1, force_ascii=False), encoding="utf-8")
    else:
        raise ValueError(f"expected a .csv or .json path, got {path.name!r}")
    return path


STORED_METHOD = "not stored with leaderboard rows (the scorer's interval; see the benchmark's metric card)"
"""The method an exported leaderboard row names: the store keeps the scores and CI keys, not how each
interval was made."""


def public_scores(sub: StoredSubmission) -> dict[str, Any]:
    """The scores a stored row publishes: all of them, except for a ``submitted`` row, whose raw counts
    (per-class confusion cells, per-task ``n_correct``: :meth:`mmjudge.benchmarks.Benchmark.metrics.is_count`) are
    left out with their intervals: with them, a few submissions recover gold labels one by one. Rates and
    their intervals stay (as the papers report them)."""
    if sub.tier != SUBMITTED:
        return dict(sub.results)

    spec = get_benchmark(sub.benchmark)
    kept = [k for k in score_keys(sub.results) if not spec.metrics.is_count(k)]
    public: dict[str, Any] = {}
    for key in kept:
        public.update(with_its_interval(sub.results, key))
    return public


def rank_entry(table: Table, row_id: int, view: str) -> dict[str, Any] | None:
    """Where ``table`` (one view of a board built with its rank-set column) ranks row ``row_id``: the rank-set
    cell as shown (``"1–3 †"``, or why there is none), its first and last rank (``None`` without a set), and the
    row's test cell against the best row; ``None`` when the table has no rank-set column or no such row.

    >>> from mmjudge.leaderboard.board.grid import Cell, TableColumn
    >>> t = Table("emorealm", (TableColumn("id", Role.ID, "number"), TableColumn("Rank set (95%)", Role.RANK_SET),
    ...                        TableColumn("vs best (paired)", Role.TEST)),
    ...           ((Cell(7, "7"), Cell(1, "1–2", (1, 2)), Cell("best", "best")),))
    >>> rank_entry(t, 7, "default")
    {'view': 'default', 'key': 'overall', 'rank_set': '1–2', 'low': 1, 'high': 2, 'vs_best': 'best'}
    """
    try:
        ids, sets, tests = (table.cells(role) for role in (Role.ID, Role.RANK_SET, Role.TEST))
    except KeyError:
        return None
    at = next((k for k, cell in enumerate(ids) if cell.value == row_id), None)
    if at is None:
        return None
    bounds = sets[at].interval
    return {"view": view, "key": ranked_column(table.benchmark, view).key, "rank_set": sets[at].text,
            "low": None if bounds is None else int(bounds[0]), "high": None if bounds is None else int(bounds[1]),
            "vs_best": tests[at].text}  # fmt: skip


def results_record(sub: StoredSubmission, ranks: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The results-file content of a stored submission (before ``write_results`` adds date and Python);
    the scores are :func:`public_scores`, the tier the one the table shows (``baseline`` for an operator's
    baseline, which the store keeps as ``run here`` with ``reference_line`` set); ``ranks``: the row's
    :func:`rank_entry` in each view of its board (``run.leaderboard.rank_sets``)."""
    from mmjudge.results import RESULTS_VERSION, estimates_of

    header = dict(sub.header or {})
    provenance = dict(header.get("provenance") or {})
    provenance.setdefault("fingerprint", header.get("fingerprint", ""))
    provenance.setdefault("mmjudge_version", header.get("mmjudge_version", ""))
    leaderboard = {
        "id": sub.id, "kind": sub.kind, "tier": row_tier(sub), "reference_line": sub.reference_line,
        "scored_on": dict(sub.scored_on or {}), "model": sub.model, "revision": sub.revision, "link": sub.link,
        "license": sub.license, "weights": sub.weights, "submitter": sub.submitter,
        "created_at": sub.created_at, "sha256": sub.sha256, "source": sub.source,
        "rank_sets": [dict(r) for r in ranks],
    }  # fmt: skip
    scores = public_scores(sub)
    estimates = estimates_of(sub.benchmark, scores, method=STORED_METHOD)
    return {"results_version": RESULTS_VERSION, "benchmark": sub.benchmark, "judge": sub.judge,
            "scores": scores, "estimates": {k: e.to_json() for k, e in estimates.items()},
            "provenance": provenance, "run": {"leaderboard": leaderboard}}  # fmt: skip


def write_results_file(sub: StoredSubmission, path: str | Path, ranks: Sequence[Mapping[str, Any]] = ()) -> Path:
    """Write the results file of ``sub`` to ``path`` with the runner's writer (NaN -> null, strict JSON);
    ``ranks`` as :func:`results_record` takes them."""
    from mmjudge.results import write_results

    record = results_record(sub, ranks)
    return write_results(
        Path(path),
        record["benchmark"],
        record["judge"],
        record["scores"],
        record["provenance"],
        record["run"],
        estimates={k: Estimate.from_json(v) for k, v in record["estimates"].items()},
    )
