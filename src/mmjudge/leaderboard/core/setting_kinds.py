"""How a leaderboard setting is written: as a command-line flag and as a Space environment variable.

One kind per way of writing a value (a string, a folder, a ``1`` switch, a comma list, a number, pinned
``org/name@<commit>`` pairs). A kind gives the flag's ``argparse`` keywords, turns the flag's value into the
setting's value, and reads the variable's text (raising :class:`~mmjudge.errors.ConfigError` with one line
naming the variable). :data:`mmjudge.leaderboard.core.settings.SETTINGS` pairs each setting with its kind.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from mmjudge.errors import ConfigError

__all__ = ["COMMIT", "REPO", "Folder", "Kind", "Names", "Number", "Pins", "Switch", "Text"]

COMMIT = re.compile(r"[0-9a-f]{40}")
"""A full git commit id."""
REPO = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+")
"""A Hub repo id ``org/name``."""


class Kind(Protocol):
    """How one setting is written on the command line and in the environment."""

    def flag(self, default: Any) -> dict[str, Any]:
        """``argparse`` keywords of the flag whose setting defaults to ``default``."""
        ...

    def from_flag(self, value: Any, flag: str) -> Any:
        """The setting's value from the flag's parsed ``value``."""
        ...

    def from_text(self, text: str, variable: str) -> Any:
        """The setting's value from the variable's (stripped, non-empty) ``text``."""
        ...


@dataclass(frozen=True)
class Text:
    """A string, as given.

    >>> Text().from_text("org/mirror", "MMJUDGE_MIRROR_REPO")
    'org/mirror'
    """

    def flag(self, default: Any) -> dict[str, Any]:
        return {"default": default}

    def from_flag(self, value: Any, flag: str) -> Any:
        return value

    def from_text(self, text: str, variable: str) -> Any:
        return text


@dataclass(frozen=True)
class Folder(Text):
    """A folder: a string on the command line (checked by the command), a path from the environment.

    >>> Folder().from_text("/srv/labels", "MMJUDGE_DATA_ROOT")
    PosixPath('/srv/labels')
    """

    def from_text(self, text: str, variable: str) -> Any:
        return Path(text)


@dataclass(frozen=True)
class Switch:
    """A flag without a value, or the variable set to ``1`` (any other value: not set); ``means`` is the
    setting's value when it is given (``False`` for a flag that turns a setting off, as ``--no-auth``).

    >>> Switch(means=False).from_text("1", "MMJUDGE_NO_AUTH"), Switch(means=True).from_text("0", "X")
    (False, False)
    """

    means: bool = True

    def flag(self, default: Any) -> dict[str, Any]:
        return {"action": "store_true"}

    def from_flag(self, value: Any, flag: str) -> Any:
        return self.means if value else not self.means

    def from_text(self, text: str, variable: str) -> Any:
        return self.from_flag(text == "1", variable)


@dataclass(frozen=True)
class Names:
    """Names: a repeatable flag, or a comma-separated variable.

    >>> Names().from_text("root, admin2,", "MMJUDGE_ADMINS")
    ('root', 'admin2')
    """

    def flag(self, default: Any) -> dict[str, Any]:
        return {"action": "append", "default": []}

    def from_flag(self, value: Any, flag: str) -> Any:
        return tuple(value)

    def from_text(self, text: str, variable: str) -> Any:
        return tuple(name.strip() for name in text.split(",") if name.strip())


@dataclass(frozen=True)
class Number:
    """A number of type ``of``; ``unit`` is the setting's units per unit written (``MiB`` for a size in bytes
    written in MiB). The environment's must be positive, or at least ``at_least`` when it is set, and whole where
    the number written is an ``int`` (the same rule the settings' own check applies to a flag).

    >>> Number(int, unit=1024).from_text("2", "MMJUDGE_MAX_KB")
    2048
    >>> Number(float).from_text("many", "MMJUDGE_LADDER_MARGIN")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: MMJUDGE_LADDER_MARGIN='many': expected a positive number
    >>> Number(int, at_least=0).from_text("0", "MMJUDGE_DAILY_LIMIT")
    0
    >>> Number(int, at_least=0).from_text("2.5", "MMJUDGE_DAILY_LIMIT")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: MMJUDGE_DAILY_LIMIT='2.5': expected a whole number of 0 or more
    """

    of: type[int] | type[float]
    """The setting's type."""
    written: type[int] | type[float] | None = None
    """The type written (default ``of``; ``float`` for a byte count written in MiB)."""
    unit: int = 1
    at_least: int | None = None
    """The smallest value allowed (``None``: any positive value)."""

    def flag(self, default: Any) -> dict[str, Any]:
        return {"type": self.written or self.of, "default": default if self.unit == 1 else default / self.unit}

    def from_flag(self, value: Any, flag: str) -> Any:
        return self.of(value * self.unit)

    def from_text(self, text: str, variable: str) -> Any:
        written = self.written or self.of
        try:
            value: float = written(text)
        except ValueError:
            value = math.nan
        allowed = value > 0 if self.at_least is None else value >= self.at_least
        if not (math.isfinite(value) and allowed):
            kind = "whole number" if written is int else "number"
            wanted = f"a positive {kind}" if self.at_least is None else f"a {kind} of {self.at_least} or more"
            raise ConfigError(f"{variable}={text!r}: expected {wanted}")
        return self.of(value * self.unit)


@dataclass(frozen=True)
class Pins:
    """Hub repos each pinned to a commit, ``org/name@<40-hex commit>``: a repeatable flag, or a
    comma-separated variable; ``{repo: commit}``.

    >>> Pins().from_text("THUDM/VisionReward-Video@" + "a" * 40, "MMJUDGE_REMOTE_CODE")
    {'THUDM/VisionReward-Video': 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'}
    >>> Pins().from_text("org/m@main, org/n", "MMJUDGE_REMOTE_CODE")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: MMJUDGE_REMOTE_CODE entry 'org/m@main': expected org/name@<40-hex commit>; MMJUDGE_REMOTE_CODE entry 'org/n': expected org/name@<40-hex commit>
    """

    def flag(self, default: Any) -> dict[str, Any]:
        return {"action": "append", "default": []}

    def from_flag(self, value: Any, flag: str) -> Any:
        return self.from_text(",".join(value), flag)

    def from_text(self, text: str, variable: str) -> Any:
        entries = [entry.strip() for entry in text.split(",") if entry.strip()]
        pairs = [entry.partition("@")[::2] for entry in entries]
        bad = [e for e, (repo, commit) in zip(entries, pairs, strict=True) if not (REPO.fullmatch(repo) and COMMIT.fullmatch(commit))]
        if bad:
            raise ConfigError("; ".join(f"{variable} entry {e!r}: expected org/name@<40-hex commit>" for e in bad))
        return dict(pairs)
