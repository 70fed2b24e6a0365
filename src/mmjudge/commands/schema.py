"""``mmjudge schema``: the JSON Schema of a prediction file line (:mod:`mmjudge.prediction_schema`)."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "schema"
HELP = "print the JSON Schema of predictions.jsonl (a header line, then one record per line), or write it to a file"


def configure(parser: argparse.ArgumentParser) -> None:
    """``--out FILE`` writes the schema instead of printing it."""
    parser.add_argument("--out", type=Path, default=None, help="write the schema to this file (default: print it)")


def run(args: argparse.Namespace) -> int:
    from mmjudge.prediction_schema import schema_text

    text = schema_text()
    if args.out is None:
        print(text, end="")
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        print(args.out)
    return 0
