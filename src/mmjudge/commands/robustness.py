"""``mmjudge robustness``: what a judge is sensitive to, on the probes its benchmark declares.

Runs the judge through the normal runner (cache, resume, multi-process, decode once) on the benchmark's
own items and on each probe's derived items, and writes ``robustness.json`` (versioned schema),
``robustness.md`` with plots and ``robustness_summary.json`` (the leaderboard summary). Point ``--out``
at the folder of an earlier ``mmjudge eval`` run of the same judge: its cache answers the benchmark's
own items, and only the probes' new items are judged.
"""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from mmjudge.commands._failures import HELP_EPILOG, add_max_failed_share, check_max_failed_share, errored_exit
from mmjudge.errors import ConfigError

NAME = "robustness"
HELP = "probe what a judge is sensitive to (order, ties, frame count, irrelevant context, shortcuts, repeats)"

_EPILOG = """\
Each benchmark declares its probes (order/swap, ties and identical-clip controls, frame count,
irrelevant context or modality ablation, generator shortcut); the repeat probe (--repeats N) applies
to every benchmark. The report lists every probe: run, with its effects, 95% intervals, n and cost
(items judged, cache hits), or skipped with the reason. --probe NAME with an unknown name lists the
benchmark's probes.

example (the second command judges only the probes' new items):
  mmjudge eval --benchmark ID --judge judges/NAME/config.yaml --data DIR --out runs/NAME
  mmjudge robustness --benchmark ID --judge judges/NAME/config.yaml --data DIR --out runs/NAME
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Options: benchmark, judge, data, output, probes, repeats, frames, runner options."""
    from mmjudge.benchmarks import benchmark_ids
    from mmjudge.commands.eval import frame_counts

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = f"{_EPILOG}\n{textwrap.fill(HELP_EPILOG + ' Each probe run counts on its own.', 100)}"
    parser.add_argument("--benchmark", required=True, choices=benchmark_ids(), help="benchmark id")
    parser.add_argument("--judge", required=True, help="registered judge name or path to a judge config.yaml")
    parser.add_argument(
        "--data",
        help="built benchmark folder or Hub dataset ORG/NAME[@REVISION] (default: the data the `mmjudge eval` "
        "run in --out recorded)",
    )
    parser.add_argument("--media-root", type=Path, help="root of gated media (e.g. MER2025, DFEW); default: --data")
    parser.add_argument(
        "--out", required=True, type=Path,
        help="output folder; reuse an `mmjudge eval` folder of the same judge to judge only the new items",
    )  # fmt: skip
    parser.add_argument(
        "--probe", action="append", default=[], metavar="NAME", help="only this probe (repeatable; default: all)"
    )
    parser.add_argument(
        "--repeats", type=int, default=0, help="runs of the repeat probe (N >= 2: seeds seed..seed+N-1; default: skipped)"
    )
    parser.add_argument(
        "--frames", type=frame_counts, help="frame counts of the frame-count probe (default: the benchmark's, 4,8,16,32,48)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the probes' bootstrap intervals and CV folds")
    parser.add_argument("--decode-workers", type=int, default=2, help="decode worker processes per rank (0: none)")
    parser.add_argument("--limit", type=int, help="only the first N pairs / items / questions")
    parser.add_argument("--batch-size", type=int, help="items per judge call (default: the config's)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    add_max_failed_share(parser)


def run(args: argparse.Namespace) -> int:
    from mmjudge.data.location import resolve_data
    from mmjudge.errors import MissingFileError
    from mmjudge.results import data_of_run, read_results
    from mmjudge.robustness import RobustnessOptions, robustness_report
    from mmjudge.runner import RunOptions

    for name in ("decode_workers", "limit", "batch_size", "repeats"):
        value = getattr(args, name)
        if value is not None and value < (0 if name in ("decode_workers", "repeats") else 1):
            raise ConfigError(f"--{name.replace('_', '-')} must be a positive integer, got {value}")
    if args.repeats == 1:
        raise ConfigError("--repeats 1 compares nothing: pass --repeats N with N >= 2, or leave it out")
    check_max_failed_share(args.max_failed_share)
    run_options = RunOptions(
        decode_workers=args.decode_workers, limit=args.limit, batch_size=args.batch_size,
        media_root=args.media_root, progress=not args.no_progress,
    )  # fmt: skip
    options = RobustnessOptions(
        run=run_options, probes=tuple(args.probe), repeats=args.repeats, frames=args.frames, seed=args.seed
    )
    if args.data is not None:
        source = resolve_data(args.data)
    elif (args.out / "results.json").is_file():
        source = data_of_run(read_results(args.out / "results.json"), run=str(args.out / "results.json"))
    else:
        raise MissingFileError(
            f"--data is needed: {args.out} holds no `mmjudge eval` run (results.json) whose data could be reused"
        )
    output = robustness_report(args.benchmark, args.judge, source.path, args.out, options)
    if output is None:  # not the main rank
        return 0
    base = output.report["base"]
    print(f"benchmark items: {base['judged']} judged, {base['cached']} cached")
    for probe in output.report["probes"]:
        cost = probe["cost"]
        state = (
            f"{cost['judged']} judged, {cost['cached']} cached" if probe["status"] == "ran"
            else f"skipped: {probe['reason']}"
        )  # fmt: skip
        print(f"{probe['name']}: {state}")
    print(f"{output.json}\n{output.markdown}\n{output.summary}")
    where = f"each item's verdict and error are in the verdict cache {args.out / 'cache'}"
    return errored_exit(NAME, output.errors, args.max_failed_share, where)
