"""Scoring speed of the EmoPrefer-Data and MIST cores on full-size synthetic inputs.

Run on demand (never in ``make test``)::

    .venv/bin/python benchmarks/bench_scoring_emoprefer_mist.py              # 5 repeats, writes its section of docs/performance.md
    .venv/bin/python benchmarks/bench_scoring_emoprefer_mist.py --repeats 2 --no-append

Cases (seeded random labels, so only the timing matters):

* ``emoprefer.score``: raw responses (parsed) plus swapped responses, ``--emoprefer-items`` items,
  with the Wilson intervals and the 10,000-resample WAF bootstrap.
* ``emoprefer.rank_description_models``: Bradley-Terry with ties over 20 models from 100,000 rows.
* ``mist.score`` judge labels and item metadata: the paper's full grid, 200 items x 4 prompts x 5
  (condition, arm) slots x 8 judges = 32,000 rows: change rates, direction (pooled and the mean over
  judges, 2,000 item resamples) and the drift decomposition (2 sentence types x 4 prompts x 2 arms, 2,000
  resamples each).
* ``mist.score`` one judge with metadata and two trios of human labels (200 items x 3 labels):
  adds agreement, Fleiss' kappa CIs (2,000 resamples) and 96 alt-tests (2 trios x 3 slices x 2 scorings
  x 4 prompts x 2 arms).

The table gives the median wall time over repeats (``time.perf_counter``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import write_results

from mmjudge.benchmarks import emoprefer, mist

SLOTS = [
    ("none", "none"),
    ("aligned", "explicit"),
    ("aligned", "silent"),
    ("misleading", "explicit"),
    ("misleading", "silent"),
]
PROMPTS = ["zero-shot", "few-shot", "cot", "few-shot-cot"]


def emoprefer_inputs(n: int, rng: np.random.Generator) -> dict[str, Any]:
    templates = [
        "{}",
        "The better description is {}.",
        "Answer: {} because it names the tone",
        "{} (more precise)",
    ]
    labels = np.array(["a1", "a2", "same"])

    def responses() -> list[str]:
        return [
            templates[k].format(lab)
            for k, lab in zip(rng.integers(0, 4, n), rng.choice(labels, n), strict=True)
        ]

    return {
        "predictions": responses(),
        "references": rng.choice(labels, n).tolist(),
        "swapped_predictions": responses(),
    }


def bt_inputs(n: int, n_models: int, rng: np.random.Generator) -> tuple[list[str], list[str], list[str]]:
    names = [f"model{k:02d}" for k in range(n_models)]
    pairs = np.array([rng.choice(n_models, 2, replace=False) for _ in range(n)])
    prefs = rng.choice(["a1", "a2", "same"], n, p=[0.45, 0.4, 0.15]).tolist()
    return [names[i] for i in pairs[:, 0]], [names[j] for j in pairs[:, 1]], prefs


def mist_inputs(n_items: int, n_judges: int, rng: np.random.Generator, humans: bool) -> dict[str, Any]:
    ids = [f"i{k:03d}" for k in range(n_items)]
    rows = [
        (f"i{k:03d}", f"judge{j}", p, c, a)
        for k in range(n_items) for j in range(n_judges) for p in PROMPTS for c, a in SLOTS
    ]  # fmt: skip
    cols: dict[str, Any] = {
        "item_ids": [r[0] for r in rows], "judges": [r[1] for r in rows], "prompt_strategies": [r[2] for r in rows],
        "image_conditions": [r[3] for r in rows], "arms": [r[4] for r in rows],
        "predictions": rng.choice(mist.LABELS, len(rows)).tolist(), "n_resamples": 2000,
        "meta_item_ids": ids, "meta_cells": [["T1", "T2", "T3", "T4"][k % 4] for k in range(n_items)],
    }  # fmt: skip
    if humans:
        trios = ["informed" if k < n_items // 2 else "blind" for k in range(n_items)]
        hum = [(i, f"{t}{h}") for i, t in zip(ids, trios, strict=True) for h in range(3)]
        cols.update(
            meta_trios=trios, human_item_ids=[h[0] for h in hum], human_annotators=[h[1] for h in hum],
            human_labels=rng.choice(mist.LABELS, len(hum)).tolist(),
        )  # fmt: skip
    return cols


def timed(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--emoprefer-items", type=int, default=10_000)
    parser.add_argument("--no-append", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    ep = emoprefer_inputs(args.emoprefer_items, rng)
    bt = bt_inputs(100_000, 20, rng)
    grid = mist_inputs(200, 8, rng, humans=False)
    one = mist_inputs(200, 1, rng, humans=True)
    cases: list[tuple[str, str, Callable[[], Any]]] = [
        ("emoprefer.score", f"{args.emoprefer_items} items, raw responses + swapped, B=10000", lambda: emoprefer.score(**ep)),
        ("emoprefer.rank_description_models", "20 models, 100,000 comparisons", lambda: emoprefer.rank_description_models(*bt)),
        ("mist.score (judge labels + metadata)", "32,000 rows (200 items x 4 prompts x 5 slots x 8 judges), direction, drift, B=2000", lambda: mist.score(**grid)),
        ("mist.score (+ humans)", "4,000 rows, 600 human labels, 2 trios, 96 alt-tests, B=2000", lambda: mist.score(**one)),
    ]  # fmt: skip
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, size, fn in cases:
            fn()  # warm-up: lazy imports
            seconds = timed(fn, args.repeats)
            rows.append({"case": name, "input": size, "median_s": seconds})
            print(f"{name:40s} {size:70s} {seconds:8.3f} s")
    if not args.no_append:
        write_results(
            "Scoring: EmoPrefer-Data and MIST cores",
            rows,
            f"Median wall time over {args.repeats} repeats after one warm-up call; seeded random labels.",
        )


if __name__ == "__main__":
    main()
