"""``mmjudge eval``: run a judge on a built benchmark folder, score it, write predictions, results and a report.

Works on one process and under ``torchrun --nproc_per_node N -m mmjudge eval ...`` or
``accelerate launch --multi_gpu --num_processes N -m mmjudge eval ...`` (gloo ranks on CPU). Bad input
(unknown judge, bad config, a folder that is not a built benchmark) is refused before anything is
written; the output folder then gets at most ``eval.log``. Items that failed with an error (unreadable
or missing media, the model raised) are written as ``no_judgment`` like any other; then the command
names them and exits with status 3 unless their share is within ``--max-failed-share`` (default 0).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mmjudge.commands._failures import HELP_EPILOG, add_max_failed_share, check_max_failed_share, errored_exit
from mmjudge.errors import ConfigError

if TYPE_CHECKING:
    from mmjudge.judges import JudgeConfig
    from mmjudge.runner import EvalOutput

NAME = "eval"
HELP = "judge a built benchmark folder and write predictions.jsonl, results.json and report.md"

LOG_NAME = "eval.log"


def configure(parser: argparse.ArgumentParser) -> None:
    """Options: benchmark, judge, data, output, frames, decode workers, swap, limit, batch size, and the
    share of items that may fail with an error."""
    from mmjudge.benchmarks import benchmark_ids

    parser.epilog = HELP_EPILOG
    parser.add_argument("--benchmark", required=True, choices=benchmark_ids(), help="benchmark id")
    parser.add_argument("--judge", required=True, help="registered judge name or path to a judge config.yaml")
    parser.add_argument(
        "--data", required=True, help="built benchmark folder, or a Hub dataset ORG/NAME[@REVISION] (recorded in results.json)"
    )
    parser.add_argument(
        "--media-root", type=Path, help="root of gated media (e.g. MER2025, DFEW); default: --data"
    )
    parser.add_argument("--out", required=True, type=Path, help="output folder (also holds the resume cache)")
    parser.add_argument(
        "--frames", type=frame_counts, default=(), help="frame count, or a sweep such as 4,8,16,32,48"
    )
    parser.add_argument(
        "--decode-workers", type=int, default=2, help="decode worker processes per rank (0: none)"
    )
    parser.add_argument(
        "--swap",
        action="store_true",
        help="also judge every item in swapped order (EmoPrefer: a1/a2 swapped)",
    )
    parser.add_argument("--limit", type=int, help="only the first N pairs / items / questions")
    parser.add_argument("--batch-size", type=int, help="items per judge call (default: the config's)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="before the run, pin every Hub repo the judge config loads (the model, and a second repo its options "
        "name: a text LLM, a checkpoint, a processor) to the commit its revision names now; the run records the "
        "commits in its provenance, and a repo that cannot be resolved stops the run before it starts",
    )
    add_max_failed_share(parser)


def frame_counts(text: str) -> tuple[int, ...]:
    """Parse ``"8"`` or ``"4,8,16"`` into positive, distinct frame counts.

    >>> frame_counts("4, 8,16")
    (4, 8, 16)
    >>> frame_counts("8,0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: --frames expects positive integers separated by commas (e.g. 4,8,16), got '8,0'
    """
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        counts = ()
    if not counts or min(counts) < 1 or len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError(
            f"--frames expects positive integers separated by commas (e.g. 4,8,16), got {text!r}"
        )
    return counts


def run(args: argparse.Namespace) -> int:
    from mmjudge.data.location import resolve_data
    from mmjudge.runner import RunOptions, evaluate_prepared, prepare_run

    for name in ("decode_workers", "limit", "batch_size"):
        value = getattr(args, name)
        if value is not None and value < (0 if name == "decode_workers" else 1):
            raise ConfigError(f"--{name.replace('_', '-')} must be a positive integer, got {value}")
    check_max_failed_share(args.max_failed_share)
    options = RunOptions(
        frames=args.frames,
        decode_workers=args.decode_workers,
        swap=args.swap,
        limit=args.limit,
        batch_size=args.batch_size,
        media_root=args.media_root,
        progress=not args.no_progress,
    )
    # Everything is checked and built once, before the output folder is touched.
    source = resolve_data(args.data)
    judge = _pinned(args.judge) if args.pin else args.judge
    prepared = prepare_run(args.benchmark, judge, source.path, options)
    handler = _log_to(args.out / LOG_NAME)
    try:
        outputs = evaluate_prepared(prepared, source, args.out)
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()
    for output in outputs:
        label = f"frames={output.frames}: " if output.frames is not None else ""
        print(f"{label}{output.predictions}\n{label}{output.results}\n{label}{output.report}")
    if not outputs:  # not the main rank
        return 0
    _summary(args.benchmark, args.out, outputs)
    where = f"log: {args.out / LOG_NAME}; each item's error is in its record in predictions.jsonl (`error`)"
    return errored_exit(NAME, [o.errors for o in outputs], args.max_failed_share, where)


def _pinned(judge: str) -> JudgeConfig:
    """The judge config ``judge`` names with every Hub repo it loads at a commit (:func:`mmjudge.judges.repos.pin_config`)."""
    import dataclasses

    from mmjudge._hub import hub_commit
    from mmjudge.judges import config_from_mapping
    from mmjudge.judges.repos import pin_config
    from mmjudge.runner import resolve_config

    config = resolve_config(judge)
    pinned = config_from_mapping(pin_config(dataclasses.asdict(config), hub_commit), source=f"{judge} (pinned)")
    logging.getLogger(__name__).info("--pin: %s", pinned)
    return pinned


def _summary(benchmark: str, out: Path, outputs: Sequence[EvalOutput]) -> None:
    """The sweep summary's paths, then the headline scores with their CIs (one row per frame count)."""
    from mmjudge.report import score_table
    from mmjudge.runner import SWEEP_FILES

    if any(o.frames is not None for o in outputs):
        print("\n".join(f"sweep: {out / name}" for name in SWEEP_FILES))
    runs = [(f"frames={o.frames}" if o.frames is not None else "", o.scores) for o in outputs]
    print(f"\n{score_table(benchmark, outputs[0].judge, runs)}")


def _log_to(path: Path) -> logging.Handler:
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(handler)
    return handler
