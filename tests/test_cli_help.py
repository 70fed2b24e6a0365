"""Every ``mmjudge`` subcommand, nested ones included (``metric build``, ``leaderboard worker``, ...), says
what it does at the top of its ``--help``."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from mmjudge.cli import build_parser


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield " ".join((*path, name)), sub
                yield from _commands(sub, (*path, name))


def test_every_subcommand_has_a_description() -> None:
    commands = dict(_commands(build_parser()))
    nested = [name for name in commands if " " in name]
    assert {"metric build", "metric push", "leaderboard worker", "human-study make", "human-study serve",
            "human-study score", "space build", "space push"} <= set(nested)  # fmt: skip
    missing = [name for name, sub in commands.items() if not (sub.description or "").strip()]
    assert missing == [], f"no description in --help: {missing}"
    for name in nested:  # shown in --help (argparse rewraps it)
        described, shown = commands[name].description or "", commands[name].format_help()
        assert " ".join(described.split()) in " ".join(shown.split()), name
