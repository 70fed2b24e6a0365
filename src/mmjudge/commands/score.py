"""``mmjudge score``: re-score a prediction file against a built benchmark folder, without a judge.

Prints the headline scores with their CIs (the table ``mmjudge eval`` ends with); ``--json`` prints
the full result dict instead, ``--out`` also writes ``results.json``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

NAME = "score"
HELP = "score a predictions.jsonl file against a built benchmark folder (same core as evaluate)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Options: prediction file, data folder, output, JSON output, expected benchmark, scoring mode."""
    from mmjudge.benchmarks import benchmark_ids

    parser.add_argument("predictions", type=Path, help="a predictions.jsonl file")
    parser.add_argument(
        "--data",
        help="built benchmark folder or Hub dataset ORG/NAME[@REVISION] (default: the one the run recorded: "
        "results.json beside the file, else the Hub repo in its header)",
    )
    parser.add_argument("--out", type=Path, help="write results.json here")
    parser.add_argument("--json", action="store_true", help="print the full result dict as JSON")
    parser.add_argument("--benchmark", choices=benchmark_ids(), help="refuse a file of another benchmark")
    parser.add_argument(
        "--mode",
        help="a scoring mode the file's benchmark declares (e.g. EmoReAlM, MIST: official skips missing "
        "outputs, strict counts them wrong)",
    )


def run(args: argparse.Namespace) -> int:
    from mmjudge.benchmarks import get_benchmark
    from mmjudge.data.location import resolve_data
    from mmjudge.errors import ConfigError
    from mmjudge.predictions import read_predictions
    from mmjudge.report import score_table
    from mmjudge.results import data_of_predictions, score_file, write_results

    options = {}
    if args.mode is not None:
        found = read_predictions(args.predictions, benchmark=args.benchmark).header.benchmark
        modes = get_benchmark(found).metrics.modes
        if not modes:
            raise ConfigError(
                f"--mode applies to benchmarks with scoring modes; {args.predictions} holds {found!r}, "
                "which has one way of scoring: leave --mode out"
            )
        if args.mode not in modes:
            raise ConfigError(f"--mode must be one of {list(modes)} for {found!r}, got {args.mode!r}")
        options["mode"] = args.mode
    source = resolve_data(args.data) if args.data is not None else data_of_predictions(args.predictions)
    predictions, _rows, scores = score_file(args.predictions, source.path, benchmark=args.benchmark, **options)
    header = predictions.header
    if args.out is not None:
        run_info = {"rescored_from": str(args.predictions), "score_options": options, "data": source.location}
        path = write_results(args.out, header.benchmark, header.judge, scores, header.provenance, run_info)
        if not args.json:  # with --json, stdout is the JSON document alone
            print(path)
    if args.json:
        print(json.dumps(scores, indent=2, default=str))
    else:
        setting = f"mode={args.mode}" if args.mode is not None else ""
        print(score_table(header.benchmark, header.judge, [(setting, scores)]))
    return 0
