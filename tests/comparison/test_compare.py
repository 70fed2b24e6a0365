"""``mmjudge compare`` end to end on real ``mmjudge eval`` runs of weight-free judges, and its refusals."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from mmjudge.benchmarks import get_benchmark
from mmjudge.cli import main
from mmjudge.predictions import read_predictions
from mmjudge.scoring import load_reference_rows

JUDGES = {"isovrbench": ("random", "sharpness"), "mist": ("random", "constant"),
          "emoprefer": ("random", "constant"), "emorealm": ("random", "constant")}  # fmt: skip
MEDIA = {"emoprefer": "raw/emoprefer/MER2025", "emorealm": "raw/emorealm/DFEW"}


def eval_run(data: Path, benchmark: str, judge: str, out: Path, *extra: str) -> Path:
    media = ["--media-root", str(data / MEDIA[benchmark])] if benchmark in MEDIA else []
    argv = ["eval", "--benchmark", benchmark, "--judge", judge, "--data", str(data / benchmark), *media,
            "--out", str(out), "--no-progress", "--decode-workers", "0", *extra]  # fmt: skip
    assert main(argv) == 0
    return out


@pytest.fixture(scope="module")
def runs(sample_data: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    root = tmp_path_factory.mktemp("compare-runs")
    return {
        b: tuple(eval_run(sample_data, b, j, root / f"{b}-{j}") for j in judges)  # type: ignore[misc]
        for b, judges in JUDGES.items()
    }


def compare(*argv: str | Path) -> int:
    return main(["compare", *map(str, argv)])


def scores(run: Path) -> dict:
    return json.loads((run / "results.json").read_text())["scores"]


@pytest.mark.parametrize("benchmark", list(JUDGES))
def test_the_difference_is_the_scorers_and_mcnemar_is_statsmodels(
    benchmark: str, runs: dict, sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, other = runs[benchmark]
    out = tmp_path / "cmp"
    assert compare(base, other, "--data", sample_data / benchmark, "--out", out, "--n-resamples", "400") == 0
    assert "difference [CI]" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == ["compare.json", "compare.md", "compare.png"]
    report = json.loads((out / "compare.json").read_text())
    spec = get_benchmark(benchmark)
    keys = [k for k in spec.metrics.paired_keys if k in scores(base) and k in scores(other)]
    assert set(spec.metrics.headline) & set(scores(base)) <= set(keys)  # every headline key of the runs is compared
    assert [c["key"] for c in report["comparisons"]] == keys
    rows = load_reference_rows(benchmark, sample_data / benchmark)
    for c in report["comparisons"]:
        a, b = scores(other).get(c["key"]), scores(base).get(c["key"])
        # undefined for a judge (e.g. MIST direction of a judge that never changes a label)
        if a is None or b is None:
            assert c["difference"] is None and c["note"]
            continue
        assert c["difference"] == a - b  # exactly the scorer's numbers
        if c["ci_low"] is not None:
            assert c["ci_low"] <= c["difference"] <= c["ci_high"]
        if c["mcnemar"] is not None:
            outcomes = [
                spec.key_outcomes(
                    c["key"], read_predictions(r / "predictions.jsonl").records, rows, scores(r)
                )
                for r in (other, base)
            ]
            ua, ub = (np.array(u.binary()) for u in outcomes)
            keep = ~(np.isnan(ua) | np.isnan(ub))
            ua, ub = ua[keep] == 1, ub[keep] == 1
            table = [[np.sum(ua & ub), np.sum(ua & ~ub)], [np.sum(~ua & ub), np.sum(~ua & ~ub)]]
            assert c["mcnemar"]["p_value"] == pytest.approx(mcnemar(table, exact=True).pvalue, rel=1e-12)
            assert (c["mcnemar"]["only_a"], c["mcnemar"]["only_b"]) == (table[0][1], table[1][0])
    assert "| key | run |" in (out / "compare.md").read_text()
    assert (out / "compare.png").stat().st_size > 1000


def assert_reproduced(units, expected: float) -> None:
    """The key's metric over its outcomes is the scorer's value (NaN where the scorer's is undefined)."""
    value = units.value()
    assert (np.isnan(value) and np.isnan(expected)) or value == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("benchmark", list(JUDGES))
def test_the_outcomes_reproduce_every_headline_key(benchmark: str, runs: dict, sample_data: Path) -> None:
    spec = get_benchmark(benchmark)
    rows = load_reference_rows(benchmark, sample_data / benchmark)
    for run in runs[benchmark]:
        records = read_predictions(run / "predictions.jsonl").records
        for key in spec.metrics.paired_keys:
            if key not in scores(run):
                continue
            expected = scores(run)[key]
            assert_reproduced(
                spec.key_outcomes(key, records, rows, scores(run)), np.nan if expected is None else expected
            )


def test_three_runs_against_the_first_with_holm(runs: dict, sample_data: Path, tmp_path: Path) -> None:
    base, other = runs["mist"]
    twin = tmp_path / "twin"
    shutil.copytree(other, twin)
    out = tmp_path / "cmp"
    argv = [
        base,
        other,
        twin,
        "--data",
        sample_data / "mist",
        "--out",
        out,
        "--n-resamples",
        "300",
        "--seed",
        "4",
    ]
    assert compare(*argv) == 0
    report = json.loads((out / "compare.json").read_text())
    # two runs share a judge name, so every run is labelled with its folder too
    assert [r["label"] for r in report["runs"]] == [
        "random (mist-random)",
        "constant (mist-constant)",
        "constant (twin)",
    ]
    assert {c["b"] for c in report["comparisons"]} == {"random (mist-random)"}
    raw = [c["p_value"] for c in report["comparisons"] if c["p_value"] is not None]
    adjusted = [c["p_adjusted"] for c in report["comparisons"] if c["p_value"] is not None]
    assert adjusted == pytest.approx(list(multipletests(raw, method="holm")[1]))
    assert report["correction"] == "holm"
    assert compare(*argv[:-2], "--seed", "4") == 0  # same seed, same numbers
    assert json.loads((out / "compare.json").read_text()) == report


def refused(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> str:
    assert compare(*argv) == 1
    return capsys.readouterr().err


def test_refusals(runs: dict, sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    iso, mist = runs["isovrbench"][0], runs["mist"][0]
    out = ["--out", tmp_path / "never"]
    assert "at least two runs" in refused(capsys, iso, *out)
    assert "--n-resamples must be a positive" in refused(capsys, iso, mist, "--n-resamples", "0", *out)
    assert "--confidence must lie" in refused(capsys, iso, mist, "--confidence", "95", *out)
    assert "is not a run" in refused(capsys, iso, tmp_path, *out)
    sweep = tmp_path / "sweep"
    shutil.copytree(iso, sweep / "frames_4")
    assert "frames_4" in refused(capsys, iso, sweep, *out)
    assert "different benchmarks" in refused(capsys, iso, mist, *out)
    other_hash = tmp_path / "other-hash"
    shutil.copytree(iso, other_hash)
    for name in ("results.json", "predictions.jsonl"):
        path = other_hash / name
        path.write_text(path.read_text().replace('"hash": "', '"hash": "00'), encoding="utf-8")
    assert "different dataset hash" in refused(capsys, iso, other_hash, *out)
    assert "hashes to" in refused(
        capsys, runs["mist"][0], runs["mist"][1], "--data", sample_data / "emorealm", *out
    )
    assert not (tmp_path / "never").exists()


def test_different_items_and_tampered_results_are_refused(
    runs: dict, sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = runs["emorealm"][0]
    limited = eval_run(sample_data, "emorealm", "constant", tmp_path / "limited", "--limit", "6")
    message = refused(capsys, base, limited, "--data", sample_data / "emorealm", "--out", tmp_path / "x")
    assert "4 items differ" in message and "emorealm_0000" in message
    strict = tmp_path / "strict"
    shutil.copytree(runs["emorealm"][1], strict)
    results = json.loads((strict / "results.json").read_text())
    results["run"]["score_options"] = {"mode": "strict"}
    (strict / "results.json").write_text(json.dumps(results))
    assert "different scoring options" in refused(
        capsys, base, strict, "--data", sample_data / "emorealm", "--out", tmp_path / "x"
    )
    tampered = tmp_path / "tampered"
    shutil.copytree(runs["emorealm"][1], tampered)
    results = json.loads((tampered / "results.json").read_text())
    results["scores"]["overall"] += 1.0
    (tampered / "results.json").write_text(json.dumps(results))
    assert "rescore it" in refused(
        capsys, base, tampered, "--data", sample_data / "emorealm", "--out", tmp_path / "x"
    )


@pytest.mark.parametrize("limit", ["6", 6.0, True, 0, -1])
@pytest.mark.parametrize("which", [0, 1])
def test_a_recorded_limit_that_is_not_a_positive_integer_is_refused(
    limit: object, which: int, runs: dict, sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``compare`` reads every run's ``provenance.limit`` as ``mmjudge score`` does. Before, it read the first
    run's alone and cut ``rows[:limit]`` when it was an int: a string or float limit meant every row, ``True``
    the first row, 0 none and -1 all but the last, and the second run's limit was never read."""
    copies = []
    for k, run in enumerate(runs["emorealm"]):
        copy = tmp_path / f"run{k}"
        shutil.copytree(run, copy)
        copies.append(copy)
    path = copies[which] / "predictions.jsonl"
    header, *records = path.read_text(encoding="utf-8").splitlines(keepends=True)
    data = json.loads(header)
    data["provenance"]["limit"] = limit
    path.write_text(json.dumps(data) + "\n" + "".join(records), encoding="utf-8")
    message = refused(capsys, *copies, "--data", sample_data / "emorealm", "--out", tmp_path / "x")
    assert f"{path}: provenance.limit must be a positive integer or null, got {limit!r}" in message


def test_the_recorded_dataset_folder_is_used_without_data(
    runs: dict,
    sample_data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    base, other = runs["emorealm"]
    monkeypatch.chdir(tmp_path)  # another working directory: the runs recorded the folder's absolute path
    assert compare(base, other, "--out", tmp_path / "y", "--n-resamples", "50") == 0
    recorded = json.loads((base / "results.json").read_text(encoding="utf-8"))["run"]["data"]
    assert recorded == {"path": str((sample_data / "emorealm").resolve())}
    moved = tmp_path / "moved"
    shutil.copytree(base, moved / "a")
    shutil.copytree(other, moved / "b")
    for run in ("a", "b"):
        results = json.loads((moved / run / "results.json").read_text(encoding="utf-8"))
        results["run"]["data"] = {"path": str(tmp_path / "gone" / "emorealm")}
        (moved / run / "results.json").write_text(json.dumps(results), encoding="utf-8")
    message = refused(capsys, moved / "a", moved / "b", "--out", tmp_path / "x")
    assert str(tmp_path / "gone" / "emorealm") in message and "pass --data with its new place" in message
    assert compare(moved / "a", moved / "b", "--data", sample_data / "emorealm", "--out", tmp_path / "z",
                   "--n-resamples", "50") == 0  # fmt: skip


def some_missing(benchmark: str, records: list[dict], every: int = 3) -> list[dict]:
    """Every ``every``-th record without a judgment, as a submission may mark them."""
    empty = {"isovrbench": {"score_chosen": None, "score_rejected": None}, "mist": {"label": None},
             "emoprefer": {"prediction": None}, "emorealm": {"prediction": None}}[benchmark]  # fmt: skip
    return [{**r, **empty, "no_judgment": True} if k % every == 0 else dict(r) for k, r in enumerate(records)]


@pytest.mark.parametrize("benchmark", list(JUDGES))
def test_the_outcomes_follow_every_scoring_mode_and_option(
    benchmark: str, runs: dict, sample_data: Path, tmp_path: Path
) -> None:
    """Missing judgments in each mode (strict is the leaderboard's), IsoVRBench's tie tolerance, EmoPrefer's
    swapped pairs: the key's metric over the outcomes is the scorer's number every time."""
    spec = get_benchmark(benchmark)
    rows = load_reference_rows(benchmark, sample_data / benchmark)
    files = [read_predictions(r / "predictions.jsonl").records for r in runs[benchmark]]
    if benchmark == "emoprefer":
        swapped = eval_run(sample_data, "emoprefer", "random", tmp_path / "swap", "--swap")
        files.append(read_predictions(swapped / "predictions.jsonl").records)
    options = [{"mode": m} for m in spec.metrics.modes] or [{}]
    if benchmark == "isovrbench":
        options.append({"tie_tolerance": 0.05})
    checked = 0
    # every record missing too: an EmoReAlM task without any answer scores 0 in the official mode
    variants = [
        *files,
        *(some_missing(benchmark, f) for f in files),
        some_missing(benchmark, files[0], every=1),
    ]
    for records in variants:
        for option in options:
            result = spec.metrics.score(**spec.records.score_inputs(records, rows), **option, n_resamples=0)
            for key in (k for k in spec.metrics.paired_keys if k in result):
                assert_reproduced(spec.key_outcomes(key, records, rows, result), result[key])
                checked += 1
    assert checked >= 2 * len(files) * len(options)
