"""Per-benchmark tables with the paper's breakdown; every number with its 95% CI where one exists.

A :class:`Table` holds raw values (numbers, for sorting and export) and display strings (the number with
its CI on a second line). Submitter text is kept as submitted: ``gr.Dataframe`` shows ``str`` cells as
text and the exports carry the name as submitted; only Markdown and HTML contexts escape it, where they
render it (``mmjudge.leaderboard.ui``). Every table ends with the file's coverage and ``no_judgment``
rate (verified rows), and EmoReAlM is ranked in strict mode (missing answers wrong) with the paper's
official-mode average beside it. The CIs are the scoring core's bootstrap intervals; MIST change rates
and direction have none in the core, so they get a Wilson interval from the count the core reports
(``statsmodels``). Numbers the core does not give a CI for are shown without one and say so.
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


def _key(name: str, scale: float = 1.0) -> Callable[[Results], float | None]:
    def get(results: Results) -> float | None:
        value = results.get(name)
        return None if value is None or isinstance(value, (str, bool)) else float(value) * scale

    return get


def _ci_keys(low: str, high: str, scale: float = 1.0) -> Callable[[Results], tuple[float, float] | None]:
    def get(results: Results) -> tuple[float, float] | None:
        lo, hi = results.get(low), results.get(high)
        return None if lo is None or hi is None else (float(lo) * scale, float(hi) * scale)

    return get


def _wilson(rate_key: str, n_key: str) -> Callable[[Results], tuple[float, float] | None]:
    def get(results: Results) -> tuple[float, float] | None:
        rate, n = results.get(rate_key), results.get(n_key)
        if rate is None or not n:
            return None
        from statsmodels.stats.proportion import proportion_confint

        lo, hi = proportion_confint(round(float(rate) * int(n)), int(n), alpha=0.05, method="wilson")
        return 100.0 * float(lo), 100.0 * float(hi)

    return get


def _isovrbench(view: str) -> list[Column]:
    from mmjudge.benchmarks.isovrbench import DIMENSIONS

    cols = []
    for dim, interventions in DIMENSIONS.items():
        for iv in interventions:
            if view == "decided":
                cols.append(Column(f"{dim}: {iv}", _key(f"decided_accuracy/{iv}")))
            else:
                cols.append(
                    Column(
                        f"{dim}: {iv}",
                        _key(f"accuracy/{iv}"),
                        _ci_keys(f"accuracy/{iv}_ci_low", f"accuracy/{iv}_ci_high"),
                    )
                )
    if view == "decided":
        cols.append(Column("Decided acc. (pooled)", _key("decided_accuracy")))
    else:
        cols.append(Column("Average", _key("average"), _ci_keys("average_ci_low", "average_ci_high")))
    cols.append(Column("Tie rate", _key("tie_rate"), higher_is_better=False))
    return cols


def _alt_test_passed(trio: str) -> Callable[[Results], str | None]:
    def get(results: Results) -> str | None:
        prefix = f"alt_test/{trio}/acc/"
        flags = [bool(v) for k, v in results.items() if k.startswith(prefix) and k.endswith("/passed")]
        return f"{sum(flags)}/{len(flags)}" if flags else None

    return get


def _mist(view: str) -> list[Column]:
    cols = []
    for target in ("aligned", "misleading"):
        for arm in ("explicit", "silent"):
            key = f"change_rate/none_to_{target}/{arm}"
            cols.append(
                Column(f"change none→{target} ({arm})", _key(key, 100.0), _wilson(key, f"{key}/n"), False)
            )
    cols.append(
        Column(
            "change control",
            _key("change_rate/control", 100.0),
            _wilson("change_rate/control", "change_rate/control/n"),
            False,
        )
    )
    for arm in ("explicit", "silent"):
        key = f"direction/{arm}"
        cols.append(Column(f"direction ({arm})", _key(key, 100.0), _wilson(key, f"{key}/n_changed")))
    for cell in ("none", "aligned/explicit", "aligned/silent", "misleading/explicit", "misleading/silent"):
        cols.append(Column(f"agreement {cell}", _key(f"agreement/{cell}", 100.0)))
    for trio in ("informed", "blind"):
        cols.append(Column(f"alt-test {trio} (ACC, passed)", _alt_test_passed(trio), text=True))
    cols.insert(0, cols.pop(3))  # headline first: change rate text-only -> misleading image, silent arm
    return cols


def _emoprefer(view: str) -> list[Column]:
    names = (("waf_2class", "2-class WAF"), ("acc_2class", "2-class ACC"), ("waf_3class", "3-class WAF"),
             ("acc_3class", "3-class ACC"), ("swap_consistency", "swap consistency"))  # fmt: skip
    return [Column(title, _key(key)) for key, title in names]


def _emorealm(view: str) -> list[Column]:
    from mmjudge.benchmarks.emorealm import TASKS, YES_NO_TASKS

    cols = [
        Column("Average (strict)", _in_mode("strict", "overall")),
        Column("Average (official)", _official("overall")),
    ]
    for task in TASKS:
        cols.append(
            Column(
                task,
                _key(f"accuracy/{task}"),
                _ci_keys(f"accuracy/{task}_ci_low", f"accuracy/{task}_ci_high"),
            )
        )
    for task in YES_NO_TASKS:
        cols.append(Column(f"{task} yes-acc.", _key(f"yes_accuracy/{task}")))
        cols.append(Column(f"{task} no-acc.", _key(f"no_accuracy/{task}")))
    cols.append(Column("mode", lambda r: None if r.get("mode") is None else str(r["mode"]), text=True))
    return cols


def _in_mode(mode: str, key: str) -> Callable[[Results], float | None]:
    """``key`` of an EmoReAlM result scored in ``mode`` (results name their mode; older rows: official)."""

    def get(results: Results) -> float | None:
        return _key(key)(results) if results.get("mode", "official") == mode else None

    return get


def _official(key: str) -> Callable[[Results], float | None]:
    """``key`` in official mode: the side scoring stored beside a strict row, or an official-mode row."""

    def get(results: Results) -> float | None:
        side = _key(f"{SIDE_PREFIX['official']}{key}")(results)
        return side if side is not None else _in_mode("official", key)(results)

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
    if ci is not None:
        second = f"[{ci[0]:.1f}, {ci[1]:.1f}]"
    else:
        second = "(published, no CI)" if kind == "reported" else NO_CI
    return round(value, 4), f"{value:.1f}\n{second}"
