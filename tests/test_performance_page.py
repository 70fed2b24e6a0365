"""The performance page (``docs/performance.md``): one section per title, each with its date, machine and
command, no table row without a figure; and ``benchmarks/_results.py`` replaces a script's section instead of
appending another."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "performance.md"


def _results() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_results_under_test", REPO / "benchmarks" / "_results.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sections(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in re.split(r"(?m)^## ", text)[1:]:
        title, _, body = part.partition("\n")
        assert title not in out, f"two sections titled {title!r}"
        out[title] = body.splitlines()
    return out


def test_each_section_once_with_its_date_machine_and_command() -> None:
    sections = _sections(PAGE.read_text(encoding="utf-8"))
    assert len(sections) >= 10
    for title, lines in sections.items():
        head = [line.split(":", 1)[0] for line in lines if line.startswith("- ")][:3]
        assert head == ["- date", "- machine", "- command"], title


def test_no_row_without_a_figure() -> None:
    empty = [
        line
        for line in PAGE.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and all(not cell.strip() for cell in line.strip().strip("|").split("|")[1:])
    ]
    assert empty == []


def test_a_script_replaces_its_section(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = _results()
    page = tmp_path / "performance.md"
    page.write_text("# Performance\n\nintro\n\n## Other (b.py)\n- date: x\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    monkeypatch.setattr(results, "RESULTS", page)
    monkeypatch.setattr(sys, "argv", ["bench_x.py", "--repeats", "3"])
    results.write_results("Mine (bench_x.py)", [{"case": "old", "s": 1.0}])
    results.write_results("Mine (bench_x.py)", [{"case": "new", "s": 2.0}, {"case": "empty", "s": ""}], "a note")
    text = page.read_text()
    sections = _sections(text)
    assert list(sections) == ["Other (b.py)", "Mine (bench_x.py)"]
    assert text.startswith("# Performance\n\nintro\n\n## Other (b.py)\n- date: x\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n")
    mine = "\n".join(sections["Mine (bench_x.py)"])
    assert "| new | 2 |" in mine and "old" not in mine and "empty" not in mine and "a note" in mine
    assert "- command: `python" in mine or "bench_x.py --repeats 3`" in mine
    copy = tmp_path / "copy.md"
    copy.write_text("## Other (b.py)\n- date: y\n\n| a | b |\n|---|---|\n| 3 | 4 |\n")
    assert results.merge(copy) == ["Other (b.py)"]
    assert "| 3 | 4 |" in page.read_text() and "| 1 | 2 |" not in page.read_text()
    assert list(_sections(page.read_text())) == ["Other (b.py)", "Mine (bench_x.py)"]
