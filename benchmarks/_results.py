"""Write benchmark results to the docs' performance page (``docs/performance.md``) with the command, machine
and date.

Every script in this folder calls :func:`write_results` once at the end of a run: its section (``## <title>``)
is replaced whole, or added at the end the first time, so the page holds each script's latest table and the
history stays in git. Nothing here runs in ``make test``.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import re
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "performance.md"
"""The page the sections go to (a script writing a copy elsewhere points this at it for the call)."""


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
    without a key leaves its cell empty; a row with no value beyond its first column holds no figure and is
    left out).

    >>> print(markdown_table([{"case": "a", "s": 1.5}, {"case": "b", "MB": 2}]), end="")
    | case | s | MB |
    |---|---|---|
    | a | 1.5 |  |
    | b |  | 2 |
    >>> print(markdown_table([{"case": "a", "s": 1.5}, {"case": "b", "s": ""}]), end="")
    | case | s |
    |---|---|
    | a | 1.5 |
    """
    rows = [row for row in rows if any(_fmt(v).strip() for v in list(row.values())[1:])]
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


def section(title: str, rows: Sequence[Mapping[str, object]], notes: str = "") -> str:
    """One section: title, date, machine, the exact command, a table and notes."""
    command = " ".join(shlex.quote(a) for a in [Path(sys.executable).name, *sys.argv])
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"## {title}\n",
        f"- date: {stamp}",
        f"- machine: {machine()}",
        f"- command: `{command}`\n",
        markdown_table(rows),
    ]
    if notes:
        lines.append(notes.rstrip() + "\n")
    return "\n".join(lines)


def replace_section(page: str, title: str, text: str) -> str:
    """``page`` with its section ``## <title>`` (up to the next ``## `` heading outside a code block) replaced by
    ``text``, or ``text`` added at the end when the page has no such section.

    >>> page = "# P\\n\\n## a\\nold\\n\\n## b\\nkept\\n"
    >>> print(replace_section(page, "a", "## a\\nnew\\n"), end="")
    # P
    <BLANKLINE>
    ## a
    new
    <BLANKLINE>
    ## b
    kept
    >>> replace_section(page, "c", "## c\\nx\\n").endswith("kept\\n\\n## c\\nx\\n")
    True
    """
    lines = page.splitlines(keepends=True)
    starts, fenced = [], False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("## "):
            starts.append(i)
    mine = [i for i in starts if lines[i].rstrip("\n") == f"## {title}"]
    if len(mine) > 1:
        raise ValueError(f"{RESULTS} has {len(mine)} sections titled {title!r}; expected one: merge them by hand")
    text = text.rstrip("\n") + "\n"
    if not mine:
        head = page.rstrip("\n")
        return f"{head}\n\n{text}" if head else text
    end = next((i for i in starts if i > mine[0]), len(lines))
    tail = "".join(lines[end:])
    return "".join(lines[: mine[0]]) + text + ("\n" + tail if tail else "")


def write_results(title: str, rows: Sequence[Mapping[str, object]], notes: str = "") -> None:
    """Write one section (:func:`section`) to :data:`RESULTS`, replacing the one of the same title."""
    if re.search(r"[\n]", title):
        raise ValueError(f"a section title is one line, got {title!r}")
    page = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    RESULTS.write_text(replace_section(page, title, section(title, rows, notes)), encoding="utf-8")


def merge(path: Path) -> list[str]:
    """Write each section of ``path`` (a script's ``--out`` copy, e.g. from a GPU machine) into :data:`RESULTS`,
    replacing the sections of the same titles; returns their titles."""
    text = path.read_text(encoding="utf-8")
    parts = re.split(r"(?m)^(?=## )", text)
    titles = []
    page = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    for part in parts:
        if part.startswith("## "):
            title = part.split("\n", 1)[0][3:]
            page = replace_section(page, title, part)
            titles.append(title)
    if not titles:
        raise ValueError(f"{path} holds no '## <title>' section to write into {RESULTS}")
    RESULTS.write_text(page, encoding="utf-8")
    return titles


if __name__ == "__main__":
    # python benchmarks/_results.py FILE...: merge the sections of each FILE into the performance page
    for name in sys.argv[1:]:
        print("\n".join(f"{RESULTS}: wrote section {t!r}" for t in merge(Path(name))))
