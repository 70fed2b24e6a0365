"""``mmjudge build-interventions``: prompts -> anchors and the eight IsoVRBench counterparts -> a pair table.

Runs on one process and under ``torchrun --nproc_per_node N -m mmjudge build-interventions ...`` or
``accelerate launch --multi_gpu --num_processes N -m mmjudge build-interventions ...`` (one GPU per
rank; prompts are split between ranks). Rerun the same command to resume a killed build: finished
clips are kept. The output folder is a raw IsoVRBench release: ``mmjudge build-dataset isovrbench
--source OUT --out DATA`` builds it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "build-interventions"
HELP = "render anchors and the eight intervention counterparts from a prompt file (IsoVRBench pair table)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Options: prompt file, config, output folder, split, progress."""
    parser.add_argument(
        "--prompts", required=True, type=Path, help="prompt file (JSON Lines with a `prompt` per line)"
    )
    parser.add_argument(
        "--config", required=True, help="generation config YAML, or `isovrbench` for the paper's set-up"
    )
    parser.add_argument(
        "--out", required=True, type=Path, help="build folder (resumed when it holds an earlier build)"
    )
    parser.add_argument(
        "--split", default="test", choices=("test", "train", "validation"), help="name of the pair table"
    )
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    from mmjudge.benchmarks.isovrbench.generate import build_interventions, load_config, read_prompts
    from mmjudge.runner.dist import init_dist

    config = load_config(args.config)  # refuse bad input before starting ranks or loading weights
    prompts = read_prompts(args.prompts)
    ranks = init_dist()
    result = build_interventions(
        args.prompts, config, args.out, split=args.split, ranks=ranks, progress=not args.no_progress
    )
    if ranks.is_main:
        print(
            f"{result.pairs} pairs from {len(prompts)} prompts ({result.generated} clips made, {result.reused} "
            f"reused) in {result.seconds:.1f} s: {result.table}"
        )
    return 0
