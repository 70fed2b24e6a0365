"""``mmjudge demo``: sample data -> every registered baseline -> reports, said plainly."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from report_helpers import check_cell, check_footnotes

from mmjudge.cli import main
from mmjudge.commands import demo
from mmjudge.robustness import read_report


def test_demo_runs_every_registered_baseline_and_says_what_it_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(demo, "BASELINES", (*demo.BASELINES, "majority_not_written"))
    out = tmp_path / "demo-output"
    assert main(["demo", "--out", str(out), "--benchmark", "emoprefer", "--benchmark", "mist"]) == 0
    text = capsys.readouterr().out
    assert "SYNTHETIC" in text and "BASELINES" in text and "say nothing about any model" in text
    assert "not registered, skipped: majority_not_written" in text
    from mmjudge.judges import get_judge

    expected = [
        (b, name)
        for b in ("emoprefer", "mist")
        for name in demo.BASELINES[:-1]
        if b in get_judge(name).benchmarks
    ]
    assert expected, "no baseline judges these benchmarks"
    for benchmark, name in expected:
        folder = out / benchmark / name
        assert {"predictions.jsonl", "results.json", "report.md"} <= {p.name for p in folder.iterdir()}
        assert f"| {benchmark} | {name} | " in text
        assert json.loads((folder / "results.json").read_text())["benchmark"] == benchmark
        robustness = read_report(folder / "robustness.json")  # validated against the schema
        assert robustness["base"]["judged"] == 0  # the eval's cache answered the benchmark's own items
        assert {"robustness.md", "robustness_summary.json"} <= {p.name for p in folder.iterdir()}
        assert f"| {folder / 'robustness.md'} |" in text
    assert (out / "summary.md").read_text().count("report.md") == len(expected)
    assert_summary_equals_results(out, expected)
    swapped = (out / "emoprefer" / expected[0][1] / "predictions.jsonl").read_text()
    assert '"order": "reversed"' in swapped

    assert main(["demo", "--out", str(out), "--benchmark", "emoprefer"]) == 0
    assert "reusing the small synthetic sample" in capsys.readouterr().out


def assert_summary_equals_results(out: Path, runs: list[tuple[str, str]]) -> None:
    """Each headline score in ``summary.md`` is ``results.json``'s, with its CI and the mark of a thin or
    withheld interval, in the reports' format; the marks are explained after the table."""
    from mmjudge.benchmarks import get_benchmark

    lines = (out / "summary.md").read_text().splitlines()
    with_ci = 0
    marked: list[tuple[str, str]] = []
    recorded: dict[str, dict] = {}
    for benchmark, name in runs:
        results = json.loads((out / benchmark / name / "results.json").read_text())
        cell = next(line for line in lines if line.startswith(f"| {benchmark} | {name} | ")).split(" | ")[2]
        for key in get_benchmark(benchmark).metrics.headline:
            found = re.search(rf"(?:^|, ){re.escape(key)} (\S+(?: \[[^\]]*\]\S*)?)(?:,|$)", cell)
            assert found, (key, cell)
            kind = check_cell(found.group(1), results["scores"], key, estimates=results["estimates"])
            with_ci += kind == "float with CI" or results["estimates"].get(key, {}).get("low", 0) is None
            marked.append((f"{benchmark}/{name}/{key}", found.group(1)))
            recorded[f"{benchmark}/{name}/{key}"] = results["estimates"].get(key)
    assert with_ci >= len(runs)
    last = max(k for k, line in enumerate(lines) if line.startswith("| "))
    footnotes = [n for line in lines[last + 1 :] if line for n in re.split(r"; (?=[†‡§¶])", line)]
    check_footnotes(marked, footnotes, recorded)


@pytest.mark.slow
def test_the_full_demo_writes_a_report_per_benchmark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "demo-output"
    assert main(["demo", "--out", str(out)]) == 0, capsys.readouterr().out
    for benchmark in ("isovrbench", "mist", "emoprefer", "emorealm"):
        assert list((out / benchmark).glob("*/report.md")), benchmark


def test_a_baseline_whose_items_fail_with_an_error_fails_the_demo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mmjudge.benchmarks import write_sample_data

    monkeypatch.setattr(demo, "BASELINES", ("sharpness",))
    out = tmp_path / "demo-output"
    write_sample_data(out / "sample-data", size="small", benchmarks=["isovrbench"])  # the demo reuses it
    for clip in (out / "sample-data" / "isovrbench").rglob("*.mp4"):
        clip.write_bytes(b"\x00\x00\x00 not an mp4 at all")
    assert main(["demo", "--out", str(out), "--benchmark", "isovrbench"]) == 3
    captured = capsys.readouterr()
    assert "1 of 1 runs had items that failed with an error" in captured.err
    row = next(line for line in captured.out.splitlines() if line.startswith("| isovrbench | sharpness | "))
    assert "items failed with an error; first errors: " in row and "MediaError: " in row
    assert (out / "isovrbench" / "sharpness" / "report.md").is_file()  # written all the same
