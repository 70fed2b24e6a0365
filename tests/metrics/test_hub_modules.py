"""``mmjudge metric build``: every module folder works where users load it, without mmjudge installed.

Each of the six folders of ``metrics/`` is built into a folder named otherwise (``metric-<name>``, as the
README does); a fresh virtual environment gets ``evaluate`` and the folders' ``requirements.txt`` from the
package index (no mmjudge, no project checkout on its path); a script there loads each folder with
``evaluate.load(folder)`` and computes on the sample predictions of every benchmark and scoring mode (and on
rows for ``alt_test`` and ``emotion_classification``), in one ``compute`` call and with the per-row inputs in
two ``add_batch`` calls. The results must equal ``mmjudge score`` (and the core functions) in this environment
key by key. The vendored code is plain source: each vendored file is the repository's module, renamed.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import evaluate
import metric_cases
import numpy as np
import pytest

import mmjudge
from mmjudge.benchmarks import emoprefer
from mmjudge.cli import main
from mmjudge.errors import ConfigError
from mmjudge.metric_build import build_metric, metric_names, plan_metric_push
from mmjudge.metric_inputs import metric_script, with_interval_notes
from mmjudge.scoring import load_reference_rows
from mmjudge.stats import alt_test_from_rows, classification_summary

REPO = Path(__file__).resolve().parents[2]
BENCHMARKS = ("isovrbench", "mist", "emoprefer", "emorealm")
MODES = {"isovrbench": [None], "mist": [None, "strict"], "emoprefer": [None], "emorealm": [None, "strict"]}
RUNNER = """
import json, sys, warnings
import evaluate
warnings.simplefilter("ignore")
cases = json.load(open(sys.argv[1]))
out = {}
for name, case in cases.items():
    metric = evaluate.load(case["folder"])
    out[name] = metric.compute(**case["inputs"])
    features = metric.features[0] if isinstance(metric.features, list) else metric.features
    rows = {k: v for k, v in case["inputs"].items() if k in features}
    half = len(next(iter(rows.values()))) // 2
    metric.add_batch(**{k: v[:half] for k, v in rows.items()})
    metric.add_batch(**{k: v[half:] for k, v in rows.items()})
    out[name + " in two batches"] = metric.compute(**{k: v for k, v in case["inputs"].items() if k not in rows})
json.dump({"results": out, "modules": sorted(m for m in sys.modules if m.split(".")[0] == "mmjudge")},
          open(sys.argv[2], "w"))
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("metric-builds")
    return {name: build_metric(name, out / f"metric-{name}").folder for name in metric_names()}


@pytest.fixture(scope="module")
def fresh_python(built: dict[str, Path]) -> Path:
    """A venv made from nothing with only the folders' requirements (pip from the configured index).

    It is kept between test runs under ``$MMJUDGE_TEST_CACHE`` (default ``~/.cache/mmjudge-tests``), keyed by
    the requirements and the Python version, so a run pays the install once per change of the requirements;
    a kept venv that no longer imports ``evaluate`` is made again.
    """
    requirements = {(f / "requirements.txt").read_text().split("\n", 1)[1] for f in built.values()}
    assert len(requirements) == 1, requirements  # the six folders ask for the same distributions
    text = requirements.pop()
    key = hashlib.sha256(f"{sys.version}\n{text}".encode()).hexdigest()[:16]
    cache = Path(os.environ.get("MMJUDGE_TEST_CACHE") or Path.home() / ".cache" / "mmjudge-tests")
    venv = cache / f"metric-venv-{key}"
    python = venv / "bin" / "python"
    if python.is_file() and subprocess.run([str(python), "-c", "import evaluate"], capture_output=True).returncode == 0:
        return python
    cache.mkdir(parents=True, exist_ok=True)
    staging = cache / f".metric-venv-{key}-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(staging)], check=True)
    (staging / "requirements.txt").write_text(text, encoding="utf-8")
    command = [str(staging / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
               "--no-compile", "-r", str(staging / "requirements.txt")]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    shutil.rmtree(venv, ignore_errors=True)
    os.replace(staging, venv)  # its python is a link to the base interpreter: the venv works from the new place
    return python


def _scored(benchmark: str, path: Path, data: Path, mode: str | None, tmp: Path) -> dict[str, Any]:
    out = tmp / f"{benchmark}-{mode}.json"
    assert main(["score", str(path), "--data", str(data), "--out", str(out), *(["--mode", mode] if mode else [])]) == 0
    return json.loads(out.read_text(encoding="utf-8"))["scores"]


def _alt_test_rows() -> dict[str, list[Any]]:
    rng = np.random.default_rng(4)
    truth = rng.integers(0, 4, 40)
    out: dict[str, list[Any]] = {"item_ids": [], "annotators": [], "references": [], "predictions": []}
    labels = ["FF", "WF", "FL", "LL"]
    for k in range(40):
        judge = labels[truth[k] if rng.random() < 0.8 else rng.integers(0, 4)]  # one label per item
        for annotator in ("h1", "h2", "h3"):
            out["item_ids"].append(f"i{k}")
            out["annotators"].append(annotator)
            out["references"].append(labels[truth[k] if rng.random() < 0.7 else rng.integers(0, 4)])
            out["predictions"].append(judge)
    return out


def _same(a: Any, b: Any) -> bool:
    missing = [v is None or (isinstance(v, float) and math.isnan(v)) for v in (a, b)]
    return all(missing) or a == b


def test_every_module_scores_like_mmjudge_in_a_fresh_venv(
    built: dict[str, Path], fresh_python: Path, sample_data: Path, tmp_path: Path
) -> None:
    cases: dict[str, dict[str, Any]] = {}
    expected: dict[str, dict[str, Any]] = {}
    for benchmark in BENCHMARKS:
        rows = load_reference_rows(benchmark, sample_data / benchmark)
        records = metric_cases.records(benchmark, rows, random.Random(5))
        header = {"record": "header", "schema_version": 1, "benchmark": benchmark, "judge": "j"}
        path = tmp_path / f"{benchmark}.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in [header, *records]) + "\n", encoding="utf-8")
        for mode in MODES[benchmark]:
            inputs = metric_cases.metric_inputs(benchmark, rows, records) | ({"mode": mode} if mode else {})
            cases[f"{benchmark}/{mode}"] = {"folder": str(built[benchmark]), "inputs": inputs}
            expected[f"{benchmark}/{mode}"] = _scored(benchmark, path, sample_data / benchmark, mode, tmp_path)
    alt = _alt_test_rows()
    cases["alt_test"] = {"folder": str(built["alt_test"]), "inputs": {**alt, "epsilon": 0.2}}
    expected["alt_test"] = alt_test_from_rows(**alt, epsilon=0.2).as_dict()
    refs, preds = ["happy", "sad", "sad", "fear", "happy"], ["happy", "sad", "fear", "fear", "sad"]
    cases["emotion_classification"] = {"folder": str(built["emotion_classification"]),
                                       "inputs": {"predictions": preds, "references": refs}}  # fmt: skip
    expected["emotion_classification"] = classification_summary(refs, preds).as_dict()
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    (tmp_path / "runner.py").write_text(RUNNER, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1", MMJUDGE_METRIC_CACHE=str(tmp_path / "cache"))
    done = subprocess.run([str(fresh_python), str(tmp_path / "runner.py"), str(tmp_path / "cases.json"),
                           str(tmp_path / "out.json")], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    got = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert got["modules"] == []  # nothing named mmjudge was imported there: only the vendored copies
    for name, want in expected.items():
        for have in (got["results"][name], got["results"][f"{name} in two batches"]):
            if name.split("/")[0] in BENCHMARKS:  # a benchmark's module adds its interval notes to the scores
                have = metric_cases.scores_only(have)
            assert set(have) == set(want), (name, sorted(set(have) ^ set(want)))
            for key, value in want.items():
                assert _same(have[key], value), (name, key, have[key], value)
    assert len(expected) == 8


def test_the_fresh_venv_has_no_mmjudge(fresh_python: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}  # as the scoring run
    done = subprocess.run([str(fresh_python), "-c", "import mmjudge"], capture_output=True, text=True, env=env)
    assert done.returncode != 0 and "No module named 'mmjudge'" in done.stderr


def test_built_folders_hold_what_evaluate_and_the_hub_need(built: dict[str, Path]) -> None:
    for name, folder in built.items():
        files = sorted(p.name for p in folder.iterdir())
        vendored = [f for f in files if f.startswith("mmjudge_vendored-")]
        expected = ["README.md", "app.py", f"metric-{name}.py", "mmjudge_vendored.py", "requirements.txt"]
        assert sorted(set(files) - set(vendored)) == sorted(expected)
        script = (folder / f"metric-{name}.py").read_text(encoding="utf-8")
        assert "from .mmjudge_vendored import import_from" in script and "from mmjudge" not in script
        assert {f"from .{f.removesuffix('.py')} import *" for f in vendored} <= set(script.splitlines())
        card = (folder / "README.md").read_text(encoding="utf-8")
        assert card.startswith("---\n") and "- evaluate" in card and "## How this folder was built" in card
        lines = (folder / "requirements.txt").read_text().splitlines()[1:]
        assert lines and all(">=" in line and ",<" in line for line in lines), lines  # bounded both ways
        assert not any(line.startswith(("mmjudge", "torch", "gradio", "-e", "git+")) for line in lines)


def test_the_vendored_code_is_the_repositorys_source_renamed(built: dict[str, Path]) -> None:
    """Readable on the Hub: every vendored file is a plain copy of one mmjudge module, package name aside."""
    folder = built["mist"]
    loader = (folder / "mmjudge_vendored.py").read_text(encoding="utf-8")
    package = re.search(r'^PACKAGE = "(_mmjudge_[0-9a-f]{12})"$', loader, re.M).group(1)  # type: ignore[union-attr]
    src = Path(mmjudge.__file__).parent
    vendored = sorted(folder.glob("mmjudge_vendored-*.py"))
    assert "mmjudge_vendored-benchmarks-mist-scoring.py" in {p.name for p in vendored}
    for path in vendored:
        inside = path.name.removeprefix("mmjudge_vendored-").removesuffix(".py").replace("-", "/") + ".py"
        original = (src / inside).read_text(encoding="utf-8")
        assert path.read_text(encoding="utf-8").replace(package, "mmjudge") == original, path.name
    assert "b85decode" not in loader and "zipfile" not in loader  # no archive to unpack: the files are the code


def test_push_dry_run_lists_the_files_with_the_script_named_after_the_space(built: dict[str, Path]) -> None:
    plan = plan_metric_push(built["emoprefer"], "my-org/emoprefer")
    local = sorted(p.name for p in built["emoprefer"].iterdir())
    assert [path for path, _ in plan.files] == sorted(["emoprefer.py", *(f for f in local if f != "metric-emoprefer.py")])
    assert plan.sources["emoprefer.py"] == "metric-emoprefer.py"  # evaluate.load("my-org/emoprefer") reads emoprefer.py
    assert all(size > 0 for _, size in plan.files) and plan.load_call == 'evaluate.load("my-org/emoprefer")'
    with pytest.raises(ConfigError, match=r"'app' names the script evaluate loads"):
        plan_metric_push(built["emoprefer"], "my-org/app")


def test_cli_build_and_dry_run_push(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["metric", "build", "emorealm", "--out", str(tmp_path / "m")]) == 0
    assert main(["metric", "push", "emorealm", "--repo", "org/emorealm", "--folder", str(tmp_path / "m"), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "emorealm.py" in out and "mmjudge_vendored.py" in out and "dry run: nothing was pushed" in out
    assert main(["metric", "build", "nope", "--out", str(tmp_path / "x")]) == 1
    assert "unknown metric 'nope'" in capsys.readouterr().err
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("x")
    assert main(["metric", "build", "mist", "--out", str(tmp_path / "other")]) == 1
    assert (tmp_path / "other" / "keep.txt").read_text() == "x"  # nothing of the user's is deleted
    assert main(["metric", "push", "mist", "--repo", "bad repo", "--folder", str(tmp_path / "m")]) == 1


def test_a_folder_named_otherwise_loads_and_scores_like_the_core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """The README's flow: `metric build emoprefer --out metric-emoprefer` prints a load call that works, and the
    module runs the vendored copy (not the installed mmjudge), in one call or in batches."""
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    monkeypatch.setenv("MMJUDGE_METRIC_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    assert main(["metric", "build", "emoprefer", "--out", "metric-emoprefer"]) == 0
    assert "load it with evaluate.load('metric-emoprefer')" in capsys.readouterr().out
    metric = evaluate.load("metric-emoprefer")
    kwargs = {"predictions": ["a1", "A2!", "same", "a1"], "references": ["a1", "a2", "same", "a2"], "ids": list("wxyz")}
    want = with_interval_notes(emoprefer.score(**kwargs, n_resamples=200))
    assert metric.compute(**kwargs, n_resamples=200) == want
    metric.add_batch(**{k: v[:3] for k, v in kwargs.items()})
    metric.add_batch(**{k: v[3:] for k, v in kwargs.items()})
    assert metric.compute(n_resamples=200) == want
    assert type(metric).__mro__[1].__module__.startswith("_mmjudge_")  # RowColumns of the vendored copy
    assert main(["metric", "build", "emoprefer", "--out", str(tmp_path / "app")]) == 1
    assert "'app' names the script evaluate loads" in capsys.readouterr().err


def test_the_widget_finds_the_script_in_a_space_folder(built: dict[str, Path], tmp_path: Path) -> None:
    """A Space runs from a folder called `app`, where `evaluate.load(folder)` would load app.py itself."""
    space = tmp_path / "app"
    plan = plan_metric_push(built["mist"], "org/mist")
    for remote, local in plan.sources.items():
        (space / remote).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built["mist"] / local, space / remote)
    assert metric_script(space) == space / "mist.py"
    assert metric_script(REPO / "metrics" / "mist") == REPO / "metrics" / "mist" / "mist.py"


def _vendored_loader(folder: Path, name: str) -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, folder / "mmjudge_vendored.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cached_copy_is_checked_before_every_import(
    built: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tree edited after it was copied, or holding a planted file, is refused; there is no shared fallback."""
    loader = _vendored_loader(built["emoprefer"], "_vendored_check")
    monkeypatch.setenv("MMJUDGE_METRIC_CACHE", str(tmp_path / "cache"))
    tree = loader._unpacked()
    package = tree / loader.PACKAGE
    assert loader._unpacked() == tree  # unchanged: accepted again
    (package / "__pycache__").mkdir(exist_ok=True)
    (package / "__pycache__" / "scoring.cpython-311.pyc").write_bytes(b"planted")
    assert loader._unpacked() == tree and not (package / "__pycache__").exists()  # compiled caches are dropped
    edited = next(package.rglob("*.py"))
    original = edited.read_bytes()
    edited.write_bytes(original + b"\nimport os  # edited after copying\n")
    with pytest.raises(ImportError, match="differs from this metric's files"):
        loader._unpacked()
    edited.write_bytes(original)
    (package / "planted.py").write_text("raise SystemExit('planted code ran')\n", encoding="utf-8")
    with pytest.raises(ImportError, match=r"planted\.py"):
        loader._unpacked()
    (package / "planted.py").unlink()
    (tree / "json.py").write_text("", encoding="utf-8")  # would shadow the standard library on sys.path
    with pytest.raises(ImportError, match="differs"):
        loader._unpacked()
    (tree / "json.py").unlink()
    tree.chmod(0o777)
    with pytest.raises(ImportError, match="not this user's alone to write"):
        loader._unpacked()
    tree.chmod(0o755)
    monkeypatch.delenv("MMJUDGE_METRIC_CACHE")
    monkeypatch.setenv("HOME", str(tmp_path / "file-not-folder"))
    (tmp_path / "file-not-folder").write_text("", encoding="utf-8")
    with pytest.raises(ImportError, match="MMJUDGE_METRIC_CACHE"):
        loader._unpacked()  # never the shared temp folder
