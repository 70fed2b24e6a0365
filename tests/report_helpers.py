"""Reading rendered report tables back, and the rule a cell must follow, written out independently.

The rule (what ``report.md``, ``sweep.md``, ``summary.md`` and the terminal table promise): a key that is
absent shows an em dash; JSON null (NaN before writing) shows ``n/a``; a bool shows yes/no; an int
shows as is; a float shows with ``digits`` decimals, followed by ``[low, high]`` when both CI keys hold
numbers; anything else shows as text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

FLOAT_CELL = re.compile(r"^(-?\d+\.\d+)(?: \[(-?\d+\.\d+), (-?\d+\.\d+)\])?$")


def table_after(text: str, heading: str) -> list[list[str]]:
    """The body rows (cells stripped) of the first markdown table after the line ``heading``.

    ``heading`` may also be the table's header line itself.
    """
    lines = text.splitlines()
    start = lines.index(heading)
    rows: list[list[str]] = []
    for line in lines[start if heading.startswith("|") else start + 1 :]:
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif rows:
            break
    assert len(rows) >= 2 and set(rows[1][0]) <= {"-"}, f"no table under {heading!r}"
    return rows[2:]


def _close(shown: str, value: float, digits: int) -> bool:
    return abs(float(shown) - value) <= 0.5 * 10**-digits + 1e-9


def check_cell(shown: str, scores: Mapping[str, Any], key: str, digits: int = 1, ci: bool = True) -> str:
    """Assert that ``shown`` follows the rule for ``scores[key]``; returns what kind of value it was."""
    if key not in scores:
        assert shown == "—", (key, shown)
        return "missing"
    value = scores[key]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        assert shown == "n/a", (key, shown)
        return "undefined"
    if isinstance(value, bool):
        assert shown == ("yes" if value else "no"), (key, shown)
        return "bool"
    if isinstance(value, int):
        assert shown == str(value), (key, shown)
        return "int"
    if not isinstance(value, float):
        assert shown == str(value), (key, shown)
        return "text"
    match = FLOAT_CELL.match(shown)
    assert match, (key, shown)
    assert _close(match.group(1), value, digits), (key, shown, value)
    low, high = scores.get(f"{key}_ci_low"), scores.get(f"{key}_ci_high")
    has_ci = ci and all(isinstance(v, (int, float)) and not math.isnan(v) for v in (low, high))
    assert (match.group(2) is not None) == has_ci, (key, shown, low, high)
    if has_ci:
        assert _close(match.group(2), float(low), digits) and _close(match.group(3), float(high), digits)  # type: ignore[arg-type]
        return "float with CI"
    return "float"


def eval_command(benchmark: str, sample: Path, out: Path, *extra: str) -> list[str]:
    """``mmjudge eval`` with the random judge on the sample, with the demo's media root and swap."""
    from mmjudge.benchmarks import get_benchmark

    spec = get_benchmark(benchmark).data
    command = ["eval", "--benchmark", benchmark, "--judge", "random", "--data", str(sample / benchmark),
               "--out", str(out), "--no-progress", "--decode-workers", "0", *extra]  # fmt: skip
    if spec.sample_media_root:
        command += ["--media-root", str(sample / spec.sample_media_root)]
    return command + (["--swap"] if spec.sample_swap else [])
