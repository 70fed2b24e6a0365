"""Build-speed and memory benchmark of the dataset builders (issue 3, performance).

Measures, on generated IsoVRBench pair tables (no video is decoded; clips are tiny files):

1. building 8,000 pair rows with ``media="reference"`` (every clip file checked and content-hashed,
   nothing copied) and with ``media="metadata"`` (no file opened); target < 10 s;
2. peak RSS of a build in a fresh process at 8,000 / 40,000 / 160,000 rows (``media="metadata"``,
   pairs streamed chunk by chunk into parquet row groups); target: flat;
3. ``datasets.load_dataset(folder, config)`` of the 8,000-row folder with a cold cache; target < 5 s.

Run: ``.venv/bin/python benchmarks/bench_data.py`` (writes its section of docs/performance.md).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEADER = [
    "pair_id",
    "prompt",
    "intervention",
    "video_chosen",
    "video_rejected",
    "generator_chosen",
    "generator_rejected",
    "seed",
    "num_frames",
    "fps",
    "index_map",
    "synthetic",
]


def write_pairs(folder: Path, rows: int, *, clips: bool) -> Path:
    """A pair table of ``rows`` rows (anchors shared like the benchmark's ~15k clips per 8k pairs)."""
    from mmjudge.benchmarks.isovrbench import INTERVENTIONS

    folder.mkdir(parents=True, exist_ok=True)
    anchors = max(1, rows * 7047 // 8000)
    index_map = json.dumps([(i * 7) % 81 for i in range(81)])
    with (folder / "test.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        for i in range(rows):
            a = i % anchors
            name = INTERVENTIONS[i % len(INTERVENTIONS)]
            chosen, rejected = f"clips/{a:06d}/anchor.mp4", f"clips/{a:06d}/{name}_{i}.mp4"
            imap = index_map if name in ("temporal_shuffle", "frame_hold") else ""
            prompt = f"prompt number {a}, a scene with moving objects"
            generator = "Wan2.2-T2V-A14B"
            writer.writerow(
                [f"pair_{i:07d}", prompt, name, chosen, rejected, generator, generator, a, 81, 16, imap, ""]
            )
            if clips:
                for rel in (chosen, rejected):
                    path = folder / rel
                    if not path.exists():
                        path.parent.mkdir(parents=True, exist_ok=True)
                        path.write_bytes(rel.encode() * 4)
    return folder


def peak_rss_mib() -> float:
    """Peak resident memory of this process: VmHWM (reset at exec, unlike ru_maxrss, which on Linux
    carries the forking parent's peak into a child), else ru_maxrss."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(rows: int, work: Path) -> None:
    """Build ``rows`` metadata-only rows in this process and print the peak RSS (MiB) as JSON."""
    from mmjudge.benchmarks import build_dataset

    source = write_pairs(work / f"raw{rows}", rows, clips=False)
    import datasets  # noqa: F401  (imported by the card writer anyway; counted before the build)

    before = peak_rss_mib()
    start = time.perf_counter()
    build_dataset("isovrbench", source, work / f"out{rows}", media="metadata")
    seconds = time.perf_counter() - start
    peak = peak_rss_mib()
    csv_mib = (source / "test.csv").stat().st_size / 2**20
    print(
        json.dumps(
            {
                "rows": rows,
                "seconds": seconds,
                "peak_rss_mib": peak,
                "rss_before_build_mib": before,
                "csv_mib": csv_mib,
            }
        )
    )


def timed_build(source: Path, out: Path, media: str) -> float:
    from mmjudge.benchmarks import build_dataset

    start = time.perf_counter()
    build_dataset("isovrbench", source, out, media=media)
    return time.perf_counter() - start


def timed_load(folder: Path, config: str, cache: Path) -> tuple[float, int]:
    import datasets

    start = time.perf_counter()
    ds = datasets.load_dataset(str(folder), config, cache_dir=str(cache))
    return time.perf_counter() - start, sum(split.num_rows for split in ds.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--sizes", default="8000,40000,160000", help="row counts for the memory runs")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.work)
        return
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-data-") as tmp:
        work = Path(tmp)
        source = write_pairs(work / "raw8k", 8000, clips=True)
        clip_files = sum(1 for _ in (source / "clips").rglob("*.mp4"))
        for media in ("reference", "metadata"):
            seconds = timed_build(source, work / f"out8k-{media}", media)
            rows.append(
                {
                    "measure": f"build 8,000 pairs, media={media}",
                    "value": f"{seconds:.2f} s",
                    "target": "< 10 s",
                }
            )
        for config in ("all", "temporal_shuffle", "clips"):
            seconds, n = timed_load(work / "out8k-reference", config, work / f"cache-{config}")
            rows.append(
                {
                    "measure": f"load_dataset(folder, {config!r}), cold cache ({n} rows)",
                    "value": f"{seconds:.2f} s",
                    "target": "< 5 s",
                }
            )
        for size in (int(s) for s in args.sizes.split(",")):
            result = subprocess.run(
                [sys.executable, __file__, "--child", str(size), "--work", str(work)],
                capture_output=True,
                text=True,
                check=True,
            )
            stats = json.loads(result.stdout.strip().splitlines()[-1])
            rows.append(
                {
                    "measure": f"build {size:,} pairs, media=metadata, fresh process ({stats['csv_mib']:.1f} MiB CSV)",
                    "value": f"{stats['seconds']:.2f} s, peak RSS {stats['peak_rss_mib']:.0f} MiB "
                    f"(before build {stats['rss_before_build_mib']:.0f} MiB)",
                    "target": "flat peak RSS",
                }
            )
    for row in rows:
        print(f"{row['measure']}: {row['value']}")
    sys.path.insert(0, str(Path(__file__).parent))
    from _results import write_results

    write_results(
        "Dataset build (IsoVRBench pair tables)",
        rows,
        notes=(
            f"Generated pair tables with anchors shared as in the benchmark (8,000 pairs -> {clip_files} clip files of "
            "~100 bytes; no video decoded). `reference` checks and sha256-hashes every clip file; `metadata` opens "
            "none. Peak RSS is `ru_maxrss` of a fresh process that imports mmjudge, writes the CSV and builds; "
            "memory beyond one chunk grows only with the pair-id set and the clips config's seen set."
        ),
    )


if __name__ == "__main__":
    main()
