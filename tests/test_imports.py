"""Where the project's own imports are made: at module level, except the one lazy pattern.

A function body imports a project module only when that module pulls in an optional extra at import time
(torch, transformers, datasets, gradio, av, scipy, ...: anything outside ``[project] dependencies`` and the
standard library), so ``import mmjudge`` and every light module stay importable without the extras. The other
exceptions are listed, each with its reason: the package's lazy ``BENCHMARK_IDS`` attribute, the CLI's
command modules (a command imports its implementation when it runs, so ``mmjudge --help`` stays quick),
and the import cycles broken in a function.
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

import pytest
import tomllib

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"

LAZY_MODULES = {
    "mmjudge": "the package's lazy BENCHMARK_IDS attribute (import mmjudge stays light)",
    "mmjudge.cli": "finds the command modules when it builds the parser",
}
LAZY_PACKAGES = {
    "mmjudge.commands": "the CLI's command modules import their implementation when the command runs",
}
CYCLES = {
    ("mmjudge.benchmarks.emoprefer.build", "mmjudge.benchmarks.emoprefer.release"): "release lists build's columns",
    ("mmjudge.benchmarks.emorealm.build", "mmjudge.benchmarks.emorealm.release"): "release lists build's columns",
}
"""(importer, imported) pairs whose import in a function breaks a cycle of module-level imports."""


def _core() -> set[str]:
    deps = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    names = {d.split(">")[0].split("=")[0].split("[")[0].split("<")[0].strip().lower() for d in deps}
    imports = {"pyyaml": "yaml", "pillow": "PIL", "huggingface-hub": "huggingface_hub"}
    return {imports.get(n, n.replace("-", "_")) for n in names} | set(sys.stdlib_module_names)


CORE = _core()


def _module(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


FILES = {_module(p): p for p in sorted((SRC / "mmjudge").rglob("*.py"))}


@cache
def _tree(module: str) -> ast.Module:
    return ast.parse(FILES[module].read_text(encoding="utf-8"))


def _resolve(name: str) -> str:
    while name and name not in FILES:
        name = name.rpartition(".")[0]
    return name


def _top_level(module: str) -> list[str]:
    names: list[str] = []
    for node in _tree(module).body:
        # an optional import guarded at module level still pulls it in when present
        nodes = node.body if isinstance(node, ast.Try) else [node]
        for sub in nodes:
            if isinstance(sub, ast.Import):
                names += [a.name for a in sub.names]
            elif isinstance(sub, ast.ImportFrom) and sub.level == 0 and sub.module:
                names += [sub.module, *(f"{sub.module}.{a.name}" for a in sub.names)]
    return names


_PULLED: dict[str, frozenset[str]] = {}


def extras_pulled(module: str) -> frozenset[str]:
    """Third-party packages outside the core dependencies that importing ``module`` imports (a module met
    again while its own imports are being followed adds nothing: its packages are counted where it started)."""
    if module in _PULLED:
        return _PULLED[module]
    _PULLED[module] = frozenset()  # in progress: a cycle back here adds nothing
    found: set[str] = set()
    for name in _top_level(module):
        root = name.split(".")[0]
        if root == "mmjudge":
            parts = _resolve(name).split(".")
            for i in range(2, len(parts) + 1):
                found |= extras_pulled(".".join(parts[:i]))
        elif root not in CORE:
            found.add(root)
    _PULLED[module] = frozenset(found)
    return _PULLED[module]


def _function_imports(module: str) -> list[tuple[int, str]]:
    out = []
    for fn in ast.walk(_tree(module)):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("mmjudge"):
                    out.append((node.lineno, str(node.module)))
                elif isinstance(node, ast.Import):
                    out += [(node.lineno, a.name) for a in node.names if a.name.startswith("mmjudge")]
    return out


def _allowed(importer: str, imported: str) -> bool:
    target = _resolve(imported)
    return bool(
        extras_pulled(target)
        or importer in LAZY_MODULES
        or any(importer == p or importer.startswith(p + ".") for p in LAZY_PACKAGES)
        or (importer, target) in CYCLES
    )


def test_project_modules_are_imported_at_module_level_unless_they_pull_in_an_extra() -> None:
    stray = [
        f"{FILES[m].relative_to(REPO)}:{line}: {name} (pulls in no optional extra: import it at module level)"
        for m in FILES
        for line, name in _function_imports(m)
        if not _allowed(m, name)
    ]
    assert not stray, "\n".join(stray)


def test_the_rule_tells_light_from_heavy_modules() -> None:
    assert "torch" in extras_pulled("mmjudge.judges._videoscore_model")  # transformers/torch at module level
    assert extras_pulled("mmjudge.errors") == frozenset()
    assert extras_pulled("mmjudge.queries") == frozenset()


@pytest.mark.parametrize(("importer", "imported"), sorted(CYCLES))
def test_each_listed_cycle_is_a_cycle(importer: str, imported: str) -> None:
    """A listed cycle break is still needed: the imported module imports the importer at module level."""
    assert any(_resolve(name) == importer for name in _top_level(imported))
