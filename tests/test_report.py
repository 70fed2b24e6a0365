"""``report.md`` breakdown tables, the terminal table of ``mmjudge eval``/``mmjudge score``, ``--json``.

Every cell of a rendered table is read back and checked against ``results.json`` with the rule written
out in :mod:`report_helpers` (not with the renderer's own formatter).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from report_helpers import (
    caption_groups,
    check_caption,
    check_cell,
    check_footnotes,
    eval_command,
    expected_note,
    needs_mark,
    split_mark,
    table_after,
)

from mmjudge.benchmarks import BreakdownTable, Cell, TableRow, cells, get_benchmark
from mmjudge.cli import main
from mmjudge.report import table_lines, value_text

BENCHMARKS = ("isovrbench", "mist", "emoprefer", "emorealm")


class Evaluated(NamedTuple):
    out: Path
    stdout: str
    results: dict[str, Any]


@pytest.fixture(scope="module")
def evaluated(sample_data: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Evaluated]:
    runs: dict[str, Evaluated] = {}
    for benchmark in BENCHMARKS:
        out = tmp_path_factory.mktemp(f"report-{benchmark}")
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            assert main(eval_command(benchmark, sample_data, out)) == 0
        results = json.loads((out / "results.json").read_text(encoding="utf-8"))
        runs[benchmark] = Evaluated(out, stdout.getvalue(), results)
    return runs


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_report_tables_equal_results_json(benchmark: str, evaluated: dict[str, Evaluated]) -> None:
    run = evaluated[benchmark]
    scores = run.results["scores"]
    report = (run.out / "report.md").read_text(encoding="utf-8")
    tables = get_benchmark(benchmark).present.report_tables(scores)  # type: ignore[misc]
    assert tables, f"{benchmark} declares no breakdown table"
    kinds: list[str] = []
    for table in tables:
        rows = table_after(report, f"### {table.title}")
        assert [r[0] for r in rows] == [r.label for r in table.rows], table.title
        for shown, row in zip(rows, table.rows, strict=True):
            assert len(shown) == len(table.header) == len(row.cells) + 1, (table.title, row.label)
            for text, cell in zip(shown[1:], row.cells, strict=True):
                if cell.key is None:
                    assert text == cell.text
                else:
                    kinds.append(
                        check_cell(text, scores, cell.key, cell.digits, cell.ci, run.results["estimates"])
                    )
    withheld = [k for k, e in run.results["estimates"].items() if e["low"] is None]
    assert kinds.count("float with CI") + len(withheld) >= 3 and "int" in kinds, kinds
    assert "## All scores" not in report and f"All {len(scores)} result keys are in `results.json`" in report
    table_rows = [line for line in report.splitlines() if line.startswith("| ")]
    assert len(table_rows) < len(scores) or benchmark == "emoprefer"  # no key/value dump


def test_isovrbench_table_has_one_row_per_intervention_plus_the_average(
    evaluated: dict[str, Evaluated],
) -> None:
    from mmjudge.benchmarks.isovrbench import INTERVENTIONS

    report = (evaluated["isovrbench"].out / "report.md").read_text(encoding="utf-8")
    rows = table_after(report, "### Accuracy per intervention (paper Tables 2 and 5)")
    assert [r[0] for r in rows] == [*INTERVENTIONS, "average"]
    assert [r[1] for r in rows[:3]] == ["motion"] * 3
    scores = evaluated["isovrbench"].results["scores"]
    check_cell(rows[-1][2], scores, "average", estimates=evaluated["isovrbench"].results["estimates"])
    assert rows[-1][-1] == str(scores["n_pairs"])


def test_emoprefer_confusion_table_counts_every_forward_item(
    evaluated: dict[str, Evaluated], sample_data: Path
) -> None:
    scores = evaluated["emoprefer"].results["scores"]
    rows = table_after(
        (evaluated["emoprefer"].out / "report.md").read_text(encoding="utf-8"),
        "### Confusion matrix of the forward pairs",
    )
    assert [r[0] for r in rows] == ["a1", "a2", "same"]
    assert sum(int(c) for r in rows for c in r[1:]) == scores["n_items"]
    # the plot's count from the records (no-judgment read as same) is the scorer's
    from mmjudge.benchmarks.emoprefer.report import confusion
    from mmjudge.predictions import read_predictions
    from mmjudge.scoring import load_reference_rows

    records = read_predictions(evaluated["emoprefer"].out / "predictions.jsonl").records
    counted = confusion(records, load_reference_rows("emoprefer", sample_data / "emoprefer"))
    assert counted == [[int(c) for c in r[1:]] for r in rows]


def test_a_missing_key_shows_a_dash_and_nan_shows_na() -> None:
    for benchmark in BENCHMARKS:
        for table in get_benchmark(benchmark).present.report_tables({}):  # type: ignore[misc]
            for line in table_lines(table, {})[4:]:
                if line.startswith("| "):
                    cells = [c.strip() for c in line.strip("|").split("|")][1:]
                    assert all(c in ("—", "") or not c[0].isdigit() for c in cells), line
    table = BreakdownTable("t", ("row", "a", "b", "c"), (TableRow("r", (Cell("a"), Cell("b"), Cell("c"))),))
    scores = {"a": math.nan, "b": None, "a_ci_low": 1.0, "a_ci_high": 2.0}
    assert table_lines(table, scores)[-1] == "| r | n/a | n/a | — |"


@pytest.mark.parametrize(
    ("scores", "digits", "ci"),
    [
        ({"k": 72.345, "k_ci_low": 66.5, "k_ci_high": 77.41}, 1, True),
        ({"k": 72.345, "k_ci_low": 66.5, "k_ci_high": 77.41}, 1, False),
        ({"k": 0.2471, "k_ci_low": -0.0049, "k_ci_high": 0.409}, 3, True),
        ({"k": 50.0, "k_ci_low": 31.0}, 1, True),  # one bound only: no interval
        ({"k": 50.0, "k_ci_low": math.nan, "k_ci_high": math.nan}, 1, True),
        ({"k": 50.0, "k_ci_low": None, "k_ci_high": None}, 1, True),  # as results.json stores NaN
        ({"k": 12}, 1, True),
        ({"k": False}, 1, True),
        ({"k": "official"}, 1, True),
        ({"k": None}, 1, True),
        ({}, 1, True),
    ],
)
def test_value_text_follows_the_rule(scores: dict[str, Any], digits: int, ci: bool) -> None:
    check_cell(value_text(scores, "k", digits, ci), scores, "k", digits, ci)


def headline_rows(stdout: str, benchmark: str) -> list[list[str]]:
    lines = [line for line in stdout.splitlines() if line.startswith("| ")]
    assert lines[0].split("|")[1].strip() == "benchmark", stdout
    return [[c.strip() for c in line.strip("|").split("|")] for line in lines if f"| {benchmark} " in line]


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_eval_ends_with_the_headline_table(benchmark: str, evaluated: dict[str, Evaluated]) -> None:
    run = evaluated[benchmark]
    scores, judge = run.results["scores"], run.results["judge"]
    rows = headline_rows(run.stdout, benchmark)
    headline = get_benchmark(benchmark).metrics.headline
    assert [r[3] for r in rows] == list(headline)
    for row in rows:
        assert row[:3] == [benchmark, judge, "-"]
        check_cell(row[4], scores, row[3], estimates=run.results["estimates"])
    lines = run.stdout.rstrip().splitlines()
    last = max(k for k, line in enumerate(lines) if line.startswith(f"| {benchmark} "))
    footnotes = lines[last + 1 :]
    assert footnotes[:1] == ([""] if footnotes else [])
    check_footnotes([(r[3], r[4]) for r in rows], footnotes[1:], run.results["estimates"])


def test_score_prints_the_table_and_json_only_when_asked(
    evaluated: dict[str, Evaluated], sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = evaluated["mist"]
    command = ["score", str(run.out / "predictions.jsonl"), "--data", str(sample_data / "mist")]
    assert main(command) == 0
    text = capsys.readouterr().out
    rows = headline_rows(text, "mist")
    assert "{" not in text and len(rows) == len(get_benchmark("mist").metrics.headline)
    for row in rows:
        check_cell(row[4], run.results["scores"], row[3], estimates=run.results["estimates"])
    check_footnotes(
        [(r[3], r[4]) for r in rows], text.splitlines()[3 + len(rows) :], run.results["estimates"]
    )

    assert main([*command, "--mode", "strict"]) == 0
    assert {r[2] for r in headline_rows(capsys.readouterr().out, "mist")} == {"mode=strict"}

    assert main([*command, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == run.results["scores"]

    out = tmp_path / "re.json"
    assert main([*command, "--json", "--out", str(out)]) == 0
    assert (
        json.loads(capsys.readouterr().out) == json.loads(out.read_text())["scores"] == run.results["scores"]
    )
    assert main([*command, "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == str(out)


@pytest.mark.parametrize("benchmark", ["mist"])
def test_a_weight_free_judge_is_named_weight_free_not_model_none(
    benchmark: str, evaluated: dict[str, Evaluated]
) -> None:
    """The sample runs use a weight-free judge: the report says so instead of "model `None` (revision `None`)"."""
    report = (evaluated[benchmark].out / "report.md").read_text(encoding="utf-8")
    assert "`None`" not in report, report.splitlines()[2]
    assert "weight-free judge (no model weights)" in report.splitlines()[2]


def _paragraphs_after(text: str, heading: str) -> list[str]:
    """The non-table lines from ``heading`` to the next heading."""
    lines = text.splitlines()
    start = lines.index(heading) + 1
    end = next((k for k in range(start, len(lines)) if lines[k].startswith("#")), len(lines))
    return [line for line in lines[start:end] if line and not line.startswith("|")]


def _caption(paragraphs: list[str]) -> str:
    found = [p for p in paragraphs if re.match(r"(\d+% intervals|Withheld): ", p)]
    assert len(found) <= 1, found
    return found[0] if found else ""


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_every_interval_caption_repeats_the_recorded_methods(
    benchmark: str, evaluated: dict[str, Evaluated]
) -> None:
    """Under each table, the headline and the plot: the confidence and method of each interval shown (the reason
    of each withheld one), as results.json records them; no hand-written method words in the notes."""
    run = evaluated[benchmark]
    scores, estimates = run.results["scores"], run.results["estimates"]
    report = (run.out / "report.md").read_text(encoding="utf-8")
    tables = get_benchmark(benchmark).present.report_tables(scores)  # type: ignore[misc]
    checked = 0
    for table in tables:
        shown = [
            c.key
            for row in table.rows
            for c in row.cells
            if c.key and c.ci and isinstance(scores.get(c.key), float)
        ]
        caption = _caption(_paragraphs_after(report, f"### {table.title}"))
        check_caption(caption, shown, estimates)
        checked += bool(caption)
        for method in {e["method"] for e in estimates.values()}:
            assert method not in table.note
    headline = get_benchmark(benchmark).metrics.headline
    check_caption(_caption(_paragraphs_after(report, "## Headline")), list(headline), estimates)
    plot = next((p for p in _paragraphs_after(report, "## Headline") if "Error bars: " in p), None)
    if plot is not None:
        caption = plot.split("Error bars: ", 1)[1]
        drawn = [k for _, names, _ in caption_groups(caption) for k in names]
        assert drawn, plot
        check_caption(
            caption, [k for k in estimates if any(k.startswith(n.rstrip("*")) for n in drawn)], estimates
        )
    assert checked, benchmark  # some table shows an interval or a withheld one
    words = re.compile(r"wilson|bootstrap|jackknife|percentile", re.IGNORECASE)
    for line in report.splitlines():  # method words only where a caption repeats a record
        if words.search(line):
            assert re.match(r"(\d+% intervals|Withheld): ", line) or "Error bars: " in line, line


def test_a_thin_run_is_marked_in_the_terminal_table_and_the_report(evaluated: dict[str, Evaluated]) -> None:
    """EmoReAlM's sample: 10 questions on 5 clips. Each interval resting on fewer than 30 clips is marked where it
    is shown, and the mark's footnote says why, as the recorded estimate has it."""
    run = evaluated["emorealm"]
    estimates = run.results["estimates"]
    assert any(needs_mark(e) for e in estimates.values()), estimates  # the run is thin
    report = (run.out / "report.md").read_text(encoding="utf-8")
    rows = table_after(report, "## Headline")
    for key_cell, _value, interval in rows:
        key = key_cell.strip("`")
        assert bool(split_mark(interval)[1]) == needs_mark(estimates.get(key)), (key, interval)
    check_footnotes(
        [(r[0].strip("`"), r[2]) for r in rows],
        [
            n
            for p in _paragraphs_after(report, "## Headline")
            if p[0] in "†‡§¶"
            for n in re.split(r"; (?=[†‡§¶])", p)
        ],
        estimates,
    )
    marked = [c for c in headline_rows(run.stdout, "emorealm") if split_mark(c[4])[1]]
    assert marked == [r for r in headline_rows(run.stdout, "emorealm") if needs_mark(estimates.get(r[3]))]
    assert marked, run.stdout  # the headline `overall` rests on 5 clips
    for table in get_benchmark("emorealm").present.report_tables(run.results["scores"]):  # type: ignore[misc]
        cells = [(c.key, text) for row, shown in zip(table.rows, table_after(report, f"### {table.title}"), strict=True)
                 for c, text in zip(row.cells, shown[1:], strict=True) if c.key]  # fmt: skip
        footnotes = [p for p in _paragraphs_after(report, f"### {table.title}") if p[0] in "†‡§¶"]
        check_footnotes(cells, [n for p in footnotes for n in re.split(r"; (?=[†‡§¶])", p)], estimates)


def _thin_scores(n_clips: int) -> Any:
    """EmoReAlM scores of 2 questions on each of ``n_clips`` clips, one task."""
    from mmjudge.benchmarks.emorealm import score

    n = 2 * n_clips
    return score(["A", "B"] * n_clips, ["A"] * n, ["reasoning_basic_audio"] * n,
                 clusters=[f"clip{k // 2}" for k in range(n)], n_resamples=200)  # fmt: skip


def test_a_withheld_interval_shows_its_reason_in_every_table() -> None:
    from mmjudge.benchmarks import Scores
    from mmjudge.report import score_table

    reason = "no interval: 3 clips (at least 5 needed)"
    scores = Scores(
        {"overall": 40.0, "accuracy/modality_agreement": 50.0, "n/modality_agreement": 6},
        {k: {"method": f"none: {reason}", "n_units": 6, "n_clusters": 3, "cluster": "clip", "confidence": 0.95}
         for k in ("overall", "accuracy/modality_agreement")},
    )  # fmt: skip
    lines = score_table("emorealm", "j", [("", scores)]).splitlines()
    assert lines[2].endswith("| 40.0† |") and lines[3:] == ["", f"† {reason}"]
    table = BreakdownTable("t", ("task", "accuracy", "n"), (TableRow("m", cells("accuracy/modality_agreement", "n/modality_agreement")),))  # fmt: skip
    assert table_lines(table, scores)[4:] == [
        "| m | 50.0† | 6 |", "", f"Withheld: accuracy/modality_agreement — {reason}.", "", f"† {reason}"
    ]  # fmt: skip


def test_a_thin_interval_over_a_dozen_clips_is_marked_with_its_clusters() -> None:
    from mmjudge.report import score_table
    from mmjudge.results import estimates_of

    scores = _thin_scores(12)
    overall = estimates_of("emorealm", scores)["overall"].to_json()
    assert overall["low"] is not None and overall["n_clusters"] == 12
    lines = score_table("emorealm", "j", [("", scores)]).splitlines()
    assert lines[2].endswith("]† |") and lines[3:] == ["", f"† {expected_note(overall)}"]
