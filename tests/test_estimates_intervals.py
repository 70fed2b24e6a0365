"""A score's interval has one accessor: ``mmjudge.estimates`` reads, writes and names its two CI keys, and no
other module spells them."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

import mmjudge
from mmjudge.benchmarks import ResultKey
from mmjudge.estimates import (
    Interval,
    ci_keys,
    ci_owner,
    estimates_from,
    interval_keys,
    interval_of,
    is_ci_key,
    with_interval,
)

SRC = Path(mmjudge.__file__).parent
SPELLING = ("_ci_low", "_ci_high")


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ({"acc": 50.0, "acc_ci_low": 40.0, "acc_ci_high": 60.0}, Interval(40.0, 60.0)),
        ({"acc": 50.0, "acc_ci_low": 40, "acc_ci_high": 60}, Interval(40.0, 60.0)),  # ints read as floats
        ({"acc": 50.0, "acc_ci_low": 50.0, "acc_ci_high": 50.0}, Interval(50.0, 50.0)),  # zero width is an interval
        ({"acc": 50.0}, None),  # no interval stored
        ({}, None),  # no key at all
        ({"acc": 50.0, "acc_ci_low": 40.0}, None),  # one end only
        ({"acc": 50.0, "acc_ci_high": 60.0}, None),
        ({"acc": 50.0, "acc_ci_low": None, "acc_ci_high": 60.0}, None),  # an end stored as null
        ({"acc": 50.0, "acc_ci_low": math.nan, "acc_ci_high": 60.0}, None),
        ({"acc": 50.0, "acc_ci_low": 40.0, "acc_ci_high": math.inf}, None),
        ({"acc": 50.0, "acc_ci_low": True, "acc_ci_high": 60.0}, None),  # a flag is not a number
        ({"acc": 50.0, "acc_ci_low": "40", "acc_ci_high": "60"}, None),  # nor is text
        ({"accuracy": 50.0, "accuracy_ci_low": 40.0, "accuracy_ci_high": 60.0}, None),  # another key's interval
    ],
)
def test_interval_of_reads_both_finite_ends_or_nothing(scores: dict, expected: Interval | None) -> None:
    got = interval_of(scores, "acc")
    assert got == expected
    if expected is not None:
        assert type(got) is Interval and all(type(end) is float for end in got)


def test_a_withheld_interval_reads_as_none_and_keeps_its_reason() -> None:
    # a scorer that withholds an interval stores no CI keys and records why in its methods
    scores = {"avg": 40.0, "n": 4}
    assert interval_of(scores, "avg") is None
    estimate = estimates_from(scores, {"avg": {"method": "none: 2 prompts", "n_clusters": 2}})["avg"]
    assert (estimate.low, estimate.high, estimate.method) == (None, None, "none: 2 prompts")


def test_writer_and_reader_agree_and_name_the_keys_once() -> None:
    written = {"kappa/blind": 0.4, **interval_keys("kappa/blind", 0.1, 0.7)}
    assert list(written) == ["kappa/blind", *ci_keys("kappa/blind")]
    assert written == with_interval("kappa/blind", 0.4, 0.1, 0.7)
    assert interval_of(written, "kappa/blind") == Interval(0.1, 0.7)
    assert [k for k in written if is_ci_key(k)] == list(ci_keys("kappa/blind"))
    assert {ci_owner(k) for k in written} == {"kappa/blind"}
    assert with_interval("rate", 1.0, None, 2.0) == {"rate": 1.0}  # one end given: no interval written


def test_result_key_declarations_name_the_same_keys() -> None:
    low, high = ResultKey.interval_ends("acc/<a>", False, ": how")
    assert (low.name, high.name) == ci_keys("acc/<a>")
    assert not low.higher_is_better and not high.higher_is_better
    assert low.description == "lower end of the 95% CI of acc/<a>: how"
    assert low.matches(ci_keys("acc/x")[0]) and high.matches(ci_keys("acc/x")[1])


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (of the module, classes, functions, attributes)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for stmt in body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                found.add(id(stmt.value))
    return found


def _spellings(path: Path, root: Path = SRC) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if any(s in node.value for s in SPELLING):
                hits.append(f"{path.relative_to(root)}:{node.lineno}: {node.value!r}")
        elif isinstance(node, (ast.Name, ast.alias, ast.Attribute)):
            name = node.id if isinstance(node, ast.Name) else node.name if isinstance(node, ast.alias) else node.attr
            if name == "CI_SUFFIXES":
                hits.append(f"{path.relative_to(root)}:{getattr(node, 'lineno', '?')}: CI_SUFFIXES")
    return hits


def test_no_module_but_estimates_spells_the_ci_keys() -> None:
    modules = [p for p in sorted(SRC.rglob("*.py")) if p != SRC / "estimates.py"]
    assert len(modules) > 100, f"expected the whole package under {SRC}, found {len(modules)} modules"
    hits = [hit for p in modules for hit in _spellings(p)]
    assert not hits, (
        "these modules spell a CI key by hand; read, write and name intervals through mmjudge.estimates "
        "(interval_of, interval_keys / with_interval, ci_keys, is_ci_key, ci_owner, ResultKey.interval_ends):\n"
        + "\n".join(hits)
    )


def test_the_spelling_check_sees_code_and_skips_docstrings(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""Keys ``a_ci_low``."""\n\ndef f(k):\n    """``k_ci_high``."""\n    return k + "_ci_low"\n')
    assert _spellings(module, tmp_path) == ["m.py:5: '_ci_low'"]
