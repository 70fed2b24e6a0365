"""Append benchmark results to benchmarks/RESULTS.md with the command, machine and date.

Every script in this folder calls :func:`append_results` once at the end of a run; nothing here runs
in ``make test``.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

RESULTS = Path(__file__).with_name("RESULTS.md")


def machine() -> str:
    """One line describing this machine: CPU model, cores, memory, OS, Python."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{mem_kb / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        mem = "unknown memory"
    return f"{cpu}, {os.cpu_count()} cores, {mem}, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def markdown_table(rows: Sequence[Mapping[str, object]]) -> str:
    """Render rows as a markdown table: one column per key of any row, in order of first appearance (a row
    without a key leaves its cell empty).

    >>> print(markdown_table([{"case": "a", "s": 1.5}, {"case": "b", "MB": 2}]), end="")
    | case | s | MB |
    |---|---|---|
    | a | 1.5 |  |
    | b |  | 2 |
    """
    if not rows:
        return "(no rows)\n"
    headers = list(dict.fromkeys(h for row in rows for h in row))
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    for row in rows:
        lines.append("| " + " | ".join(_fmt(row.get(h, "")) for h in headers) + " |")
    return "\n".join(lines) + "\n"


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def append_results(title: str, rows: Sequence[Mapping[str, object]], notes: str = "") -> None:
    """Append one section: title, date, machine, the exact command, a table and notes."""
    command = " ".join(shlex.quote(a) for a in [Path(sys.executable).name, *sys.argv])
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    section = [
        f"\n## {title}\n",
        f"- date: {stamp}",
        f"- machine: {machine()}",
        f"- command: `{command}`\n",
        markdown_table(rows),
    ]
    if notes:
        section.append(notes.rstrip() + "\n")
    with RESULTS.open("a", encoding="utf-8") as handle:
        handle.write("\n".join(section))
