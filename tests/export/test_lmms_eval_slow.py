"""lmms-eval 0.7.3 itself loads the exported task folders (slow: installs lmms-eval into a throwaway venv).

The venv sees this interpreter's packages through a ``.pth`` file (torch, datasets, ... are not downloaded
again) and installs ``lmms-eval==0.7.3`` with its remaining dependencies from PyPI. A script run there
indexes the folders with ``TaskManager(include_path=...)``, builds every task of the four groups (lmms-eval
loads the built folders with ``datasets``), runs each doc through the task's own ``process_results`` with
fixed replies and calls the task's aggregations; the numbers must equal mmjudge's runtime on the same
replies.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import mmjudge
from mmjudge.benchmarks import get_benchmark
from mmjudge.cli import main
from mmjudge.export.lmms_runtime import MEDIA_ENV, TaskRuntime, metric_name

REPLIES = ["7", "(C)", "a2", '{"final_label": "WF"}', "LL", "C", "same", "3", "I think a1", "FF", "(B)", "(D) fear"]

SCRIPT = """
import json, sys
from lmms_eval.tasks import TaskManager, get_task_dict

manager = TaskManager(include_path=sys.argv[1], include_defaults=False)
replies = json.loads(sys.argv[2])
groups = ["mmjudge_isovrbench", "mmjudge_mist", "mmjudge_emoprefer", "mmjudge_emorealm"]
found = [g for g in groups if g in manager.all_groups]

def leaves(tree):
    for value in tree.values():
        if isinstance(value, dict):
            yield from leaves(value)
        else:
            yield value

out = {"groups": sorted(found), "tasks": {}}
for task in leaves(get_task_dict(groups, manager)):
    docs = list(task.test_docs())
    results = [task.process_results(doc, [replies[i % len(replies)]]) for i, doc in enumerate(docs)]
    out["tasks"][task.config.task] = {
        "n_docs": len(docs),
        "text": task.doc_to_text(docs[0]),
        "scores": {m: agg([r[m] for r in results]) for m, agg in task.aggregation().items()},
    }
print("RESULT" + json.dumps(out))
"""


@pytest.mark.slow
def test_lmms_eval_073_loads_the_folders_and_agrees(tmp_path, sample_data):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    src = Path(mmjudge.__file__).resolve().parents[1]
    Path(site, "mmjudge_host.pth").write_text(f"{src}\n{sysconfig.get_paths()['purelib']}\n", encoding="utf-8")
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "lmms-eval==0.7.3"],
        capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr[-3000:]
    out = tmp_path / "tasks"
    assert main(["export", "lmms-eval", "--out", str(out), "--data-root", str(sample_data)]) == 0
    env = {
        **os.environ,
        "HF_HOME": str(tmp_path / "hf"),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        MEDIA_ENV: str(sample_data / "raw" / "emorealm" / "DFEW"),
    }
    run = subprocess.run(
        [str(python), "-c", SCRIPT, str(out), json.dumps(REPLIES)],
        capture_output=True, text=True, env=env, timeout=900, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-5000:]
    line = next(x for x in run.stdout.splitlines() if x.startswith("RESULT"))
    found = json.loads(line.removeprefix("RESULT"))
    print(json.dumps({name: task["scores"] for name, task in found["tasks"].items()}))
    assert found["groups"] == ["mmjudge_emoprefer", "mmjudge_emorealm", "mmjudge_isovrbench", "mmjudge_mist"]
    expected_tasks = {}
    for benchmark in ("isovrbench", "mist", "emoprefer", "emorealm"):
        spec = get_benchmark(benchmark)
        for task in spec.exports.lmms_tasks:
            expected_tasks[task.name] = (benchmark, task)
    assert set(found["tasks"]) == set(expected_tasks)
    os.environ[MEDIA_ENV] = env[MEDIA_ENV]
    try:
        for name, (benchmark, task) in expected_tasks.items():
            runtime = TaskRuntime(benchmark, name, str((sample_data / benchmark).resolve()))
            docs = list(runtime.process_docs(None))
            got = found["tasks"][name]
            assert got["n_docs"] == len(docs)
            assert got["text"] == runtime.doc_to_text(docs[0])
            # lmms-eval strips the reply before process_results, as the runtime's answers are stripped here
            answers = [{"item_id": d["item_id"], "reply": REPLIES[i % len(REPLIES)].strip()} for i, d in enumerate(docs)]
            scores = runtime.score(answers)
            for key in task.keys:
                value, want = got["scores"][metric_name(key)], scores.get(key, math.nan)
                assert (math.isnan(value) and math.isnan(want)) or value == want, (name, key, value, want)
    finally:
        del os.environ[MEDIA_ENV]
