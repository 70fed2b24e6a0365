"""The leaderboard's docstrings name each class and function where it lives, and the store's class lives in a
module named for it."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from types import ModuleType

import mmjudge.leaderboard

ROLE = re.compile(r":(?:class|func|mod|attr|meth|data|exc):`~?(mmjudge(?:\.\w+)+)`")
"""A Sphinx cross-reference to a full ``mmjudge...`` path."""


def _module_prefix(parts: list[str]) -> tuple[ModuleType, int]:
    """The longest importable module named by a prefix of ``parts``, and how many parts it takes."""
    for cut in range(len(parts), 0, -1):
        try:
            return importlib.import_module(".".join(parts[:cut])), cut
        except ImportError:
            continue
    raise AssertionError(f"{'.'.join(parts)}: no importable module")


def wrong_home(target: str) -> str:
    """Why ``target`` does not name where its object lives (``""`` when it does): the first name after the
    module must exist there, and a class or function must be defined in that module or in one of its own
    submodules (a package re-exporting a private module's name is its public home; another module importing
    it is not)."""
    parts = target.split(".")
    module, cut = _module_prefix(parts)
    if cut == len(parts):
        return ""
    named = ".".join(parts[:cut])
    if not hasattr(module, parts[cut]):
        return f"{named} has no {parts[cut]}"
    obj = getattr(module, parts[cut])
    home = getattr(obj, "__module__", None) if inspect.isclass(obj) or inspect.isfunction(obj) else None
    if home is not None and not f"{home}.".startswith(f"{named}."):
        return f"{parts[cut]} lives in {home}, not {named}"
    return ""


def test_every_docstring_reference_names_the_module_that_holds_it() -> None:
    root = Path(mmjudge.leaderboard.__file__).parent
    wrong = [
        f"{path.relative_to(root)}: {m.group(1)}: {why}"
        for path in sorted(root.rglob("*.py"))
        for m in ROLE.finditer(path.read_text(encoding="utf-8"))
        if (why := wrong_home(m.group(1)))
    ]
    assert wrong == []


def test_the_reference_check_finds_a_name_another_module_only_imports() -> None:
    assert wrong_home("mmjudge.leaderboard.board.table.Table") == (
        "Table lives in mmjudge.leaderboard.board.grid, not mmjudge.leaderboard.board.table"
    )
    assert wrong_home("mmjudge.leaderboard.board.grid.Table.caption") == ""
    assert wrong_home("mmjudge.leaderboard.Store") == ""  # the package's public name


def test_the_store_lives_in_a_module_named_for_it() -> None:
    from mmjudge.leaderboard import Store
    from mmjudge.leaderboard.store import Store as from_package

    assert Store is from_package and Store.__module__ == "mmjudge.leaderboard.store._store"
