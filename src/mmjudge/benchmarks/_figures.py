"""Drawing helpers shared by the benchmarks' report plots and leaderboard figures (matplotlib, lazy).

Every error bar is an interval the scorer stored (``<key>_ci_low``/``_ci_high``) or the spread over
rounds a paper prints (``<key>_std``); nothing here computes a statistic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._base import BoardRow
from mmjudge.estimates import Interval, estimates_from, interval_caption, interval_of

__all__ = [
    "BOARD_FONT",
    "BOARD_WIDTH",
    "MARKERS",
    "MAX_VERIFIED",
    "TIER_MARKS",
    "bars",
    "bars_caption",
    "board_figure",
    "errors",
    "legend_below",
    "number",
    "readable",
    "report_figure",
    "row_label",
    "row_style",
    "row_value",
    "save",
    "split_rows",
    "whisker",
]

MAX_VERIFIED = 12
"""Verified rows a leaderboard figure draws (the best ranked ones); the table lists all."""
MARKERS = "osD^vPX<>hp8*d"
"""Marker cycle that, with the colour cycle, tells one row's marks from another's."""


def report_figure(width: float = 7.0, height: float = 3.6, **kwargs: Any) -> tuple[Any, Any]:
    """A pyplot figure and axes for a report (Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    return plt.subplots(figsize=(width, height), dpi=100, **kwargs)


def save(fig: Any, path: Path) -> Path:
    """Save a report figure and close it."""
    from matplotlib import pyplot as plt

    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def number(value: Any) -> float:
    """``value`` as a float, NaN when it is not a number.

    >>> number("x")
    nan
    """
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def bars_caption(scores: Mapping[str, Any], keys: Sequence[str]) -> str:
    """`` Error bars: <caption>`` naming how the intervals of the drawn ``keys`` were made, read from the
    scorer's records (:func:`mmjudge.estimates.interval_caption`); ``""`` when none has an interval record.

    >>> bars_caption({"a": 1.0}, ["a"])
    ''
    """

    caption = interval_caption(estimates_from(scores), keys)
    return f" Error bars: {caption}" if caption else ""


def errors(scores: Mapping[str, Any], keys: Sequence[str]) -> list[list[float]]:
    """Error-bar lengths below and above each value from its stored interval (0 without)."""
    values = [number(scores.get(k)) for k in keys]
    ends = [interval_of(scores, k) or Interval(v, v) for k, v in zip(keys, values, strict=True)]
    pairs = list(zip(values, ends, strict=True))
    return [[v - e.low for v, e in pairs], [e.high - v for v, e in pairs]]


def bars(ax: Any, names: Sequence[str], scores: Mapping[str, Any], prefix: str) -> None:
    """Bars of ``<prefix>/<name>`` with their stored CIs."""
    keys = [f"{prefix}/{n}" for n in names]
    values = [number(scores.get(k)) for k in keys]
    ax.bar(range(len(names)), values, yerr=errors(scores, keys), capsize=3, color="#4c72b0", label="judge")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)


BOARD_WIDTH = 6.0
"""Width (inches) of a leaderboard figure. The page shows it at its own width on a desktop (600 px) and
across a phone's width (about 370 px of a 390 px screen), so its text shrinks by at most 0.62 there."""
BOARD_FONT = 11.0
"""Size (points) of a leaderboard figure's text: 15 px in the image, about 9.5 px on a 390 px phone."""


def board_figure(height: float = 4.0, width: float = BOARD_WIDTH) -> Any:
    """A leaderboard figure (no pyplot state, so nothing accumulates)."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def readable(ax: Any) -> None:
    """Tick labels, axis labels and the title of ``ax`` at :data:`BOARD_FONT` (matplotlib's are smaller)."""
    ax.tick_params(labelsize=BOARD_FONT)
    for text in (ax.xaxis.label, ax.yaxis.label, ax.title):
        text.set_fontsize(BOARD_FONT)


def legend_below(fig: Any, handles: Sequence[Any], labels: Sequence[str]) -> Any:
    """The legend, in the order given, under the axes at :data:`BOARD_FONT`; the figure grows to hold it.

    One entry a line (two columns when every label is short), so that it names every mark without
    covering one and stays readable where a phone shrinks the figure. Returns the legend (``None``
    without entries).
    """
    if not handles:
        return None
    columns = 2 if max(len(label) for label in labels) <= 22 else 1
    lines = -(-len(handles) // columns)
    fig.set_figheight(fig.get_figheight() + (lines * 1.6 + 1.0) * BOARD_FONT / 72)  # 1.6 lines a row (spacing)
    return fig.legend(handles, labels, loc="outside lower center", ncols=columns, fontsize=BOARD_FONT, frameon=False)


TIER_MARKS = {"published": "p", "run here": "h", "submitted": "s", "baseline": "baseline"}
"""The tier a legend label names: (p)ublished, run (h)ere, (s)ubmitted, baseline."""


def row_label(row: BoardRow) -> str:
    """A row's legend label: its rank in the table (when ranked), judge name and tier mark.

    >>> from types import SimpleNamespace
    >>> row_label(SimpleNamespace(judge="VideoReward", tier="published", rank="2="))
    '#2= VideoReward (p)'
    >>> row_label(SimpleNamespace(judge="sharpness", tier="baseline", rank="baseline"))
    'sharpness (baseline)'
    """
    # figures are PNG images (no HTML); '$...$' would be mathtext, so escape the dollar sign
    text = row.judge[:28].replace("$", r"\$")
    mark = TIER_MARKS.get(row.tier, row.tier)
    ranked = row.rank and row.rank[0].isdigit()
    return f"#{row.rank} {text} ({mark})" if ranked else f"{text} ({mark})"


def row_style(k: int) -> dict[str, Any]:
    """Colour and marker of the ``k``-th row drawn (the same ``k`` gets the same style in every figure).

    >>> row_style(0)["marker"], row_style(len(MARKERS))["marker"]
    ('o', 'o')
    """
    from matplotlib import colormaps

    return {"color": colormaps["tab20"](k % 20), "marker": MARKERS[k % len(MARKERS)]}


def row_value(row: BoardRow, key: str) -> float | None:
    """The stored number under ``key`` (``None`` when absent or not a number)."""
    value = row.results.get(key)
    return None if value is None or isinstance(value, (str, bool)) else float(value)


def whisker(row: BoardRow, key: str) -> tuple[float, float]:
    """Error-bar lengths below and above ``key`` from the stored CI, else the stored ``_std``, else 0."""
    value = row_value(row, key) or 0.0
    ci = interval_of(row.results, key)
    if ci is not None:
        return value - ci.low, ci.high - value
    std = row_value(row, f"{key}_std")
    return (std, std) if std is not None else (0.0, 0.0)


def split_rows(rows: Sequence[BoardRow]) -> tuple[list[BoardRow], list[BoardRow]]:
    """``(published, verified)`` rows in the order given (the table's); at most :data:`MAX_VERIFIED` verified ones."""
    published = [r for r in rows if r.kind == "reported"]
    verified = [r for r in rows if r.kind == "verified"][:MAX_VERIFIED]
    return published, verified
