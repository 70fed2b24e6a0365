"""Sample-data benchmark: wall time, bytes and peak memory of ``mmjudge sample-data``.

Run on demand (never in ``make test``)::

    .venv/bin/python benchmarks/bench_sample_data.py                  # small, 3 repeats
    .venv/bin/python benchmarks/bench_sample_data.py --size medium --repeats 1
    .venv/bin/python benchmarks/bench_sample_data.py --no-append

Each repeat runs ``python -m mmjudge sample-data --out TMP --size SIZE`` as a fresh process (the
interpreter start and imports are included in the wall time) and reads the per-benchmark seconds and
bytes (raw + built) from ``TMP/sample_summary.json``. The target for ``small`` is under 60 s and
under 50 MB for all four benchmarks on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _results import write_results


def run_once(size: str) -> tuple[float, dict, int]:
    """Wall seconds, the summary, and total bytes of the output folder for one fresh-process run."""
    with tempfile.TemporaryDirectory(prefix="mmjudge-bench-sample-") as tmp:
        out = Path(tmp) / "out"
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "mmjudge", "sample-data", "--out", str(out), "--size", size],
            check=True,
            capture_output=True,
        )
        wall = time.perf_counter() - started
        summary = json.loads((out / "sample_summary.json").read_text())
        total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return wall, summary, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=("small", "medium"), default="small")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-append", action="store_true", help="print only; do not touch docs/performance.md")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    walls, summaries, totals = [], [], []
    for _ in range(args.repeats):
        wall, summary, total = run_once(args.size)
        walls.append(wall)
        summaries.append(summary)
        totals.append(total)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    rows: list[dict[str, object]] = []
    for benchmark in summaries[0]["benchmarks"]:
        seconds = [s["benchmarks"][benchmark]["seconds"] for s in summaries]
        rows.append(
            {
                "benchmark": benchmark,
                "seconds (median)": statistics.median(seconds),
                "MB raw + built": summaries[0]["benchmarks"][benchmark]["bytes"] / 1e6,
            }
        )
    rows.append(
        {
            "benchmark": "all four, whole process",
            "seconds (median)": statistics.median(walls),
            "MB raw + built": totals[0] / 1e6,
        }
    )
    notes = (
        f"Size `{args.size}`, {args.repeats} repeat(s); wall times min {min(walls):.1f} s, "
        f"max {max(walls):.1f} s; peak RSS of the largest child process {peak_mb:.0f} MB. "
        "Per-benchmark seconds come from sample_summary.json (write_raw + build + card note). "
        f"1-minute load average {load_before:.1f} before and {os.getloadavg()[0]:.1f} after the runs "
        "(other processes share the cores)."
    )
    for row in rows:
        print(row)
    print(notes)
    if not args.no_append:
        write_results(f"sample-data ({args.size})", rows, notes)


if __name__ == "__main__":
    main()
