"""``mmjudge correlate``: the IsoVRBench paper's Table 15 and Appendix K from its published rows, the exact
permutation test against a brute-force enumeration, the intervals' refusals, and results files replacing columns."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest

from mmjudge.benchmarks import get_benchmark
from mmjudge.cli import main
from mmjudge.correlation import correlate, load_analysis, pearson, spearman
from mmjudge.errors import ConfigError, SchemaError
from mmjudge.results import write_results

# Table 15 as printed in the paper (Appendix N), rows in the analysis's order, columns in its target order.
PRINTED_TABLE_15 = {
    "VideoGen-RewardBench": [+0.15, +0.73, -0.50, +0.63, +0.43, -0.20, +0.62, +0.57],
    "GenAI-Bench": [-0.15, +0.13, -0.48, +0.50, +0.37, +0.27, +1.00, +0.87],
    "VBench-2.0": [+0.09, -0.61, -0.08, -0.46, +0.34, +0.56, +0.39, +0.60],
    "TemporalBench": [+0.37, +0.52, +0.03, +0.67, +0.07, -0.15, +0.34, +0.19],
    "TempCompass": [+0.28, +0.72, -0.20, +0.80, +0.22, -0.17, +0.48, +0.27],
}
# Appendix K's running text: (y, without) -> r as printed.
PRINTED_APPENDIX_K = {
    ("Temporal Shuffle", None): +0.79, ("Frame Hold", None): +0.72,
    ("Temporal Shuffle", "LiFT"): +0.40, ("Frame Hold", "LiFT"): +0.31,
}  # fmt: skip


@pytest.fixture(scope="module")
def paper():
    return correlate(load_analysis(), resamples=2_000)


def test_table_15_reproduces_all_40_printed_cells(paper):
    assert [p.label for p in paper.published] == list(PRINTED_TABLE_15)
    got = {p: [round(c.correlation.value, 2) for c in paper.spearman if c.benchmark == p] for p in PRINTED_TABLE_15}
    assert got == PRINTED_TABLE_15
    assert all(c.correlation.n == 9 for c in paper.spearman)


def test_appendix_k_reproduces_the_four_printed_correlations(paper):
    got = {(c.y, c.without): round(c.correlation.value, 2) for c in paper.linear}
    assert got == PRINTED_APPENDIX_K
    assert {c.correlation.n for c in paper.linear if c.without is None} == {11}  # the eleven judges of Table 2
    assert {c.correlation.n for c in paper.linear if c.without} == {10}


def _brute_force_p(x, y) -> float:
    """The rule as stated: every one of the n! pairings, p = share with |ρ*| >= |ρ| (ranks with ties averaged)."""
    rx = pd.Series(x).rank().to_numpy()
    ry = pd.Series(y).rank().to_numpy()

    def rho(a, b):
        a, b = a - a.mean(), b - b.mean()
        return (a * b).sum(-1) / np.sqrt((a * a).sum(-1) * (b * b).sum(-1))

    observed = abs(rho(rx, ry))
    perms = np.array(list(itertools.permutations(range(len(x)))))
    null = np.abs(rho(rx[perms], np.broadcast_to(ry, perms.shape)))
    return float(np.mean(null >= observed - 1e-12))


@pytest.mark.parametrize(("benchmark", "column"), [
    ("VideoGen-RewardBench", "Frame Hold"),   # p just under 0.05
    ("VBench-2.0", "Frame Hold"),             # ties in the published column (63.3 twice, 66.2 twice)
    ("TemporalBench", "Attr. Edit"),          # ties (2.7 twice), p just above 0.05
    ("GenAI-Bench", "TI2V-5B prompt"),        # ρ = +1: p = 2 / 9!
])  # fmt: skip
def test_exact_permutation_p_equals_brute_force_enumeration(paper, benchmark, column):
    cell = next(c for c in paper.spearman if c.benchmark == benchmark and c.column == column)
    pub = next(p for p in paper.published if p.label == benchmark)
    tgt = next(t for t in paper.target if t.label == column)
    x, y = [pub.values[j] for j in cell.judges], [tgt.values[j] for j in cell.judges]
    assert cell.correlation.p_value == pytest.approx(_brute_force_p(x, y), abs=1e-12)
    assert cell.correlation.value == pytest.approx(pd.Series(x).corr(pd.Series(y), method="spearman"), abs=1e-12)


def test_marks_follow_the_exact_test(paper):
    marked = {(c.benchmark, c.column) for c in paper.spearman if c.significant}
    assert marked == {("VideoGen-RewardBench", "Frame Hold"), ("GenAI-Bench", "TI2V-5B prompt"),
                      ("GenAI-Bench", "Wan2.1-1.3B"), ("TempCompass", "Frame Hold"), ("TempCompass", "Attr. Edit")}  # fmt: skip
    assert all((c.correlation.p_value < 0.05) == c.significant for c in paper.spearman)


def test_perfect_order_gets_no_interval_and_says_why(paper):
    cell = next(c for c in paper.spearman if c.benchmark == "GenAI-Bench" and c.column == "TI2V-5B prompt")
    assert cell.correlation.value == pytest.approx(1.0)
    assert math.isnan(cell.correlation.low) and math.isnan(cell.correlation.high)
    assert "cannot bound" in cell.correlation.note
    others = [c for c in paper.spearman if c is not cell]
    assert all(c.correlation.low <= c.correlation.value <= c.correlation.high for c in others)
    assert all(c.correlation.high > c.correlation.low for c in others)


def test_bootstrap_interval_is_the_percentile_of_resampled_judges():
    x, y = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [2.0, 1.0, 4.0, 3.0, 6.0, 5.0]
    got = spearman(x, y, resamples=500, seed=3)
    rng = np.random.default_rng(3)
    picks = rng.integers(0, 6, size=(500, 6))
    reference = []
    for row in picks:
        a, b = pd.Series(np.array(x)[row]), pd.Series(np.array(y)[row])
        if a.nunique() > 1 and b.nunique() > 1:
            reference.append(a.corr(b, method="spearman"))
    assert (got.low, got.high) == pytest.approx(tuple(np.quantile(reference, [0.025, 0.975])), abs=1e-12)


@pytest.mark.parametrize(("x", "y", "why"), [
    ([1.0, 2.0], [2.0, 1.0], "2 judges"),
    ([1.0, 1.0, 1.0, 1.0], [1.0, 2.0, 3.0, 4.0], "constant"),
    ([], [], "0 judges"),
    ([1.0, math.nan, 3.0, 4.0], [1.0, 2.0, math.nan, 4.0], "2 judges"),
])  # fmt: skip
def test_no_rho_without_enough_judges_or_spread(x, y, why):
    got = spearman(x, y, resamples=50)
    assert math.isnan(got.value) and math.isnan(got.p_value) and why in got.note


def test_pearson_equals_numpy_and_withholds_the_interval_at_three_judges():
    x, y = [77.6, 79.7, 81.3, 22.7, 52.5], [52.6, 47.7, 45.0, 11.9, 38.2]
    got = pearson(x, y)
    assert got.value == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-12)
    z, half = np.arctanh(got.value), 1.959963984540054 / math.sqrt(len(x) - 3)
    assert (got.low, got.high) == pytest.approx((math.tanh(z - half), math.tanh(z + half)), abs=1e-9)
    three = pearson(x[:3], y[:3])
    assert math.isnan(three.low) and "4 judges" in three.note


def test_beyond_ten_judges_the_test_is_monte_carlo_and_says_so():
    rng = np.random.default_rng(0)
    got = spearman(rng.normal(size=12), rng.normal(size=12), resamples=100)
    assert "Monte Carlo" in got.method and 0.0 < got.p_value <= 1.0


def _results(path, benchmark, judge, scores):
    return write_results(path, benchmark, judge, scores, provenance={}, run={})


def test_results_files_replace_their_benchmarks_columns_and_keep_the_rest(tmp_path):
    analysis = load_analysis()
    paper = correlate(analysis, resamples=200)
    rows = {r["judge"]: r["results"] for r in get_benchmark("isovrbench").reported()["rows"]}
    files = []
    for k, judge in enumerate(analysis.judges):
        scores = dict(rows[judge])
        if judge == "LiFT":  # LiFT now best on Frame Hold: its ranks move
            scores["decided_accuracy/frame_hold"] = 99.0
        files.append(_results(tmp_path / f"r{k}.json", "isovrbench", judge.lower(), scores))
    renames = {j.lower(): j for j in analysis.judges}
    mine = correlate(analysis, files, rename=renames, resamples=200)
    frame_hold = next(t for t in mine.target if t.label == "Frame Hold")
    assert frame_hold.source == "results files" and frame_hold.values["LiFT"] == 99.0
    assert all(p.source.startswith("paper") for p in mine.published)
    changed = {(c.benchmark, c.column) for c, d in zip(mine.spearman, paper.spearman, strict=True)
               if round(c.correlation.value, 6) != round(d.correlation.value, 6)}  # fmt: skip
    assert changed == {(p.label, "Frame Hold") for p in mine.published}
    # without the renames the files' judges meet none of the paper's published rows
    apart = correlate(analysis, files, resamples=200)
    assert all(c.correlation.n == 0 and "0 judges" in c.correlation.note for c in apart.spearman)


def test_bad_results_files_are_refused_with_what_to_do(tmp_path):
    analysis = load_analysis()
    one = _results(tmp_path / "a.json", "isovrbench", "j", {"decided_accuracy/frame_hold": 50.0})
    two = _results(tmp_path / "b.json", "isovrbench", "j", {"decided_accuracy/frame_hold": 51.0})
    with pytest.raises(SchemaError, match="second isovrbench results file for judge 'j'"):
        correlate(analysis, [one, two])
    other = _results(tmp_path / "c.json", "mist", "j", {})
    with pytest.raises(SchemaError, match="a 'mist' results file"):
        correlate(analysis, [other])
    with pytest.raises(ConfigError, match="--without 'Nobody'"):
        correlate(analysis, without="Nobody")
    with pytest.raises(ConfigError, match="--rename maps two judges"):
        correlate(analysis, rename={"LiFT": "PickScore"})


def test_cli_writes_the_tables_json_and_figure(tmp_path, capsys):
    out = tmp_path / "corr"
    assert main(["correlate", "--out", str(out), "--resamples", "300"]) == 0
    printed = capsys.readouterr().out
    assert "+0.73*" in printed and "without LiFT: +0.40" in printed
    record = json.loads((out / "correlate.json").read_text())
    assert len(record["spearman"]) == 40 and len(record["pearson"]) == 4
    perfect = next(c for c in record["spearman"] if c["benchmark"] == "GenAI-Bench" and c["column"] == "TI2V-5B prompt")
    assert perfect["ci_low"] is None and perfect["significant"] is True
    markdown = (out / "correlate.md").read_text()
    assert "**+0.73**" in markdown and "| VBench-2.0 |" in markdown and "correlate.png" in markdown
    assert (out / "correlate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["correlate", "--out", str(out), "--rename", "oops"]) == 1
    assert "--rename 'oops': expected JUDGE=NAME" in capsys.readouterr().err


@pytest.mark.parametrize("column", [p for p in load_analysis().published if p["benchmark"]], ids=lambda p: p["benchmark"])
def test_published_columns_with_a_benchmark_here_equal_its_published_rows_and_name_a_scorer_key(column):
    spec = get_benchmark(column["benchmark"])
    reported = {r["judge"]: r["results"][column["key"]] for r in spec.reported()["rows"]}
    assert column["values"] == reported
    assert spec.metrics.result_key(column["key"]).higher_is_better
