"""Leaderboard trust, round two: provenance tiers, ranking on the same reference set, degenerate judges
flagged, no raw counts for submitted rows, and the private-label Ladder.

Each test fails on the leaderboard before these fixes: a submitted row ranked with published ones, a
weight-free baseline on the sample data ranked #1 above published judges scored on the real benchmark,
MIST's ``constant`` judge ranked #1, and a submitted row's results file exposing per-class counts.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from mmjudge.leaderboard import Leaderboard, Settings, Store
from mmjudge.leaderboard.app.ui import Handlers
from mmjudge.leaderboard.board.facets import SHOWN_TIERS, select
from mmjudge.leaderboard.board.significance import ComputedRanks
from mmjudge.leaderboard.board.table import build_table
from mmjudge.leaderboard.core.columns import ranking_key
from mmjudge.leaderboard.core.reported import reported_rows, seed_reported
from mmjudge.leaderboard.core.submit import ingest_demo_output
from mmjudge.leaderboard.core.validation import SubmissionMeta
from mmjudge.leaderboard.store import LadderRule, StoredSubmission

from ..conftest import prediction_bytes, prediction_lines

SAMPLE = {"dataset": "isovrbench labels (local folder)", "revision": "f" * 64, "units": 40}


def _published(benchmark: str) -> list[StoredSubmission]:
    return [StoredSubmission(**{**r.__dict__, "id": 100 + k}) for k, r in enumerate(reported_rows(benchmark))]


def _row(row_id: int, value: float, key: str = "average", benchmark: str = "isovrbench", **stored: Any) -> StoredSubmission:
    results = {key: value, f"{key}_ci_low": value - 2.0, f"{key}_ci_high": value + 2.0}
    stored.setdefault("scored_on", SAMPLE)
    return StoredSubmission(benchmark, "verified", f"j{row_id}", f"m{row_id}", "u", results, id=row_id, **stored)


def _by_id(table: Any, header: str) -> dict[int, Any]:
    return dict(zip(table.column("id"), table.column(header), strict=True))


def _rank_text(table: Any) -> dict[int, str]:
    return dict(zip(table.column("id"), (d[0] for d in table.display), strict=True))


def test_rows_are_ranked_only_against_rows_on_the_same_set() -> None:
    """The issue's case: a ``sharpness`` baseline on the sample data was #1 on IsoVRBench, above published
    VideoReward on the real benchmark. Now the published set is ranked apart, first; the sample set's rows
    are ranked among themselves; the baseline shows as tier ``baseline``, not ranked."""
    published = _published("isovrbench")
    baseline = _row(1, 95.0, tier="run here", reference_line=True)
    run_here = _row(2, 55.0, tier="run here")
    submitted = _row(3, 99.0)
    other_set = _row(4, 70.0, scored_on={**SAMPLE, "revision": "e" * 64})
    table = build_table("isovrbench", [baseline, run_here, submitted, other_set, *published])
    ranks, shown = _by_id(table, "Rank"), _rank_text(table)
    best_published = max(published, key=lambda r: r.results.get("average", -1.0))
    assert ranks[best_published.id] == 1 and table.column("id")[0] == best_published.id
    assert table.column("id")[: len(published)] == [r.id for r in sorted(
        published, key=lambda r: -(r.results.get("average") or -math.inf))]  # fmt: skip
    assert shown[baseline.id] == "baseline" and ranks[baseline.id] is None  # shown, not ranked
    assert (ranks[run_here.id], ranks[submitted.id]) == (1, 2)  # run here above submitted, whatever the score
    assert ranks[other_set.id] == 1  # its own set, its own ranking
    sets = _by_id(table, "Scored on")
    assert sets[best_published.id] == "the paper's test set, as published"
    assert sets[run_here.id] == "isovrbench labels (local folder)@ffffffffffff (40 pairs)" != sets[other_set.id]
    assert "baseline" in _by_id(table, "Note")[baseline.id] and _by_id(table, "Tier")[baseline.id] == "baseline"
    order = table.column("id")
    assert order.index(run_here.id) < order.index(submitted.id) < order.index(baseline.id)


def test_the_table_shows_and_filters_every_tier() -> None:
    rows = [_row(1, 50.0, tier="run here", reference_line=True), _row(2, 60.0, tier="run here"), _row(3, 70.0),
            *_published("isovrbench")]  # fmt: skip
    table = build_table("isovrbench", rows)
    assert set(table.column("Tier")) == set(SHOWN_TIERS)
    for tier in SHOWN_TIERS:
        assert set(select(table, tiers=[tier]).column("Tier")) == {tier}


def test_a_header_claiming_a_weight_free_judge_or_a_published_name_stays_submitted(board_factory, reference) -> None:
    """The tier is the server's: a submitted file whose header says its judge has no weights, named like a
    published row, is a ranked ``submitted`` row below the published ones, not a baseline or a published row."""
    board = board_factory()
    seed_reported(board.store)
    lines = prediction_lines("isovrbench", reference["isovrbench"], seed=3, judge="frame_smoothness")
    header = json.loads(lines[0])
    header["provenance"] = {"judge_config": {"judge": "frame_smoothness", "model": None}}
    lines[0] = json.dumps(header)
    stored = board.submit(("\n".join(lines) + "\n").encode(), SubmissionMeta("VideoReward", "KwaiVGI/VideoReward"), "eve")
    assert (stored.tier, stored.reference_line) == ("submitted", False)
    table = build_table("isovrbench", board.store.submissions("isovrbench"))
    mine = table.column("id").index(stored.id)
    assert table.column("Tier")[mine] == "submitted"
    published = [i for i, t in enumerate(table.column("Tier")) if t == "published"]
    assert table.column("Rank")[mine] is None or max(published) < mine  # never above a published row's place


def test_demo_baselines_are_reference_lines_and_worker_rows_run_here(board_factory, reference, tmp_path) -> None:
    board = board_factory()
    folder = tmp_path / "demo-output" / "isovrbench" / "sharpness"
    folder.mkdir(parents=True)
    (folder / "predictions.jsonl").write_bytes(prediction_bytes("isovrbench", reference["isovrbench"], seed=8))
    ingest_demo_output(board, tmp_path / "demo-output")
    (row,) = board.store.submissions("isovrbench")
    assert (row.tier, row.reference_line) == ("run here", True)
    assert row.scored_on == {"dataset": "isovrbench labels (local folder)", "revision": board.dataset_hash("isovrbench"),
                             "units": len(reference["isovrbench"])}  # fmt: skip
    assert _rank_text(build_table("isovrbench", [row]))[row.id] == "baseline"


def test_the_set_size_is_counted_in_the_unit_the_table_names(board_factory, reference, tmp_path) -> None:
    """``Scored on`` names the benchmark's record unit (MIST: grid cells), so its number counts the records
    ``mmjudge eval`` writes without optional parts: MIST's cells (items x prompts x inputs x arms, not
    items), EmoPrefer's forward pairs (the swapped ones are optional)."""
    from mmjudge.benchmarks import get_benchmark, write_sample_data
    from mmjudge.leaderboard.board.facets import set_text

    board = board_factory()
    row = board.submit(prediction_bytes("emoprefer", reference["emoprefer"], seed=3), SubmissionMeta("j", "org/m"),
                       "eve")  # fmt: skip
    forward = [r for r in map(json.loads, prediction_lines("emoprefer", reference["emoprefer"])[1:])
               if r["order"] == "forward"]  # fmt: skip
    assert row.scored_on["units"] == len(forward) == len(reference["emoprefer"])
    assert set_text(row, get_benchmark("emoprefer")).endswith(f"({len(forward)} pairs)")
    write_sample_data(tmp_path / "labels", benchmarks=["mist"])
    mist = Leaderboard(Store(tmp_path / "mist.sqlite"), Settings(data_root=tmp_path / "labels", require_login=False))
    items = mist.reference_rows("mist")
    cells = mist.scored_on("mist")["units"]
    assert cells == 1280 and len(items) == 64  # the sample: 64 items x 4 prompts x 5 inputs (x arms)
    shown = StoredSubmission("mist", "verified", "j", "m", "u", {}, scored_on=mist.scored_on("mist"))
    assert set_text(shown, get_benchmark("mist")).endswith("(1280 grid cells)")


def test_a_submitted_file_cannot_block_the_servers_own_run_of_that_model(board_factory, reference) -> None:
    """One verified row per model, revision and tier: uploading predictions under a model's name first does
    not stop the worker's row of the same model and revision."""
    from mmjudge.leaderboard.store import NewSubmission

    board = board_factory()
    board.submit(prediction_bytes("isovrbench", reference["isovrbench"], seed=1), SubmissionMeta("j", "org/m", "abc"), "eve")
    worker_row = NewSubmission("isovrbench", "verified", "j", "org/m", "worker", {"average": 1.0}, revision="abc",
                               sha256="other", tier="run here")  # fmt: skip
    assert board.store.insert_submission(worker_row) > 0


def _mist(row_id: int, change: float, direction: float | None, changed: int, **stored: Any) -> StoredSubmission:
    key = "change_rate/none_to_misleading/explicit"
    results = {key: change, f"{key}_ci_low": max(change - 2.0, 0.0), f"{key}_ci_high": change + 2.0,
               "direction/explicit": direction, "direction/explicit/n_changed": changed}  # fmt: skip
    stored.setdefault("scored_on", {"dataset": "mist labels (local folder)", "revision": "a" * 64, "units": 64})
    return StoredSubmission("mist", "verified", f"j{row_id}", f"m{row_id}", "u", results, id=row_id, **stored)


def test_mist_never_ranks_a_judge_that_changes_no_label_first() -> None:
    """The issue's case: the ``constant`` judge was #1 on MIST (change rate 0 [0.0, 1.5]; it never reads the
    image, so its direction is undefined). It is flagged, not ranked above judges that read the image."""
    constant = _mist(1, 0.0, None, 0, tier="run here")
    nan_direction = _mist(2, 1.0, math.nan, 3, tier="run here")
    reader = _mist(3, 12.0, 70.0, 20, tier="run here")
    table = build_table("mist", [constant, nan_direction, reader])
    ranks, shown, notes = _by_id(table, "Rank"), _rank_text(table), _by_id(table, "Note")
    assert ranks[reader.id] == 1 and table.column("id")[0] == reader.id
    assert shown[constant.id] == shown[nan_direction.id] == "flagged"
    assert "no label changed" in notes[constant.id] and "undefined" in notes[nan_direction.id]
    # the paired-test column never names a flagged row "best"
    paired = build_table("mist", [constant, reader], significance=True, ranks=ComputedRanks())
    assert "best" not in _by_id(paired, "vs best (paired)")[constant.id]


def test_a_degenerate_judge_is_flagged_with_private_labels_too() -> None:
    """With private labels a submitted row shows only its Ladder score, but the companion check reads the
    results the server stores: a judge that changes no label is still flagged, not ranked first."""
    constant = _mist(1, 0.0, None, 0, tier="submitted", ladder=0.0)
    reader = _mist(2, 12.0, 70.0, 20, tier="submitted", ladder=12.0)
    table = build_table("mist", [constant, reader], private=True)
    assert _rank_text(table) == {reader.id: "1", constant.id: "flagged"}
    assert "no label changed" in _by_id(table, "Note")[constant.id]


def test_the_demo_constant_judge_is_flagged_by_its_stored_results() -> None:
    """The check reads what MIST's scorer stores for a judge that never changes a label (the keys of
    ``mmjudge demo``'s ``constant`` run: change rate 0, direction ``None``, no changed labels)."""
    from mmjudge.benchmarks.mist.leaderboard import degenerate

    assert degenerate({"change_rate/none_to_misleading/explicit": 0.0, "direction/explicit": None,
                       "direction/explicit/n_changed": 0}) is not None  # fmt: skip
    assert degenerate({"direction/explicit": 40.0}) is None  # a published row: no count, a direction


@pytest.mark.parametrize("benchmark,counts", [
    ("emoprefer", ("confusion/a1/a1", "confusion/same/a2")),
    ("emorealm", ("n_correct/reasoning_basic_audio",)),
])  # fmt: skip
def test_a_submitted_results_file_has_rates_but_no_raw_counts(board_factory, reference, tmp_path, benchmark,
                                                              counts) -> None:  # fmt: skip
    handlers = Handlers(board_factory())
    data = prediction_bytes(benchmark, reference[benchmark], seed=4)
    stored = handlers.board.submit(data, SubmissionMeta("j", "org/m"), "eve")
    assert all(k in stored.results for k in counts)  # the store keeps them (the paired test reads outcomes)
    record = json.loads(Path(handlers.results_file(stored.id)).read_text())
    assert not [k for k in record["scores"] if any(k.startswith(c) for c in counts)]
    assert not [k for k in record["estimates"] if any(k.startswith(c) for c in counts)]
    key = ranking_key(benchmark)
    assert record["scores"][key] == stored.results[key]
    # the interval travels with the score where the scorer gave one (the tiny reference rows leave EmoPrefer's
    # 2-class items under 5: no interval there)
    assert (f"{key}_ci_low" in record["scores"]) == (f"{key}_ci_low" in stored.results)


@pytest.mark.parametrize("private", [False, True])
def test_the_hub_mirror_publishes_what_the_table_and_results_file_show(tmp_path, data_root, reference,
                                                                      private) -> None:  # fmt: skip
    """The mirror is public too: a submitted row goes out without its raw counts, and with private labels
    with its Ladder score only; a run-here row keeps its counts."""
    from mmjudge.leaderboard.app.mirror import export_public_tables

    board = Leaderboard(Store(tmp_path / "lb.sqlite"), Settings(data_root=data_root, require_login=False,
                                                                private_labels=private),
                        rows_fn=lambda b, folder: reference[b])  # fmt: skip
    data = prediction_bytes("emoprefer", reference["emoprefer"], seed=4)
    submitted = board.submit(data, SubmissionMeta("j", "org/m"), "eve")
    run_here = board.submit(prediction_bytes("emoprefer", reference["emoprefer"], seed=5),
                            SubmissionMeta("k", "org/k"), "baseline", reference_line=True)  # fmt: skip
    path = export_public_tables(board.store, tmp_path / "mirror", private_labels=private)[0]
    mirrored = {r["id"]: r for r in map(json.loads, path.read_text().splitlines())}
    key = ranking_key("emoprefer")
    assert "confusion/a1/a1" in mirrored[run_here.id]["results"]
    if private:
        assert mirrored[submitted.id]["results"] == {key: submitted.ladder}
        assert mirrored[submitted.id]["side_results"] is None
    else:
        assert not [k for k in mirrored[submitted.id]["results"] if k.startswith("confusion/")]
        assert mirrored[submitted.id]["results"][key] == submitted.results[key]


def test_a_run_here_results_file_keeps_its_counts(board_factory, reference) -> None:
    from mmjudge.leaderboard.board.export import public_scores

    board = board_factory()
    stored = board.submit(prediction_bytes("emoprefer", reference["emoprefer"], seed=4), SubmissionMeta("j", "org/m"),
                          "baseline", reference_line=True)  # fmt: skip
    assert public_scores(stored) == stored.results


@pytest.mark.parametrize("higher,scores,shown", [
    (True, [70.26, 70.9, 71.6, 71.2, 75.04], [70.0, 70.0, 72.0, 72.0, 75.0]),
    (False, [30.4, 29.8, 28.9, 28.95], [30.0, 30.0, 29.0, 29.0]),
])  # fmt: skip
def test_the_ladder_shows_only_improvements_beyond_the_margin(higher, scores, shown) -> None:
    """Blum & Hardt (2015), Algorithm 1: a new score is shown only when it beats the best shown by more than
    the margin, rounded to the margin; written out here as the reference."""
    rule = LadderRule("k", higher, 1.0)

    def reference(score: float, best: float | None) -> float | None:
        better = best is None or (score > best + 1.0 if higher else score < best - 1.0)
        return float(math.floor(score + 0.5)) if better else best

    best = None
    for score, expected in zip(scores, shown, strict=True):
        best_ref = reference(score, best)
        best = rule.shown(score, best)
        assert best == best_ref == expected


def test_private_labels_publish_only_the_ladder_score(tmp_path, data_root, reference) -> None:
    board = Leaderboard(Store(tmp_path / "lb.sqlite"), Settings(data_root=data_root, require_login=False,
                                                                private_labels=True, ladder_margin=1.0),
                        rows_fn=lambda b, folder: reference[b])  # fmt: skip
    handlers = Handlers(board)
    key = ranking_key("emoprefer")
    stored = []
    for seed in range(4):
        row = board.submit(prediction_bytes("emoprefer", reference["emoprefer"], seed=seed),
                           SubmissionMeta("j", f"org/m{seed}"), "eve")  # fmt: skip
        stored.append(row)
    best = None
    rule = board.ladder_rule("emoprefer")
    assert rule is not None and rule.key == key
    for row in stored:
        best = rule.shown(row.results[key], best)
        assert row.ladder == best  # each row keeps the score its submitter was shown
    table = handlers.table("emoprefer")
    for row in stored:
        cells = dict(zip(table.headers, table.display[table.column("id").index(row.id)], strict=True))
        assert cells[table.headers[table.rank_column]] == f"{row.ladder:.1f} (Ladder)"
        scores = [h for h, g in zip(table.headers, table.groups, strict=True) if g not in ("details", "coverage", "")]
        assert all(cells[h] in ("—", "private labels: Ladder score only") for h in scores), cells
    with pytest.raises(Exception, match="private"):
        handlers.results_file(stored[0].id)
    message = handlers.submit(str(_write(tmp_path, prediction_bytes("emoprefer", reference["emoprefer"], seed=9))),
                              "j", "org/m9", "", "", "", "open", None)  # fmt: skip
    assert "Ladder" in message and "(Ladder)" in message


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "upload.jsonl"
    path.write_bytes(data)
    return path


def test_a_version_4_store_gets_each_rows_tier(tmp_path) -> None:
    import sqlite3

    from mmjudge.leaderboard.store import MIGRATIONS

    path = tmp_path / "v4.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(";".join(MIGRATIONS[:4]) + "; PRAGMA user_version = 4;")
        for kind, submitter, request, sha in (("reported", "paper", None, None), ("verified", "baseline", None, "a"),
                                              ("verified", "worker", 7, "b"), ("verified", "eve", None, "c")):  # fmt: skip
            conn.execute(
                "INSERT INTO submissions (benchmark, kind, judge, model, submitter, results, created_at, request_id, "
                "sha256) VALUES ('mist', ?, 'j', ?, ?, '{}', 0, ?, ?)", (kind, submitter, submitter, request, sha),
            )  # fmt: skip
    rows = Store(path).submissions()
    assert [(r.tier, r.reference_line) for r in rows] == [
        ("published", False), ("run here", True), ("run here", False), ("submitted", False)]  # fmt: skip
    assert rows[0].scored_on == {"dataset": "mist as published", "revision": "paper", "units": None}
    assert [r.scored_on for r in rows[1:]] == [None, None, None]  # unknown: shown apart, labelled so


def test_private_label_mode_refuses_a_public_label_repo() -> None:
    from mmjudge.errors import ConfigError
    from mmjudge.leaderboard.app.space import SpaceConfig, check_private

    sha = "c" * 40
    env = {"MMJUDGE_BENCHMARKS": "mist,emoprefer", "MMJUDGE_LABELS_MIST": f"org/mist-private@{sha}",
           "MMJUDGE_LABELS_EMOPREFER": f"org/emoprefer-public@{sha}", "MMJUDGE_PRIVATE_LABELS": "1",
           "MMJUDGE_LADDER_MARGIN": "0.5"}  # fmt: skip
    config = SpaceConfig.from_env(env, persistent=Path("/nonexistent"))
    assert (config.settings["private_labels"], config.settings["ladder_margin"]) == (True, 0.5)
    seen = []

    def is_private(repo: str, revision: str) -> bool:
        seen.append((repo, revision))
        return "private" in repo

    with pytest.raises(ConfigError, match="MMJUDGE_LABELS_EMOPREFER=org/emoprefer-public is a public repo"):
        check_private(config, is_private=is_private)
    assert ("org/mist-private", sha) in seen
    check_private(SpaceConfig.from_env({**env, "MMJUDGE_PRIVATE_LABELS": "0"}, persistent=Path("/nonexistent")),
                  is_private=lambda *a: False)  # public labels: nothing to check  # fmt: skip
    with pytest.raises(ConfigError, match="MMJUDGE_LADDER_MARGIN"):
        SpaceConfig.from_env({**env, "MMJUDGE_LADDER_MARGIN": "0"}, persistent=Path("/nonexistent"))
