"""lmms-eval 0.7.3 itself runs the exported task folders (slow: installs lmms-eval into a throwaway venv).

The venv sees this interpreter's packages through a ``.pth`` file (torch, datasets, ... are not downloaded
again) and installs ``lmms-eval==0.7.3`` with its remaining dependencies from PyPI. A script run there
indexes the folders with ``TaskManager(include_path=...)`` and runs lmms-eval's own
``evaluator.simple_evaluate`` on the four groups with a scripted model (fixed replies by doc id; it loads
each doc's media through the task's ``doc_to_visual``): lmms-eval loads the built folders with
``datasets``, builds the requests, post-processes the replies and aggregates. Every number must equal
mmjudge's runtime on the same replies.
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
from mmjudge.export.lmms_runtime import TaskRuntime, media_env, metric_name

REPLIES = ["7", "(C)", "a2", '{"final_label": "WF"}', "LL", "C", "same", "3", "I think a1", "FF", "(B)", "(D) fear"]

SCRIPT = """
import json, sys
from lmms_eval import evaluator
from lmms_eval.api.model import lmms
from lmms_eval.tasks import TaskManager

replies = json.loads(sys.argv[2])
groups = ["mmjudge_isovrbench", "mmjudge_mist", "mmjudge_emoprefer", "mmjudge_emorealm"]


class Scripted(lmms):
    # Answers doc i with replies[i % len(replies)]; loads each doc's media as a model would.
    def __init__(self):
        super().__init__()
        self.media = 0

    def generate_until(self, requests):
        out = []
        for request in requests:
            _, _, doc_to_visual, doc_id, task, split = request.args
            self.media += len(doc_to_visual(self.task_dict[task][split][doc_id]))
            out.append(replies[doc_id % len(replies)])
        return out

    def loglikelihood(self, requests):
        raise NotImplementedError

    def generate_until_multi_round(self, requests):
        raise NotImplementedError


manager = TaskManager(include_path=sys.argv[1], include_defaults=False)
model = Scripted()
found = evaluator.simple_evaluate(
    model=model, tasks=groups, task_manager=manager, log_samples=False, bootstrap_iters=0
)
out = {
    "groups": [g for g in groups if g in manager.all_groups],
    "tasks": {k: v for k, v in found["results"].items() if k not in groups},
    "n_docs": {k: v["effective"] for k, v in found["n-samples"].items()},
    "media": model.media,
}
print("RESULT" + json.dumps(out, default=str))
"""


@pytest.mark.slow
def test_lmms_eval_073_runs_the_folders_and_agrees(tmp_path, sample_data, monkeypatch):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    src = Path(mmjudge.__file__).resolve().parents[1]
    Path(site, "mmjudge_host.pth").write_text(f"{src}\n{sysconfig.get_paths()['purelib']}\n", encoding="utf-8")
    # lmms-eval 0.7.3's evaluator imports filelock._api, which filelock 4 no longer has
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "lmms-eval==0.7.3", "filelock<4"],
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
        media_env("emorealm"): str(sample_data / "raw" / "emorealm" / "DFEW"),
        media_env("emoprefer"): str(sample_data / "raw" / "emoprefer" / "MER2025"),
    }
    run = subprocess.run(
        [str(python), "-c", SCRIPT, str(out), json.dumps(REPLIES)],
        capture_output=True, text=True, env=env, timeout=900, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-5000:]
    line = next(x for x in run.stdout.splitlines() if x.startswith("RESULT"))
    found = json.loads(line.removeprefix("RESULT"))
    print(json.dumps(found["tasks"]))
    assert found["groups"] == ["mmjudge_isovrbench", "mmjudge_mist", "mmjudge_emoprefer", "mmjudge_emorealm"]
    expected_tasks = {
        task.name: (benchmark, task)
        for benchmark in ("isovrbench", "mist", "emoprefer", "emorealm")
        for task in get_benchmark(benchmark).present.exports.lmms_tasks
    }
    assert set(found["tasks"]) == set(expected_tasks)
    assert found["media"] > 0
    for benchmark in ("emorealm", "emoprefer"):
        monkeypatch.setenv(media_env(benchmark), env[media_env(benchmark)])
    for name, (benchmark, task) in expected_tasks.items():
        runtime = TaskRuntime(benchmark, name, str((sample_data / benchmark).resolve()))
        docs = list(runtime.process_docs(None))
        assert found["n_docs"][name] == len(docs)
        # lmms-eval strips a reply before process_results
        answers = [{"item_id": d["item_id"], "reply": REPLIES[i % len(REPLIES)].strip()} for i, d in enumerate(docs)]
        scores = runtime.score(answers)
        for key in task.keys:
            value, want = found["tasks"][name][f"{metric_name(key)},none"], scores.get(key, math.nan)
            value = math.nan if value is None else float(value)
            assert (math.isnan(value) and math.isnan(want)) or value == want, (name, key, value, want)
