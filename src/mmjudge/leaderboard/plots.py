"""One matplotlib figure per tab, drawn from stored results (no pyplot state, so nothing accumulates).

The published (``reported``) rows give the context, the ``verified`` rows are drawn over it, and every
error bar is an interval the scorer stored (or the spread over rounds a paper prints); nothing is
computed here.

* IsoVRBench, after the paper's Figure 6: per intervention, the span of the published judges'
  accuracies (a bar from the lowest to the highest, each judge a grey dot), each verified judge as a
  coloured marker with its Wilson interval, the paper's human accuracy as a star.
* MIST: change rate text-only -> misleading image against direction (explicit arm, Table 6's two
  axes), published judges grey, verified ones coloured with their intervals; chance at 50%.
* EmoPrefer: 2-class WAF per row, published grey with its ± std over rounds, verified coloured with
  its bootstrap interval.
* EmoReAlM: accuracy per task of each verified row (there are no published rows).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.leaderboard.store import StoredSubmission

__all__ = ["figure"]

MAX_VERIFIED = 12
"""Verified rows drawn (the first ones stored); the table lists all."""


def _new_figure(width: float = 9.0, height: float = 4.0) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _label(sub: StoredSubmission) -> str:
    # figures are PNG images (no HTML); '$...$' would be mathtext, so escape the dollar sign
    text = sub.judge[:28].replace("$", r"\$")
    return f"{text} ({sub.kind[0]})"


def _value(sub: StoredSubmission, key: str) -> float | None:
    value = sub.results.get(key)
    return None if value is None or isinstance(value, (str, bool)) else float(value)


def _whisker(sub: StoredSubmission, key: str) -> tuple[float, float]:
    """Error-bar lengths below and above ``key`` from the stored CI, else the stored ``_std``, else 0."""
    value = _value(sub, key) or 0.0
    low, high = _value(sub, f"{key}_ci_low"), _value(sub, f"{key}_ci_high")
    if low is not None and high is not None:
        return value - low, high - value
    std = _value(sub, f"{key}_std")
    return (std, std) if std is not None else (0.0, 0.0)


def _split(rows: Sequence[StoredSubmission]) -> tuple[list[StoredSubmission], list[StoredSubmission]]:
    published = [r for r in rows if r.kind == "reported"]
    verified = [r for r in rows if r.kind == "verified"][:MAX_VERIFIED]
    return published, verified


def _isovrbench(rows: Sequence[StoredSubmission]) -> Any:
    from mmjudge.benchmarks.isovrbench import HUMAN_ACCURACY, INTERVENTIONS

    published, verified = _split(rows)
    fig = _new_figure()
    ax = fig.add_subplot()
    for x, iv in enumerate(INTERVENTIONS):
        key = f"accuracy/{iv}"
        values = [v for v in (_value(r, key) for r in published) if v is not None]
        if values:
            ax.vlines(x, min(values), max(values), color="tab:blue", alpha=0.3, linewidth=8, gid="span",
                      label=f"span of {len(published)} published judges" if x == 0 else None)  # fmt: skip
            ax.scatter([x] * len(values), values, s=12, color="grey", zorder=3,
                       label="published judge" if x == 0 else None)  # fmt: skip
        ax.scatter([x], [HUMAN_ACCURACY[iv]], marker="*", s=140, color="tab:red", zorder=4,
                   label="human (45 pairs)" if x == 0 else None)  # fmt: skip
    for k, sub in enumerate(verified):
        shown = [(x, _value(sub, f"accuracy/{iv}"), _whisker(sub, f"accuracy/{iv}"))
                 for x, iv in enumerate(INTERVENTIONS) if _value(sub, f"accuracy/{iv}") is not None]  # fmt: skip
        if shown:
            xs, ys, err = zip(*shown, strict=True)
            ax.errorbar([x + 0.08 * (k + 1) for x in xs], ys, yerr=list(zip(*err, strict=True)), fmt="o",
                        markersize=4, capsize=2, zorder=5, label=_label(sub))  # fmt: skip
    ax.axhline(50.0, color="grey", linestyle=":", linewidth=1, label="chance")
    ax.set_xticks(
        range(len(INTERVENTIONS)), [iv.replace("_", " ") for iv in INTERVENTIONS], rotation=30, ha="right"
    )
    ax.set_ylim(0, 102)
    ax.set_ylabel("accuracy (%), ties wrong")
    ax.set_title(
        "IsoVRBench: span of the published judges (Table 2) per intervention; verified judges with 95% CIs"
    )
    ax.legend(loc="lower left", fontsize="x-small")
    return fig


def _mist(rows: Sequence[StoredSubmission]) -> Any:
    published, verified = _split(rows)
    x_key, y_key = "change_rate/none_to_misleading/explicit", "direction/explicit"
    fig = _new_figure()
    ax = fig.add_subplot()
    points = [(r, _value(r, x_key), _value(r, y_key)) for r in published]
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
        vx, vy = _value(sub, x_key), _value(sub, y_key)
        if vx is None or vy is None:
            continue
        ax.errorbar([vx], [vy], xerr=[[v] for v in _whisker(sub, x_key)], yerr=[[v] for v in _whisker(sub, y_key)],
                    fmt="o", capsize=2, label=_label(sub))  # fmt: skip
    ax.axhline(50.0, color="grey", linestyle=":", linewidth=1, label="chance")
    ax.set_xlabel("labels changed, text only → misleading image (%), explicit arm")
    ax.set_ylabel("changes toward the image's sense (%)")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper right", fontsize="x-small")
    if not shown and not verified:
        ax.text(0.5, 0.5, "no rows yet", ha="center", va="center", transform=ax.transAxes)
    return fig


def _emoprefer(rows: Sequence[StoredSubmission]) -> Any:
    published, verified = _split(rows)
    key = "waf_2class"
    values = [(r, _value(r, key)) for r in (*verified, *published)]
    entries = sorted([(r, v) for r, v in values if v is not None], key=lambda e: e[1])
    fig = _new_figure(9.0, max(3.0, 0.22 * len(entries) + 1.0))
    ax = fig.add_subplot()
    for i, (sub, value) in enumerate(entries):
        low, high = _whisker(sub, key)
        colour = "grey" if sub.kind == "reported" else "tab:blue"
        ax.barh(i, value, color=colour, xerr=[[low], [high]], capsize=2)
    ax.set_yticks(range(len(entries)), [_label(r) for r, _ in entries], fontsize=6)
    ax.axvline(50.0, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("2-class WAF (%): published (grey, ± std over rounds), verified (blue, 95% CI)")
    if not entries:
        ax.text(0.5, 0.5, "no rows yet", ha="center", va="center", transform=ax.transAxes)
    return fig


def _emorealm(rows: Sequence[StoredSubmission]) -> Any:
    from mmjudge.benchmarks.emorealm import TASKS

    _, shown = _split(rows)
    fig = _new_figure()
    ax = fig.add_subplot()
    width = 0.8 / len(TASKS)
    for k, task in enumerate(TASKS):
        key = f"accuracy/{task}"
        heights = [_value(r, key) or 0.0 for r in shown]
        errors = list(zip(*(_whisker(r, key) for r in shown), strict=True)) or None
        ax.bar(
            [i + k * width for i in range(len(shown))],
            heights,
            width=width,
            yerr=errors,
            capsize=2,
            label=task,
        )
    ax.set_xticks([i + width * (len(TASKS) - 1) / 2 for i in range(len(shown))], [_label(r) for r in shown],
                  rotation=30, ha="right")  # fmt: skip
    ax.set_ylabel("accuracy (%), 95% CI")
    ax.legend(fontsize="x-small")
    if not shown:
        ax.text(0.5, 0.5, "no rows yet", ha="center", va="center", transform=ax.transAxes)
    return fig


_FIGURES = {"isovrbench": _isovrbench, "mist": _mist, "emoprefer": _emoprefer, "emorealm": _emorealm}


def figure(benchmark: str, rows: Sequence[StoredSubmission]) -> Any:
    """The tab's figure from its visible rows (a ``matplotlib.figure.Figure``).

    >>> from mmjudge.leaderboard.store import StoredSubmission
    >>> fig = figure("emoprefer", [StoredSubmission("emoprefer", "verified", "j", "m", "u", {"waf_2class": 60.0})])
    >>> len(fig.axes)
    1
    """
    rows = [r for r in rows if r.benchmark == benchmark and not r.hidden]
    return _FIGURES[benchmark](rows)
