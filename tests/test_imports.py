"""Where the project's own imports are made: at module level, except the one lazy pattern.

A function body imports a project module only when that module pulls in a heavy package at import time: an
optional extra (torch, transformers, datasets, gradio, av, scipy, ...: anything outside ``[project]
dependencies`` and the standard library), or pyarrow or pandas (core dependencies, kept out of ``import
mmjudge`` and the CLI parser: ``tests/test_package.py``). So every light module stays importable without the
extras, and ``mmjudge --help`` stays quick. The other
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


HEAVY_CORE = {"pyarrow", "pandas"}
"""Core dependencies a light module must not pull in (they dominate the CLI's start-up)."""


def _core() -> set[str]:
    deps = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    names = {d.split(">")[0].split("=")[0].split("[")[0].split("<")[0].strip().lower() for d in deps}
    imports = {"pyyaml": "yaml", "pillow": "PIL", "huggingface-hub": "huggingface_hub"}
    light = {imports.get(n, n.replace("-", "_")) for n in names} - HEAVY_CORE
    return light | set(sys.stdlib_module_names)


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


@cache
def _pulled() -> dict[str, frozenset[str]]:
    """Every module -> the heavy packages importing it imports: its own module-level imports, those of the
    project modules it imports and of its packages, to a fixed point (cycles included)."""
    deps: dict[str, set[str]] = {}
    found: dict[str, set[str]] = {}
    for module in FILES:
        parts = module.split(".")
        deps[module] = {".".join(parts[:i]) for i in range(2, len(parts))}  # its packages load first
        found[module] = set()
        for name in _top_level(module):
            root = name.split(".")[0]
            if root == "mmjudge":
                target = _resolve(name).split(".")
                deps[module] |= {".".join(target[:i]) for i in range(2, len(target) + 1)} - {module}
            elif root not in CORE:
                found[module].add(root)
    changed = True
    while changed:
        changed = False
        for module in FILES:
            more = set().union(*(found.get(d, set()) for d in deps[module])) - found[module]
            if more:
                found[module] |= more
                changed = True
    return {m: frozenset(v) for m, v in found.items()}


def extras_pulled(module: str) -> frozenset[str]:
    """The heavy packages (optional extras, pyarrow, pandas) that importing ``module`` imports."""
    return _pulled().get(module, frozenset())


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


def test_project_modules_are_imported_at_module_level_unless_they_pull_in_a_heavy_package() -> None:
    stray = [
        f"{FILES[m].relative_to(REPO)}:{line}: {name} (pulls in no heavy package: import it at module level)"
        for m in FILES
        for line, name in _function_imports(m)
        if not _allowed(m, name)
    ]
    assert not stray, "\n".join(stray)


def test_the_rule_tells_light_from_heavy_modules() -> None:
    assert "torch" in extras_pulled("mmjudge.judges._videoscore_model")  # transformers/torch at module level
    assert extras_pulled("mmjudge.errors") == frozenset()
    assert extras_pulled("mmjudge.queries") == frozenset()
    assert extras_pulled("mmjudge.data.media_paths") == {"pyarrow"}  # through its package's __init__


@pytest.mark.parametrize(("importer", "imported"), sorted(CYCLES))
def test_each_listed_cycle_is_a_cycle(importer: str, imported: str) -> None:
    """A listed cycle break is still needed: the imported module imports the importer at module level."""
    assert any(_resolve(name) == importer for name in _top_level(imported))
