"""One file of predictions, three places its scores land: ``results.json`` (``mmjudge score``), the
``evaluate`` module fed the same predictions, and a verified leaderboard row. They agree key by key for
all four benchmarks, and every rate is a percentage in each of them. EmoReAlM is ranked on the
leaderboard in strict mode (missing answers wrong) with the official-mode scores stored beside it, and
MIST in strict mode (a missing label counts as changed): each agrees with ``mmjudge score --mode`` and
the evaluate module in the same mode. The evaluate module agrees whether it gets every row in ``compute``
or the per-row inputs in two ``add_batch`` calls first (its features: what distributed gathering carries)."""

from __future__ import annotations

import json
import math
import random
import warnings
from pathlib import Path
from typing import Any

import evaluate
import metric_cases
import pytest

from mmjudge.benchmarks import get_benchmark
from mmjudge.cli import main
from mmjudge.leaderboard import Leaderboard, Settings, Store, SubmissionMeta
from mmjudge.scoring import load_reference_rows

REPO = Path(__file__).resolve().parents[1]


def _same(a: Any, b: Any) -> bool:
    """Equal, or both missing numbers (results.json writes NaN as null)."""
    missing = [v is None or (isinstance(v, float) and math.isnan(v)) for v in (a, b)]
    return all(missing) or (a == b and type(a) is type(b))


@pytest.mark.filterwarnings("ignore:alt-test not run")
@pytest.mark.parametrize("benchmark", ["isovrbench", "mist", "emoprefer", "emorealm"])
def test_results_file_evaluate_and_leaderboard_row_agree(benchmark, sample_data, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    rows = load_reference_rows(benchmark, sample_data / benchmark)
    records = metric_cases.records(benchmark, rows, random.Random(3))
    header = {"record": "header", "schema_version": 1, "benchmark": benchmark, "judge": "j"}
    data = "\n".join(json.dumps(r) for r in [header, *records]) + "\n"
    path = tmp_path / "predictions.jsonl"
    path.write_text(data, encoding="utf-8")

    board = Leaderboard(Store(tmp_path / "lb.sqlite"), Settings(data_root=sample_data, require_login=False))
    stored = board.submit(data.encode(), SubmissionMeta("j", "org/m", "r1"), "local")
    # the leaderboard's ranked scores, then any scoring stored beside them, each in its own mode
    ranked = board.settings.score_options.get(benchmark, {}).get("mode")
    beside = board.settings.side_scores.get(benchmark, {})
    modes = [(ranked, stored.results)] + [
        (options["mode"], (stored.side_results or {})[label]) for label, options in beside.items()
    ]
    assert benchmark not in ("emorealm", "mist") or ranked == "strict"  # missing answers cannot help
    assert benchmark != "mist" or stored.results["n_no_judgment"] == len(records[5::9])
    for mode, on_board in modes:
        options = [] if mode is None else ["--mode", mode]
        out = tmp_path / f"r-{mode}.json"
        assert main(["score", str(path), "--data", str(sample_data / benchmark), "--out", str(out), *options]) == 0
        from_file = json.loads(out.read_text(encoding="utf-8"))["scores"]
        inputs = metric_cases.metric_inputs(benchmark, rows, records)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            metric = evaluate.load(str(REPO / "metrics" / benchmark))
            by_mode = {} if mode is None else {"mode": mode}
            from_metric = metric_cases.scores_only(metric.compute(**inputs, **by_mode))
            batched = metric_cases.scores_only(metric_cases.compute_in_two_batches(metric, inputs, **by_mode))
        assert set(from_file) == set(from_metric) == set(on_board) == set(batched), mode
        for key, value in from_metric.items():
            assert _same(from_file[key], value) and _same(on_board[key], value), (key, from_file[key], value)
            assert _same(batched[key], value), (key, batched[key], value)
    percent = [k.name for k in get_benchmark(benchmark).metrics.result_keys if "0-100" in k.description]
    shown = [
        from_metric[k]
        for k in percent
        if isinstance(from_metric.get(k), float) and not math.isnan(from_metric[k])
    ]
    assert shown and all(0.0 <= v <= 100.0 for v in shown) and max(shown) > 1.0  # percent, not a share
    # the scorer's intervals travel with the scores, and where it withheld one (the IsoVRBench sample's two
    # prompts are too few), its reason travels in the evaluate output
    notes = metric.compute(**inputs, **by_mode)["interval_notes"]
    shown = [k for k in from_metric if k.endswith("_ci_low")]
    assert shown or "no interval: 2 prompts (at least 5 needed)" in notes, notes
