"""``mmjudge metric build``: every module folder works where users load it, without mmjudge installed.

Each of the six folders of ``metrics/`` is built; a fresh virtual environment gets ``evaluate`` and the
folders' ``requirements.txt`` from the package index (no mmjudge, no project checkout on its path); a
script there loads each folder with ``evaluate.load(folder)`` and computes on the sample predictions of
every benchmark and scoring mode (and on rows for ``alt_test`` and ``emotion_classification``). The
results must equal ``mmjudge score`` (and the core functions) in this environment key by key.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import metric_cases
import numpy as np
import pytest

from mmjudge.cli import main
from mmjudge.metric_build import build_metric, metric_names, plan_metric_push
from mmjudge.scoring import load_reference_rows
from mmjudge.stats import alt_test_from_rows, classification_summary

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
json.dump({"results": out, "modules": sorted(m for m in sys.modules if m.split(".")[0] == "mmjudge")},
          open(sys.argv[2], "w"))
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("metric-builds")
    return {name: build_metric(name, out / name).folder for name in metric_names()}


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
        have = got["results"][name]
        assert set(have) == set(want), (name, sorted(set(have) ^ set(want)))
        for key, value in want.items():
            assert _same(have[key], value), (name, key, have[key], value)
    assert len(expected) == 8


def test_the_fresh_venv_has_no_mmjudge(fresh_python: Path) -> None:
    done = subprocess.run([str(fresh_python), "-c", "import mmjudge"], capture_output=True, text=True)
    assert done.returncode != 0 and "No module named 'mmjudge'" in done.stderr


def test_built_folders_hold_what_evaluate_and_the_hub_need(built: dict[str, Path]) -> None:
    for name, folder in built.items():
        files = sorted(p.name for p in folder.iterdir())
        assert files == sorted(["README.md", "app.py", f"{name}.py", "mmjudge_vendored.py", "requirements.txt"])
        script = (folder / f"{name}.py").read_text(encoding="utf-8")
        assert "from .mmjudge_vendored import import_from" in script and "from mmjudge" not in script
        card = (folder / "README.md").read_text(encoding="utf-8")
        assert card.startswith("---\n") and "- evaluate" in card and "## How this folder was built" in card
        lines = (folder / "requirements.txt").read_text().splitlines()[1:]
        assert lines and all(">=" in line and ",<" in line for line in lines), lines  # bounded both ways
        assert not any(line.startswith(("mmjudge", "torch", "gradio", "-e", "git+")) for line in lines)


def test_push_dry_run_lists_the_files_and_nothing_else(built: dict[str, Path]) -> None:
    plan = plan_metric_push(built["emoprefer"], "my-org/emoprefer")
    assert [path for path, _ in plan.files] == sorted(p.name for p in built["emoprefer"].iterdir())
    assert all(size > 0 for _, size in plan.files) and plan.load_call == 'evaluate.load("my-org/emoprefer")'


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
