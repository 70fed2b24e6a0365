"""Submission handlers: login, validation messages, server-side scoring equal to the evaluate module,
duplicates, crash safety, escaping, admin hide, demo ingestion."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import evaluate
import gradio as gr
import pytest
from metric_cases import scores_only

from mmjudge.leaderboard import SubmissionMeta, build_table, ingest_demo_output
from mmjudge.leaderboard.app.ui import Handlers

from ..conftest import prediction_bytes, prediction_lines, shown

REPO = Path(__file__).resolve().parents[3]
XSS = "<script>alert('x')</script>"


def _profile(username: str) -> gr.OAuthProfile:
    return gr.OAuthProfile({"name": username.title(), "preferred_username": username,
                            "profile": f"https://huggingface.co/{username}", "picture": ""})  # fmt: skip


def _write(tmp_path: Path, data: bytes, name: str = "predictions.jsonl") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _submit(
    handlers: Handlers, file: str, model: str = "org/model", profile=None, revision: str = "r1"
) -> str:
    return _plain(handlers.submit(file, "judge", model, revision, "", "", "open", profile))


def _plain(message: str) -> str:
    """The message as the page shows it (:func:`shown`)."""
    return shown(message)


def test_space_mode_refuses_calls_without_a_profile(board_factory, reference, tmp_path) -> None:
    handlers = Handlers(board_factory(require_login=True))
    file = _write(tmp_path, prediction_bytes("isovrbench", reference["isovrbench"]))
    message = _submit(handlers, file, profile=None)
    assert "sign in" in message and "Rejected" in message
    assert handlers.board.store.submissions(include_hidden=True) == []
    stored = _submit(handlers, file, profile=_profile("alice"))
    assert "Stored" in stored
    assert [s.submitter for s in handlers.board.store.submissions("isovrbench")] == ["alice"]


def test_local_mode_submitter_is_local(board_factory, reference, tmp_path) -> None:
    handlers = Handlers(board_factory())
    assert "Stored" in _submit(
        handlers, _write(tmp_path, prediction_bytes("emoprefer", reference["emoprefer"]))
    )
    assert handlers.board.store.submissions("emoprefer")[0].submitter == "local"


def test_stored_isovrbench_score_equals_the_evaluate_module(
    board_factory, reference, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    rows = reference["isovrbench"]
    data = prediction_bytes("isovrbench", rows, seed=5)
    handlers = Handlers(board_factory())
    assert "Stored" in _submit(handlers, _write(tmp_path, data))
    stored = handlers.board.store.submissions("isovrbench")[0].results
    by_id = {r["id"]: r for r in map(json.loads, data.decode().splitlines()[1:])}
    ordered = [by_id[r["pair_id"]] for r in rows]
    metric = evaluate.load(str(REPO / "metrics" / "isovrbench"))
    expected = scores_only(metric.compute(
        intervention=[r["intervention"] for r in rows], score_chosen=[p["score_chosen"] for p in ordered],
        score_rejected=[p["score_rejected"] for p in ordered], no_judgment=[p.get("no_judgment", False) for p in ordered],
        pair_id=[r["pair_id"] for r in rows], cluster=[r["prompt"] for r in rows],
    ))  # fmt: skip
    assert set(stored) == set(expected)
    for key, value in expected.items():
        assert stored[key] == value or (
            isinstance(value, float) and math.isnan(value) and math.isnan(stored[key])
        ), key
    table = handlers.table("isovrbench")
    kind = table.headers.index("Tier")
    row = next(r for r in table.values if r[kind] == "submitted")
    assert row[table.rank_column] == pytest.approx(expected["average"], abs=1e-4)
    display = next(d for d, v in zip(table.display, table.values, strict=True) if v[kind] == "submitted")
    # the reference rows hold 2 prompts: the scorer withholds the interval, and the cell says so
    assert "average_ci_low" not in expected
    assert display[table.rank_column].startswith(f"{expected['average']:.1f} (no CI)")


def _metric_inputs(benchmark: str, rows, records) -> dict:
    """The evaluate module's inputs written out from the file and the reference rows."""
    if benchmark == "emoprefer":
        by_key = {(r["name"], r["order"]): r["prediction"] for r in records}
        return {"predictions": [by_key[(r["name"], "forward")] for r in rows],
                "references": [r["preference"] for r in rows],
                "swapped_predictions": [by_key[(r["name"], "reversed")] for r in rows],
                "clusters": [r.get("video_path") or r["name"] for r in rows]}  # fmt: skip
    by_id = {r["id"]: r for r in records}
    return {"predictions": [by_id[r["id"]]["prediction"] for r in rows], "references": [r["answer"] for r in rows],
            "tasks": [r["task"] for r in rows], "choices": [r["choices"] for r in rows], "ids": [r["id"] for r in rows],
            "clusters": [r["video"] for r in rows]}  # fmt: skip


@pytest.mark.parametrize("benchmark", ["emoprefer", "emorealm"])
def test_stored_scores_equal_the_evaluate_module(
    benchmark, board_factory, reference, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    data = prediction_bytes(benchmark, reference[benchmark], seed=8)
    handlers = Handlers(board_factory())
    assert "Stored" in _submit(handlers, _write(tmp_path, data))
    row = handlers.board.store.submissions(benchmark)[0]
    records = [json.loads(line) for line in data.decode().splitlines()[1:]]
    metric = evaluate.load(str(REPO / "metrics" / benchmark))
    inputs = _metric_inputs(benchmark, reference[benchmark], records)
    if benchmark == "emorealm":  # ranked in strict mode, the paper's official mode stored beside it
        assert row.results == scores_only(metric.compute(**inputs, mode="strict"))
        assert dict(row.side_results["official"]) == scores_only(metric.compute(**inputs, mode="official"))
    else:
        assert row.results == scores_only(metric.compute(**inputs))


def test_malformed_file_message_lists_lines_and_nothing_is_stored(board_factory, reference, tmp_path) -> None:
    handlers = Handlers(board_factory())
    lines = prediction_lines("isovrbench", reference["isovrbench"])
    lines[2] = json.dumps({"id": json.loads(lines[2])["id"], "score_chosen": "high", "score_rejected": 0.1})
    lines[4] = "{not json"
    message = _submit(handlers, _write(tmp_path, "\n".join(lines).encode()))
    assert "Rejected" in message and "line 5" in message and "one JSON object per line" in message
    lines[4] = lines[5]
    message = _submit(handlers, _write(tmp_path, "\n".join(lines).encode()))
    assert "line 3" in message and "must be a number" in message
    assert handlers.board.store.submissions("isovrbench") == []


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda lines: lines[:-1], "without a prediction"),
        (lambda lines: [*lines, json.dumps({"id": "nope", "score_chosen": 1, "score_rejected": 0})], "unknown ids"),
        (lambda lines: [lines[0].replace('"schema_version": 1', '"schema_version": 9'), *lines[1:]], "schema_version 9"),
        (lambda lines: [lines[0].replace("isovrbench", "nobench"), *lines[1:]], "unknown benchmark"),
        (lambda lines: [lines[0], lines[1].replace("}", ', "score_chosen": NaN}') if "no_judgment" not in lines[1] else lines[1], *lines[2:]], "invalid|finite|each key once"),
    ],
)  # fmt: skip
def test_coverage_and_schema_problems_are_refused(
    board_factory, reference, tmp_path, mutate, expected
) -> None:
    handlers = Handlers(board_factory())
    lines = mutate(prediction_lines("isovrbench", reference["isovrbench"]))
    message = _submit(handlers, _write(tmp_path, "\n".join(lines).encode()))
    assert "Rejected" in message
    assert re.search(expected, message), message


def test_size_limit_and_encoding(board_factory, reference, tmp_path) -> None:
    data = prediction_bytes("isovrbench", reference["isovrbench"])
    handlers = Handlers(board_factory(max_bytes=len(data) - 1))
    assert "byte limit" in _submit(handlers, _write(tmp_path, data))
    handlers = Handlers(board_factory())
    assert "UTF-8" in _submit(handlers, _write(tmp_path, data[:40] + b"\xff\xfe" + data[40:]))


def test_resubmission_is_rejected_with_a_pointer(board_factory, reference, tmp_path) -> None:
    handlers = Handlers(board_factory())
    file = _write(tmp_path, prediction_bytes("isovrbench", reference["isovrbench"]))
    assert "Stored" in _submit(handlers, file)
    row_id = handlers.board.store.submissions("isovrbench")[0].id
    again = _submit(handlers, file, model="org/other")
    assert "already submitted" in again and f"row #{row_id}" in again
    other_file = _write(tmp_path, prediction_bytes("isovrbench", reference["isovrbench"], seed=3), "b.jsonl")
    same_model = _submit(handlers, other_file)
    assert f"#{row_id}" in same_model and "already has a submitted" in same_model


def test_crash_during_scoring_leaves_the_store_unchanged(board_factory, reference, tmp_path) -> None:
    board = board_factory()
    before = board.store.submissions(include_hidden=True)

    def crash(*args, **kwargs):
        raise RuntimeError("scorer died")

    board._score_fn = crash
    with pytest.raises(RuntimeError, match="scorer died"):
        board.submit(
            prediction_bytes("isovrbench", reference["isovrbench"]), SubmissionMeta("j", "org/m"), "u"
        )
    assert board.store.submissions(include_hidden=True) == before
    assert board.store.integrity_check() == "ok"


def test_text_is_escaped_once_where_it_is_rendered(board_factory, reference, tmp_path) -> None:
    """Issue 11 item 2: Markdown messages escape submitter text; table cells and exports keep it as
    submitted (gr.Dataframe shows str cells as text), so nothing is escaped twice."""
    handlers = Handlers(board_factory())
    message = handlers.submit(_write(tmp_path, prediction_bytes("isovrbench", reference["isovrbench"])),
                              XSS, XSS, XSS, "", XSS, "open", None)  # fmt: skip
    assert "<" not in message and "&#60;script&#62;" in message and XSS in shown(message)  # escaped once
    table = handlers.table("isovrbench")
    row = next(r for r in table.values if r[table.headers.index("Tier")] == "submitted")
    assert [row[table.headers.index(h)] for h in ("Judge", "Model", "Revision")] == [XSS, XSS, XSS]
    cells = [str(c) for r in table.values + table.display for c in r]
    assert not any("&lt;" in c or "&amp;" in c for c in cells)
    assert "html" not in table.datatypes and "markdown" not in table.datatypes
    exported = Path(handlers.export("isovrbench", "ties_wrong", "csv")).read_text()
    assert XSS in exported and "&lt;" not in exported
    as_json = json.loads(Path(handlers.export("isovrbench", "ties_wrong", "json")).read_text())
    assert any(r["Model"] == XSS for r in as_json)
    link = handlers.submit(_write(tmp_path, prediction_bytes("isovrbench", reference["isovrbench"], seed=2), "l.jsonl"),
                           "j", "[click](https://evil.example)", "r", "", "", "open", None)  # fmt: skip
    assert "Stored" in link and "[click](https://evil.example)" in shown(link)  # shown as typed
    assert "https://" not in link and "](" not in link  # no Markdown link, nothing the renderer links
    request = handlers.request_model(XSS, "", "x", "", ["isovrbench"], None)
    assert "<script" not in request


def test_ampersand_name_is_stored_and_exported_as_submitted(board_factory, reference, tmp_path) -> None:
    name = "AT&T <b>x</b>"
    handlers = Handlers(board_factory())
    handlers.submit(_write(tmp_path, prediction_bytes("emoprefer", reference["emoprefer"])),
                    "judge", name, "r1", "", "", "open", None)  # fmt: skip
    sub = handlers.board.store.submissions("emoprefer")[0]
    assert sub.model == name
    assert handlers.table("emoprefer").column("Model") == [name]
    record = json.loads(Path(handlers.results_file(sub.id)).read_text())
    assert record["run"]["leaderboard"]["model"] == name
    csv_text = Path(handlers.export("emoprefer", "ties_wrong", "csv")).read_text()
    assert name in csv_text and "&amp;" not in csv_text


@pytest.mark.parametrize("start", ["=", "+", "-", "@"])  # a leading tab or CR is trimmed from names on submission
def test_csv_export_neutralises_formulas_and_writes_numbers_as_numbers(board_factory, reference, tmp_path,
                                                                       start) -> None:  # fmt: skip
    """A name a spreadsheet would run as a formula is written with a leading ``'`` in CSV (JSON keeps it as
    submitted); every score is a number, with its interval's ends as numbers in columns of their own."""
    import csv
    import io

    name = f"{start}HYPERLINK(\"http://x.example\",\"open\")"
    handlers = Handlers(board_factory())
    handlers.submit(_write(tmp_path, prediction_bytes("emoprefer", reference["emoprefer"])),
                    name, "org/model", "r1", "", name, "open", None)  # fmt: skip
    rows = list(csv.DictReader(io.StringIO(Path(handlers.export("emoprefer", "ties_wrong", "csv")).read_text(),
                                           newline="")))  # fmt: skip
    [mine] = [r for r in rows if r["Tier"] == "submitted"]
    assert mine["Judge"] == "'" + name
    for cell in (v for r in rows for v in r.values()):
        assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell  # '-' only in numbers, checked below
    sub = next(s for s in handlers.board.store.submissions("emoprefer") if s.kind == "verified")
    table = handlers.table("emoprefer")
    headline = table.headers[table.rank_column]
    assert float(mine[headline]) == pytest.approx(table.values[[r["Tier"] for r in rows].index("submitted")][table.rank_column])
    # the reference rows' few 2-class items: no interval, and the ends are empty cells, not text
    assert "waf_2class_ci_low" not in sub.results and (mine[f"{headline} low"], mine[f"{headline} high"]) == ("", "")
    for r in rows:  # a cell starting with '-' is a number (a negative value), never a formula-like text
        for v in r.values():
            if v.startswith("-"):
                float(v)
    exported = json.loads(Path(handlers.export("emoprefer", "ties_wrong", "json")).read_text())
    assert [r["Judge"] for r in exported if r["Tier"] == "submitted"] == [name]  # JSON: the literal text


def test_exported_ranks_are_whole_numbers(board_factory, reference, tmp_path) -> None:
    """The CSV and JSON exports write a rank as ``3``, never ``3.0``, also beside a baseline (no rank)."""
    import csv
    import io

    from mmjudge.leaderboard import SubmissionMeta
    from mmjudge.leaderboard.core.reported import seed_reported

    board = board_factory()
    seed_reported(board.store)
    rows = reference["emoprefer"]
    board.submit(prediction_bytes("emoprefer", rows, seed=1), SubmissionMeta("j", "org/m", "r1"), "local")
    board.submit(prediction_bytes("emoprefer", rows, seed=2), SubmissionMeta("floor", "floor", "demo"), "baseline",
                 reference_line=True)  # fmt: skip
    handlers = Handlers(board)
    table = list(csv.DictReader(io.StringIO(Path(handlers.export("emoprefer", "ties_wrong", "csv")).read_text())))
    ranks = [r["Rank"] for r in table]
    assert "" in ranks and all(re.fullmatch(r"\d+", r) for r in ranks if r), ranks
    assert all(re.fullmatch(r"\d+", r["id"]) for r in table)
    exported = json.loads(Path(handlers.export("emoprefer", "ties_wrong", "json")).read_text())
    assert {type(r["Rank"]) for r in exported} == {int, type(None)}


def test_admin_hides_rows_that_stay_in_the_store(board_factory, reference, tmp_path) -> None:
    handlers = Handlers(board_factory(admins=frozenset({"root"})))
    _submit(handlers, _write(tmp_path, prediction_bytes("isovrbench", reference["isovrbench"])))
    row_id = next(s.id for s in handlers.board.store.submissions("isovrbench") if s.kind == "verified")
    assert "only admins" in handlers.hide(row_id, _profile("mallory"))
    assert "only admins" in handlers.hide(row_id, None)
    assert "hidden" in handlers.hide(row_id, _profile("root"))
    assert row_id not in handlers.table("isovrbench").column("id")
    assert handlers.board.store.get_submission(row_id).hidden
    assert handlers.results_file(row_id) is None


def test_results_file_has_the_stored_scores(board_factory, reference, tmp_path) -> None:
    handlers = Handlers(board_factory())
    _submit(handlers, _write(tmp_path, prediction_bytes("emoprefer", reference["emoprefer"])))
    sub = handlers.board.store.submissions("emoprefer")[0]
    record = json.loads(Path(handlers.results_file(sub.id)).read_text())
    # a submitted row publishes its rates with their intervals, never its raw counts (3 x 3 confusion cells,
    # item counts): with those, a few uploads recover gold labels one by one
    counts = [k for k in sub.results if k.startswith(("confusion/", "n_"))]
    assert len(counts) >= 9 and not set(counts) & set(record["scores"])
    assert record["benchmark"] == "emoprefer" and record["scores"] == {
        k: v for k, v in sub.results.items() if k not in counts and k.rsplit("_ci_", 1)[0] not in counts
    }
    assert record["run"]["leaderboard"]["tier"] == "submitted"
    assert record["run"]["leaderboard"]["sha256"] == sub.sha256
    assert set(record) == {"results_version", "benchmark", "judge", "scores", "estimates", "provenance", "run"}


def test_demo_output_becomes_verified_rows_once(board_factory, reference, tmp_path) -> None:
    board = board_factory()
    for benchmark, judge in (("isovrbench", "random"), ("emoprefer", "majority"), ("mist", "constant")):
        folder = tmp_path / "demo-output" / benchmark / judge
        folder.mkdir(parents=True)
        rows = reference.get(benchmark)
        (folder / "predictions.jsonl").write_bytes(prediction_bytes(benchmark, rows) if rows else b"{}\n")
    messages = ingest_demo_output(board, tmp_path / "demo-output")
    assert sum("stored" in m for m in messages) == 2 and any("no mist labels" in m for m in messages)
    verified = [
        (s.benchmark, s.judge, s.submitter) for s in board.store.submissions() if s.kind == "verified"
    ]
    assert sorted(verified) == [("emoprefer", "majority", "baseline"), ("isovrbench", "random", "baseline")]
    again = ingest_demo_output(board, tmp_path / "demo-output")
    assert len(again) == 3 and sum("already stored as #" in m for m in again) == 2  # not scored again
    assert sum("no mist labels" in m for m in again) == 1
    assert build_table("emoprefer", board.store.submissions()).column("Judge") == ["majority"]


def test_a_baseline_is_scored_once_and_the_scorers_notes_join_its_line(data_root, reference, tmp_path,
                                                                       recwarn) -> None:  # fmt: skip
    """A note the scorer warns while a demo baseline is ingested (MIST's "alt-test not run" on the sample)
    is part of that file's start-up line, not a ``UserWarning`` with a source line; a file already stored is
    not scored again at the next start."""
    import warnings

    from mmjudge.leaderboard import Leaderboard, Settings, Store
    from mmjudge.scoring import score_predictions

    calls = []

    def noisy(predictions, rows, **options):  # type: ignore[no-untyped-def]
        calls.append(1)
        warnings.warn("alt-test not run for 2 configurations", UserWarning, stacklevel=2)
        return score_predictions(predictions, rows, **options)

    board = Leaderboard(Store(str(tmp_path / "lb.sqlite")), Settings(data_root=data_root, require_login=False),
                        rows_fn=lambda b, folder: reference[b], score_fn=noisy)  # fmt: skip
    folder = tmp_path / "demo-output" / "emoprefer" / "majority"
    folder.mkdir(parents=True)
    (folder / "predictions.jsonl").write_bytes(prediction_bytes("emoprefer", reference["emoprefer"]))
    [line] = ingest_demo_output(board, tmp_path / "demo-output")
    assert "stored as #" in line and "note: alt-test not run for 2 configurations" in line
    assert not [w for w in recwarn if issubclass(w.category, UserWarning)]
    [again] = ingest_demo_output(board, tmp_path / "demo-output")
    assert "already stored as #" in again and len(calls) == 1


def test_concurrent_exports_read_whole_files_and_one_file_serves_a_table_version(
    board_factory, reference, tmp_path
) -> None:
    """Exports are public, so each call must not write a new folder (disk grows with every anonymous call),
    and a concurrent export must never read another's half-written file: one file per table version, put
    in place atomically."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    handlers = Handlers(board_factory())
    _submit(handlers, _write(tmp_path, prediction_bytes("emoprefer", reference["emoprefer"])))
    barrier = threading.Barrier(12)

    def export(i: int) -> tuple[str, list]:
        barrier.wait()
        path = handlers.export("emoprefer", "ties_wrong", "json" if i % 2 else "csv")
        text = Path(path).read_text()
        return path, json.loads(text) if path.endswith(".json") else text.splitlines()

    with ThreadPoolExecutor(max_workers=12) as pool:
        results = list(pool.map(export, range(12)))
    paths = {p for p, _ in results}
    assert {Path(p).name for p in paths} == {"emoprefer_ties_wrong.json", "emoprefer_ties_wrong.csv"}
    assert len(paths) == 2 and all(len(content) >= 1 for _, content in results)  # whole files, read back
    for _ in range(20):  # many calls, no new file
        assert handlers.export("emoprefer", "ties_wrong", "csv") in paths
    kept = [d for d in handlers._export_dir.iterdir() if not d.name.startswith(".")]
    assert len(kept) == 2 and not any(d.name.startswith(".scratch") for d in handlers._export_dir.iterdir())
    _submit(handlers, _write(tmp_path, prediction_bytes("emoprefer", reference["emoprefer"], seed=9), "b.jsonl"),
            model="org/second")  # fmt: skip
    assert handlers.export("emoprefer", "ties_wrong", "csv") not in paths  # a new table version, a new file
