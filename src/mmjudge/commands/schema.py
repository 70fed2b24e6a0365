"""``mmjudge schema``: the JSON Schema of a prediction file line (:mod:`mmjudge.prediction_schema`), or with
``--ids BENCHMARK --data FOLDER`` the record ids a complete prediction file for that folder must hold."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "schema"
HELP = (
    "print the JSON Schema of predictions.jsonl (a header line, then one record per line), or write it to a "
    "file; with --ids BENCHMARK --data FOLDER, the record ids a complete file must hold"
)


def configure(parser: argparse.ArgumentParser) -> None:
    """``--out FILE`` writes the schema (or the ids) instead of printing it; ``--ids`` with ``--data``."""
    from mmjudge.benchmarks import benchmark_ids

    parser.add_argument("--out", type=Path, default=None, help="write the schema (or the ids) to this file (default: print it)")
    parser.add_argument("--ids", choices=benchmark_ids(), metavar="BENCHMARK",
                        help="print instead the record ids that a complete prediction file of BENCHMARK holds for "
                        "--data, one a line, in the order `mmjudge eval` writes them (records a run adds by option, "
                        "such as `mmjudge eval --swap`, are optional and not listed)")  # fmt: skip
    parser.add_argument("--data", help="with --ids: built benchmark folder or Hub dataset ORG/NAME[@REVISION]")


def run(args: argparse.Namespace) -> int:
    from mmjudge.errors import ConfigError

    if args.ids is None:
        if args.data is not None:
            raise ConfigError("--data goes with --ids BENCHMARK (the ids a complete file holds); leave it out")
        from mmjudge.prediction_schema import schema_text

        text = schema_text()
    else:
        if args.data is None:
            raise ConfigError(f"--ids {args.ids} needs --data FOLDER: the built {args.ids} folder the file is for")
        from mmjudge.data.location import resolve_data
        from mmjudge.scoring import expected_ids, load_reference_rows

        rows = load_reference_rows(args.ids, resolve_data(args.data).path)
        text = "".join(f"{item}\n" for item in expected_ids(args.ids, rows))
    if args.out is None:
        print(text, end="")
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        print(args.out)
    return 0
