"""The frame-count sweep summary: ``sweep.md``, ``sweep.json`` and ``sweep.png`` equal each ``frames_<n>``."""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path

import pytest
from report_helpers import check_cell, eval_command, table_after

from mmjudge.cli import main
from mmjudge.runner import SweepRun, write_sweep

COUNTS = (4, 8, 16)


@pytest.fixture(scope="module")
def swept(sample_data: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("sweep")
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        frames = ",".join(map(str, COUNTS))
        assert main(eval_command("isovrbench", sample_data, out, "--frames", frames)) == 0
    return out, stdout.getvalue()


def results_of(out: Path, part: str = "scores") -> dict[int, dict]:
    return {n: json.loads((out / f"frames_{n}" / "results.json").read_text())[part] for n in COUNTS}


def test_sweep_json_equals_each_frame_counts_results(swept: tuple[Path, str]) -> None:
    from mmjudge.benchmarks.isovrbench import INTERVENTIONS

    out, _ = swept
    sweep = json.loads((out / "sweep.json").read_text())
    scores = results_of(out)
    assert sweep["benchmark"] == "isovrbench" and sweep["frames"] == list(COUNTS)
    assert sweep["results"] == {str(n): f"frames_{n}/results.json" for n in COUNTS}
    assert [s["key"] for s in sweep["series"]] == [*(f"accuracy/{n}" for n in INTERVENTIONS), "average"]
    for series in sweep["series"]:
        assert [p["frames"] for p in series["points"]] == list(COUNTS)
        for point in series["points"]:
            stored = scores[point["frames"]]
            for field, key in (("value", ""), ("ci_low", "_ci_low"), ("ci_high", "_ci_high")):
                assert point[field] == stored.get(series["key"] + key), (series["key"], point)
    band = [p for s in sweep["series"] for p in s["points"] if p["ci_low"] is not None]
    assert all(p["ci_low"] <= p["value"] <= p["ci_high"] for p in band)
    estimates = results_of(out, "estimates")  # a point without a band: results.json says why
    for series in sweep["series"]:
        for point in series["points"]:
            if point["ci_low"] is None:
                assert estimates[point["frames"]][series["key"]]["method"].startswith("none: no interval: ")


def test_sweep_md_table_equals_each_frame_counts_results(swept: tuple[Path, str]) -> None:
    out, _ = swept
    text = (out / "sweep.md").read_text()
    scores, estimates = results_of(out), results_of(out, "estimates")
    header = next(line for line in text.splitlines() if line.startswith("| series"))
    assert header == "| series | key | " + " | ".join(f"{n} frames" for n in COUNTS) + " |"
    rows = table_after(text, header)
    assert len(rows) == 9 and "![isovrbench frame-count sweep](sweep.png)" in text
    for row in rows:
        key = row[1].strip("`")
        for shown, n in zip(row[2:], COUNTS, strict=True):
            kind = check_cell(shown, scores[n], key, estimates=estimates[n])
            assert kind == "float with CI" or estimates[n][key]["low"] is None, (key, n, shown)


def test_sweep_plot_and_terminal(swept: tuple[Path, str]) -> None:
    from PIL import Image

    out, stdout = swept
    with Image.open(out / "sweep.png") as image:
        assert image.width >= 600 and image.height >= 400
    assert f"sweep: {out / 'sweep.md'}" in stdout
    rows = [line for line in stdout.splitlines() if line.startswith("| isovrbench ")]
    assert [r.split("|")[3].strip() for r in rows] == [f"frames={n}" for n in COUNTS]
    for row, n in zip(rows, COUNTS, strict=True):
        check_cell(
            row.split("|")[5].strip(),
            results_of(out)[n],
            "average",
            estimates=results_of(out, "estimates")[n],
        )


def test_a_benchmark_without_declared_series_follows_its_headline(tmp_path: Path) -> None:
    runs = [
        SweepRun(8, tmp_path / "frames_8" / "results.json", {"overall": 40.0, "overall_ci_low": 30.0, "overall_ci_high": 50.0}),
        SweepRun(4, tmp_path / "frames_4" / "results.json", {"overall": math.nan, "overall_ci_low": math.inf}),
        SweepRun(16, tmp_path / "frames_16" / "results.json", {}),
    ]  # fmt: skip
    files = write_sweep(tmp_path, "emorealm", "random", runs)
    sweep = json.loads(files.json.read_text())
    assert sweep["frames"] == [4, 8, 16]
    (series,) = sweep["series"]
    assert series["key"] == "overall"
    assert [p["value"] for p in series["points"]] == [None, 40.0, None]
    assert [p["ci_low"] for p in series["points"]] == [None, 30.0, None]
    row = table_after(files.markdown.read_text(), "| series | key | 4 frames | 8 frames | 16 frames |")[0]
    assert row == ["overall", "`overall`", "n/a", "40.0 [30.0, 50.0]", "—"]
    assert files.plot.stat().st_size > 1000
