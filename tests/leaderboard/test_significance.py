"""The significance column: verified rows against the best one (paired), reported and pre-migration rows."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from mmjudge.comparison import FEW_CLUSTERS, KeyComparison, adjust, compare_units
from mmjudge.leaderboard import NewSubmission, Store
from mmjudge.leaderboard import significance as sig
from mmjudge.leaderboard.reported import reported_rows
from mmjudge.leaderboard.store import MIGRATIONS
from mmjudge.leaderboard.tables import SIGNIFICANCE_HEADER, build_table
from mmjudge.leaderboard.ui import Handlers
from mmjudge.leaderboard.validation import SubmissionMeta


def emorealm_file(rows, answer) -> bytes:
    header = {"record": "header", "schema_version": 1, "benchmark": "emorealm", "judge": "j"}
    lines = [json.dumps(header)] + [
        json.dumps({"id": r["id"], "prediction": answer(k, r)}) for k, r in enumerate(rows)
    ]
    return ("\n".join(lines) + "\n").encode()


def submit(board, data: bytes, model: str):
    return board.submit(data, SubmissionMeta(judge=model, model=model, revision="r", weights="open"), "u")


def column(table) -> dict[int, str]:
    at, key = table.headers.index(SIGNIFICANCE_HEADER), table.headers.index("id")
    return {int(row[key]): row[at] for row in table.values}


@pytest.fixture
def board(board_factory):
    return board_factory(require_login=False, daily_limit=100)


def test_verified_rows_against_the_best_reported_and_old_rows(board, reference) -> None:
    rows = reference["emorealm"]
    best = submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    twin = submit(board, emorealm_file(rows, lambda k, r: f"({r['answer']})"), "oracle-twin")  # same outcomes
    poor = submit(board, emorealm_file(rows, lambda k, r: "Z"), "never")  # every answer wrong
    paper = NewSubmission("emorealm", "reported", "paper judge", "paper/model", "paper", {"overall": 99.0})
    published = [board.store.insert_submission(r) for r in [*reported_rows("emorealm"), paper]]
    old = board.store.insert_submission(  # a verified row as stored before migration 4: no paired data
        NewSubmission("emorealm", "verified", "old", "old", "u", dict(poor.results), sha256="0" * 64)
    )
    cells = column(Handlers(board).table("emorealm"))
    stored = {s.id: s for s in board.store.submissions("emorealm")}
    units = {i: sig.unpack_paired(stored[i].paired)[1]["overall"] for i in (best.id, twin.id, poor.id)}
    few = f" ({len(set(units[best.id].outcomes.clusters))} clusters: optimistic)"  # the sample's videos, under 30
    assert len(set(units[best.id].outcomes.clusters)) < FEW_CLUSTERS
    assert cells[best.id] == "best"
    assert cells[twin.id].startswith("n.s. +0.00 [+0.00, +0.00]") and cells[twin.id].endswith(few)
    assert cells[poor.id].startswith("-100.00 [-100.00, -100.00]") and cells[poor.id].endswith(f" *{few}")
    assert published and all(cells[i] == "published numbers: no pairing" for i in published)
    assert cells[old] == "no per-item data (stored before pairing)"
    # the cells are the comparison core's, Holm-corrected over the rows compared
    direct = adjust([
        compare_units(units[i], units[best.id], values=(stored[i].results["overall"], stored[best.id].results["overall"]),
                      n_resamples=sig.N_RESAMPLES)
        for i in (twin.id, poor.id)
    ])  # fmt: skip
    assert cells[poor.id].endswith(f"p={direct[1].p_adjusted:.3g} *{few}")
    assert direct[0].difference == 0.0 and direct[1].difference == -100.0


@pytest.mark.parametrize("n_clusters", [2, FEW_CLUSTERS - 1, FEW_CLUSTERS, 400])
@pytest.mark.parametrize("p", [0.001, 0.049999, 0.05, 0.7])
def test_a_cell_says_significance_and_few_clusters(n_clusters: int, p: float) -> None:
    """The cell's rule written out: ``*`` when the Holm p is below 0.05, ``n.s.`` otherwise, and a note
    below FEW_CLUSTERS clusters; an undefined comparison shows its own note alone."""
    c = KeyComparison("overall", "row", "best", 40.0, 55.0, -15.0, -21.5, -8.25, p / 2, 10 * n_clusters,
                      n_clusters, sig.N_RESAMPLES, True, p_adjusted=p)  # fmt: skip
    core = f"-15.00 [-21.50, -8.25] p{'<0.001' if p < 0.001 else f'={p:.3g}'}"
    expected = f"{core} *" if p < 0.05 else f"n.s. {core}"
    if n_clusters < 30:
        expected += f" ({n_clusters} clusters: optimistic)"
    assert sig.cell_text(c) == expected
    undefined = KeyComparison("overall", "row", "best", 40.0, 55.0, -15.0, float("nan"), float("nan"),
                              float("nan"), 10, 1, 0, True, note="one cluster: nothing to resample")  # fmt: skip
    assert sig.cell_text(undefined) == "one cluster: nothing to resample"


def test_rows_on_other_items_and_the_cache(board, reference, monkeypatch) -> None:
    rows = reference["emorealm"]
    best = submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    other = submit(board, emorealm_file(rows, lambda k, r: "A" if k % 2 else r["answer"]), "half")
    moved = board.store.insert_submission(NewSubmission(  # paired data made on another dataset
        "emorealm", "verified", "moved", "moved", "u", dict(other.results), sha256="1" * 64,
        paired=sig.pack_paired("emorealm", [{"id": r["id"], "prediction": "A"} for r in rows], rows,
                               dict(other.results), "another-hash"),
    ))  # fmt: skip
    calls = []
    real = sig.compare_units
    monkeypatch.setattr(sig, "compare_units", lambda *a, **k: calls.append(1) or real(*a, **k))
    rows_now = board.store.submissions("emorealm")
    first = sig.significance_cells("emorealm", rows_now)
    again = sig.significance_cells("emorealm", rows_now)
    assert first == again and len(calls) == 1  # the second render reads the cache
    assert first[moved] == "other items" and first[best.id] == "best"


def test_a_table_without_the_column_is_unchanged(board, reference) -> None:
    rows = reference["emorealm"]
    submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    plain = build_table("emorealm", board.store.submissions("emorealm"))
    assert SIGNIFICANCE_HEADER not in plain.headers
    with_column = build_table("emorealm", board.store.submissions("emorealm"), significance=True)
    at = with_column.headers.index(SIGNIFICANCE_HEADER)
    assert with_column.headers[at + 1 : at + 3] == ["Coverage %", "No judgment %"]  # after the scores
    assert with_column.headers[:at] + with_column.headers[at + 1 :] == plain.headers
    assert [r[:at] + r[at + 1 :] for r in with_column.values] == plain.values


def test_a_version_3_sqlite_store_is_migrated_and_its_rows_say_they_have_no_pairing(tmp_path: Path) -> None:
    path = tmp_path / "v3.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(";".join(MIGRATIONS[:3]) + "; PRAGMA user_version = 3;")
        conn.execute(
            "INSERT INTO submissions (benchmark, kind, judge, model, submitter, results, created_at) "
            "VALUES ('emorealm', 'verified', 'j', 'm', 'u', '{\"overall\": 40.0}', 0)"
        )
    store = Store(path)
    assert store.schema_version() == len(MIGRATIONS)
    (row,) = store.submissions()
    assert row.paired == ""
    assert sig.significance_cells("emorealm", [row]) == {row.id: "no per-item data (stored before pairing)"}


def test_paired_data_round_trips_through_both_backends(both_backends: str, reference) -> None:
    rows = reference["emorealm"]
    records = [{"id": r["id"], "prediction": r["answer"]} for r in rows]
    packed = sig.pack_paired("emorealm", records, rows, {"overall": 100.0, "mode": "strict"}, "h")
    store = Store(both_backends)
    row_id = store.insert_submission(NewSubmission("emorealm", "verified", "j", "m", "u", {"overall": 100.0},
                                                   sha256="2" * 64, paired=packed))  # fmt: skip
    stored = store.get_submission(row_id)
    assert stored is not None and stored.paired == packed
    digest, units = sig.unpack_paired(stored.paired)
    assert digest == "h" and np.all(units["overall"].outcomes.column("correct") == 1.0)


def test_bad_paired_text_is_refused() -> None:
    from mmjudge.errors import SchemaError

    with pytest.raises(SchemaError, match="not packed JSON"):
        sig.unpack_paired("not base64 zlib")


def test_a_benchmark_without_pairing_says_so(board, reference, monkeypatch) -> None:
    import dataclasses

    from mmjudge.benchmarks import get_benchmark

    row = submit(board, emorealm_file(reference["emorealm"], lambda k, r: r["answer"]), "oracle")
    spec = get_benchmark("emorealm")
    unpaired = dataclasses.replace(spec, metrics=dataclasses.replace(spec.metrics, outcomes=None))
    monkeypatch.setattr(sig, "get_benchmark", lambda b: unpaired)
    assert sig.significance_cells("emorealm", [row]) == {row.id: "the benchmark declares no pairing"}


def test_the_public_mirror_leaves_the_paired_data_out(board, reference, tmp_path: Path) -> None:
    from mmjudge.leaderboard.mirror import export_public_tables

    row = submit(board, emorealm_file(reference["emorealm"], lambda k, r: r["answer"]), "oracle")
    assert row.paired  # stored, for the significance column only
    submissions, _ = export_public_tables(board.store, tmp_path / "mirror")
    (record,) = [json.loads(line) for line in submissions.read_text().splitlines()]
    assert record["id"] == row.id and "paired" not in record


def test_a_ranking_key_without_pairing_says_so(board, reference) -> None:
    row = submit(board, emorealm_file(reference["emorealm"], lambda k, r: r["answer"]), "oracle")
    cells = sig.significance_cells("emorealm", [row], key="accuracy/modality_agreement")
    assert cells == {row.id: "accuracy/modality_agreement is not compared pairwise"}


def test_unusable_paired_data_is_said_and_the_table_still_builds(board, reference) -> None:
    rows = reference["emorealm"]
    best = submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    garbled = board.store.insert_submission(
        NewSubmission(
            "emorealm", "verified", "g", "g", "u", {"overall": 10.0}, sha256="3" * 64, paired="garbled"
        )
    )
    records = [{"id": r["id"], "prediction": "Z"} for r in rows]  # every answer wrong: 0, not the 55 stored
    off = board.store.insert_submission(NewSubmission(
        "emorealm", "verified", "off", "off", "u", {"overall": 55.0, "mode": "strict"}, sha256="4" * 64,
        paired=sig.pack_paired("emorealm", records, rows, {"overall": 0.0, "mode": "strict"}, board.dataset_hash("emorealm")),
    ))  # fmt: skip
    cells = column(Handlers(board).table("emorealm"))
    assert cells[best.id] == "best"
    assert cells[garbled] == cells[off] == "paired data unusable (see the log)"


def test_paired_data_of_version_1_is_read_as_outcomes() -> None:
    """Rows stored before outcomes keep their significance: version 1's ratio and weighted-F1 data convert."""
    import base64
    import json
    import zlib

    from mmjudge.stats import Ratio, WeightedF1

    keys = {
        "overall": {"key": "overall", "statistic": "ratio", "units": ["a", "b", "c"], "clusters": ["v", "v", "w"],
                    "values": [[1, 1], [0, 1], [1, 1]], "strata": ["t1", "t1", "t2"], "outcomes": [1, 0, 1],
                    "params": {"empty": 0.0}},
        "waf_2class": {"key": "waf_2class", "statistic": "weighted_f1", "units": ["a", "b"], "clusters": ["a", "b"],
                       "values": [[0, 0], [1, 0]], "strata": [], "outcomes": None, "params": {"classes": 2.0}},
    }  # fmt: skip
    text = json.dumps({"version": 1, "dataset_hash": "h", "keys": keys})
    digest, units = sig.unpack_paired(base64.b64encode(zlib.compress(text.encode())).decode())
    assert digest == "h" and isinstance(units["overall"].metric, Ratio) and isinstance(units["waf_2class"].metric, WeightedF1)
    assert units["overall"].value() == 75.0  # (50 + 100) / 2 over the two strata
    assert units["waf_2class"].value() == pytest.approx(100 * 1 / 3)
