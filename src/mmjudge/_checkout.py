"""The mmjudge checkout a build reads (Space folders, metric modules): where it is and what it pins."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from mmjudge.errors import ConfigError

__all__ = ["describe", "find_checkout", "normal_name", "read_constraints"]


def find_checkout(source: str | Path | None = None, *, needs: Sequence[str] = ()) -> Path:
    """The mmjudge checkout to build from: ``source``, else the one the imported mmjudge comes from.

    Args:
        source: a checkout folder, or ``None`` for the imported package's.
        needs: paths relative to the checkout that the build reads (e.g. ``spaces/leaderboard/app.py``).

    Raises:
        ConfigError: no ``pyproject.toml`` of mmjudge there, or a needed path is missing.
    """
    root = Path(source) if source is not None else Path(__file__).resolve().parents[2]  # src/mmjudge/ -> root
    pyproject = root / "pyproject.toml"
    missing = [need for need in needs if not (root / need).exists()]
    if not (pyproject.is_file() and 'name = "mmjudge"' in pyproject.read_text(encoding="utf-8")) or missing:
        what = f" ({', '.join(missing)} missing)" if missing else ""
        raise ConfigError(
            f"{root}: expected an mmjudge checkout with pyproject.toml{what}; run from a clone or pass --source"
        )
    return root


def normal_name(name: str) -> str:
    """A distribution name in its normal form (PEP 503).

    >>> normal_name("Scikit_Learn")
    'scikit-learn'
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def read_constraints(path: Path) -> dict[str, str]:
    """``{normal name: version}`` of the ``name==version`` lines of a constraints file (none when absent)."""
    pins = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            name, sep, version = line.strip().partition("==")
            if sep and not name.startswith("#"):
                pins[normal_name(name)] = version.strip()
    return pins


def describe(root: Path) -> str:
    """``checkout <git describe --always --dirty>``, or ``a checkout outside git``."""
    done = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty", "--abbrev=12"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    return f"checkout {done.stdout.strip()}" if done.returncode == 0 else "a checkout outside git"
