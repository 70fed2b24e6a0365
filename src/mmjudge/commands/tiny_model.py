"""``mmjudge tiny-model``: write a tiny RANDOM checkpoint of a model family and a judge config that runs it.

For trying a model judge without downloading weights: the checkpoint (:mod:`mmjudge.judges.tiny`: one
layer, the family's own processor and chat template at the released sizes) goes to ``OUT/model``, the
config to ``OUT/<judge>.yaml`` (``model`` as an absolute path, ``local_files_only: true``, float32, 4
frames, short generations), the pair is checked as ``mmjudge eval`` checks it before a run, and the
command prints the ``mmjudge sample-data`` and ``mmjudge eval`` lines that try it on the sample data.
The weights are random: scores mean nothing; a run checks the plumbing.
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

NAME = "tiny-model"
HELP = (
    "write a tiny RANDOM-weight checkpoint of a model family plus a judge config, to try a model judge "
    "without downloading weights (its scores mean nothing: it checks the plumbing)"
)

_EPILOG = (
    "The weights are RANDOM (never trained): every score they give is meaningless. Use the folder to check "
    "that a judge loads offline, sees the media through its family's processor, and that eval, scoring and "
    "reports run. Needs the judges extra: pip install 'mmjudge[judges]'. Families each judge takes (the "
    "first is the default): {families}."
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Options: judge, family, output folder, seed, sample-data folder, overwrite."""
    from mmjudge.judges.tiny import CHECKPOINTS, RECIPES  # no torch: the builders import it when called

    takers: dict[tuple[str, ...], list[str]] = {}
    for recipe in RECIPES.values():
        takers.setdefault(recipe.checkpoints, []).append(recipe.judge)
    parser.epilog = _EPILOG.format(
        families="; ".join(f"{', '.join(j)}: {', '.join(c)}" for c, j in takers.items())
    )
    parser.add_argument("--judge", required=True, choices=list(RECIPES), metavar="JUDGE",
                        help=f"model judge to try: {', '.join(RECIPES)}")  # fmt: skip
    parser.add_argument(
        "--family", choices=list(CHECKPOINTS), metavar="FAMILY",
        help=f"model family of the tiny checkpoint: {', '.join(CHECKPOINTS)} (default: the judge's first; "
        "below: which judge takes which)",
    )  # fmt: skip
    parser.add_argument("--out", required=True, type=Path, help="folder for model/ and <judge>.yaml")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random weights")
    parser.add_argument(
        "--sample-data", type=Path,
        help="sample-data folder the printed eval line reads (default: OUT/sample-data)",
    )  # fmt: skip
    parser.add_argument("--overwrite", action="store_true", help="replace an existing OUT/model")


def run(args: argparse.Namespace) -> int:
    from mmjudge.judges.tiny import RANDOM_WEIGHTS_NOTICE, write_tiny_judge

    print(f"mmjudge tiny-model: {RANDOM_WEIGHTS_NOTICE}", flush=True)
    tiny = write_tiny_judge(args.judge, args.out, args.family, seed=args.seed, overwrite=args.overwrite)
    sample = args.sample_data or args.out / "sample-data"
    print(f"model:  {tiny.model} (tiny random {tiny.checkpoint})")
    print(f"config: {tiny.config} (checked against {tiny.benchmark}, as a run checks it)")
    print("try it on the sample data:")
    if not (sample / tiny.benchmark).exists():
        print(f"  mmjudge {shlex.join(['sample-data', '--out', str(sample), '--benchmark', tiny.benchmark])}")
    print(f"  mmjudge {shlex.join(tiny.eval_argv(sample, args.out / f'run-{tiny.benchmark}'))}")
    return 0
