"""MIST on the leaderboard: change rates, direction, agreement and alt-tests; Table 6's two axes as a figure.

The headline (the rows' ranking) is the change rate text-only -> misleading image in the explicit arm,
Table 6's first column, the same key the report leads with (``BENCHMARK.metrics.headline``). The figure plots
that change rate against the direction (explicit arm): each row its own marker, numbered with its table
rank and named in the legend under the plot (the table's order), rows scored here with their intervals;
chance at 50%.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._base import BoardRow, Column, View
from mmjudge.benchmarks._figures import (
    BOARD_FONT,
    board_figure,
    legend_below,
    readable,
    row_label,
    row_style,
    row_value,
    split_rows,
    whisker,
)

__all__ = ["HEADLINE", "OPTIONS", "VIEWS", "degenerate", "figure"]

OPTIONS: dict[str, str] = {"mode": "strict"}
"""The ranked scoring: strict mode (a missing label counts as changed, so marking the labels that moved
``no_judgment`` cannot lower a change rate)."""

HEADLINE: tuple[str, ...] = (
    "change_rate/none_to_misleading/explicit",
    "direction/explicit",
    "agreement/none",
)
"""The keys a summary shows; the first ranks the leaderboard."""

_COLUMNS: tuple[Column, ...] = (
    Column(
        "change none→misleading (explicit)", "change_rate/none_to_misleading/explicit", group="explicit arm"
    ),
    Column("change none→aligned (explicit)", "change_rate/none_to_aligned/explicit", group="explicit arm"),
    Column("change control", "change_rate/control", group="control"),
    Column("direction (explicit)", "direction/explicit", group="explicit arm"),
    Column("change none→misleading (silent)", "change_rate/none_to_misleading/silent", group="silent arm"),
    Column("change none→aligned (silent)", "change_rate/none_to_aligned/silent", group="silent arm"),
    Column("direction (silent)", "direction/silent", group="silent arm"),
    *(
        Column(f"agreement {cell}", f"agreement/{cell}", group="agreement")
        for cell in ("none", "aligned/explicit", "aligned/silent", "misleading/explicit", "misleading/silent")
    ),
    *(
        Column(
            f"alt-test {trio} (explicit): passed",
            f"alt_test/{trio}/explicit/n_passed",
            text=True,
            out_of=f"alt_test/{trio}/explicit/n_tests",
            group="alt-test",
        )
        for trio in ("informed", "blind")
    ),
)
VIEWS: tuple[View, ...] = (View("default", _COLUMNS),)
"""One view; ranked by :data:`HEADLINE`'s first key."""


def degenerate(results: Mapping[str, Any]) -> str | None:
    """Why a row's headline cannot be read as a judge reading the image, or ``None``.

    The headline (labels changed text-only -> misleading image) is best at 0, which a judge that never
    changes its label reaches without looking at the image; its companion, the direction of the changes,
    is then undefined. A row whose explicit arm changed no label, or whose direction there is undefined,
    is flagged (shown, not ranked). Rows that do not store the key (published rows print no count) are
    judged by the direction alone.

    >>> degenerate({"direction/explicit/n_changed": 0, "direction/explicit": float("nan")})
    'no label changed with the image (direction undefined): the judge may never read it'
    >>> degenerate({"direction/explicit/n_changed": 12, "direction/explicit": 75.0}) is None
    True
    """
    changed = results.get("direction/explicit/n_changed")
    direction = results.get("direction/explicit", 0.0)
    undefined = direction is None or (isinstance(direction, float) and math.isnan(direction))
    if changed == 0:
        return "no label changed with the image (direction undefined): the judge may never read it"
    if undefined:
        return "direction of the changes undefined (explicit arm): the headline cannot be read"
    return None


def figure(rows: Sequence[BoardRow]) -> Any:
    """The tab's figure (see the module docstring)."""
    published, verified = split_rows(rows)
    x_key, y_key = HEADLINE[0], HEADLINE[1]
    fig = board_figure(4.4)
    ax = fig.add_subplot()
    handles: list[Any] = [ax.axhline(50.0, color="grey", linestyle=":", linewidth=1, label="chance")]
    drawn = {id(r) for r in (*published, *verified)}
    for k, row in enumerate(r for r in rows if id(r) in drawn):  # the table's order
        x, y = row_value(row, x_key), row_value(row, y_key)
        if x is None or y is None:
            continue
        style = row_style(k)
        if row.kind == "reported":
            mark = ax.scatter(
                [x], [y], s=30, edgecolors="black", linewidths=0.3, label=row_label(row), **style
            )
        else:
            mark = ax.errorbar([x], [y], xerr=[[v] for v in whisker(row, x_key)], yerr=[[v] for v in whisker(row, y_key)],
                               fmt=style["marker"], color=style["color"], markeredgecolor="black", capsize=2,
                               label=row_label(row))  # fmt: skip
        handles.append(mark)
        ax.annotate(
            row.rank, (x, y), fontsize=BOARD_FONT - 2, xytext=(3, 3), textcoords="offset points"
        )  # the legend's key
    ax.set_xlabel("labels changed, text only → misleading image (%),\nexplicit arm (lower is better)")
    ax.set_ylabel("changes toward the image's sense (%)")
    ax.set_ylim(0, 100)
    readable(ax)
    legend_below(fig, handles, [h.get_label() for h in handles])
    if len(handles) == 1:
        ax.text(0.5, 0.5, "no rows yet", ha="center", va="center", transform=ax.transAxes)
    return fig
