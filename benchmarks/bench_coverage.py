"""Coverage of the scorers' nominal 95% intervals, by simulation with each benchmark's cluster structure.

Each design (``benchmarks/_coverage.py``) draws a synthetic judge run with the benchmark's structure — pairs
sharing an anchor prompt across or within interventions (IsoVRBench), the cells of one item across prompts
(MIST), an item and its swapped order on one clip (EmoPrefer-Data), several questions on one clip
(EmoReAlM), and two judges compared on the same pairs (``mmjudge compare``) — scores it with the public
scorer, and counts how often each key's interval holds the population value. Cluster sd 0 makes the units
independent; 0.5 and 1 (logit scale) make units of one cluster alike. The table gives each coverage with its
Monte Carlo standard error and the mean interval width.

    python benchmarks/bench_coverage.py                       # 2,000 replicates, sd 0 / 0.5 / 1, every design
    python benchmarks/bench_coverage.py --designs mist --replicates 200 --no-write
    python benchmarks/bench_coverage.py --designs mist_drift_24_items_10_judges --section "MIST drift"  # a section of its own
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _coverage import DESIGNS, Replicates, coverage, run_replicates
from _results import markdown_table, write_results

BEFORE = {
    ("isovrbench_across", "average"): "84.4% / 71.5% (sd 0 / 1, pairs as independent)",
    ("isovrbench_within", "average"): "55.9% / 39.6% (sd 0 / 1, pairs as independent)",
    ("isovrbench_within", "accuracy/t2v_1_3b"): "89.6% / 79.5% (sd 0 / 1, Wilson over pairs)",
    ("mist", "change_rate/control"): "90.3% / 85.2% (sd 0 / 1, Wilson over cells)",
    ("isovrbench_compare", "difference average"): "89-94%",
    ("isovrbench_5_prompts", "average"): "83.7% (percentile cluster bootstrap)",
    ("isovrbench_5_prompts_high", "average"): "as low as 70%, often [100, 100] (percentile cluster bootstrap)",
    ("isovrbench_20_prompts_high", "average"): "as low as 70%, often [100, 100] (percentile cluster bootstrap)",
    ("isovrbench_100_prompts_rare", "*"): "84% for a 1% rate (percentile cluster bootstrap)",
    ("mist_20_items", "*"): "87-89% (percentile cluster bootstrap)",
    ("isovrbench_60_prompts_unequal", "*"): "90.7-92% (percentile cluster bootstrap)",
    ("isovrbench_100_prompts_unequal", "*"): "90.7-92% (percentile cluster bootstrap)",
    ("isovrbench_10_prompts_dominant", "*"): "99.1-100% (the jackknife interval, uselessly wide)",
    ("isovrbench_40_prompts_dominant", "*"): "99.1-100% (the jackknife interval, uselessly wide)",
    ("mist_drift_10_items_10_judges", "*"): "keys 89.0-97.5%, sd 1 and 2, 200 replicates (t interval over 5 items per sentence type)",
    ("mist_drift_16_items_10_judges", "*"): "keys 88.0-98.0%, sd 1 and 2, 200 replicates (t interval over 8 items per sentence type)",
    ("mist_drift_10_items_1_judges", "*"): "keys 89.0-100%, text_to_aligned 99.3-100%, sd 1 and 2, 300 replicates (t interval or no-spread bound, 5 items)",
    ("mist_drift_16_items_1_judges", "*"): "keys 89.3-100%, text_to_aligned 97.0-100%, sd 1 and 2, 300 replicates (t interval or no-spread bound, 8 items)",
}
"""Coverage of the intervals a design's defect was found with, as measured then (the percentile cluster
bootstrap of the previous round, or the intervals before clustering)."""


def _import_scorers() -> None:
    """Import every scorer a design calls once, when a worker starts: the run uses one version of the code."""
    import mmjudge.benchmarks.emoprefer.scoring
    import mmjudge.benchmarks.emorealm.scoring
    import mmjudge.benchmarks.isovrbench.scoring
    import mmjudge.benchmarks.mist.scoring
    import mmjudge.comparison  # noqa: F401


def _rows(design: str, sd: float, blocks: list[dict[str, Replicates]]) -> list[dict[str, object]]:
    rows = []
    for key in blocks[0]:
        hits = np.concatenate([b[key].hits for b in blocks])
        widths = np.concatenate([b[key].widths for b in blocks])
        shown = ~np.isnan(widths)
        cov, se = coverage(hits[shown]) if shown.any() else (float("nan"), float("nan"))
        rows.append({
            "design": design, "key": key, "cluster sd": sd, "replicates": hits.size,
            "coverage %": round(100 * cov, 1), "MC se": round(100 * se, 2),
            "withheld %": round(100 * float(np.mean(~shown)), 1),
            "zero width": int(np.sum(widths[shown] <= 0)),
            "mean width": round(float(np.nanmean(widths)), 2) if shown.any() else float("nan"),
            "before": BEFORE.get((design, key), BEFORE.get((design, "*"), "")),
        })  # fmt: skip
    return rows


def _block(args: tuple[str, float, int, int, int, int]) -> dict[str, Replicates]:
    design, sd, first, count, n_resamples, seed = args
    return run_replicates(design, sd, count, n_resamples=n_resamples, seed=seed, first=first)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--designs", nargs="+", default=list(DESIGNS), choices=list(DESIGNS), help="designs to run")
    parser.add_argument("--sd", nargs="+", type=float, default=None,
                        help="cluster sds (logit scale; default: each design's own, 5.4 = intraclass correlation 0.9)")
    parser.add_argument("--fast", action="store_true", help="only the designs make test's slice runs")
    parser.add_argument("--replicates", type=int, default=2000, help="replicates per design and sd")
    parser.add_argument("--n-resamples", type=int, default=1000, help="bootstrap resamples per interval")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--block", type=int, default=50, help="replicates per task")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-write", action="store_true", help="print the table only, do not write to docs/performance.md")
    parser.add_argument("--section", default="", help="write to the section 'Interval coverage by simulation "
                        "(bench_coverage.py): <this>' instead of the main one (a run of a few designs beside the full "
                        "table)")  # fmt: skip
    args = parser.parse_args(argv)

    designs = [d for d in args.designs if DESIGNS[d].fast or not args.fast]
    tasks = [
        (design, sd, first, min(args.block, args.replicates - first), args.n_resamples, args.seed)
        for design in designs
        for sd in (args.sd or DESIGNS[design].sds)
        for first in range(0, args.replicates, args.block)
    ]
    collected: dict[tuple[str, float], list[dict[str, Replicates]]] = {}
    per_group = {(t[0], t[1]): 0 for t in tasks}
    for t in tasks:
        per_group[(t[0], t[1])] += 1
    rows: list[dict[str, object]] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers, initializer=_import_scorers) as pool:
        for task, result in tqdm(zip(tasks, pool.map(_block, tasks), strict=True), total=len(tasks), desc="blocks"):
            group = collected.setdefault((task[0], task[1]), [])
            group.append(result)
            if len(group) == per_group[(task[0], task[1])]:  # a design and sd done: show it now
                done = _rows(task[0], task[1], group)
                rows += done
                tqdm.write(markdown_table(done))
    elapsed = time.perf_counter() - started
    print(markdown_table(rows))
    print(f"{elapsed:.0f} s")
    if not args.no_write:
        notes = (
            "Nominal 95% intervals of the public scorers (the scorers' intervals draw nothing: Wilson, or the "
            f"jackknife Wilson interval on the effective sample size; `mmjudge compare` {args.n_resamples} resamples); "
            f"{elapsed:.0f} s on {args.workers} processes. Coverage is over the replicates that show an interval "
            "('withheld %': none shown, fewer than 5 clusters); 'zero width': intervals of width 0. 'before' is the "
            "coverage of the intervals a design's defect was found with, as measured then. Population values by "
            "Gauss-Hermite quadrature over the "
            "cluster effect. Designs:\n"
            + "".join(f"- `{d}`: {DESIGNS[d].name}; {DESIGNS[d].structure}\n" for d in designs)
        )
        title = "Interval coverage by simulation (bench_coverage.py)"
        write_results(f"{title}: {args.section}" if args.section else title, rows, notes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
