"""``mmjudge sample-data``: write and build the synthetic sample of every registered benchmark."""

from __future__ import annotations

import argparse

NAME = "sample-data"
HELP = "write small deterministic samples of the benchmarks in their raw formats and build them"


def configure(parser: argparse.ArgumentParser) -> None:
    """Options: output folder, size, seed, benchmarks, overwrite."""
    from mmjudge.benchmarks import benchmark_ids

    parser.add_argument("--out", required=True, help="output folder (gets raw/<id>/ and <id>/ per benchmark)")
    parser.add_argument("--size", choices=("small", "medium"), default="small", help="sample size")
    parser.add_argument("--seed", type=int, default=0, help="seed of every sample writer")
    parser.add_argument(
        "--benchmark",
        action="append",
        choices=benchmark_ids(),
        help="only this benchmark (repeatable; default all)",
    )
    parser.add_argument("--overwrite", action="store_true", help="replace existing sample folders")


def run(args: argparse.Namespace) -> int:
    from mmjudge.benchmarks import write_sample_data

    folders = write_sample_data(
        args.out, size=args.size, seed=args.seed, benchmarks=args.benchmark, overwrite=args.overwrite
    )
    for benchmark, folder in folders.items():
        print(f"{benchmark}\t{folder}")
    return 0
