"""One file of predictions, three places its scores land: ``results.json`` (``mmjudge score``), the
``evaluate`` module fed the same predictions, and a verified leaderboard row. They agree key by key for
all four benchmarks, and every rate is a percentage in each of them. EmoReAlM is ranked on the
leaderboard in strict mode (missing answers wrong) with the official-mode scores stored beside it, and
MIST in strict mode (a missing label counts as changed): each agrees with ``mmjudge score --mode`` and
the evaluate module in the same mode."""

from __future__ import annotations

import json
import math
import random
import warnings
from pathlib import Path
from typing import Any

import evaluate
import pytest

from mmjudge.benchmarks import get_benchmark
from mmjudge.benchmarks.mist import CELLS as MIST_CELLS
from mmjudge.benchmarks.mist import STRATEGIES as MIST_STRATEGIES
from mmjudge.cli import main
from mmjudge.leaderboard import Leaderboard, Settings, Store, SubmissionMeta
from mmjudge.scoring import load_reference_rows

REPO = Path(__file__).resolve().parents[1]


def _records(benchmark: str, rows: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Random verdicts, with ties, unjudged items, empty answers and answers naming no option."""
    if benchmark == "isovrbench":
        out = []
        for k, r in enumerate(rows):
            if k % 7 == 3:
                out.append(
                    {"id": r["pair_id"], "score_chosen": None, "score_rejected": None, "no_judgment": True}
                )
            else:
                tie = k % 5 == 1
                out.append({"id": r["pair_id"], "score_chosen": 0.5 if tie else rng.random(),
                            "score_rejected": 0.5 if tie else rng.random()})  # fmt: skip
        return out
    if benchmark == "mist":
        cells = [
            {"id": f"{r['item_id']}::{s}::{arm}::{cond}", "item_id": r["item_id"], "prompt_strategy": s,
             "arm": arm, "image_condition": cond, "label": rng.choice(["FF", "WF", "FL", "LL"])}
            for r in rows for s in MIST_STRATEGIES for cond, arm in MIST_CELLS
        ]  # fmt: skip
        for cell in cells[5::9]:  # some cells without a label: official and strict mode differ
            cell.update(label=None, no_judgment=True)
        return cells
    if benchmark == "emoprefer":
        pool = ["a1", "a2", "same", "A2, clearly", "neither", ""]
        return [
            {"id": r["name"] if order == "forward" else f"{r['name']}::reversed", "name": r["name"],
             "order": order, "prediction": rng.choice(pool)}
            for r in rows for order in ("forward", "reversed")
        ]  # fmt: skip
    pool = ["A", "(B)", "The answer is C.", "a calm voice", "", "   "]
    return [
        {"id": r["id"], "prediction": None if k == 2 else rng.choice(pool), "no_judgment": k == 2}
        for k, r in enumerate(rows)
    ]


def _metric_inputs(
    benchmark: str, rows: list[dict[str, Any]], records: list[dict[str, Any]]
) -> dict[str, Any]:
    """The evaluate module's inputs, written out from the file and the reference rows."""
    if benchmark == "isovrbench":
        by_id = {r["id"]: r for r in records}
        ordered = [by_id[r["pair_id"]] for r in rows]
        return {"intervention": [r["intervention"] for r in rows], "score_chosen": [p["score_chosen"] for p in ordered],
                "score_rejected": [p["score_rejected"] for p in ordered],
                "no_judgment": [bool(p.get("no_judgment")) for p in ordered], "pair_id": [r["pair_id"] for r in rows]}  # fmt: skip
    if benchmark == "mist":
        humans = [(r["item_id"], a, lab) for r in rows
                  for a, lab in zip(r["human_annotators"], r["human_labels"], strict=True)]  # fmt: skip
        return {"predictions": [r["label"] for r in records], "item_ids": [r["item_id"] for r in records],
                "image_conditions": [r["image_condition"] for r in records], "arms": [r["arm"] for r in records],
                "prompt_strategies": [r["prompt_strategy"] for r in records],
                "meta_item_ids": [r["item_id"] for r in rows], "meta_cells": [r["cell"] for r in rows],
                "meta_trios": [r["trio"] for r in rows], "meta_sentence_senses": [r["sentence_sense"] for r in rows],
                "human_item_ids": [h[0] for h in humans], "human_annotators": [h[1] for h in humans],
                "human_labels": [h[2] for h in humans]}  # fmt: skip
    if benchmark == "emoprefer":
        by_key = {(r["name"], r["order"]): r["prediction"] for r in records}
        return {"predictions": [by_key[(r["name"], "forward")] for r in rows], "references": [r["preference"] for r in rows],
                "swapped_predictions": [by_key[(r["name"], "reversed")] for r in rows], "ids": [r["name"] for r in rows]}  # fmt: skip
    by_id = {r["id"]: r for r in records}
    return {"predictions": [by_id[r["id"]]["prediction"] for r in rows], "references": [r["answer"] for r in rows],
            "tasks": [r["task"] for r in rows], "choices": [r["choices"] for r in rows], "ids": [r["id"] for r in rows]}  # fmt: skip


def _same(a: Any, b: Any) -> bool:
    """Equal, or both missing numbers (results.json writes NaN as null)."""
    missing = [v is None or (isinstance(v, float) and math.isnan(v)) for v in (a, b)]
    return all(missing) or (a == b and type(a) is type(b))


@pytest.mark.filterwarnings("ignore:alt-test not run")
@pytest.mark.parametrize("benchmark", ["isovrbench", "mist", "emoprefer", "emorealm"])
def test_results_file_evaluate_and_leaderboard_row_agree(benchmark, sample_data, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    rows = load_reference_rows(benchmark, sample_data / benchmark)
    records = _records(benchmark, rows, random.Random(3))
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
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            from_metric = evaluate.load(str(REPO / "metrics" / benchmark)).compute(
                **_metric_inputs(benchmark, rows, records), **({} if mode is None else {"mode": mode})
            )
        assert set(from_file) == set(from_metric) == set(on_board), mode
        for key, value in from_metric.items():
            assert _same(from_file[key], value) and _same(on_board[key], value), (key, from_file[key], value)
    percent = [k.name for k in get_benchmark(benchmark).result_keys if "0-100" in k.description]
    shown = [
        from_metric[k]
        for k in percent
        if isinstance(from_metric.get(k), float) and not math.isnan(from_metric[k])
    ]
    assert shown and all(0.0 <= v <= 100.0 for v in shown) and max(shown) > 1.0  # percent, not a share
    assert any(k.endswith("_ci_low") for k in from_metric)  # the scorer's intervals travel with the scores
