"""MIST on the leaderboard: change rates, direction, agreement and alt-tests; Table 6's two axes as a figure.

The headline (the rows' ranking) is the change rate text-only -> misleading image in the explicit arm,
Table 6's first column, the same key the report leads with (``BENCHMARK.headline``). The figure plots
that change rate against the direction (explicit arm), published judges grey, verified ones coloured
with their intervals; chance at 50%.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._base import BoardRow, Column, View
from mmjudge.benchmarks._figures import board_figure, row_label, row_value, split_rows, whisker

__all__ = ["HEADLINE", "VIEWS", "figure"]

HEADLINE: tuple[str, ...] = (
    "change_rate/none_to_misleading/explicit",
    "direction/explicit",
    "agreement/none",
)
"""The keys a summary shows; the first ranks the leaderboard."""

_COLUMNS: tuple[Column, ...] = (
    Column("change none→misleading (explicit)", "change_rate/none_to_misleading/explicit"),
    Column("change none→aligned (explicit)", "change_rate/none_to_aligned/explicit"),
    Column("change control", "change_rate/control"),
    Column("direction (explicit)", "direction/explicit"),
    Column("change none→misleading (silent)", "change_rate/none_to_misleading/silent"),
    Column("change none→aligned (silent)", "change_rate/none_to_aligned/silent"),
    Column("direction (silent)", "direction/silent"),
    *(
        Column(f"agreement {cell}", f"agreement/{cell}")
        for cell in ("none", "aligned/explicit", "aligned/silent", "misleading/explicit", "misleading/silent")
    ),
    *(
        Column(
            f"alt-test {trio} (explicit): passed",
            f"alt_test/{trio}/explicit/n_passed",
            text=True,
            out_of=f"alt_test/{trio}/explicit/n_tests",
        )
        for trio in ("informed", "blind")
    ),
)
VIEWS: tuple[View, ...] = (View("default", _COLUMNS),)
"""One view; ranked by :data:`HEADLINE`'s first key."""


def figure(rows: Sequence[BoardRow]) -> Any:
    """The tab's figure (see the module docstring)."""
    published, verified = split_rows(rows)
    x_key, y_key = HEADLINE[0], HEADLINE[1]
    fig = board_figure()
    ax = fig.add_subplot()
    points = [(r, row_value(r, x_key), row_value(r, y_key)) for r in published]
    shown = [(r, x, y) for r, x, y in points if x is not None and y is not None]
    if shown:
        ax.scatter(
            [x for _, x, _ in shown],
            [y for _, _, y in shown],
            color="grey",
            s=18,
            label="published (Table 6)",
        )
        for r, x, y in shown:
            ax.annotate(
                r.judge[:12], (x, y), fontsize=6, color="grey", xytext=(2, 2), textcoords="offset points"
            )
    for sub in verified:
        vx, vy = row_value(sub, x_key), row_value(sub, y_key)
        if vx is None or vy is None:
            continue
        ax.errorbar([vx], [vy], xerr=[[v] for v in whisker(sub, x_key)], yerr=[[v] for v in whisker(sub, y_key)],
                    fmt="o", capsize=2, label=row_label(sub))  # fmt: skip
    ax.axhline(50.0, color="grey", linestyle=":", linewidth=1, label="chance")
    ax.set_xlabel("labels changed, text only → misleading image (%), explicit arm")
    ax.set_ylabel("changes toward the image's sense (%)")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper right", fontsize="x-small")
    if not shown and not verified:
        ax.text(0.5, 0.5, "no rows yet", ha="center", va="center", transform=ax.transAxes)
    return fig
