"""Reading rendered report tables back, and the rule a cell must follow, written out independently.

The rule (what ``report.md``, ``sweep.md``, ``summary.md`` and the terminal table promise): a key that is
absent shows an em dash; JSON null (NaN before writing) shows ``n/a``; a bool shows yes/no; an int
shows as is; a float shows with ``digits`` decimals, followed by ``[low, high]`` when both CI keys hold
numbers, then a footnote mark when its recorded estimate (``results.json``'s ``estimates``) is withheld (no
ends) or rests on fewer than 30 clusters; anything else shows as text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

FLOAT_CELL = re.compile(r"^(-?\d+\.\d+)(?: \[(-?\d+\.\d+), (-?\d+\.\d+)\])?$")
MARK = re.compile(r"(†\d*|[‡§¶])$")
"""A footnote mark at the end of a cell."""


def needs_mark(estimate: Mapping[str, Any] | None) -> bool:
    """The rule for a mark, written out: a recorded estimate without ends, or over fewer than 30 clusters."""
    if estimate is None:
        return False
    return estimate["low"] is None or (estimate["n_clusters"] is not None and estimate["n_clusters"] < 30)


def expected_note(estimate: Mapping[str, Any]) -> str:
    """The footnote a marked estimate gets, written out from its record: a withheld one's reason (its method
    after ``none:``, said as "no interval: ..."), else ``thin: <n> <cluster>s (under 30)``."""
    if estimate["low"] is None:
        reason = estimate["method"].removeprefix("none").lstrip(": ")
        return reason if reason.startswith("no interval") else f"no interval: {reason}"
    n, cluster = estimate["n_clusters"], estimate["cluster"] or "cluster"
    return f"thin: {n} {cluster}{'' if n == 1 else 's'} (under 30)"


def check_footnotes(
    marked: list[tuple[str, str]], footnotes: list[str], estimates: Mapping[str, Any]
) -> None:
    """``footnotes`` (``<mark> <note>``, one per mark, in order of first use) explain the marks of ``marked``
    (``(key, shown)`` cells) with each marked key's :func:`expected_note`."""
    notes: dict[str, str] = {}
    for key, shown in marked:
        mark = split_mark(shown)[1]
        if mark:
            assert notes.setdefault(mark, expected_note(estimates[key])) == expected_note(estimates[key]), key
    assert footnotes == [f"{mark} {note}" for mark, note in notes.items()], (footnotes, notes)


_GROUP = re.compile(r"(?:^|: |; )([^\s,;:—]+(?:, [^\s,;:—]+)*) — ")
_HEAD = re.compile(r"(?:^|\. )(?:(\d+)% intervals|Withheld): ")


def caption_groups(caption: str) -> list[tuple[str | None, list[str], str]]:
    """``(confidence percent, or None for the withheld part; key names; method or reason)`` of each group of an
    interval caption ``95% intervals: a, b/* — method; c — method. Withheld: d — reason.``"""
    heads = [(m.start(), m.group(1)) for m in _HEAD.finditer(caption)]
    groups = list(_GROUP.finditer(caption))
    out: list[tuple[str | None, list[str], str]] = []
    for k, group in enumerate(groups):
        end = groups[k + 1].start() if k + 1 < len(groups) else len(caption)
        text = re.sub(r"\.(?: (?:\d+% intervals|Withheld))?$", "", caption[group.end() : end])
        head = [h for h in heads if h[0] <= group.start()][-1]
        out.append((head[1], group.group(1).split(", "), text))
    return out


def check_caption(caption: str, keys: list[str], estimates: Mapping[str, Any]) -> None:
    """``caption`` names, for exactly the ``keys`` that have a recorded estimate, each one's recorded confidence
    and method, or for a withheld one its :func:`expected_note` (``P/*`` stands for the keys under ``P/``)."""
    recorded = [k for k in keys if k in estimates]
    named: list[str] = []
    for percent, names, text in caption_groups(caption):
        for name in names:
            covered = [k for k in recorded if k.startswith(name[:-1])] if name.endswith("/*") else [name]
            assert covered, (name, caption)
            for key in covered:
                estimate = estimates[key]
                if percent is None:
                    assert estimate["low"] is None and text == expected_note(estimate), (key, text, estimate)
                else:
                    assert estimate["low"] is not None, (key, caption)
                    assert (text, int(percent)) == (
                        estimate["method"],
                        round(100 * estimate["confidence"]),
                    ), key
            named += covered
    assert sorted(named) == sorted(recorded), (caption, sorted(set(recorded) ^ set(named)))


def check_notes(notes: str, estimates: Mapping[str, Any]) -> None:
    """``notes`` (``keys — note; ...``, an evaluate module's interval notes) name exactly the estimates that need
    a mark, each with its :func:`expected_note` (``P/*`` stands for every key under ``P/``)."""
    marked = sorted(k for k, e in estimates.items() if needs_mark(e))
    named: list[str] = []
    for _, names, text in caption_groups(f"Withheld: {notes}") if notes else []:
        for name in names:
            covered = [k for k in estimates if k.startswith(name[:-1])] if name.endswith("/*") else [name]
            assert covered and all(text == expected_note(estimates[k]) for k in covered), (name, text)
            named += covered
    assert sorted(named) == marked, (notes, marked)


def split_mark(shown: str) -> tuple[str, str]:
    """``(cell without its mark, mark)``."""
    found = MARK.search(shown)
    return (shown[: found.start()], found.group(1)) if found else (shown, "")


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


def check_cell(
    shown: str,
    scores: Mapping[str, Any],
    key: str,
    digits: int = 1,
    ci: bool = True,
    estimates: Mapping[str, Any] | None = None,
) -> str:
    """Assert that ``shown`` follows the rule for ``scores[key]`` and, given the recorded ``estimates``, that
    it carries a mark exactly when its estimate needs one (without them, no mark); returns the value's kind."""
    shown, mark = split_mark(shown)
    value = scores.get(key)
    shows_value = isinstance(value, float) and not math.isnan(value)
    wanted = ci and estimates is not None and shows_value and needs_mark(estimates.get(key))
    assert bool(mark) == wanted, (key, shown, mark, (estimates or {}).get(key))
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
