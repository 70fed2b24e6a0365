"""The ``mmjudge`` command line.

Each subcommand is one module in :mod:`mmjudge.commands` defining ``NAME``, ``HELP`` (one line),
``configure(parser)`` and ``run(args) -> int``. Command modules import heavy libraries inside ``run``
so that ``mmjudge --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from mmjudge._version import __version__
from mmjudge.errors import MmjudgeError


def _command_modules() -> list[ModuleType]:
    import mmjudge.commands as package

    names = sorted(
        info.name for info in pkgutil.iter_modules(package.__path__) if not info.name.startswith("_")
    )
    return [importlib.import_module(f"{package.__name__}.{name}") for name in names]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subparser per command module."""
    parser = argparse.ArgumentParser(
        prog="mmjudge",
        description="Measure multimodal judges on IsoVRBench, MIST, EmoPrefer-Data and EmoReAlM.",
    )
    parser.add_argument("--version", action="version", version=f"mmjudge {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in _command_modules():
        sub = subparsers.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure(sub)
        sub.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mmjudge`` console script; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except MmjudgeError as exc:
        print(f"mmjudge {args.command}: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
