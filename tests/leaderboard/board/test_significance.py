"""The rank-set and test columns: verified rows ranked together (paired, simultaneous), reported and older rows."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import numpy as np
import pytest

from mmjudge.estimates import FEW_CLUSTERS, MIN_CLUSTERS
from mmjudge.leaderboard import NewSubmission, Store
from mmjudge.leaderboard.app.ui import Handlers
from mmjudge.leaderboard.board import significance as sig
from mmjudge.leaderboard.board.ranks import InlineRanks, store_ranks
from mmjudge.leaderboard.board.table import RANK_SET_HEADER, SIGNIFICANCE_HEADER, TOP_ROW_NOTE, build_table
from mmjudge.leaderboard.core.pairing import pack_paired, pairing_of, unpack_paired
from mmjudge.leaderboard.core.reported import reported_rows
from mmjudge.leaderboard.core.validation import SubmissionMeta
from mmjudge.leaderboard.store import MIGRATIONS
from mmjudge.results import estimates_of
from mmjudge.stats import KeyOutcomes, Outcomes, Ratio, rank_sets


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


def ranks_of(table) -> dict[int, str]:
    at, key = table.headers.index(RANK_SET_HEADER), table.headers.index("id")
    return {int(row[key]): shown[at] for row, shown in zip(table.values, table.display, strict=True)}


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_verified_rows_get_rank_sets_and_reported_and_old_rows_say_why_not(board, reference) -> None:
    rows = reference["emorealm"]
    best = submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    twin = submit(board, emorealm_file(rows, lambda k, r: f"({r['answer']})"), "oracle-twin")  # same outcomes
    some = submit(board, emorealm_file(rows, lambda k, r: r["answer"] if k % 3 else "Z"), "some")  # a third wrong
    poor = submit(board, emorealm_file(rows, lambda k, r: "Z"), "never")  # every answer wrong
    paper = NewSubmission("emorealm", "reported", "paper judge", "paper/model", "paper", {"overall": 99.0})
    published = [board.store.insert_submission(r) for r in [*reported_rows("emorealm"), paper]]
    old = board.store.insert_submission(  # a verified row as stored before migration 4: no paired data
        NewSubmission("emorealm", "verified", "old", "old", "u", dict(poor.results), sha256="0" * 64)
    )
    table = Handlers(board).table("emorealm")
    cells, sets = column(table), ranks_of(table)
    stored = {s.id: s for s in board.store.submissions("emorealm")}
    family = (best.id, twin.id, some.id, poor.id)
    units = [unpack_paired(stored[i].paired)[1]["overall"] for i in family]
    n_clusters = units[0].outcomes.n_clusters  # the sample's clips: enough for rank sets, too few not to be thin
    assert MIN_CLUSTERS <= n_clusters < FEW_CLUSTERS
    # the cells are rank_sets' over the family (rows in id order, the board's resamples and seed)
    direct = rank_sets(units, n_resamples=sig.N_RESAMPLES, seed=0)
    assert [sets[i] for i in family] == [f"{s.text()} †" for s in direct.sets]
    assert sets[best.id] == sets[twin.id] == "1–3 †" and sets[some.id] == "1–3 †" and sets[poor.id] == "4 †"
    assert cells[best.id] == "best †"
    assert cells[twin.id] == "n.s. +0.00 [+0.00, +0.00] †"  # the same outcomes: the same value on every resample
    assert cells[poor.id] == "-100.00 [-100.00, -100.00] * †"  # wrong wherever the best is right
    difference, low, high = direct.interval(2, 0)
    star = " *" if direct.worse_than_best(2) else ""
    assert cells[some.id] == f"{'' if star else 'n.s. '}{difference:+.2f} [{low:+.2f}, {high:+.2f}]{star} †"
    assert low < difference < high and direct.critical > 1.96  # a real interval, wider than a lone pair's
    assert published and all(cells[i] == "published numbers: no pairing" and sets[i] == "—" for i in published)
    assert cells[old] == "no per-item data (stored before pairing)" and sets[old] == "—"
    assert f"thin: {n_clusters} clips (under 30)" in table.caption and direct.method in table.caption
    assert TOP_ROW_NOTE in table.caption  # the best row's own interval is not adjusted for being the highest


def _packed(outcomes: Outcomes, digest: str = "h") -> str:
    """Paired data of one synthetic ``overall`` (version 3, no estimates)."""
    import base64
    import zlib

    data = KeyOutcomes("overall", outcomes, Ratio("hit", "one")).to_json()
    text = json.dumps({"version": 3, "dataset_hash": digest, "keys": {"overall": data}, "estimates": {}})
    return base64.b64encode(zlib.compress(text.encode())).decode()


def _rows(n_clusters: int, hits: list[list[float]]) -> list[sig.StoredSubmission]:
    """Verified rows of emorealm whose ``overall`` is the rate of ``hits`` on units spread over ``n_clusters``
    clips (the stored score is the outcomes' own)."""
    n = len(hits[0])
    units = tuple(f"q{u}" for u in range(n))
    clips = tuple(f"c{u % n_clusters}" for u in range(n))
    out = []
    for k, h in enumerate(hits):
        outcomes = Outcomes(units, clips, {"hit": np.asarray(h), "one": np.ones(n)}, cluster_name="clip")
        value = KeyOutcomes("overall", outcomes, Ratio("hit", "one")).value()
        out.append(sig.StoredSubmission("emorealm", "verified", f"j{k}", f"m{k}", "u", {"overall": value},
                                        sha256=f"{n_clusters}-{k}", paired=_packed(outcomes), id=k + 1))  # fmt: skip
    return out


@pytest.mark.parametrize("n_clusters", [MIN_CLUSTERS - 1, MIN_CLUSTERS, MIN_CLUSTERS + 1, FEW_CLUSTERS - 1, FEW_CLUSTERS, 60])
def test_few_clusters_give_no_rank_set_or_a_thin_one(n_clusters: int) -> None:
    """The rule written out: fewer than MIN_CLUSTERS shared clusters, or so few that no test can reach p < 0.05
    (5: the exact sign-flip floor 2 / 2^5), no rank set and no test (the cells say why); under FEW_CLUSTERS, both cells end with the thin mark; a row wrong wherever the best is right is
    significantly worse, an equal one is not."""
    n = 4 * n_clusters
    good = [1.0] * n
    rows = _rows(n_clusters, [good, good, [0.0] * n])
    got = sig.board_ranks("emorealm", rows)
    if n_clusters <= MIN_CLUSTERS:
        why = (f"{n_clusters} clips (at least {MIN_CLUSTERS} needed)" if n_clusters < MIN_CLUSTERS
               else f"{n_clusters} clips (no test at this size can reach p < 0.05)")  # fmt: skip
        assert {r.rank_text for r in got.values()} == {f"no rank set: {why}"}
        assert {r.cell for r in got.values()} == {f"no test: {why}"}
        return
    mark = " †" if n_clusters < FEW_CLUSTERS else ""
    assert [got[i].rank_text for i in (1, 2, 3)] == [f"1–2{mark}", f"1–2{mark}", f"3{mark}"]
    assert [got[i].cell for i in (1, 2, 3)] == [f"best{mark}", f"n.s. +0.00 [+0.00, +0.00]{mark}",
                                                f"-100.00 [-100.00, -100.00] *{mark}"]  # fmt: skip
    assert got[1].thin == (f"thin: {n_clusters} clips (under 30)" if mark else "")


def test_five_clips_get_no_star_as_compare_says(board, reference) -> None:
    """On the sample's 5 clips ``mmjudge compare`` says no test can reach p < 0.05 and gives no star; the board
    gave the other rows stars with intervals excluding 0. Now both read one rule: no rank set, no star."""
    from mmjudge.comparison import compare_units

    rows = reference["emorealm"]
    best = submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    some = submit(board, emorealm_file(rows, lambda k, r: r["answer"] if k % 3 else "Z"), "some")
    poor = submit(board, emorealm_file(rows, lambda k, r: "Z"), "never")
    cells, sets = column(Handlers(board).table("emorealm")), ranks_of(Handlers(board).table("emorealm"))
    stored = {s.id: s for s in board.store.submissions("emorealm")}
    units = {i: unpack_paired(stored[i].paired)[1]["overall"] for i in (best.id, some.id, poor.id)}
    for row in (some.id, poor.id):
        c = compare_units(units[row], units[best.id])
        assert not c.significant(0.05) and "no test at this size can reach p < 0.05" in c.note
        assert "*" not in cells[row] and cells[row].startswith("no test: 5 clips")
        assert sets[row].startswith("no rank set: 5 clips")


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_the_difference_interval_stays_within_what_two_rates_can_differ() -> None:
    """On 5 clips a row wrong on all but one question sits 90 points below the best: its simultaneous interval
    (difference +- critical x sd) reaches past -100, a difference no two 0-100 scores can have, so the cell
    clips it there; the star is unchanged (clipping never crosses 0)."""
    n = 4 * MIN_CLUSTERS
    good, bad = [1.0] * n, [0.0] * n
    good[5], bad[0] = 0.0, 1.0
    rows = _rows(MIN_CLUSTERS, [good, bad])
    units, clips = tuple(f"q{u}" for u in range(n)), tuple(f"c{u % MIN_CLUSTERS}" for u in range(n))
    judges = [KeyOutcomes("overall", Outcomes(units, clips, {"hit": np.asarray(h), "one": np.ones(n)},
                                              cluster_name="clip"), Ratio("hit", "one")) for h in (good, bad)]  # fmt: skip
    difference, low, high = rank_sets(judges, n_resamples=sig.N_RESAMPLES, seed=0).interval(1, 0)
    assert low < -100.0 < difference < high < 0.0  # the unclipped interval
    cell = sig.board_ranks("emorealm", rows)[2].cell
    assert cell == f"-90.00 [-100.00, {high:.2f}] * †"


def test_every_paired_key_is_a_0_to_100_score() -> None:
    """What :data:`mmjudge.estimates.DIFFERENCE_RANGE` (``mmjudge compare``'s Wilson bound, the board's vs-best cell)
    rest on: every key a benchmark compares pairwise documents a 0-100 range. A benchmark with another kind of
    paired key fails here, to give the board its range first."""
    from mmjudge.benchmarks import benchmark_ids, get_benchmark

    for benchmark in benchmark_ids():
        metrics = get_benchmark(benchmark).metrics
        assert metrics.paired_keys, benchmark
        for key in metrics.paired_keys:
            assert "0-100" in metrics.result_key(key).description, (benchmark, key)


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_rows_on_other_items_and_the_cache(board, reference, monkeypatch) -> None:
    rows = reference["emorealm"]
    best = submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    other = submit(board, emorealm_file(rows, lambda k, r: "A" if k % 2 else r["answer"]), "half")
    packed = pack_paired("emorealm", [{"id": r["id"], "prediction": "A" if k % 2 else r["answer"]}
                                      for k, r in enumerate(rows)], rows, dict(other.results), "another-hash")  # fmt: skip
    moved = board.store.insert_submission(NewSubmission(  # paired data made on another dataset
        "emorealm", "verified", "moved", "moved", "u", dict(other.results), sha256="1" * 64, paired=packed,
        pairing=pairing_of(packed, dict(other.results)),
    ))  # fmt: skip
    calls = []
    real = sig.rank_sets
    monkeypatch.setattr(sig, "rank_sets", lambda *a, **k: calls.append(1) or real(*a, **k))
    rows_now = board.store.submissions("emorealm")
    keeper = InlineRanks(board.store)  # a fresh server's
    first = keeper.ranks("emorealm", rows_now, "overall")
    again = keeper.ranks("emorealm", rows_now, "overall")
    # the family's cells were made when its rows were stored: neither read computes them
    assert first == again and len(calls) == 0 and len(keeper.cache.families) == 1
    assert first == sig.board_ranks("emorealm", rows_now) and len(calls) == 1  # what a computation gives
    assert first[moved].cell == "other items" and again[moved].rank is None and first[best.id].cell.startswith("best")


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_a_table_without_the_columns_is_unchanged_and_exports_carry_the_rank_set(board, reference, tmp_path) -> None:
    from mmjudge.leaderboard.board.export import write_table

    rows = reference["emorealm"]
    submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    submit(board, emorealm_file(rows, lambda k, r: "Z"), "never")
    plain = build_table("emorealm", board.store.submissions("emorealm"))
    assert SIGNIFICANCE_HEADER not in plain.headers and RANK_SET_HEADER not in plain.headers
    with_column = build_table("emorealm", board.store.submissions("emorealm"), significance=True,
                              ranks=sig.ComputedRanks())
    at = with_column.headers.index(RANK_SET_HEADER)
    assert with_column.headers[at : at + 4] == [RANK_SET_HEADER, SIGNIFICANCE_HEADER, "Coverage %", "No judgment %"]
    assert with_column.headers[:at] + with_column.headers[at + 2 :] == plain.headers
    assert [r[:at] + r[at + 2 :] for r in with_column.values] == plain.values
    assert [r[at] for r in with_column.values] == [1, 2]  # sorted by the set's first rank
    records = json.loads(write_table(with_column, tmp_path / "t.json").read_text())
    assert [(r[RANK_SET_HEADER], r[f"{RANK_SET_HEADER} low"], r[f"{RANK_SET_HEADER} high"]) for r in records] == [
        ("1 †", 1, 1), ("2 †", 2, 2)]  # fmt: skip
    header, *lines = write_table(with_column, tmp_path / "t.csv").read_text().splitlines()
    assert f"{RANK_SET_HEADER},{RANK_SET_HEADER} low,{RANK_SET_HEADER} high,{SIGNIFICANCE_HEADER}" in header
    assert "1 †,1,1,best †" in lines[0] and "'-100.00 [-100.00, -100.00] * †" in lines[1]


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_a_rows_results_file_carries_its_rank_set_as_the_table_shows_it(board, reference) -> None:
    """The per-row results export names, per view, the key the board ranks on, the row's rank set (text and both
    ends) and its test against the best row: the cells of the table the page shows."""
    rows = reference["emorealm"]
    best = submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    poor = submit(board, emorealm_file(rows, lambda k, r: "Z"), "never")
    handlers = Handlers(board)
    table = handlers.table("emorealm")
    sets, tests = ranks_of(table), column(table)
    for row, low in ((best, 1), (poor, 2)):
        record = json.loads(Path(handlers.results_file(row.id)).read_text())
        assert record["run"]["leaderboard"]["rank_sets"] == [
            {"view": "default", "key": "overall", "rank_set": sets[row.id], "low": low, "high": low,
             "vs_best": tests[row.id]}]  # fmt: skip
    assert sets[best.id] == "1 †" and tests[best.id] == "best †"


def test_a_results_file_says_why_a_row_has_no_rank_set(board, reference) -> None:
    """On the sample's 5 clips no test can reach p < 0.05: the file says so, as the table does."""
    rows = reference["emorealm"]
    row = submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    submit(board, emorealm_file(rows, lambda k, r: "Z"), "never")
    (entry,) = json.loads(Path(Handlers(board).results_file(row.id)).read_text())["run"]["leaderboard"]["rank_sets"]
    assert entry["low"] is entry["high"] is None
    assert entry["rank_set"].startswith("no rank set: 5 clips") and entry["vs_best"].startswith("no test: 5 clips")


def test_score_cells_are_marked_thin_from_the_stored_estimates(board, reference) -> None:
    """The scorer's estimates ride with the paired data: a score whose interval rests on fewer than 30 clusters
    ends with the mark, and the caption names the method that made it; a row stored without them is unmarked."""
    rows = reference["emorealm"]
    row = submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    made = sig.stored_estimates(board.store.get_submission(row.id))
    overall = made["overall"]
    assert overall.n_clusters is not None and MIN_CLUSTERS <= overall.n_clusters < FEW_CLUSTERS
    assert overall.method.startswith("Wilson score interval") and overall.cluster == "clip"
    table = build_table("emorealm", board.store.submissions("emorealm"))
    headline = table.headers[table.rank_column]
    assert table.display[0][table.rank_column].endswith(" †")
    assert f"`†` after a score: its interval rests on {overall.n_clusters} clips (under 30): {overall.method}" in (
        table.caption)  # fmt: skip
    bare = pack_paired("emorealm", [{"id": r["id"], "prediction": r["answer"]} for r in rows], rows,
                           dict(row.results), board.dataset_hash("emorealm"))  # a plain dict: no estimates  # fmt: skip
    older = board.store.insert_submission(NewSubmission("emorealm", "verified", "o", "o", "u", dict(row.results),
                                                        sha256="5" * 64, paired=bare))  # fmt: skip
    again = build_table("emorealm", board.store.submissions("emorealm"))
    shown = dict(zip(again.column("id"), (d[again.headers.index(headline)] for d in again.display), strict=True))
    assert not shown[older].endswith("†") and shown[row.id].endswith(" †")


def test_a_side_scoring_column_is_marked_thin_from_its_own_estimate(board, reference) -> None:
    """EmoReAlM's official-mode average (a side scoring stored beside the ranked strict one) gets the mark the
    headline gets, from the official scoring's own estimate (its clusters are the units it counts)."""
    from mmjudge.benchmarks import get_benchmark

    rows = reference["emorealm"]
    row = submit(board, emorealm_file(rows, lambda k, r: r["answer"] if k % 4 else "no idea"), "some")
    made = sig.stored_estimates(board.store.get_submission(row.id))
    official = made["official:overall"]
    records = [{"id": r["id"], "prediction": r["answer"] if k % 4 else "no idea"} for k, r in enumerate(rows)]
    spec = get_benchmark("emorealm")
    direct = spec.metrics.score(**spec.records.score_inputs(records, rows), mode="official")
    assert official == estimates_of("emorealm", direct)["overall"]
    assert MIN_CLUSTERS <= official.n_clusters < FEW_CLUSTERS
    table = build_table("emorealm", board.store.submissions("emorealm"))
    shown = dict(zip(table.headers, table.display[0], strict=True))
    assert shown["Average (official)"].endswith(" †") and shown["Average (strict)"].endswith(" †")
    assert shown["Average (official)"].startswith(f"{row.side_results['official']['overall']:.1f}")


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
    packed = pack_paired("emorealm", records, rows, {"overall": 100.0, "mode": "strict"}, "h")
    store = Store(both_backends)
    row_id = store.insert_submission(NewSubmission("emorealm", "verified", "j", "m", "u", {"overall": 100.0},
                                                   sha256="2" * 64, paired=packed))  # fmt: skip
    stored = store.get_submission(row_id)
    assert stored is not None and stored.paired == packed
    digest, units = unpack_paired(stored.paired)
    assert digest == "h" and np.all(units["overall"].outcomes.column("correct") == 1.0)


def test_bad_paired_text_is_refused() -> None:
    from mmjudge.errors import SchemaError

    with pytest.raises(SchemaError, match="not packed JSON"):
        unpack_paired("not base64 zlib")


def test_a_benchmark_without_pairing_says_so(board, reference, monkeypatch) -> None:
    import dataclasses

    from mmjudge.benchmarks import get_benchmark

    row = submit(board, emorealm_file(reference["emorealm"], lambda k, r: r["answer"]), "oracle")
    spec = get_benchmark("emorealm")
    unpaired = dataclasses.replace(spec, metrics=dataclasses.replace(spec.metrics, outcomes=None))
    monkeypatch.setattr(sig, "get_benchmark", lambda b: unpaired)
    assert sig.significance_cells("emorealm", [row]) == {row.id: "the benchmark declares no pairing"}


def test_the_public_mirror_leaves_the_paired_data_out(board, reference, tmp_path: Path) -> None:
    from mmjudge.leaderboard.app.mirror import export_public_tables

    row = submit(board, emorealm_file(reference["emorealm"], lambda k, r: r["answer"]), "oracle")
    assert row.paired  # stored, for the significance column only
    submissions, _ = export_public_tables(board.store, tmp_path / "mirror")
    (record,) = [json.loads(line) for line in submissions.read_text().splitlines()]
    assert record["id"] == row.id and "paired" not in record


def test_a_ranking_key_without_pairing_says_so(board, reference) -> None:
    row = submit(board, emorealm_file(reference["emorealm"], lambda k, r: r["answer"]), "oracle")
    cells = sig.significance_cells("emorealm", [row], key="accuracy/modality_agreement")
    assert cells == {row.id: "accuracy/modality_agreement is not compared pairwise"}


@pytest.mark.usefixtures("ranks_at_five_clips")
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
        paired=pack_paired("emorealm", records, rows, {"overall": 0.0, "mode": "strict"}, board.dataset_hash("emorealm")),
    ))  # fmt: skip
    cells = column(Handlers(board).table("emorealm"))
    assert cells[best.id] == "best †"  # alone on its items: ranked first among one
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
    digest, units = unpack_paired(base64.b64encode(zlib.compress(text.encode())).decode())
    assert digest == "h" and isinstance(units["overall"].metric, Ratio) and isinstance(units["waf_2class"].metric, WeightedF1)
    assert units["overall"].value() == 75.0  # (50 + 100) / 2 over the two strata
    assert units["waf_2class"].value() == pytest.approx(100 * 1 / 3)


def _forget(monkeypatch, board=None) -> list[int]:
    """Give ``board`` a fresh rank keeper, with an empty cache (a fresh server), and count the rank-set
    computations from now on."""
    if board is not None:
        board.on_change = InlineRanks(board.store)
    calls: list[int] = []
    real = sig.rank_sets
    monkeypatch.setattr(sig, "rank_sets", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def _cells_of(table) -> list[tuple[str, str]]:
    at = table.headers.index(RANK_SET_HEADER)
    return [(d[at], d[at + 1]) for d in table.display]


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_a_render_reads_the_cells_stored_with_the_rows_and_they_equal_the_computed_ones(board, reference, monkeypatch) -> None:
    rows = reference["emorealm"]
    for model, answer in [("oracle", lambda k, r: r["answer"]), ("some", lambda k, r: r["answer"] if k % 3 else "Z"),
                          ("never", lambda k, r: "Z")]:  # fmt: skip
        submit(board, emorealm_file(rows, answer), model)
    stored = board.store.submissions("emorealm")
    assert all(s.pairing for s in stored)  # the summary is stored with the row
    calls = _forget(monkeypatch, board)
    read = Handlers(board).table("emorealm")
    assert calls == []  # a cold render computes no rank set: it reads them
    _forget(monkeypatch, board)
    computed = build_table("emorealm", stored, significance=True, ranks=sig.ComputedRanks())  # from the outcomes
    assert _cells_of(read) == _cells_of(computed) and read.values == computed.values and read.caption == computed.caption
    hidden = stored[1].id
    board.store.set_hidden(hidden)
    store_ranks(board.store, "emorealm")  # what Leaderboard.hide has done after hiding
    calls = _forget(monkeypatch, board)
    after = Handlers(board).table("emorealm")
    assert calls == [] and hidden not in after.column("id")
    assert _cells_of(after) == _cells_of(build_table("emorealm", board.store.submissions("emorealm"), significance=True,
                                                     ranks=sig.ComputedRanks()))


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_an_old_store_renders_and_stores_what_it_computed_once(board, reference, monkeypatch) -> None:
    rows = reference["emorealm"]
    kept = [submit(board, emorealm_file(rows, a), m).id
            for m, a in [("oracle", lambda k, r: r["answer"]), ("never", lambda k, r: "Z")]]  # fmt: skip
    expected = _cells_of(Handlers(board).table("emorealm"))
    with board.store.transaction() as conn:  # as a store migrated from version 6 has them: no summary, no cells
        conn.execute("UPDATE submissions SET pairing = ''")
        conn.execute("DELETE FROM rank_cells")
    calls = _forget(monkeypatch, board)
    assert _cells_of(Handlers(board).table("emorealm")) == expected and calls == [1]
    assert all(board.store.get_submission(i).pairing for i in kept)  # written back
    calls = _forget(monkeypatch, board)
    assert _cells_of(Handlers(board).table("emorealm")) == expected and calls == []


def test_outcomes_are_kept_compact_with_shared_unit_ids(board, reference) -> None:
    rows = reference["emorealm"]
    a = submit(board, emorealm_file(rows, lambda k, r: r["answer"]), "oracle")
    b = submit(board, emorealm_file(rows, lambda k, r: "Z"), "never")
    cache = sig.RankCache()
    one, two = (cache.compact(s)["overall"] for s in (a, b))
    assert one.outcomes.units is two.outcomes.units and one.outcomes.clusters is two.outcomes.clusters
    assert all(c.dtype == np.int8 for c in one.outcomes.columns.values())
    full = unpack_paired(a.paired)[1]["overall"]
    assert one.value() == full.value()


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_a_submission_does_not_wait_for_the_rank_cells_the_background_refresher_stores(
    board, reference, monkeypatch
) -> None:
    from mmjudge.leaderboard.board import ranks

    rows = reference["emorealm"]
    release, started, done = threading.Event(), threading.Event(), []
    real = ranks.store_ranks

    def slow(store, benchmark, **options):  # the seconds a 450-row board takes, held until released
        started.set()
        assert release.wait(30)
        real(store, benchmark, **options)
        done.append(benchmark)

    monkeypatch.setattr(ranks, "store_ranks", slow)
    board.on_change = ranks.RankRefresher(board.store)
    for model, answer in [("oracle", lambda k, r: r["answer"]), ("never", lambda k, r: "Z")]:
        submit(board, emorealm_file(rows, answer), model)  # returns while the refresher is held
    assert started.wait(10) and done == [] and not board.settle("emorealm", timeout=0.05)
    assert board.settle("mist", timeout=0.05)  # another benchmark's board is not waited for
    release.set()
    assert board.settle("emorealm", timeout=30) and done  # the second change folded into one pending refresh
    calls = _forget(monkeypatch, board)
    read = Handlers(board).table("emorealm")
    assert calls == []  # the render read the cells the refresher stored
    assert _cells_of(read) == _cells_of(build_table("emorealm", board.store.submissions("emorealm"), significance=True,
                                                     ranks=sig.ComputedRanks()))


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_a_failed_refresh_is_logged_the_table_asks_again_and_never_computes(board, reference, monkeypatch, caplog) -> None:
    """A refresh that fails is logged; a table then finds the cells missing and asks the refresher again (not
    computing them itself): while the refresher fails the cells say so, and once it works they are stored."""
    from mmjudge.leaderboard.board import ranks

    real = ranks.store_ranks
    failing = [True]

    def flaky(store, benchmark, **options):
        if failing[0]:
            raise RuntimeError("disk full")
        real(store, benchmark, **options)

    monkeypatch.setattr(ranks, "store_ranks", flaky)
    board.on_change = ranks.RankRefresher(board.store, request_wait_s=30)
    rows = reference["emorealm"]
    with caplog.at_level("ERROR", logger="mmjudge.leaderboard.board.ranks"):
        for model, answer in [("oracle", lambda k, r: r["answer"]), ("never", lambda k, r: "Z")]:
            submit(board, emorealm_file(rows, answer), model)
        assert board.settle(timeout=30)
        logged = caplog.text.count("rank cells of emorealm not stored")
        assert logged in (1, 2) and "disk full" in caplog.text  # the second change may fold into the first
        calls: list[int] = []
        real_sets = sig.rank_sets
        monkeypatch.setattr(sig, "rank_sets", lambda *a, **k: calls.append(threading.get_ident()) or real_sets(*a, **k))
        handlers = Handlers(board)
        assert set(ranks_of(handlers.table("emorealm")).values()) == {"—"}
        assert set(column(handlers.table("emorealm")).values()) == {ranks.NOT_STORED}
        assert caplog.text.count("rank cells of emorealm not stored") == logged + 2  # each table asked again
    assert calls == []  # and computed nothing itself
    failing[0] = False
    read = handlers.table("emorealm")
    assert calls and threading.get_ident() not in calls  # the refresher's thread computed them, not the table's
    assert _cells_of(read) == _cells_of(build_table("emorealm", board.store.submissions("emorealm"), significance=True,
                                                     ranks=sig.ComputedRanks()))
    assert len(board.store.rank_cells("emorealm", "overall", [f.signature for f in sig.group_rows(
        "emorealm", board.store.submissions("emorealm")).families])) == 1  # fmt: skip
