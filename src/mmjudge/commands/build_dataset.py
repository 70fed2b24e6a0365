"""``mmjudge build-dataset``: turn a benchmark's raw release into a Hub-ready dataset folder."""

from __future__ import annotations

import argparse
from typing import Any

from mmjudge.errors import ConfigError

NAME = "build-dataset"
HELP = "build a Hub-ready dataset folder (parquet configs + card) from a benchmark's raw release"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments: benchmark id, --source, --media-root, --allow-missing-media, --out, --eval-yaml, --option."""
    from mmjudge.benchmarks import benchmark_ids

    parser.add_argument("benchmark", choices=benchmark_ids(), help="benchmark id")
    parser.add_argument("--source", required=True, help="raw release file or folder (see the dataset card)")
    parser.add_argument("--media-root", default=None, help="folder the media paths are relative to")
    parser.add_argument(
        "--allow-missing-media",
        action="store_true",
        help="keep rows whose media file is missing (column media_missing) instead of failing",
    )
    parser.add_argument("--out", required=True, help="output folder (must not exist unless --overwrite)")
    parser.add_argument("--overwrite", action="store_true", help="replace --out once the new build succeeded")
    parser.add_argument(
        "--eval-yaml",
        action="store_true",
        help="also write the benchmark's eval.yaml (Hub eval-results tasks; push-dataset holds it back "
        "unless given --eval-yaml)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="benchmark option, e.g. media=reference (true/false become booleans; see the dataset card)",
    )


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["media=reference", "x=true"]`` -> ``{"media": "reference", "x": True}``.

    >>> parse_options(["media=reference", "strict=false"])
    {'media': 'reference', 'strict': False}
    """
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--option {item!r}: expected KEY=VALUE")
        options[key.strip()] = {"true": True, "false": False}.get(value.strip().lower(), value.strip())
    return options


def run(args: argparse.Namespace) -> int:
    from mmjudge.benchmarks import build_dataset

    out = build_dataset(
        args.benchmark,
        args.source,
        args.out,
        media_root=args.media_root,
        allow_missing_media=args.allow_missing_media,
        overwrite=args.overwrite,
        eval_yaml=args.eval_yaml,
        **parse_options(args.option),
    )
    print(f"built {args.benchmark} into {out}")
    return 0
