"""`mmjudge export eval-results`: Hub eval-result YAML from real `mmjudge eval` runs, and the PR plan."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from huggingface_hub import CommitOperationAdd, parse_eval_result_entries
from report_helpers import expected_note

from mmjudge.benchmarks import eval_yaml_document, get_benchmark
from mmjudge.cli import main
from mmjudge.errors import ConfigError, MissingFileError
from mmjudge.export.eval_results import (
    eval_result_entries,
    export_eval_results,
    find_runs,
    open_eval_results_pr,
    plan_eval_results_pr,
)
from mmjudge.results import read_results

BENCHMARKS = ("isovrbench", "mist", "emoprefer", "emorealm")
MEDIA = {"emoprefer": "raw/emoprefer/MER2025", "emorealm": "raw/emorealm/DFEW"}


@pytest.fixture(scope="module")
def runs(sample_data: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One `mmjudge eval` run of the seeded random judge per benchmark (EmoPrefer with swapped pairs)."""
    out = tmp_path_factory.mktemp("runs")
    folders = {}
    for benchmark in BENCHMARKS:
        argv = ["eval", "--benchmark", benchmark, "--judge", "random", "--data", str(sample_data / benchmark)]
        argv += ["--out", str(out / benchmark)]
        if benchmark in MEDIA:
            argv += ["--media-root", str(sample_data / MEDIA[benchmark])]
        if benchmark == "emoprefer":
            argv.append("--swap")
        assert main(argv) == 0
        folders[benchmark] = out / benchmark
    return folders


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_yaml_round_trips_and_every_value_equals_results_json(runs, benchmark, tmp_path):
    out = tmp_path / "export"
    argv = ["export", "eval-results", str(runs[benchmark]), "--dataset-repo", f"org/{benchmark}"]
    argv += ["--dataset-revision", "v0.1.0", "--out", str(out), "--source-url", "https://example.org/p.jsonl"]
    assert main(argv) == 0
    path = out / ".eval_results" / f"mmjudge_{benchmark}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    entries = parse_eval_result_entries(data)
    spec = get_benchmark(benchmark)
    scores = read_results(runs[benchmark] / "results.json").scores
    tasks = {t.id: t for t in spec.present.exports.eval_tasks}
    # one entry for the headline (first), one per further task; all four runs have every key
    assert [e.task_id for e in entries] == [t.id for t in sorted(tasks.values(), key=lambda t: not t.main)]
    assert entries[0].task_id == spec.present.exports.main_task().id
    for entry in entries:
        assert entry.value == scores[tasks[entry.task_id].key]
        assert entry.dataset_id == f"org/{benchmark}"
        assert entry.dataset_revision == "v0.1.0"
        assert entry.source_url == "https://example.org/p.jsonl"
        assert entry.date == read_results(runs[benchmark] / "results.json").run["date"]
        assert "mmjudge 0.1.0" in entry.notes and "fingerprint " in entry.notes
    header = json.loads((runs[benchmark] / "predictions.jsonl").read_text().splitlines()[0])
    assert header["fingerprint"] in entries[0].notes
    direction = "higher" if spec.metrics.higher_is_better(tasks[entries[0].task_id].key) else "lower"
    assert f"({direction} is better)" in entries[0].notes
    # the interval as results.json records it: confidence, ends, method; or why it was withheld
    for entry in entries:
        estimate = read_results(runs[benchmark] / "results.json").estimates[tasks[entry.task_id].key]
        if estimate.low is None:
            assert "CI" not in entry.notes and "no interval: " in entry.notes, entry.notes
        else:
            percent = f"{100 * estimate.confidence:.0f}%"
            ends = f"[{estimate.low:.4g}, {estimate.high:.4g}]"
            assert f"{percent} CI {ends} ({estimate.method})" in entry.notes, entry.notes


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_every_task_id_is_a_task_of_the_built_eval_yaml(runs, sample_data, benchmark, tmp_path):
    from mmjudge.data.eval_yaml import read_eval_yaml, task_ids

    folder = tmp_path / benchmark
    shutil.copytree(sample_data / benchmark, folder)
    from mmjudge.benchmarks import write_benchmark_eval_yaml

    write_benchmark_eval_yaml(benchmark, folder)
    document = read_eval_yaml(folder)
    configs = {c["config_name"] for c in yaml.safe_load((folder / "README.md").read_text().split("---\n")[1])["configs"]}
    assert {t["config"] for t in document["tasks"]} <= configs
    exported = export_eval_results(runs[benchmark], dataset_repo=f"org/{benchmark}", out=tmp_path / "x")
    assert {e.task_id for e in exported[0].entries} <= set(task_ids(document))
    assert document["evaluation_framework"] == "mmjudge"
    card = " ".join((folder / "README.md").read_text(encoding="utf-8").split())
    assert "`mmjudge push-dataset` leaves `eval.yaml` out unless it is given `--eval-yaml`" in card


def test_missing_value_is_left_out_with_a_warning(runs, caplog):
    results = read_results(runs["emoprefer"] / "results.json")
    scores = {k: v for k, v in results.scores.items() if not k.startswith("swap_consistency")}
    trimmed = type(results)(results.benchmark, results.judge, scores, results.provenance, results.run)
    with caplog.at_level(logging.WARNING):
        entries = eval_result_entries(trimmed, {}, dataset_repo="org/emoprefer")
    assert [e.task_id for e in entries] == ["waf_2class", "acc_3class"]
    assert "swap_consistency" in caplog.text


def test_notes_carry_frame_count_and_mode():
    results = read_results_like({"average": 50.0, "average_ci_low": 40.0, "average_ci_high": 60.0})
    header = {"fingerprint": "abc", "mmjudge_version": "9.9", "provenance": {"frames": {"frames": 8}}}
    (entry, *_) = eval_result_entries(results, header, dataset_repo="org/isovrbench")
    assert entry.notes == (
        "result key average (higher is better); 95% CI [40, 60] (not recorded); frames=8; mmjudge 9.9; "
        "judge j (fingerprint abc)"
    )


def read_results_like(scores):
    from mmjudge.results import Results

    return Results("isovrbench", "j", scores, {}, {"date": "2026-01-01T00:00:00+00:00"})


def test_frame_sweep_gives_one_file_per_frame_count(runs, tmp_path):
    sweep = tmp_path / "sweep"
    for n in (16, 4):
        shutil.copytree(runs["isovrbench"], sweep / f"frames_{n}", ignore=shutil.ignore_patterns("cache"))
    assert [r.suffix for r in find_runs(sweep)] == ["_frames4", "_frames16"]
    exported = export_eval_results(sweep, dataset_repo="org/isovrbench")
    assert [r.path_in_repo for r in exported] == [
        ".eval_results/mmjudge_isovrbench_frames4.yaml",
        ".eval_results/mmjudge_isovrbench_frames16.yaml",
    ]


def test_bad_inputs_say_what_was_expected(tmp_path, runs):
    with pytest.raises(MissingFileError, match="expected a folder written by `mmjudge eval`"):
        find_runs(tmp_path)
    with pytest.raises(ConfigError, match="--dataset-repo 'emorealm': expected ORG/NAME"):
        export_eval_results(runs["emorealm"], dataset_repo="emorealm", out=tmp_path)
    with pytest.raises(ConfigError, match="--repo 'x': expected ORG/NAME"):
        plan_eval_results_pr("x", export_eval_results(runs["emorealm"], dataset_repo="o/e", out=tmp_path))


class FakeApi:
    """Records the calls; has only `create_commit`, so any other network call would fail."""

    def __init__(self) -> None:
        self.calls: list[tuple[tuple, dict]] = []

    def create_commit(self, *args, **kwargs):
        self.calls.append((args, kwargs))
        return SimpleNamespace(pr_url="https://huggingface.co/me/model/discussions/1", commit_url="c")


def test_pr_is_planned_offline_with_exact_files_and_opened_as_a_pr(runs, tmp_path):
    exported = export_eval_results(runs["emorealm"], dataset_repo="org/emorealm", out=tmp_path, repo="me/model")
    plan = plan_eval_results_pr("me/model", exported)
    assert list(plan.files) == [
        ".eval_results/mmjudge_emorealm.predictions.jsonl",
        ".eval_results/mmjudge_emorealm.yaml",
    ]
    assert plan.files[".eval_results/mmjudge_emorealm.yaml"] == tmp_path / ".eval_results" / "mmjudge_emorealm.yaml"
    assert plan.files[".eval_results/mmjudge_emorealm.predictions.jsonl"] == runs["emorealm"] / "predictions.jsonl"
    assert exported[0].entries[0].source_url == (
        "https://huggingface.co/me/model/blob/main/.eval_results/mmjudge_emorealm.predictions.jsonl"
    )
    operations = plan.operations()
    assert all(isinstance(op, CommitOperationAdd) for op in operations)
    assert [op.path_in_repo for op in operations] == list(plan.files)
    api = FakeApi()
    assert open_eval_results_pr(plan, api=api) == "https://huggingface.co/me/model/discussions/1"
    ((args, kwargs),) = api.calls
    assert args == ("me/model",)
    assert kwargs["create_pr"] is True and kwargs["repo_type"] == "model" and "revision" not in kwargs
    assert [op.path_in_repo for op in kwargs["operations"]] == list(plan.files)


def test_cli_with_repo_offline_prints_the_plan_and_opens_nothing(runs, tmp_path, capsys, monkeypatch):
    from huggingface_hub import constants

    import mmjudge.export.eval_results as module

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(module, "open_eval_results_pr", lambda *a, **k: pytest.fail("no PR may be opened offline"))
    argv = ["export", "eval-results", str(runs["mist"]), "--dataset-repo", "org/mist", "--repo", "me/model"]
    assert main([*argv, "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert ".eval_results/mmjudge_mist.yaml  <- " in printed
    assert ".eval_results/mmjudge_mist.predictions.jsonl  <- " in printed
    assert "offline (HF_HUB_OFFLINE=1): no pull request opened" in printed


def test_eval_yaml_document_matches_the_spec():
    spec = get_benchmark("emorealm")
    doc = eval_yaml_document(spec.title, spec.present.exports.description, spec.present.exports.eval_tasks)
    assert doc["tasks"][0] == {"id": "overall", "config": "all", "split": "test"}
    assert len(doc["tasks"]) == 6


def _emorealm_results(scores):
    from mmjudge.results import Results, estimates_of

    return Results("emorealm", "j", dict(scores), {}, {"date": "2026-01-01T00:00:00+00:00"},
                   estimates=estimates_of("emorealm", scores))  # fmt: skip


def test_notes_mark_a_thin_interval_and_name_its_recorded_method():
    """A dozen clips: the interval is there, with the method results.json records, and said to be thin."""
    from mmjudge.benchmarks.emorealm import score

    n = 24
    scores = score(["A", "B"] * 12, ["A"] * n, ["reasoning_basic_audio"] * n,
                   clusters=[f"clip{k // 2}" for k in range(n)], n_resamples=200)  # fmt: skip
    results = _emorealm_results(scores)
    overall = results.estimates["overall"]
    assert overall.low is not None and overall.n_clusters == 12
    entry = eval_result_entries(results, {}, dataset_repo="org/emorealm")[0]
    ends = f"[{overall.low:.4g}, {overall.high:.4g}]"
    wanted = f"(higher is better); 95% CI {ends} ({overall.method}); {expected_note(overall.to_json())}; "
    assert wanted in entry.notes, entry.notes


def test_notes_say_why_an_interval_was_withheld():
    from mmjudge.benchmarks import Scores

    reason = "no interval: 3 clips (at least 5 needed)"
    scores = Scores({"overall": 40.0, "n_items": 6},
                    {"overall": {"method": f"none: {reason}", "n_clusters": 3, "cluster": "clip"}})  # fmt: skip
    entry = eval_result_entries(_emorealm_results(scores), {}, dataset_repo="org/emorealm")[0]
    assert entry.task_id == "overall" and entry.value == 40.0
    assert entry.notes.split("; ")[:2] == ["result key overall (higher is better)", reason]
