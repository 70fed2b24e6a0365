"""A fifth benchmark, ``toy``, plugged in from outside mmjudge through the ``mmjudge.benchmarks`` entry
point group: the package ``toybench`` (beside this file) is "installed" into a temporary folder with a
``*.dist-info`` (METADATA + entry_points.txt), and every step runs in a child process with that folder
on ``PYTHONPATH``: ``mmjudge sample-data`` -> ``mmjudge eval`` (random judge) -> ``mmjudge score`` ->
the metric through ``evaluate.load`` -> ``report.md`` -> a leaderboard tab. Nothing in ``src/mmjudge``
names the toy benchmark.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src"

ENTRY_POINTS = "[mmjudge.benchmarks]\ntoy = toybench:BENCHMARK\n"
METADATA = "Metadata-Version: 2.1\nName: toybench\nVersion: 0.1.0\n"

LEADERBOARD = """
import json, sys
from pathlib import Path
from mmjudge.leaderboard import SubmissionMeta, build_table
from mmjudge.leaderboard.app.startup import open_leaderboard
from mmjudge.leaderboard.app.ui import build_app

root, predictions, db = (Path(p) for p in sys.argv[1:4])
board = open_leaderboard(db, data_root=root, require_login=False)
stored = board.submit(predictions.read_bytes(), SubmissionMeta("random", "random"), "local")
table = build_table("toy", board.store.submissions("toy"))
app = build_app(board)
tabs = [b.get("props", {}).get("id") for b in app.blocks.config["components"] if b.get("type") == "tabitem"]
app.close(timeout=5)
print(json.dumps({"headers": table.headers, "values": table.values, "rank_column": table.rank_column,
                  "benchmarks": board.benchmarks_available(), "tabs": tabs, "results": dict(stored.results)}))
"""

METRIC = """
import json, sys
import evaluate
from mmjudge.predictions import read_predictions
from mmjudge.scoring import load_reference_rows

metric_dir, predictions, data = sys.argv[1:4]
records = {r["id"]: r for r in read_predictions(predictions).records}
rows = load_reference_rows("toy", data)
metric = evaluate.load(metric_dir)
print(json.dumps(metric.compute(predictions=[records[r["id"]]["prediction"] for r in rows],
                                references=[r["answer"] for r in rows])))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder on which ``toybench`` is installed, with its entry point (no pip involved)."""
    folder = tmp_path_factory.mktemp("site")
    shutil.copytree(HERE / "toybench", folder / "toybench")
    info = folder / "toybench-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(METADATA, encoding="utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    return folder


def _run(site: Path, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(SRC)]), MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_toy_benchmark_runs_through_every_step(site: Path, tmp_path: Path) -> None:
    assert "toy" in _run(site, "-m", "mmjudge", "info")
    sample = tmp_path / "sample"
    _run(site, "-m", "mmjudge", "sample-data", "--out", str(sample), "--benchmark", "toy")
    assert (sample / "toy" / "README.md").is_file()

    run = tmp_path / "run"
    _run(site, "-m", "mmjudge", "eval", "--benchmark", "toy", "--judge", "random", "--data", str(sample / "toy"),
         "--out", str(run), "--decode-workers", "0", "--no-progress")  # fmt: skip
    results = json.loads((run / "results.json").read_text(encoding="utf-8"))
    assert results["benchmark"] == "toy" and results["scores"]["n"] == 9
    report = (run / "report.md").read_text(encoding="utf-8")
    assert "# toy: random" in report and "| `accuracy` |" in report

    # a benchmark that declares no probe still gets the repeat probe, through the same cache
    _run(site, "-m", "mmjudge", "robustness", "--benchmark", "toy", "--judge", "random", "--data", str(sample / "toy"),
         "--out", str(run), "--repeats", "2", "--decode-workers", "0", "--no-progress")  # fmt: skip
    robustness = json.loads((run / "robustness.json").read_text(encoding="utf-8"))
    assert [p["name"] for p in robustness["probes"]] == ["repeat"] and robustness["base"]["judged"] == 0
    assert robustness["headline"] == {"accuracy": results["scores"]["accuracy"]}

    rescored = tmp_path / "rescored.json"
    _run(site, "-m", "mmjudge", "score", str(run / "predictions.jsonl"), "--data", str(sample / "toy"),
         "--out", str(rescored))  # fmt: skip
    assert json.loads(rescored.read_text(encoding="utf-8"))["scores"] == results["scores"]

    metric = json.loads(_run(site, "-c", METRIC, str(HERE / "metrics" / "toy"), str(run / "predictions.jsonl"),
                             str(sample / "toy")))  # fmt: skip
    assert metric == results["scores"]

    board = json.loads(_run(site, "-c", LEADERBOARD, str(sample), str(run / "predictions.jsonl"),
                            str(tmp_path / "lb.sqlite")))  # fmt: skip
    assert board["benchmarks"] == ["toy"] and "toy" in board["tabs"]
    assert board["results"] == results["scores"]
    assert board["headers"][board["rank_column"]] == "Accuracy"
    assert board["values"][0][board["rank_column"]] == round(results["scores"]["accuracy"], 4)
