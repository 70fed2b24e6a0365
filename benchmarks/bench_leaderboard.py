"""Leaderboard speed and memory: submission path, table building, memory over repeated renders.

Goals (issue 7): validating, scoring and storing an 8,000-pair IsoVRBench submission under 2 s; building
the tables for 1,000 stored submissions under 500 ms; memory flat in the number of submissions rendered.

- submit: ``Leaderboard.submit`` on an ~1 MB ``predictions.jsonl`` of 8,000 pairs (parse + schema checks,
  sha256, coverage, ``mmjudge.scoring.score_predictions`` with the core's default 10,000 bootstrap
  resamples, one SQLite WAL transaction with the duplicate and daily-limit checks). The 8,000 reference
  rows are synthetic (pair_id, intervention) and held in memory, as the server holds them after start-up.
- tables: read 1,000 stored submissions of one benchmark from the store and build its table (and the
  IsoVRBench decided view), each row carrying a full result dict of that benchmark's keys.
- memory: Python heap (tracemalloc) after 1, 10 and 50 renders of a 1,000-row table and figure, and
  after rendering tables of 10, 100 and 1,000 rows.

Run: ``.venv/bin/python benchmarks/bench_leaderboard.py [--repeats 5]``
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import write_results

from mmjudge.benchmarks.isovrbench import INTERVENTIONS
from mmjudge.leaderboard import Leaderboard, NewSubmission, Settings, Store, SubmissionMeta, build_table
from mmjudge.leaderboard.board.plots import figure


def reference_rows(n_pairs: int) -> list[dict[str, Any]]:
    per = n_pairs // len(INTERVENTIONS)
    return [{"pair_id": f"{iv}-{i:04d}", "intervention": iv} for iv in INTERVENTIONS for i in range(per)]


def submission(rows: list[dict[str, Any]], seed: int) -> bytes:
    rng = random.Random(seed)
    lines = [
        json.dumps({"record": "header", "schema_version": 1, "benchmark": "isovrbench", "judge": f"j{seed}"})
    ]
    for row in rows:
        lines.append(json.dumps({"record": "prediction", "id": row["pair_id"], "score_chosen": round(rng.gauss(0.6, 1), 3),
                                 "score_rejected": round(rng.gauss(0, 1), 3), "no_judgment": False}))  # fmt: skip
    return ("\n".join(lines) + "\n").encode()


def bench_submit(folder: Path, repeats: int) -> dict[str, Any]:
    rows = reference_rows(8000)
    (folder / "isovrbench").mkdir()
    board = Leaderboard(Store(folder / "submit.sqlite"), Settings(data_root=folder, require_login=False),
                        rows_fn=lambda b, f: rows)  # fmt: skip
    files = [submission(rows, seed) for seed in range(repeats + 1)]
    board.submit(files[-1], SubmissionMeta("warm", "org/warm"), "u", limited=False)  # imports, caches
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        board.submit(files[i], SubmissionMeta(f"j{i}", f"org/m{i}"), "u", limited=False)
        times.append(time.perf_counter() - start)
    return {"case": "submit 8,000-pair IsoVRBench file", "file MB": len(files[0]) / 2**20,
            "median s": statistics.median(times), "max s": max(times), "goal": "< 2 s"}  # fmt: skip


def _results(benchmark: str, rng: random.Random) -> dict[str, Any]:
    from mmjudge.benchmarks import get_benchmark

    out: dict[str, Any] = {}
    for key in get_benchmark(benchmark).metrics.result_keys:
        out[key.name] = rng.random() * 100
    for name in [n for n in out if n.endswith("_ci_low")]:  # an interval around its estimate, as a scorer writes it
        base, spread = name.removesuffix("_ci_low"), rng.random() * 5
        if base in out:
            out[name], out[f"{base}_ci_high"] = out[base] - spread, out[base] + spread
    if benchmark == "mist":
        for trio in ("informed", "blind"):
            for arm in ("explicit", "silent"):
                out[f"alt_test/{trio}/{arm}/n_tests"] = 24
                out[f"alt_test/{trio}/{arm}/n_passed"] = rng.randrange(25)
    return out


def fill_store(store: Store, benchmark: str, n: int) -> None:
    rng = random.Random(0)
    for i in range(n):
        store.insert_submission(NewSubmission(benchmark, "verified", f"judge {i}", f"org/model-{i}", f"user{i % 37}",
                                              _results(benchmark, rng), revision="main", sha256=f"{benchmark}{i}"))  # fmt: skip


def bench_tables(folder: Path, repeats: int) -> list[dict[str, Any]]:
    out = []
    for benchmark in ("isovrbench", "mist", "emoprefer", "emorealm"):
        store = Store(folder / f"tables_{benchmark}.sqlite")
        fill_store(store, benchmark, 1000)
        views = ("ties_wrong", "decided") if benchmark == "isovrbench" else ("ties_wrong",)
        for view in views:
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                table = build_table(benchmark, store.submissions(benchmark), view)
                table.gradio_value()
                times.append(time.perf_counter() - start)
            assert len(table.values) == 1000
            out.append({"case": f"read + build {benchmark} table ({view}), 1,000 rows",
                        "median s": statistics.median(times), "max s": max(times), "goal": "< 0.5 s"})  # fmt: skip
    return out


def bench_memory(folder: Path) -> list[dict[str, Any]]:
    store = Store(folder / "tables_isovrbench.sqlite")
    out = []
    tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0]
    for renders in range(1, 51):
        subs = store.submissions("isovrbench")
        build_table("isovrbench", subs).gradio_value()
        figure("isovrbench", subs)
        del subs
        gc.collect()
        if renders in (1, 10, 50):
            held = tracemalloc.get_traced_memory()[0] - baseline
            out.append(
                {
                    "case": f"heap held after {renders} renders of 1,000 rows (table + figure)",
                    "MB": held / 2**20,
                }
            )
    all_subs = store.submissions("isovrbench")
    for n in (10, 100, 1000):
        gc.collect()
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        build_table("isovrbench", all_subs[:n]).gradio_value()
        peak = tracemalloc.get_traced_memory()[1] - before
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
        out.append(
            {
                "case": f"render a {n}-row table: peak / held after",
                "MB": f"{peak / 2**20:.2f} / {held / 2**20:.3f}",
            }
        )
    tracemalloc.stop()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = [
            bench_submit(folder, args.repeats),
            *bench_tables(folder, args.repeats),
            *bench_memory(folder),
        ]
    for row in rows:
        print(row)
    write_results(
        "Leaderboard: submission path, tables for 1,000 submissions, memory over renders",
        rows,
        "Submit = validate + score (10,000 bootstrap resamples) + store in one SQLite transaction; reference rows "
        "held in memory. Tables = SQLite read + table build + Gradio value. Memory = tracemalloc Python heap; "
        "'held' is what stays allocated after the render and a gc.collect().",
    )


if __name__ == "__main__":
    main()
