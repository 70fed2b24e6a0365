"""Judges ask a query what it is (``Query.text_pair``, ``Query.clip_pair``) instead of testing its class."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import mmjudge
import mmjudge.benchmarks
from mmjudge import queries
from mmjudge.queries import ClipPairQuery, PairQuery, Query

JUDGES = Path(mmjudge.__file__).parent / "judges"


def _subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out


for _module in pkgutil.walk_packages(mmjudge.benchmarks.__path__, "mmjudge.benchmarks."):
    if _module.name.endswith(".queries"):  # where a benchmark declares its query kinds
        importlib.import_module(_module.name)
KINDS = sorted({c for c in _subclasses(Query) if not inspect.isabstract(c)}, key=lambda c: c.__qualname__)


@pytest.mark.parametrize("cls", KINDS, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_every_query_kind_answers_what_it_is(cls: type) -> None:
    query = object.__new__(cls)  # the answers read no field
    assert (query.text_pair() is query) is issubclass(cls, PairQuery)
    assert query.text_pair() in (None, query)
    assert (query.clip_pair() is query) is issubclass(cls, ClipPairQuery)
    assert query.clip_pair() in (None, query)


def test_the_benchmarks_query_kinds_are_seen() -> None:
    names = {c.__name__ for c in KINDS}
    assert {"ScoreQuery", "ClipPairQuery", "EmoPreferPair", "MistCell", "EmoRealmQuestion"} <= names


def _query_class_names() -> set[str]:
    return {name for name, obj in vars(queries).items() if isinstance(obj, type) and issubclass(obj, Query)}


def _isinstance_on_queries(source: str, names: set[str]) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            kinds = node.args[1] if len(node.args) > 1 else None
            elts = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
            spelled = {e.id if isinstance(e, ast.Name) else getattr(e, "attr", None) for e in elts}
            if spelled & names:
                lines.append(node.lineno)
    return lines


def test_judges_test_no_query_class_with_isinstance() -> None:
    names = _query_class_names()
    assert {"Query", "ScoreQuery", "ChoiceQuery", "PairQuery", "ClipPairQuery"} <= names
    modules = sorted(JUDGES.rglob("*.py"))
    assert len(modules) > 20
    hits = {
        str(p.relative_to(JUDGES)): lines
        for p in modules
        if (lines := _isinstance_on_queries(p.read_text(encoding="utf-8"), names))
    }
    assert not hits, f"dispatch through the query (text_pair(), clip_pair(), needs, ...), not isinstance: {hits}"


def test_the_check_sees_isinstance_on_query_kinds() -> None:
    names = _query_class_names()
    code = "isinstance(q, PairQuery)\nisinstance(q, (int, queries.ClipPairQuery))\nisinstance(q, int)\n"
    assert _isinstance_on_queries(code, names) == [1, 2]
