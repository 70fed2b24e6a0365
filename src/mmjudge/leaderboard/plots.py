"""One matplotlib figure per tab, drawn from stored results (no pyplot state, so nothing accumulates).

IsoVRBench follows the paper's Figure 6: per intervention, the span of accuracies across judges (a
vertical bar from the lowest to the highest judge), each judge as a dot, and the human accuracy as a
marker. The other tabs show the headline numbers per judge.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.leaderboard.store import StoredSubmission

__all__ = ["figure"]


def _new_figure(width: float = 9.0, height: float = 4.0) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _label(sub: StoredSubmission) -> str:
    # figures are PNG images (no HTML); '$...$' would be mathtext, so escape the dollar sign
    text = sub.judge[:28].replace("$", r"\$")
    return f"{text} ({sub.kind[0]})"


def _isovrbench(rows: Sequence[StoredSubmission]) -> Any:
    from mmjudge.benchmarks.isovrbench import HUMAN_ACCURACY, INTERVENTIONS

    fig = _new_figure()
    ax = fig.add_subplot()
    judges = [r for r in rows if r.judge != "Human"]
    for x, iv in enumerate(INTERVENTIONS):
        values = [
            float(r.results[f"accuracy/{iv}"]) for r in judges if r.results.get(f"accuracy/{iv}") is not None
        ]
        if values:
            ax.vlines(x, min(values), max(values), color="tab:blue", alpha=0.35, linewidth=8)
            ax.scatter([x] * len(values), values, s=14, color="tab:blue", zorder=3)
        ax.scatter(
            [x],
            [HUMAN_ACCURACY[iv]],
            marker="*",
            s=140,
            color="tab:red",
            zorder=4,
            label="human" if x == 0 else None,
        )
    ax.axhline(50.0, color="grey", linestyle=":", linewidth=1, label="chance")
    ax.set_xticks(
        range(len(INTERVENTIONS)), [iv.replace("_", " ") for iv in INTERVENTIONS], rotation=30, ha="right"
    )
    ax.set_ylim(0, 102)
    ax.set_ylabel("accuracy (%), ties wrong")
    ax.set_title("Span across judges per intervention (bar: min–max, dots: judges, star: human)")
    ax.legend(loc="lower left")
    return fig


def _bars(
    rows: Sequence[StoredSubmission], keys: Sequence[tuple[str, str]], ylabel: str, scale: float = 1.0
) -> Any:
    fig = _new_figure()
    ax = fig.add_subplot()
    shown = rows[:12]
    width = 0.8 / max(len(keys), 1)
    for k, (key, title) in enumerate(keys):
        heights = [float(r.results.get(key) or 0.0) * scale for r in shown]
        ax.bar([i + k * width for i in range(len(shown))], heights, width=width, label=title)
    ax.set_xticks(
        [i + width * (len(keys) - 1) / 2 for i in range(len(shown))],
        [_label(r) for r in shown],
        rotation=30,
        ha="right",
    )
    ax.set_ylabel(ylabel)
    if keys:
        ax.legend(fontsize="small")
    if not shown:
        ax.text(0.5, 0.5, "no rows yet", ha="center", va="center", transform=ax.transAxes)
    return fig


def figure(benchmark: str, rows: Sequence[StoredSubmission]) -> Any:
    """The tab's figure from its visible rows (a ``matplotlib.figure.Figure``).

    >>> from mmjudge.leaderboard.store import StoredSubmission
    >>> fig = figure("emoprefer", [StoredSubmission("emoprefer", "verified", "j", "m", "u", {"waf_2class": 60.0})])
    >>> len(fig.axes)
    1
    """
    rows = [r for r in rows if r.benchmark == benchmark and not r.hidden]
    if benchmark == "isovrbench":
        return _isovrbench(rows)
    if benchmark == "mist":
        keys = [
            (f"change_rate/none_to_{t}/{a}", f"→{t} ({a})")
            for t in ("aligned", "misleading")
            for a in ("explicit", "silent")
        ]
        return _bars(rows, keys, "change rate (%)", 100.0)
    if benchmark == "emoprefer":
        return _bars(rows, [("waf_2class", "2-class WAF"), ("waf_3class", "3-class WAF")], "WAF (%)")
    from mmjudge.benchmarks.emorealm import TASKS

    return _bars(rows, [(f"accuracy/{t}", t) for t in TASKS], "accuracy (%)")
