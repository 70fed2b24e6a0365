"""What the commands that run judges (``eval``, ``robustness``, ``demo``) do when items failed with an error.

The files are written either way; the command then says how many items failed with an error, shows the
first errors and where the log is, and exits with :data:`EXIT_ERRORED` unless every setting's errored
share is within ``--max-failed-share``. A ``no_judgment`` answer (a reply without a readable label) is
not an error: the benchmark scores it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mmjudge.errors import ConfigError

if TYPE_CHECKING:
    from mmjudge.runner import ItemErrors

EXIT_ERRORED = 3
"""Exit status of a run whose items failed with an error beyond ``--max-failed-share`` (1: refused
input or a crash; 2: bad command line)."""

HELP_EPILOG = (
    "exit status: 0 done; 1 refused input or an error; 2 bad command line; 3 items failed with an error "
    "(unreadable or missing media, the model raised) beyond --max-failed-share, after the files were "
    "written. An answer without a readable label is a no_judgment the benchmark scores, not an error."
)


def add_max_failed_share(parser: argparse.ArgumentParser) -> None:
    """The ``--max-failed-share`` option."""
    parser.add_argument(
        "--max-failed-share", type=float, default=0.0, metavar="SHARE",
        help="share of items (0 to 1) that may fail with an error before the command exits with status 3 "
        "(default 0: any errored item fails the run; with a frame sweep, each frame count)",
    )  # fmt: skip


def check_max_failed_share(value: float) -> float:
    """Refuse a share outside [0, 1].

    >>> check_max_failed_share(1.5)
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: --max-failed-share must be a share from 0 to 1 (0: no item may fail with an error; 0.05: up to 5%), got 1.5
    """
    if not 0.0 <= value <= 1.0:  # also refuses NaN
        raise ConfigError(
            "--max-failed-share must be a share from 0 to 1 (0: no item may fail with an error; "
            f"0.05: up to 5%), got {value}"
        )
    return value


def errored_exit(command: str, errors: Sequence[ItemErrors], max_share: float, where: str) -> int:
    """Say which settings had items fail with an error (on stderr) and return the exit status.

    ``0`` when no setting has errored items; otherwise each one is named, then ``where`` (where the log
    and each item's error are), and the status is :data:`EXIT_ERRORED` when any exceeds ``max_share``,
    else ``0`` (the errors are shown as a warning).
    """
    failed = [e for e in errors if e.errored]
    if not failed:
        return 0
    over = [e for e in failed if e.over(max_share)]
    kind = "error" if over else "warning"
    for one in failed:
        print(f"mmjudge {command}: {kind}: {one.describe()}", file=sys.stderr)
    print(f"mmjudge {command}: {where}", file=sys.stderr)
    if not over:
        return 0
    print(
        f"mmjudge {command}: exiting with status {EXIT_ERRORED}: more than --max-failed-share {max_share:g} "
        "of the items failed with an error (the files above were written; fix the cause, or pass "
        "--max-failed-share to accept such a share)",
        file=sys.stderr,
    )
    return EXIT_ERRORED
