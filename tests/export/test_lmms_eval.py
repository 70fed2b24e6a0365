"""`mmjudge export lmms-eval`: the task folders parse, name every key lmms-eval needs, run on the sample
data, and their aggregates equal the `evaluate` modules on the same answers."""

from __future__ import annotations

import importlib.util
import logging
import math
import random
from pathlib import Path
from typing import Any

import evaluate
import pytest
import yaml

from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.cli import main
from mmjudge.data.rows import load_rows
from mmjudge.errors import ConfigError
from mmjudge.export.lmms_eval import datasets_from_args, write_lmms_tasks
from mmjudge.export.lmms_runtime import clip_rating, dataset_folder, media_env, metric_name

REPO = Path(__file__).resolve().parents[2]
BENCHMARKS = ("isovrbench", "mist", "emoprefer", "emorealm")
TASK_KEYS = {"task", "dataset_name", "include", "process_docs", "doc_to_visual", "doc_to_text", "doc_to_target",
             "process_results", "metric_list"}  # fmt: skip


class FunctionTag:
    """What `!function utils.x` stands for in a parsed YAML."""

    def __init__(self, name: str) -> None:
        self.name = name


class TaskLoader(yaml.SafeLoader):
    """A YAML loader that understands lmms-eval's `!function` tag."""


TaskLoader.add_constructor("!function", lambda loader, node: FunctionTag(loader.construct_scalar(node)))


@pytest.fixture(scope="module")
def exported(sample_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lmms")
    assert main(["export", "lmms-eval", "--out", str(out), "--data-root", str(sample_data)]) == 0
    return out


def load_utils(folder: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"utils_{folder.name}", folder / "utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parse(path: Path) -> dict[str, Any]:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=TaskLoader)


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_yamls_parse_with_every_required_key_and_function(exported, sample_data, benchmark):
    folder = exported / f"mmjudge_{benchmark}"
    spec = get_benchmark(benchmark)
    template = parse(folder / "_default_template_yaml")
    assert template["dataset_path"] == str((sample_data / benchmark).resolve())
    assert template["test_split"] == "test" and template["output_type"] == "generate_until"
    group = parse(folder / f"_mmjudge_{benchmark}.yaml")
    names = [t.name for t in spec.present.exports.lmms_tasks]
    assert group == {"group": f"mmjudge_{benchmark}", "task": names}
    utils = load_utils(folder)
    configs = {c["config_name"] for c in yaml.safe_load((sample_data / benchmark / "README.md").read_text().split("---\n")[1])["configs"]}
    for task in spec.present.exports.lmms_tasks:
        config = parse(folder / f"{task.name}.yaml")
        assert set(config) >= TASK_KEYS, TASK_KEYS - set(config)
        assert config["task"] == task.name and config["include"] == "_default_template_yaml"
        assert config["dataset_name"] in configs
        functions = [v for v in config.values() if isinstance(v, FunctionTag)]
        functions += [m["aggregation"] for m in config["metric_list"]]
        for tag in functions:
            module, _, name = tag.name.partition(".")
            assert module == "utils" and callable(getattr(utils, name)), tag.name
        metrics = [m["metric"] for m in config["metric_list"]]
        assert metrics == [metric_name(k) for k in task.keys]
        assert [m["higher_is_better"] for m in config["metric_list"]] == [spec.metrics.higher_is_better(k) for k in task.keys]
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "cannot run through lmms-eval" in readme and "expected digit" in readme


def answers_for(benchmark: str, rng: random.Random) -> str:
    """Seeded free-text replies for a task of ``benchmark``, including unreadable ones."""
    pools = {
        "isovrbench": ["7", "Score: 3", "9/9", "0", "no idea", "4"],
        "mist": ['{"final_label": "FF"}', "WF", "ll.", '{"final_label": "fl"}', "??"],
        "emoprefer": ["a1", "a2", "same", "A2 is better", "I prefer a1"],
        "emorealm": ["(A)", "B", "I think C.", "d", "(B) No", ""],
    }
    return rng.choice(pools[benchmark])


def run_task(utils: Any, task: str, seed: int = 0, keep: Any = None) -> tuple[list[dict], dict[str, float]]:
    """Every doc through the task's functions with seeded replies; the task's aggregates."""
    prefix = task
    docs = getattr(utils, f"{prefix}_process_docs")(None)
    rng = random.Random(seed)
    results, answered = [], []
    for doc in docs:
        assert isinstance(getattr(utils, f"{prefix}_doc_to_text")(doc, {"pre_prompt": "", "post_prompt": ""}), str)
        assert isinstance(getattr(utils, f"{prefix}_doc_to_visual")(doc), list)
        assert getattr(utils, f"{prefix}_doc_to_target")(doc) == doc["item_id"]
        reply = answers_for(task.split("_")[0], rng)
        if keep is not None and not keep(doc):
            continue
        results.append(getattr(utils, f"{prefix}_process_results")(doc, [reply]))
        answered.append({**doc, "reply": reply})
    metrics = results[0].keys()
    return answered, {m: getattr(utils, f"{prefix}_agg_{m}")([r[m] for r in results]) for m in metrics}


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-9)


@pytest.fixture(scope="module")
def metrics() -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_EVALUATE_OFFLINE", "1")
        return {b: evaluate.load(str(REPO / "metrics" / b)) for b in BENCHMARKS}


def test_emorealm_aggregate_equals_evaluate(exported, sample_data, metrics, monkeypatch):
    monkeypatch.setenv(media_env("emorealm"), str(sample_data / "raw" / "emorealm" / "DFEW"))
    utils = load_utils(exported / "mmjudge_emorealm")
    answered, aggregates = run_task(utils, "emorealm_questions", seed=1)
    rows = load_rows(sample_data / "emorealm", "all")
    reply = {a["item_id"]: a["reply"] for a in answered}
    expected = metrics["emorealm"].compute(
        predictions=[reply[r["id"]] for r in rows],
        references=[r["answer"] for r in rows],
        tasks=[r["task"] for r in rows],
        choices=[list(r["choices"]) for r in rows],
        mode="official",
    )
    assert set(aggregates) == {metric_name(k) for k in get_benchmark("emorealm").present.exports.lmms_tasks[0].keys}
    for key in get_benchmark("emorealm").present.exports.lmms_tasks[0].keys:
        assert same(aggregates[metric_name(key)], expected[key]), key
    assert 0 < aggregates["overall"] < 100  # the seeded replies are neither all right nor all wrong


def test_emoprefer_aggregates_equal_evaluate_forward_and_swapped(exported, sample_data, metrics, monkeypatch):
    monkeypatch.setenv(media_env("emoprefer"), str(sample_data / "raw" / "emoprefer" / "MER2025"))
    utils = load_utils(exported / "mmjudge_emoprefer")
    rows = load_rows(sample_data / "emoprefer", "pairs")
    gold = [r["preference"] for r in rows]
    answered, forward = run_task(utils, "emoprefer_forward", seed=2)
    reply = {a["item_id"]: a["reply"] for a in answered}
    expected = metrics["emoprefer"].compute(predictions=[reply[r["name"]] for r in rows], references=gold)
    for key in ("waf_2class", "acc_2class", "waf_3class", "acc_3class"):
        assert same(forward[key], expected[key]), key
    answered, both = run_task(utils, "emoprefer_reversed", seed=3)
    reply = {a["item_id"]: a["reply"] for a in answered}
    assert len(reply) == 2 * len(rows)
    expected = metrics["emoprefer"].compute(
        predictions=[reply[r["name"]] for r in rows],
        references=gold,
        swapped_predictions=[reply[f"{r['name']}::reversed"] for r in rows],
    )
    for key in ("waf_2class", "acc_3class", "swap_consistency"):
        assert same(both[key], expected[key]), key


def test_isovrbench_aggregate_rebuilds_pairs_and_equals_evaluate(exported, sample_data, metrics):
    utils = load_utils(exported / "mmjudge_isovrbench")
    answered, aggregates = run_task(utils, "isovrbench_clips", seed=4)
    rows = load_rows(sample_data / "isovrbench", "all")
    clips = load_rows(sample_data / "isovrbench", "clips")
    assert [a["item_id"] for a in answered] == [c["clip_id"] for c in clips]  # every clip once
    first = rows[0]
    assert f"{first['pair_id']}:chosen" in next(a for a in answered if a["item_id"] == first["clip_id_chosen"])["links"]
    rating = {a["item_id"]: clip_rating(a["reply"]) for a in answered}
    chosen = [rating[r["clip_id_chosen"]] for r in rows]
    rejected = [rating[r["clip_id_rejected"]] for r in rows]
    missing = [c is None or r is None for c, r in zip(chosen, rejected, strict=True)]
    assert any(missing) and not all(missing)
    expected = metrics["isovrbench"].compute(
        intervention=[r["intervention"] for r in rows],
        score_chosen=[None if m else c for c, m in zip(chosen, missing, strict=True)],
        score_rejected=[None if m else r for r, m in zip(rejected, missing, strict=True)],
        no_judgment=missing,
    )
    for key in get_benchmark("isovrbench").present.exports.lmms_tasks[0].keys:
        assert same(aggregates[metric_name(key)], expected[key]), key


@pytest.mark.parametrize("condition", ["none", "aligned", "misleading"])
def test_mist_aggregate_per_condition_equals_evaluate(exported, sample_data, metrics, condition):
    utils = load_utils(exported / "mmjudge_mist")
    answered, aggregates = run_task(utils, f"mist_{condition}", seed=5)
    rows = load_rows(sample_data / "mist", "items")
    parts = [a["item_id"].split("::") for a in answered]
    assert {p[3] for p in parts} == {condition}
    assert len(answered) == len(rows) * (4 if condition == "none" else 8)
    from mmjudge.benchmarks.mist.prompts import parse_final_label

    expected = metrics["mist"].compute(
        predictions=[parse_final_label(a["reply"]) for a in answered],
        item_ids=[p[0] for p in parts],
        prompt_strategies=[p[1] for p in parts],
        arms=[p[2] for p in parts],
        image_conditions=[p[3] for p in parts],
        meta_item_ids=[r["item_id"] for r in rows],
        meta_cells=[r["cell"] for r in rows],
        meta_trios=[r["trio"] for r in rows],
        meta_sentence_senses=[r["sentence_sense"] for r in rows],
        human_item_ids=[r["item_id"] for r in rows for _ in r["human_labels"]],
        human_annotators=[a for r in rows for a in r["human_annotators"]],
        human_labels=[lab for r in rows for lab in r["human_labels"]],
        mode="official",
    )
    task = next(t for t in get_benchmark("mist").present.exports.lmms_tasks if t.name == f"mist_{condition}")
    for key in task.keys:
        assert not math.isnan(expected[key])
        assert same(aggregates[metric_name(key)], expected[key]), key


def test_limited_run_scores_the_complete_units_only(exported, sample_data, metrics, monkeypatch, caplog):
    monkeypatch.setenv(media_env("emorealm"), str(sample_data / "raw" / "emorealm" / "DFEW"))
    utils = load_utils(exported / "mmjudge_emorealm")
    rows = load_rows(sample_data / "emorealm", "all")[:4]
    kept = {r["id"] for r in rows}
    with caplog.at_level(logging.WARNING):
        answered, aggregates = run_task(utils, "emorealm_questions", seed=6, keep=lambda d: d["item_id"] in kept)
    assert "4 of 10 items answered; scoring the 4 of 10 questions" in caplog.text
    reply = {a["item_id"]: a["reply"] for a in answered}
    expected = metrics["emorealm"].compute(
        predictions=[reply[r["id"]] for r in rows],
        references=[r["answer"] for r in rows],
        tasks=[r["task"] for r in rows],
        choices=[list(r["choices"]) for r in rows],
    )
    assert same(aggregates["overall"], expected["overall"])
    iso = load_utils(exported / "mmjudge_isovrbench")
    pair = load_rows(sample_data / "isovrbench", "all")[0]
    with pytest.raises(ConfigError, match="no pairs has all its items answered"):
        run_task(iso, "isovrbench_clips", keep=lambda d: d["item_id"] == pair["clip_id_chosen"])


def test_gated_media_resolve_through_the_environment_variable(exported, sample_data, monkeypatch, tmp_path):
    from mmjudge.export.lmms_runtime import TaskRuntime

    (tmp_path / "DFEW").mkdir()
    monkeypatch.setenv(media_env("emorealm"), str(tmp_path / "DFEW"))
    runtime = TaskRuntime("emorealm", "emorealm_questions", str(sample_data / "emorealm"))
    doc = next(iter(runtime.process_docs(None)))
    assert runtime.doc_to_visual(doc)[0].startswith(str(tmp_path / "DFEW"))
    clips = TaskRuntime("isovrbench", "isovrbench_clips", str(sample_data / "isovrbench"))
    doc = next(iter(clips.process_docs(None)))
    assert clips.doc_to_visual(doc)[0].startswith(str(sample_data / "isovrbench"))  # media in the folder


@pytest.mark.parametrize("value", [None, "", "missing"])
def test_gated_media_without_their_root_are_refused_with_the_variables_name(sample_data, monkeypatch, tmp_path, value):
    """With the benchmark's root unset (or naming no folder), a gated benchmark's task is refused with the
    variable's name, never given paths under the dataset folder that do not exist; another benchmark's
    variable does not serve it (one root per benchmark)."""
    from mmjudge.export.lmms_runtime import TaskRuntime

    monkeypatch.setenv(media_env("emoprefer"), str(sample_data / "raw" / "emoprefer" / "MER2025"))
    if value is None:
        monkeypatch.delenv(media_env("emorealm"), raising=False)
    else:
        monkeypatch.setenv(media_env("emorealm"), str(tmp_path / value) if value else "")
    runtime = TaskRuntime("emorealm", "emorealm_questions", str(sample_data / "emorealm"))
    with pytest.raises(ConfigError, match="MMJUDGE_MEDIA_ROOT_EMOREALM"):
        runtime.process_docs(None)


def test_hub_repo_dataset_path(tmp_path, monkeypatch, sample_data):
    import huggingface_hub

    calls = []
    monkeypatch.setattr(huggingface_hub, "snapshot_download", lambda repo, **kw: calls.append((repo, kw)) or str(sample_data / "emorealm"))
    assert dataset_folder("org/emorealm") == sample_data / "emorealm"
    assert calls == [("org/emorealm", {"repo_type": "dataset"})]
    with pytest.raises(ConfigError, match="expected a built mmjudge folder or a Hub dataset repo ORG/NAME"):
        dataset_folder("no-such-folder")
    (folder,) = write_lmms_tasks(tmp_path, {"emorealm": "org/emorealm"})
    assert parse(folder / "_default_template_yaml")["dataset_kwargs"] == {"token": True}


def test_bad_arguments_say_what_to_do(tmp_path, sample_data):
    with pytest.raises(ConfigError, match="unknown benchmark 'nope'"):
        datasets_from_args(["nope=x"], None)
    with pytest.raises(ConfigError, match="expected BENCHMARK=PATH_OR_REPO"):
        datasets_from_args(["emorealm"], None)
    with pytest.raises(ConfigError, match="no dataset given"):
        datasets_from_args([], tmp_path)
    write_lmms_tasks(tmp_path, {"emorealm": str(sample_data / "emorealm")})
    with pytest.raises(ConfigError, match="already exists: choose another --out or pass --overwrite"):
        write_lmms_tasks(tmp_path, {"emorealm": str(sample_data / "emorealm")})
    assert write_lmms_tasks(tmp_path, {"emorealm": str(sample_data / "emorealm")}, overwrite=True)


def test_a_data_root_passes_over_benchmarks_without_lmms_tasks_and_naming_one_is_refused(tmp_path):
    for benchmark in benchmark_ids():
        (tmp_path / benchmark).mkdir()
        (tmp_path / benchmark / "README.md").write_text("card")
    chosen = datasets_from_args([], tmp_path)
    without = [b for b in benchmark_ids() if not get_benchmark(b).present.exports.lmms_tasks]
    assert without and set(chosen) == set(benchmark_ids()) - set(without)
    with pytest.raises(ConfigError, match="declares no lmms-eval tasks"):
        write_lmms_tasks(tmp_path / "out", datasets_from_args([f"{without[0]}={tmp_path / without[0]}"], None))
