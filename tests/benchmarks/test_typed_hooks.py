"""mypy checks a benchmark package's hooks: each module ``from_modules`` wires is checked against its protocol
(``QueriesModule``, ``RecordsModule``, ...), so a missing hook or one with another signature fails
``make typecheck``. The registered benchmarks pass the same check in the repo's own mypy run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A throwaway package: each wiring line (marked ``# case: <hook>``) passes one bad module beside good ones
# borrowed from emorealm; the ``# case: none`` lines wire good modules only.
FILES = {
    "__init__.py": """
        from mmjudge.benchmarks import DataSpec, Presenters, RecordSpec
        from mmjudge.benchmarks.emorealm import build, exports, leaderboard, queries, records, report, sample
        from toyhooks import bad_exports, bad_leaderboard, bad_queries, bad_records

        RECORDS = RecordSpec.from_modules(queries, records, unit="items", query_kinds=(), media=frozenset())  # case: none
        DATA = DataSpec.from_modules(build, sample, reference_config="all")  # case: none
        PRESENT = Presenters.from_modules(leaderboard, report, exports)  # case: none
        WRONG_QUERIES = RecordSpec.from_modules(bad_queries, records, unit="items", query_kinds=(), media=frozenset())  # case: build_queries
        NO_SCORE_INPUTS = RecordSpec.from_modules(queries, bad_records, unit="items", query_kinds=(), media=frozenset())  # case: score_inputs
        WRONG_VIEWS = Presenters.from_modules(bad_leaderboard, report, exports)  # case: VIEWS
        WRONG_EXPORTS = Presenters.from_modules(leaderboard, report, bad_exports)  # case: EXPORTS
    """,
    "bad_queries.py": """
        from collections.abc import Mapping, Sequence
        from typing import Any

        from mmjudge.benchmarks import QuerySource
        from mmjudge.benchmarks.emorealm.queries import records_from_verdicts
        from mmjudge.queries import Query

        __all__ = ["build_queries", "records_from_verdicts"]


        def build_queries(rows: Sequence[Mapping[str, Any]], source: QuerySource, limit: int) -> list[Query]:
            return []
    """,
    "bad_records.py": """
        from mmjudge.benchmarks.emorealm.records import VALUE_FIELDS, expected_ids

        __all__ = ["VALUE_FIELDS", "expected_ids"]
    """,
    "bad_leaderboard.py": """
        from mmjudge.benchmarks.emorealm.leaderboard import figure

        __all__ = ["VIEWS", "figure"]

        VIEWS = ["default"]
    """,
    "bad_exports.py": """
        __all__ = ["EXPORTS"]

        EXPORTS = {"tasks": ()}
    """,
}


def _mypy(package: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MYPYPATH": str(ROOT / "src")}
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
               "--cache-dir", str(package.parent / ".mypy_cache"), "--no-error-summary", "--hide-error-context",
               package.name]  # fmt: skip
    return subprocess.run(command, cwd=package.parent, env=env, capture_output=True, text=True, timeout=300)


def test_mypy_names_the_missing_or_mistyped_hook_of_a_wired_module(tmp_path: Path) -> None:
    package = tmp_path / "toyhooks"
    package.mkdir()
    for name, text in FILES.items():
        (package / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    cases = {n: m.group(1) for n, line in enumerate(FILES["__init__.py"].strip().splitlines(), 1)
             if (m := re.search(r"# case: (\w+)", line))}  # fmt: skip
    run = _mypy(package)
    by_line: dict[int, str] = {}
    for line in run.stdout.splitlines():
        if m := re.match(r"toyhooks[/\\]__init__\.py:(\d+): (.*)", line):
            by_line[int(m.group(1))] = by_line.get(int(m.group(1)), "") + m.group(2) + "\n"
    assert run.returncode == 1, run.stdout + run.stderr
    assert set(by_line) == {n for n, hook in cases.items() if hook != "none"}, run.stdout
    for n, hook in cases.items():
        if hook != "none":
            assert "[arg-type]" in by_line[n] and re.search(rf"\b{hook}\b", by_line[n]), (hook, by_line[n])
