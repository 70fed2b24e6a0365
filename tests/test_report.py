"""``report.md`` breakdown tables, the terminal table of ``mmjudge eval``/``mmjudge score``, ``--json``.

Every cell of a rendered table is read back and checked against ``results.json`` with the rule written
out in :mod:`report_helpers` (not with the renderer's own formatter).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from report_helpers import check_cell, eval_command, table_after

from mmjudge.benchmarks import BreakdownTable, Cell, TableRow, get_benchmark
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
                    kinds.append(check_cell(text, scores, cell.key, cell.digits, cell.ci))
    assert kinds.count("float with CI") >= 3 and "int" in kinds, kinds
    assert "## All scores" not in report and f"All {len(scores)} result keys are in `results.json`" in report
    assert len(report.splitlines()) < len(scores) or benchmark == "emoprefer"  # no key/value dump


def test_isovrbench_table_has_one_row_per_intervention_plus_the_average(
    evaluated: dict[str, Evaluated],
) -> None:
    from mmjudge.benchmarks.isovrbench import INTERVENTIONS

    report = (evaluated["isovrbench"].out / "report.md").read_text(encoding="utf-8")
    rows = table_after(report, "### Accuracy per intervention (paper Tables 2 and 5)")
    assert [r[0] for r in rows] == [*INTERVENTIONS, "average"]
    assert [r[1] for r in rows[:3]] == ["motion"] * 3
    scores = evaluated["isovrbench"].results["scores"]
    check_cell(rows[-1][2], scores, "average")  # the Table 2 'Avg.' with its bootstrap CI
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
        check_cell(row[4], scores, row[3])
    assert run.stdout.rstrip().splitlines()[-1].startswith(f"| {benchmark} ")


def test_score_prints_the_table_and_json_only_when_asked(
    evaluated: dict[str, Evaluated], sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = evaluated["mist"]
    command = ["score", str(run.out / "predictions.jsonl"), "--data", str(sample_data / "mist")]
    assert main(command) == 0
    text = capsys.readouterr().out
    assert "{" not in text and len(text.splitlines()) == 2 + len(get_benchmark("mist").metrics.headline)
    for row in headline_rows(text, "mist"):
        check_cell(row[4], run.results["scores"], row[3])

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
def test_a_weight_free_judge_is_named_weight_free_not_model_none(benchmark: str, evaluated: dict[str, Evaluated]) -> None:
    """The sample runs use a weight-free judge: the report says so instead of "model `None` (revision `None`)"."""
    report = (evaluated[benchmark].out / "report.md").read_text(encoding="utf-8")
    assert "`None`" not in report, report.splitlines()[2]
    assert "weight-free judge (no model weights)" in report.splitlines()[2]
