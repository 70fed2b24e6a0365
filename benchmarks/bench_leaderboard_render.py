"""Leaderboard cold render: boards of 50, 150 and 450 verified IsoVRBench rows with paired data.

Goal (issue 40, item 2): the first render of a board of 450 verified rows in under 1 s of CPU, holding under
1 MiB per row.

The rows are synthetic: ``--prompts`` anchor prompts x 8 interventions (2,000 pairs by default, clustered by
prompt), each judge scoring the anchor ``gauss(skill, 1)`` and the other clip ``gauss(0, 1)`` with its own
skill, submitted through ``Leaderboard.submit`` (validation, scoring, paired data, pairing summary). The
family's cells are computed once, after the last row (``store_ranks``, what the server's background refresher
does after a row is stored); a board of 50 or 150 rows is the first rows of the 450 (a copy of the store).

Each render runs in a fresh process, with ``mmjudge.leaderboard`` imported and the IsoVRBench benchmark loaded
(import time is not render time), and measures what ``Handlers.table`` does for the default view (the page's
first table; one case both views): read the rows, build the table with its significance columns, the Gradio
value:

- ``stored cells``: the store holds the cells (the state the refresher leaves after a row is stored);
- ``no stored cells``: the store lost them (``rank_cells`` emptied: the first render after the migration, or
  after rows were hidden outside ``Leaderboard.hide``): the table asks the rank keeper, which computes them once
  and stores them (an inline keeper, so the case times both).

CPU = ``time.process_time()`` of the render. Memory: Python heap (tracemalloc) still allocated after the render
once the table is dropped and ``gc.collect()`` ran (caches included), and the peak during it, per row.

Run: ``.venv/bin/python benchmarks/bench_leaderboard_render.py [--prompts 250] [--sizes 50 150 450]``
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import write_results

RENDER = r"""
import gc, json, sys, time, tracemalloc
from mmjudge.benchmarks import get_benchmark
from mmjudge.leaderboard import Store
from mmjudge.leaderboard.board.ranks import InlineRanks, read_table
from mmjudge.leaderboard.core.columns import views
get_benchmark("isovrbench")
store = Store(sys.argv[1])
n = len(store.submissions("isovrbench"))
keeper = InlineRanks(store)  # the server's rank keeper: the table reads the cells it stored, or asks it for them
gc.collect()
tracemalloc.start()
base = tracemalloc.get_traced_memory()[0]
start = time.process_time()
for view in views("isovrbench")[: int(sys.argv[2])]:
    read_table(keeper, "isovrbench", view).gradio_value()  # what Handlers.table does after settling (rows read)
cpu = time.process_time() - start
gc.collect()
held, peak = tracemalloc.get_traced_memory()
print(json.dumps({"rows": n, "cpu": cpu, "held": held - base, "peak": peak - base}))
"""


def reference_rows(n_prompts: int) -> list[dict[str, Any]]:
    from mmjudge.benchmarks.isovrbench import INTERVENTIONS

    return [{"pair_id": f"{iv}-{i:04d}", "intervention": iv, "prompt": f"prompt {i}"}
            for i in range(n_prompts) for iv in INTERVENTIONS]  # fmt: skip


def submission(rows: list[dict[str, Any]], seed: int) -> bytes:
    rng = random.Random(seed)
    skill = rng.uniform(0.1, 1.0)
    lines = [
        json.dumps({"record": "header", "schema_version": 1, "benchmark": "isovrbench", "judge": f"j{seed}"})
    ]
    for row in rows:
        lines.append(json.dumps({"record": "prediction", "id": row["pair_id"], "no_judgment": False,
                                 "score_chosen": round(rng.gauss(skill, 1), 2),
                                 "score_rejected": round(rng.gauss(0, 1), 2)}))  # fmt: skip
    return ("\n".join(lines) + "\n").encode()


def build_board(folder: Path, n_rows: int, n_prompts: int) -> Path:
    """A store of ``n_rows`` verified rows submitted through ``Leaderboard.submit`` (cells stored at the end)."""
    from mmjudge.leaderboard import Leaderboard, Settings, Store
    from mmjudge.leaderboard.board.ranks import store_ranks
    from mmjudge.leaderboard.core.validation import SubmissionMeta

    rows = reference_rows(n_prompts)
    (folder / "isovrbench").mkdir(exist_ok=True)
    path = folder / f"board_{n_rows}.sqlite"
    board = Leaderboard(  # no on_change: the cells are stored once, after the last row
        Store(path), Settings(data_root=folder, require_login=False), rows_fn=lambda b, f: rows
    )
    for i in range(n_rows):
        board.submit(submission(rows, i), SubmissionMeta(f"judge {i}", f"org/model-{i}"), "u", limited=False)
    store_ranks(board.store, "isovrbench")
    return path


def first_rows(source: Path, n: int, folder: Path) -> Path:
    """A copy of ``source`` keeping its first ``n`` rows, with the cells of that board stored."""
    from mmjudge.leaderboard import Store
    from mmjudge.leaderboard.board.ranks import store_ranks

    path = folder / f"board_{n}.sqlite"
    shutil.copy(source, path)
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM submissions WHERE id > ?", (n,))
        conn.execute("DELETE FROM rank_cells")
    store_ranks(Store(path), "isovrbench")
    return path


def render(path: Path, n_views: int = 1) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", RENDER, str(path), str(n_views)], check=True, capture_output=True,
                          text=True)  # fmt: skip
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def row(case: str, got: dict[str, Any]) -> dict[str, Any]:
    n = got["rows"]
    return {"case": case, "rows": n, "render CPU s": got["cpu"], "CPU ms per row": 1000 * got["cpu"] / n,
            "held MiB per row": got["held"] / 2**20 / n, "peak MiB per row": got["peak"] / 2**20 / n,
            "goal": "< 1 s, < 1 MiB per row" if n == 450 else ""}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=250)
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 150, 450])
    args = parser.parse_args()
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        largest = build_board(folder, max(args.sizes), args.prompts)
        built = time.perf_counter() - start
        for n in sorted(args.sizes):
            path = largest if n == max(args.sizes) else first_rows(largest, n, folder)
            out.append(row("cold render, stored cells", render(path)))
            out.append(row("cold render, stored cells, both views", render(path, 2)))
            with sqlite3.connect(path) as conn:
                conn.execute("DELETE FROM rank_cells")
            out.append(row("cold render, no stored cells (computed once and stored)", render(path)))
            out.append(row("cold render after that", render(path)))
    for r in out:
        print(r)
    write_results(
        "Leaderboard: cold render of verified IsoVRBench boards (bench_leaderboard_render.py)",
        out,
        f"Synthetic IsoVRBench rows: {args.prompts} prompts x 8 interventions = {args.prompts * 8} pairs per row, "
        f"submitted through Leaderboard.submit (building the {max(args.sizes)}-row board took {built:.0f} s). A render "
        "is Handlers.table's default view (or both views where the case says so) (store read + table with rank-set and test columns + Gradio value) in a fresh "
        "process with mmjudge.leaderboard imported; CPU is time.process_time(). Memory is the Python heap "
        "(tracemalloc): 'held' stays allocated after the render, the table dropped and gc.collect() run (the "
        "caches included); 'peak' is the most allocated during it.",
    )


if __name__ == "__main__":
    main()
