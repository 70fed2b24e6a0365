"""The Layout section of the development page (``docs/development.md``, moved there from the README), checked
against the tree.

Three claims are read from the page itself, so a claim changed there is checked as written:

* every path the Layout's tree names exists (entries, the sub-folders and files its descriptions name);
* the files each benchmark package holds: every file the ``<id>/`` line lists is in each package it names
  (a parenthesis of benchmark titles restricts a file to those), and every public module all four
  packages share is listed;
* "the generic layers ... never name a benchmark in code ..., save three places": outside
  ``benchmarks/<id>/`` no module has a benchmark id as a string constant (docstrings aside), imports a
  benchmark's package or reads it as an attribute, except the files the sentence names;

and the layer chain the Layout writes out follows ``pyproject.toml``'s import-linter contract.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src" / "mmjudge"
BENCHMARKS = SRC / "benchmarks"
IDS = ("isovrbench", "mist", "emoprefer", "emorealm")
"""The built-in benchmark ids (ARCHITECTURE.md's one spelling); a fifth built-in is added here too."""


def _layout() -> str:
    text = (REPO / "docs" / "development.md").read_text(encoding="utf-8")
    start = text.index("\n## Layout\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else len(text)]


def _tree_block() -> list[str]:
    """The lines of the Layout's first fenced block."""
    return _layout().split("```\n", 2)[1].splitlines()


NAME_COLUMN = 24
"""Descriptions start at this column or later; a line indented past it continues the entry above."""


class Entry:
    """One entry of the tree: its names (``errors.py, _checks.py``), its folder and its description."""

    def __init__(self, names: list[str], folder: Path, text: str) -> None:
        self.names, self.folder, self.text = names, folder, text

    def __repr__(self) -> str:
        return f"Entry({self.names}, {self.folder.relative_to(REPO)})"


def _entries() -> list[Entry]:
    """The tree's entries, each resolved against the folder it is indented under."""
    entries: list[Entry] = []
    parents: dict[int, Path] = {}
    for line in _tree_block():
        indent = len(line) - len(line.lstrip())
        if indent >= NAME_COLUMN:
            entries[-1].text += " " + line.strip()
            continue
        head, _, text = line.strip().partition("  ")
        folder = REPO if indent == 0 else parents[indent - 2]
        names = [n.strip() for n in head.split(",")]
        entries.append(Entry(names, folder, text.strip()))
        if len(names) == 1 and names[0].endswith("/"):
            parents[indent] = folder / names[0].rstrip("/")
    return entries


def _title_ids(text: str) -> list[str] | None:
    """The benchmark ids a parenthesis like ``(MIST, EmoPrefer, EmoReAlM)`` names, else ``None``."""
    words = [w.strip().lower() for w in text.split(",")]
    return words if words and all(w in IDS for w in words) else None


def _top_level_items(text: str) -> list[str]:
    """``text`` split at the commas outside parentheses."""
    items, depth, current = [], 0, ""
    for char in text:
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += char
    return [*items, current.strip()]


def _benchmark_files() -> dict[str, list[str]]:
    """File name -> the ids whose package the ``<id>/`` line says holds it."""
    (entry,) = [e for e in _entries() if e.names == ["<id>/"]]
    listed: dict[str, list[str]] = {}
    for item in _top_level_items(entry.text):
        name, _, note = item.partition(" (")
        assert re.fullmatch(r"[\w.]+\.(py|json|md)", name), (
            f"the <id>/ line lists {item!r}: expected a file name"
        )
        listed[name] = _title_ids(note.rstrip(")")) or list(IDS)
    return listed


def test_the_layout_tree_is_parsed():
    names = {n for e in _entries() for n in e.names}
    assert {"src/mmjudge/", "<id>/", "benchmarks/", "leaderboard/", "tests/"} <= names
    assert set(_benchmark_files()) >= {"__init__.py", "scoring.py", "records.py", "card.md"}


def test_every_path_the_layout_names_exists():
    missing = []
    for entry in _entries():
        for name in entry.names:
            paths = [entry.folder / b for b in IDS] if name == "<id>/" else [entry.folder / name.rstrip("/")]
            # sub-folders the description names, as "store/ (every SQL ...)"
            paths += [entry.folder / name.rstrip("/") / sub for sub in re.findall(r"\b(\w+)/ \(", entry.text)]
            # repo paths the description names, as "docs/predictions.schema.json"
            paths += [
                REPO / p for p in re.findall(r"\b((?:src|docs|benchmarks|tests)/[\w./]*\w)", entry.text)
            ]
            missing += [str(p.relative_to(REPO)) for p in paths if not p.exists()]
    assert not missing, f"the README's Layout names paths the tree does not have: {missing}"


def test_the_layout_lists_the_files_each_benchmark_package_holds():
    listed = _benchmark_files()
    missing = [
        f"{b}/{name}" for name, ids in listed.items() for b in ids if not (BENCHMARKS / b / name).is_file()
    ]
    assert not missing, f"the README's <id>/ line lists files these packages lack: {missing}"
    extra = [
        f"{b}/{name}"
        for name, ids in listed.items()
        if set(ids) != set(IDS)
        for b in set(IDS) - set(ids)
        if (BENCHMARKS / b / name).is_file()
    ]
    assert not extra, f"the README's <id>/ line restricts files these packages also hold: {extra}"
    shared = set.intersection(
        *(
            {p.name for p in (BENCHMARKS / b).iterdir() if p.is_file() and not p.name.startswith("_")}
            for b in IDS
        )
    )
    unlisted = sorted(shared - set(listed))
    assert not unlisted, (
        f"every benchmark package holds {unlisted}, which the README's <id>/ line does not list"
    )


def test_the_layout_names_each_benchmark_subpackage():
    subpackages = sorted(
        f"{b}/{p.name}/" for b in IDS for p in (BENCHMARKS / b).iterdir() if (p / "__init__.py").is_file()
    )
    lines = {e.names[0]: e.text for e in _entries() if e.names[0] in {f"{b}/" for b in IDS}}
    unnamed = [s for s in subpackages if s.split("/", 1)[1] not in lines.get(s.split("/")[0] + "/", "")]
    assert not unnamed, f"the README's Layout does not name these benchmark sub-packages: {unnamed}"


def _exceptions() -> set[str]:
    """The files the "never name a benchmark" sentence excepts (its backticked paths ending in .py)."""
    sentence = re.split(r"\.\s+(?=[A-Z`])", _layout().split("never name a benchmark", 1)[1], maxsplit=1)[0]
    found = set(re.findall(r"`([\w/]+\.py)`", sentence))
    assert found, "the Layout's 'never name a benchmark' sentence names no exception: the scan expects some"
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


BENCHMARK_MODULE = re.compile(rf"\bbenchmarks\.({'|'.join(IDS)})\b")


def _names_of_benchmarks(tree: ast.AST) -> list[tuple[int, str]]:
    """Where a module names a benchmark in code: an id as a string, an import of its package, an attribute."""
    docstrings = _docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in IDS or BENCHMARK_MODULE.search(node.value):
                hits.append((node.lineno, repr(node.value)))
        elif isinstance(node, ast.Import):
            hits += [(node.lineno, f"import {a.name}") for a in node.names if BENCHMARK_MODULE.search(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if any(BENCHMARK_MODULE.search(f"{module}.{a.name}") for a in node.names):
                hits.append((node.lineno, f"from {module} import ..."))
        elif isinstance(node, ast.Attribute) and node.attr in IDS:
            hits.append((node.lineno, f".{node.attr}"))
    return hits


def _generic_modules() -> list[Path]:
    """Every module of ``src/mmjudge`` outside the benchmark packages ``benchmarks/<id>/``."""
    return [
        p
        for p in sorted(SRC.rglob("*.py"))
        if not (p.is_relative_to(BENCHMARKS) and p.relative_to(BENCHMARKS).parts[0] in IDS)
    ]


def test_the_scan_finds_a_benchmark_named_in_code():
    tree = ast.parse(
        '"""isovrbench in a docstring."""\nfrom mmjudge.benchmarks import mist\nX = {"emorealm": 1}\n'
    )
    assert [hit for _, hit in _names_of_benchmarks(tree)] == [
        "from mmjudge.benchmarks import ...",
        "'emorealm'",
    ]
    assert not _names_of_benchmarks(
        ast.parse('"""mist"""\n# emoprefer\nraise ValueError("e.g. mist=built/mist")')
    )


def test_generic_layers_never_name_a_benchmark_outside_the_stated_exceptions():
    exceptions = _exceptions()
    assert {str(p.relative_to(SRC)) for p in map(SRC.joinpath, exceptions) if p.is_file()} == exceptions, (
        f"the README excepts files that do not exist under src/mmjudge: {exceptions}"
    )
    named, excepted = [], set()
    for path in _generic_modules():
        rel = str(path.relative_to(SRC))
        hits = _names_of_benchmarks(ast.parse(path.read_text(encoding="utf-8")))
        if hits and rel in exceptions:
            excepted.add(rel)
        elif hits:
            named += [f"src/mmjudge/{rel}:{line}: {hit}" for line, hit in hits]
    assert not named, (
        "generic modules name a benchmark (README, Layout: they ask the registry):\n" + "\n".join(named)
    )
    assert excepted == exceptions, (
        f"the README excepts files that name no benchmark: {sorted(exceptions - excepted)}"
    )


def test_the_layout_layer_chain_follows_the_import_contract():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    contract = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in contract["contracts"] if c["type"] == "layers" and c["containers"] == ["mmjudge"]]
    lowest_first = [set(re.split(r"[|:]", layer.replace(" ", ""))) for layer in reversed(layers)]
    chain = re.search(r"the leaf modules \((.*?)\) <-(.*?)\.\n", _layout(), re.S)
    assert chain, "the Layout's layer chain ('the leaf modules (...) <- ...') was not found"
    readme = [chain.group(1).split(",")] + [group.split(",") for group in chain.group(2).split("<-")]
    readme_names = [{n.strip().strip("`").strip() for n in group} - {"...", ""} for group in readme]
    assert len(readme_names) == len(lowest_first), (readme_names, lowest_first)
    wrong = [
        (names, layer) for names, layer in zip(readme_names, lowest_first, strict=True) if not names <= layer
    ]
    assert not wrong, f"the Layout's layer chain differs from pyproject.toml's contract: {wrong}"


def test_the_layout_names_the_leaderboard_layers_in_the_contract_order():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    contract = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in contract["contracts"] if c.get("containers") == ["mmjudge.leaderboard"]]
    lowest_first = [name for layer in reversed(layers) for name in re.split(r"\s*\|\s*", layer)]
    (entry,) = [e for e in _entries() if e.names == ["leaderboard/"]]
    named = re.findall(r"\b(\w+)/ \(", entry.text)
    assert named == lowest_first, f"the Layout names the leaderboard's layers as {named}; the contract: {lowest_first}"
    assert sorted(p.name for p in (SRC / "leaderboard").iterdir() if (p / "__init__.py").is_file()) == sorted(named)
