"""``mmjudge eval`` and ``mmjudge score``: outputs, equality with the evaluate modules, bad input."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import evaluate
import pytest
from metric_cases import scores_only

from mmjudge.cli import main
from mmjudge.predictions import read_predictions

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def emoprefer_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from mmjudge.benchmarks import write_sample_data

    out = tmp_path_factory.mktemp("emoprefer-sample")
    write_sample_data(out, size="small", benchmarks=["emoprefer"])
    return out


def emoprefer_eval(data: Path, out: Path, *extra: str) -> list[str]:
    return [
        "eval", "--benchmark", "emoprefer", "--judge", "random", "--data", str(data / "emoprefer"),
        "--media-root", str(data / "raw" / "emoprefer" / "MER2025"), "--out", str(out), "--no-progress", *extra,
    ]  # fmt: skip


def load_metric(name: str, monkeypatch: pytest.MonkeyPatch) -> evaluate.EvaluationModule:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    return evaluate.load(str(REPO / "metrics" / name))


def test_eval_then_score_equals_the_evaluate_module(
    emoprefer_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(emoprefer_eval(emoprefer_data, out, "--swap", "--decode-workers", "0")) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "cache", "emoprefer_confusion.png", "eval.log", "predictions.jsonl", "report.md", "results.json",
    ]  # fmt: skip
    capsys.readouterr()
    assert (
        main(["score", str(out / "predictions.jsonl"), "--data", str(emoprefer_data / "emoprefer"), "--json"])
        == 0
    )
    rescored = json.loads(capsys.readouterr().out)
    records = read_predictions(out / "predictions.jsonl").records
    with (emoprefer_data / "raw" / "emoprefer" / "emoprefer.csv").open(
        newline="", encoding="utf-8"
    ) as handle:
        gold = {r["name"]: r["preference"] for r in csv.DictReader(handle)}
    forward = {r["name"]: r["prediction"] for r in records if r["order"] == "forward"}
    swapped = {r["name"]: r["prediction"] for r in records if r["order"] == "reversed"}
    names = list(gold)
    expected = scores_only(
        load_metric("emoprefer", monkeypatch).compute(
            predictions=[forward[n] for n in names],
            references=[gold[n] for n in names],
            swapped_predictions=[swapped[n] for n in names],
        )
    )
    assert rescored == json.loads(json.dumps(expected))
    results = json.loads((out / "results.json").read_text())
    assert results["scores"] == rescored
    assert results["provenance"] == read_predictions(out / "predictions.jsonl").header.provenance
    assert "![emoprefer](emoprefer_confusion.png)" in (out / "report.md").read_text()


def test_isovrbench_eval_matches_the_evaluate_module_and_plots(
    sample_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "iso"
    command = ["eval", "--benchmark", "isovrbench", "--judge", "sharpness", "--data", str(sample_data / "isovrbench"),
               "--out", str(out), "--no-progress", "--decode-workers", "1"]  # fmt: skip
    assert main(command) == 0
    from mmjudge.scoring import load_reference_rows

    rows = load_reference_rows("isovrbench", sample_data / "isovrbench")
    by_id = {r["id"]: r for r in read_predictions(out / "predictions.jsonl").records}
    ordered = [by_id[str(r["pair_id"])] for r in rows]
    expected = scores_only(
        load_metric("isovrbench", monkeypatch).compute(
            intervention=[r["intervention"] for r in rows],
            score_chosen=[r["score_chosen"] for r in ordered],
            score_rejected=[r["score_rejected"] for r in ordered],
            no_judgment=[r["no_judgment"] for r in ordered],
            pair_id=[str(r["pair_id"]) for r in rows],
            cluster=[r["prompt"] for r in rows],  # the anchor prompt: the unit eval's intervals resample
        )
    )
    results = json.loads((out / "results.json").read_text())
    assert results["scores"] == json.loads(json.dumps(expected))
    assert (out / "isovrbench_accuracy.png").stat().st_size > 1000
    assert main(["score", str(out / "predictions.jsonl"), "--data", str(sample_data / "isovrbench"),
                 "--out", str(tmp_path / "re.json")]) == 0  # fmt: skip
    assert json.loads((tmp_path / "re.json").read_text())["scores"] == results["scores"]


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 1
    return capsys.readouterr().err


def assert_nothing_but_a_log(out: Path) -> None:
    assert not out.exists() or sorted(p.name for p in out.iterdir()) in ([], ["eval.log"])


def test_eval_prepares_once_and_reads_nothing_back(
    emoprefer_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``mmjudge eval`` builds the judge and reads the rows once (it used to check them, then build them again
    to run), and takes the judge's name from the run, not from the ``results.json`` it just wrote."""
    import mmjudge.results
    import mmjudge.runner.runner
    import mmjudge.scoring

    calls = {"make_judge": 0, "load_reference_rows": 0}

    def counted(name: str, function):  # type: ignore[no-untyped-def]
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            calls[name] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(mmjudge.runner.runner, "make_judge", counted("make_judge", mmjudge.runner.runner.make_judge))
    monkeypatch.setattr(mmjudge.scoring, "load_reference_rows",
                        counted("load_reference_rows", mmjudge.scoring.load_reference_rows))  # fmt: skip

    def no_read(path: object) -> None:
        raise AssertionError(f"eval read {path} back")

    monkeypatch.setattr(mmjudge.results, "read_results", no_read)
    assert main(emoprefer_eval(emoprefer_data, tmp_path / "run", "--decode-workers", "0")) == 0
    assert calls == {"make_judge": 1, "load_reference_rows": 1}
    assert "random" in capsys.readouterr().out.split("report.md")[-1]  # the score table names the judge


def test_a_limit_that_is_not_a_positive_integer_is_refused_before_anything_is_written(
    emoprefer_data: Path, tmp_path: Path
) -> None:
    """The runner's rows follow :func:`mmjudge.scoring.rows_of_run`; before, ``limit=-1`` judged every row
    but the last."""
    from mmjudge.errors import ConfigError
    from mmjudge.runner import RunOptions, evaluate_judge

    options = RunOptions(limit=-1, media_root=emoprefer_data / "raw" / "emoprefer" / "MER2025", progress=False)
    with pytest.raises(ConfigError, match="limit must be a positive integer or None"):
        evaluate_judge("emoprefer", "random", emoprefer_data / "emoprefer", tmp_path / "out", options)
    assert not (tmp_path / "out").exists()


def test_an_unknown_judge_lists_the_registered_ones(
    emoprefer_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = emoprefer_eval(emoprefer_data, tmp_path / "out")
    argv[argv.index("random")] = "no_such_judge"
    error = refused(argv, capsys)
    assert "unknown judge 'no_such_judge'" in error and "'random'" in error and "'constant'" in error
    assert_nothing_but_a_log(tmp_path / "out")


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        ("judge: random\nframe: 8\n", "unknown key 'frame'"),
        ("judge: random\nbatch_size: four\n", "key 'batch_size' expects int, got str 'four'"),
        ("judge: random\noptions: {include_same: maybe}\n", "include_same"),
    ],
)
def test_a_bad_config_names_the_key(
    emoprefer_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], yaml_text: str, message: str
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(yaml_text, encoding="utf-8")
    argv = emoprefer_eval(emoprefer_data, tmp_path / "out")
    argv[argv.index("random")] = str(config)
    assert message in refused(argv, capsys)
    assert_nothing_but_a_log(tmp_path / "out")


def test_a_folder_that_is_not_a_built_benchmark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], emoprefer_data: Path
) -> None:
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "notes.txt").write_text("hello")
    argv = emoprefer_eval(emoprefer_data, tmp_path / "out")
    argv[argv.index("--data") + 1] = str(tmp_path / "junk")
    assert "is not a built emoprefer folder" in refused(argv, capsys)
    assert_nothing_but_a_log(tmp_path / "out")


def test_a_judge_for_another_benchmark_is_refused(
    emoprefer_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = emoprefer_eval(emoprefer_data, tmp_path / "out")
    argv[argv.index("random")] = "sharpness"
    assert re.search(r"judge 'sharpness' judges \[.*\], not 'emoprefer'", refused(argv, capsys))
    assert_nothing_but_a_log(tmp_path / "out")


def test_score_refuses_other_benchmarks_and_schema_versions(
    emoprefer_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(emoprefer_eval(emoprefer_data, out)) == 0
    lines = (out / "predictions.jsonl").read_text().splitlines()
    data = ["--data", str(emoprefer_data / "emoprefer"), "--out", str(tmp_path / "scored" / "results.json")]
    error = refused(["score", str(out / "predictions.jsonl"), "--benchmark", "emorealm", *data], capsys)
    assert "holds 'emoprefer' predictions, expected 'emorealm'" in error
    header = json.loads(lines[0])
    emorealm = [json.dumps({**header, "benchmark": "emorealm"}), json.dumps({"id": "q1", "prediction": "A"})]
    cases = {
        "schema_version 2 is not supported": [json.dumps({**header, "schema_version": 2}), *lines[1:]],
        "6 invalid prediction records": [json.dumps({**header, "benchmark": "mist"}), *lines[1:]],
        "is not a built emorealm folder": emorealm,
    }
    for message, content in cases.items():
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join(content) + "\n")
        assert message in refused(["score", str(bad), *data], capsys)
    assert not (tmp_path / "scored").exists()
