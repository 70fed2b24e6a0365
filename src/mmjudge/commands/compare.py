"""``mmjudge compare``: paired significance of the differences between judges on the same items."""

from __future__ import annotations

import argparse
from pathlib import Path

from mmjudge.estimates import comparison_methods

NAME = "compare"
HELP = (
    f"compare runs of one benchmark on the same items: paired CIs and p-values ({comparison_methods()}) and "
    "McNemar tests"
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Options: the runs, output folder, reference folder, resampling settings."""
    parser.add_argument(
        "runs", nargs="+", type=Path, metavar="RUN",
        help="mmjudge eval --out folders (a frame sweep: one frames_<n> subfolder); the first is the baseline",
    )  # fmt: skip
    parser.add_argument(
        "--out", required=True, type=Path, help="write compare.md, compare.json, compare.png here"
    )
    parser.add_argument(
        "--data",
        help="built benchmark folder or Hub dataset ORG/NAME[@REVISION] (default: the one the runs recorded)",
    )
    parser.add_argument(
        "--n-resamples", type=int, default=10_000,
        help="bootstrap resamples, or sign flips drawn when the sign-flip test is not exact (default 10000)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="seed of the resamples and flips (default 0)")
    parser.add_argument("--confidence", type=float, default=0.95, help="interval coverage (default 0.95)")


def run(args: argparse.Namespace) -> int:
    from mmjudge.comparison import compare_runs, load_runs, summary_lines, write_comparison
    from mmjudge.errors import ConfigError

    if args.n_resamples < 1:  # checked before the runs are read and rescored
        raise ConfigError(f"--n-resamples must be a positive integer, got {args.n_resamples}")
    if not 0.0 < args.confidence < 1.0:
        raise ConfigError(
            f"--confidence must lie strictly between 0 and 1 (e.g. 0.95), got {args.confidence}"
        )
    runset = load_runs(args.runs, args.data)
    comparison = compare_runs(
        runset, n_resamples=args.n_resamples, confidence=args.confidence, seed=args.seed
    )
    paths = write_comparison(comparison, args.out)
    print("\n".join(summary_lines(comparison)))
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0
