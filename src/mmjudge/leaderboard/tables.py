"""Per-benchmark tables with the paper's breakdown; every number with its 95% CI where one exists.

A :class:`Table` holds raw values (numbers, for sorting and export) and display strings (the number with
its CI on a second line). Submitter text is kept as submitted: ``gr.Dataframe`` shows ``str`` cells as
text and the exports carry the name as submitted; only Markdown and HTML contexts escape it, where they
render it (``mmjudge.leaderboard.ui``). The leaderboard computes no statistic: a column's CI is the
``<key>_ci_low``/``<key>_ci_high`` pair the scorer stored with the result (Wilson intervals for rates,
bootstraps for means and F1 scores). A reported row shows the spread its paper prints (``<key>_std`` over
rounds) or says it has no CI. Every table ends with the file's coverage and ``no_judgment`` rate
(verified rows), and EmoReAlM is ranked in strict mode (missing answers wrong) with the paper's
official-mode average beside it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mmjudge.leaderboard.store import StoredSubmission

__all__ = ["INFO_HEADERS", "VIEWS", "Column", "Table", "build_table", "columns"]

INFO_HEADERS: tuple[str, ...] = ("#", "Kind", "Judge", "Model", "Revision", "Weights", "Submitter")
"""Leading columns of every table."""
VIEWS: tuple[str, ...] = ("ties_wrong", "decided")
"""IsoVRBench views: ties and no-judgment counted wrong (the paper's rule), or accuracy over decided pairs."""
NO_CI = "(no CI)"
Results = Mapping[str, Any]


@dataclass(frozen=True)
class Column:
    """One score column."""

    header: str
    """Column title."""
    value: Callable[[Results], float | str | None]
    """The number (or short text) from a result dict; ``None`` when absent."""
    ci: Callable[[Results], tuple[float, float] | None] | None = None
    """Its 95% CI; ``None`` for a column without one."""
    higher_is_better: bool = True
    """Sort direction."""
    text: bool = False
    """The column holds short text (``str`` datatype) rather than numbers."""
    spread: Callable[[Results], float | None] | None = None
    """The spread over rounds a paper prints beside a mean (``<key>_std``); shown when there is no CI."""


@dataclass(frozen=True)
class Table:
    """A rendered table."""

    benchmark: str
    """Benchmark id."""
    headers: list[str]
    """Column titles."""
    values: list[list[Any]]
    """Raw cell values (numbers or escaped text), rows ranked by the headline column."""
    display: list[list[str]]
    """Display strings: numbers with their CI on a second line."""
    datatypes: list[str]
    """Gradio datatypes per column (``number`` or ``str``; never ``html``/``markdown``)."""
    headline: int = len(INFO_HEADERS)
    """Index of the headline column the rows are ranked by."""

    def frame(self) -> Any:
        """The raw values as a ``pandas.DataFrame``."""
        import pandas as pd

        return pd.DataFrame(self.values, columns=self.headers)

    def gradio_value(self) -> dict[str, Any]:
        """Value for ``gr.Dataframe``: raw data for sorting, display strings as metadata."""
        return {
            "headers": self.headers,
            "data": self.values,
            "metadata": {"display_value": self.display, "styling": None},
        }


def _key(name: str) -> Callable[[Results], float | None]:
    def get(results: Results) -> float | None:
        value = results.get(name)
        return None if value is None or isinstance(value, (str, bool)) else float(value)

    return get


def _ci_keys(key: str) -> Callable[[Results], tuple[float, float] | None]:
    """The stored CI of ``key``: ``<key>_ci_low`` and ``<key>_ci_high`` from the scorer."""

    def get(results: Results) -> tuple[float, float] | None:
        lo, hi = results.get(f"{key}_ci_low"), results.get(f"{key}_ci_high")
        return None if lo is None or hi is None else (float(lo), float(hi))

    return get


def _score(header: str, key: str, higher_is_better: bool = True) -> Column:
    """A column showing result ``key`` with its stored CI (and its ``_std`` over rounds, if any)."""
    return Column(header, _key(key), _ci_keys(key), higher_is_better, spread=_key(f"{key}_std"))


def _text(header: str, key: str) -> Column:
    return Column(header, lambda r: None if r.get(key) is None else str(r[key]), text=True)


def _isovrbench(view: str) -> list[Column]:
    from mmjudge.benchmarks.isovrbench import DIMENSIONS

    prefix = "decided_accuracy" if view == "decided" else "accuracy"
    cols = [_score(f"{dim}: {iv}", f"{prefix}/{iv}") for dim, ivs in DIMENSIONS.items() for iv in ivs]
    if view == "decided":
        cols.append(_score("Decided avg. (Table 5)", "decided_average"))
    else:
        cols.append(_score("Average", "average"))
    cols.append(_score("Tie rate", "tie_rate", higher_is_better=False))
    return cols


def _alt_test_passed(trio: str) -> Callable[[Results], str | None]:
    def get(results: Results) -> str | None:
        passed, tests = (
            results.get(f"alt_test/{trio}/explicit/n_passed"),
            results.get(f"alt_test/{trio}/explicit/n_tests"),
        )
        return None if passed is None or tests is None else f"{int(passed)}/{int(tests)}"

    return get


def _mist(view: str) -> list[Column]:
    cols = [_score("change none→misleading (explicit)", "change_rate/none_to_misleading/explicit", False),
            _score("change none→aligned (explicit)", "change_rate/none_to_aligned/explicit", False),
            _score("change control", "change_rate/control", False),
            _score("direction (explicit)", "direction/explicit"),
            _score("change none→misleading (silent)", "change_rate/none_to_misleading/silent", False),
            _score("change none→aligned (silent)", "change_rate/none_to_aligned/silent", False),
            _score("direction (silent)", "direction/silent")]  # fmt: skip
    for cell in ("none", "aligned/explicit", "aligned/silent", "misleading/explicit", "misleading/silent"):
        cols.append(_score(f"agreement {cell}", f"agreement/{cell}"))
    for trio in ("informed", "blind"):
        cols.append(Column(f"alt-test {trio} (explicit): passed", _alt_test_passed(trio), text=True))
    return cols  # headline first: change rate text-only -> misleading image, explicit arm (Table 6)


def _emoprefer(view: str) -> list[Column]:
    names = (("waf_2class", "2-class WAF"), ("acc_2class", "2-class ACC"), ("waf_3class", "3-class WAF"),
             ("acc_3class", "3-class ACC"), ("swap_consistency", "swap consistency"))  # fmt: skip
    return [_score(title, key) for key, title in names] + [_text("strategy", "strategy")]


def _emorealm(view: str) -> list[Column]:
    from mmjudge.benchmarks.emorealm import TASKS, YES_NO_TASKS

    cols = [
        Column("Average (strict)", _in_mode("strict", "overall"), _in_mode_ci("strict", "overall")),
        Column("Average (official)", _official("overall"), _official_ci("overall")),
    ]
    cols += [_score(task, f"accuracy/{task}") for task in TASKS]
    for task in YES_NO_TASKS:
        cols.append(_score(f"{task} yes-acc.", f"yes_accuracy/{task}"))
        cols.append(_score(f"{task} no-acc.", f"no_accuracy/{task}"))
    cols.append(_text("mode", "mode"))
    return cols


def _in_mode(mode: str, key: str) -> Callable[[Results], float | None]:
    """``key`` of an EmoReAlM result scored in ``mode`` (results name their mode; older rows: official)."""

    def get(results: Results) -> float | None:
        return _key(key)(results) if results.get("mode", "official") == mode else None

    return get


def _in_mode_ci(mode: str, key: str) -> Callable[[Results], tuple[float, float] | None]:
    """The stored CI of ``key`` of an EmoReAlM result scored in ``mode``."""

    def get(results: Results) -> tuple[float, float] | None:
        return _ci_keys(key)(results) if results.get("mode", "official") == mode else None

    return get


def _official(key: str) -> Callable[[Results], float | None]:
    """``key`` in official mode: the side scoring stored beside a strict row, or an official-mode row."""

    def get(results: Results) -> float | None:
        side = _key(f"{SIDE_PREFIX['official']}{key}")(results)
        return side if side is not None else _in_mode("official", key)(results)

    return get


def _official_ci(key: str) -> Callable[[Results], tuple[float, float] | None]:
    """The CI of :func:`_official`'s value, from the same scoring."""

    def get(results: Results) -> tuple[float, float] | None:
        side = _ci_keys(f"{SIDE_PREFIX['official']}{key}")(results)
        return side if side is not None else _in_mode_ci("official", key)(results)

    return get


def _file_columns() -> list[Column]:
    """Coverage and no-judgment rate of the submitted file (verified rows; ``—`` for reported ones)."""
    return [
        Column("Coverage %", _key(f"{FILE_PREFIX}coverage")),
        Column("No judgment %", _key(f"{FILE_PREFIX}no_judgment_rate"), higher_is_better=False),
    ]


SIDE_PREFIX = {"official": "official:"}
"""How a side scoring's keys appear in the mapping a column reads (``official:overall``)."""
FILE_PREFIX = "file:"
"""How the file's coverage keys appear in the mapping a column reads (``file:coverage``)."""


def _view(sub: StoredSubmission) -> dict[str, Any]:
    """The mapping the columns read: the ranked results, side scorings and the file's coverage."""
    view = dict(sub.results)
    for label, side in (sub.side_results or {}).items():
        view.update({f"{label}:{key}": value for key, value in side.items()})
    view.update({f"{FILE_PREFIX}{key}": value for key, value in (sub.coverage or {}).items()})
    return view


_COLUMNS: dict[str, Callable[[str], list[Column]]] = {
    "isovrbench": _isovrbench, "mist": _mist, "emoprefer": _emoprefer, "emorealm": _emorealm,
}  # fmt: skip


def columns(benchmark: str, view: str = "ties_wrong") -> list[Column]:
    """Score columns of ``benchmark``; the first one is the headline the rows are ranked by.

    >>> [c.header for c in columns("emoprefer")][:2]
    ['2-class WAF', '2-class ACC']
    """
    if view not in VIEWS:
        raise ValueError(f"view must be one of {VIEWS}, got {view!r}")
    return _COLUMNS[benchmark](view)


def build_table(benchmark: str, submissions: Sequence[StoredSubmission], view: str = "ties_wrong") -> Table:
    """The leaderboard table of ``benchmark`` (hidden rows left out), ranked by the headline column.

    Text cells hold the text as submitted (a ``str`` cell of ``gr.Dataframe`` is shown as text).

    >>> from mmjudge.leaderboard.store import StoredSubmission
    >>> row = StoredSubmission("emoprefer", "verified", "AT&T <b>j</b>", "m", "u", {"waf_2class": 61.25}, id=1)
    >>> t = build_table("emoprefer", [row])
    >>> t.values[0][:3], t.display[0][7]
    ([1, 'verified', 'AT&T <b>j</b>'], '61.2\\n(no CI)')
    """
    cols = columns(benchmark, view) + _file_columns()
    headline = _headline(benchmark, view)
    rows = [s for s in submissions if s.benchmark == benchmark and not s.hidden]
    views = {s.id: _view(s) for s in rows}
    ranked = sorted(rows, key=lambda s: _rank_key(cols[headline], views[s.id]))
    values, display = [], []
    for sub in ranked:
        info = [
            sub.id,
            sub.kind,
            *(str(v) for v in (sub.judge, sub.model, sub.revision, sub.weights, sub.submitter)),
        ]
        cells = [_cell(c, views[sub.id], sub.kind) for c in cols]
        values.append(info + [v for v, _ in cells])
        display.append([str(v) for v in info] + [d for _, d in cells])
    headers = list(INFO_HEADERS) + [c.header for c in cols]
    datatypes = ["number"] + ["str"] * (len(INFO_HEADERS) - 1) + ["str" if c.text else "number" for c in cols]
    return Table(benchmark, headers, values, display, datatypes, len(INFO_HEADERS) + headline)


def _headline(benchmark: str, view: str) -> int:
    return len(columns(benchmark, view)) - 2 if benchmark == "isovrbench" else 0


def _rank_key(col: Column, results: Results) -> tuple[int, float]:
    value = col.value(results)
    if not isinstance(value, (int, float)) or math.isnan(value):
        return (1, 0.0)
    return (0, -value if col.higher_is_better else value)


def _cell(col: Column, results: Results, kind: str = "verified") -> tuple[Any, str]:
    value = col.value(results)
    if value is None:
        return None, "—"
    if isinstance(value, str):
        return value, value
    ci = col.ci(results) if col.ci is not None else None
    spread = col.spread(results) if col.spread is not None else None
    if ci is not None:
        second = f"[{ci[0]:.1f}, {ci[1]:.1f}]"
    elif spread is not None:
        second = f"± {spread:.2f} over {results.get('n_rounds', '?')} rounds"
    else:
        second = "(published, no CI)" if kind == "reported" else NO_CI
    return round(value, 4), f"{value:.1f}\n{second}"
