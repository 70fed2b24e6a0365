"""The analysis's files: ``correlate.md`` (the tables), ``correlate.json`` and ``correlate.png`` (Figure 3)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from mmjudge._atomic import write_atomic
from mmjudge._deps import require
from mmjudge.correlation._correlate import ALPHA, Correlations
from mmjudge.correlation._stats import Correlation

__all__ = ["CORRELATE_VERSION", "correlation_record", "summary_lines", "write_correlations"]

CORRELATE_VERSION = 1


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 6)


def _correlation(c: Correlation) -> dict[str, Any]:
    return {"value": _finite(c.value), "p_value": _finite(c.p_value), "ci_low": _finite(c.low),
            "ci_high": _finite(c.high), "n": c.n, "method": c.method, "note": c.note}  # fmt: skip


def correlation_record(result: Correlations) -> dict[str, Any]:
    """The ``correlate.json`` object: the columns with their sources, every ρ and r with its p-value, interval,
    method and note (strict JSON: a missing number is ``null``)."""
    a = result.analysis
    columns = [{"label": c.label, "role": role, "source": c.source, "benchmark": c.benchmark, "key": c.key,
                "values": {j: c.values[j] for j in result.judges if j in c.values}}
               for role, group in (("target", result.target), ("published", result.published)) for c in group]  # fmt: skip
    return {
        "correlate_version": CORRELATE_VERSION, "analysis": a.name, "title": a.title, "citation": a.citation,
        "judges": list(result.judges), "alpha": ALPHA, "resamples": result.resamples, "seed": result.seed,
        "columns": columns,
        "spearman": [{"benchmark": c.benchmark, "column": c.column, "judges": list(c.judges),
                      "significant": c.significant, **_correlation(c.correlation)} for c in result.spearman],
        "pearson": [{"x": c.x, "y": c.y, "without": c.without, "judges": list(c.judges), **_correlation(c.correlation)}
                    for c in result.linear],
    }  # fmt: skip


def _num(value: float | None, signed: bool = False) -> str:
    if value is None or math.isnan(value):
        return "-"
    return f"{value:+.2f}" if signed else f"{value:.1f}"


def _rho(c: Correlation, significant: bool) -> str:
    text = _num(c.value, signed=True)
    return f"**{text}**" if significant else text


def _table14(result: Correlations) -> list[str]:
    columns = [*result.published, *result.target]
    header = "| Judge | " + " | ".join(c.label for c in columns) + " |"
    lines = [header, "|---|" + "---:|" * len(columns)]
    for judge in result.judges:
        lines.append(f"| {judge} | " + " | ".join(_num(c.values.get(judge)) for c in columns) + " |")
    lines += ["", "Sources: " + "; ".join(f"{c.label}: {c.source}" + (f" (`{c.benchmark}` `{c.key}`)" if c.key else "")
                                         for c in columns)]  # fmt: skip
    return lines


def _table15(result: Correlations, intervals: bool) -> list[str]:
    labels = [t.label for t in result.target]
    lines = ["| Benchmark | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
    for published in result.published:
        cells = [c for c in result.spearman if c.benchmark == published.label]
        if intervals:
            text = [f"[{_num(c.correlation.low, True)}, {_num(c.correlation.high, True)}]" for c in cells]
        else:
            text = [_rho(c.correlation, c.significant) for c in cells]
        lines.append(f"| {published.label} | " + " | ".join(text) + " |")
    return lines


def _markdown(result: Correlations, png: str) -> str:
    a = result.analysis
    method = result.spearman[0].correlation.method if result.spearman else ""
    notes = sorted({f"{c.benchmark} × {c.column}: {c.correlation.note}" for c in result.spearman if c.correlation.note})
    lines = [f"# {a.title}", "", f"{a.citation}. Judges: {len(result.judges)}.", "",
             "## Table 14: each benchmark's number beside the target's columns", "", *_table14(result), "",
             f"## Table 15: Spearman ρ over the judges (bold: exact permutation p < {ALPHA:g})", "",
             *_table15(result, intervals=False), "",
             f"Method: {method}. The p-value asks whether the two columns are associated at all (every pairing of "
             "the judges' numbers equally likely under the null); the interval asks how much ρ depends on which "
             "judges were evaluated. They answer different questions and can disagree: read the bold mark for "
             "the test, the interval for the fragility of the ranking.", "",
             "### Intervals of Table 15", "", *_table15(result, intervals=True), ""]  # fmt: skip
    if notes:
        lines += ["Notes: " + "; ".join(notes), ""]
    if result.linear:
        lines += ["## Appendix K: Pearson r over the target's judges", "",
                  "| x | y | judges | r | p | 95% CI |", "|---|---|---|---:|---:|---|"]  # fmt: skip
        for c in result.linear:
            who = f"all {c.correlation.n}" if c.without is None else f"{c.correlation.n}, without {c.without}"
            lines.append(f"| {c.x} | {c.y} | {who} | {_num(c.correlation.value, True)} | "
                         f"{_p(c.correlation.p_value)} | [{_num(c.correlation.low, True)}, "
                         f"{_num(c.correlation.high, True)}] |")  # fmt: skip
        lines += ["", f"Method: {result.linear[0].correlation.method}.", ""]
    lines += [f"![Figure 3: each published benchmark against the target's columns]({png})", ""]
    return "\n".join(lines)


def _p(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.3g}"


def _plot(result: Correlations, path: Path) -> Path:
    matplotlib = require("matplotlib", "metrics", purpose="the correlation scatter plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plotted = [t for t in result.target if t.label in result.analysis.figure] or list(result.target[:2])
    panels = list(result.published)
    fig, axes = plt.subplots(1, max(1, len(panels)), figsize=(3.4 * max(1, len(panels)), 3.6), squeeze=False)
    markers = "os^Dv<>p"
    for ax, published in zip(axes[0], panels, strict=False):
        for k, target in enumerate(plotted):
            judges = [j for j in result.judges if j in published.values and j in target.values]
            xs, ys = [published.values[j] for j in judges], [target.values[j] for j in judges]
            cell = next(c for c in result.spearman if c.benchmark == published.label and c.column == target.label)
            ax.scatter(xs, ys, marker=markers[k % len(markers)], label=f"{target.label} (ρ {_num(cell.correlation.value, True)})")
            for j, x, y in zip(judges, xs, ys, strict=True):
                ax.annotate(j, (x, y), fontsize=5, xytext=(2, 2), textcoords="offset points")
        ax.axhline(50.0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xlabel(f"{published.label} (%)", fontsize=8)
        ax.set_ylabel(f"{result.analysis.target_label} (%)", fontsize=8)
        ax.legend(fontsize=6)
    fig.suptitle(f"{result.analysis.target_label} against published benchmarks (dashed: chance)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def write_correlations(result: Correlations, out: str | Path) -> list[Path]:
    """Write ``correlate.json``, ``correlate.md`` and ``correlate.png`` into ``out``; returns their paths."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    json_path = folder / "correlate.json"
    write_atomic(json_path, json.dumps(correlation_record(result), indent=2, allow_nan=False) + "\n")
    png = _plot(result, folder / "correlate.png")
    md = folder / "correlate.md"
    write_atomic(md, _markdown(result, png.name))
    return [md, json_path, png]


def summary_lines(result: Correlations) -> list[str]:
    """Table 15 and Appendix K as plain text (``*``: p < :data:`ALPHA`)."""
    labels = [t.label for t in result.target]
    width = max((len(p.label) for p in result.published), default=9)
    lines = [f"Spearman ρ over {len(result.judges)} judges (* exact permutation p < {ALPHA:g})",
             " " * width + "  " + "  ".join(f"{label[:13]:>13}" for label in labels)]  # fmt: skip
    for published in result.published:
        cells = [c for c in result.spearman if c.benchmark == published.label]
        text = [f"{_num(c.correlation.value, True) + ('*' if c.significant else ''):>13}" for c in cells]
        lines.append(f"{published.label:<{width}}  " + "  ".join(text))
    for c in result.linear:
        who = "all judges" if c.without is None else f"without {c.without}"
        lines.append(f"Pearson r({c.x}, {c.y}) {who}: {_num(c.correlation.value, True)} "
                     f"(p {_p(c.correlation.p_value)}, n {c.correlation.n})")  # fmt: skip
    return lines
