"""The comparison's files: ``compare.json``, ``compare.md`` and the forest plot ``compare.png``.

The layout of ``compare.json`` is documented in :mod:`mmjudge.comparison`.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

from mmjudge._deps import require
from mmjudge.comparison._compare import COMPARE_VERSION, Comparison
from mmjudge.comparison._core import KeyComparison
from mmjudge.estimates import comparison_methods, interval_text, number_text
from mmjudge.stats import EXACT_MAX_CLUSTERS

__all__ = ["comparison_record", "format_difference", "summary_lines", "write_comparison"]


def comparison_record(comparison: Comparison) -> dict[str, Any]:
    """The ``compare.json`` object (see the module docstring)."""
    rows = []
    for c in comparison.comparisons:
        row = dataclasses.asdict(c)
        row["significant"] = c.significant(comparison.alpha)
        rows.append(row)
    payload = {
        "compare_version": COMPARE_VERSION,
        "benchmark": comparison.benchmark,
        "dataset_hash": comparison.dataset_hash,
        "runs": list(comparison.runs),
        "n_resamples": comparison.n_resamples,
        "seed": comparison.seed,
        "confidence": comparison.confidence,
        "correction": comparison.correction,
        "skipped": list(comparison.skipped),
        "comparisons": rows,
    }
    return dict(_finite(payload))


def format_difference(c: KeyComparison, alpha: float) -> str:
    """``"+3.10 [1.20, 5.00] p=0.004 *"`` (``*``: corrected p below ``alpha`` by a test that can reach below it,
    :meth:`KeyComparison.significant`); ``(no interval)`` in place of the interval when only the p-value is
    defined; the note when neither is.

    >>> c = KeyComparison("k", "a", "b", 60.0, 50.0, 10.0, 2.0, 18.0, 0.01, 100, 10, 1000, True, p_adjusted=0.02)
    >>> format_difference(c, 0.05)
    '+10.00 [+2.00, +18.00] p=0.02 *'
    >>> format_difference(dataclasses.replace(c, p_adjusted=1e-4), 0.05)
    '+10.00 [+2.00, +18.00] p<0.001 *'
    >>> format_difference(dataclasses.replace(c, n_clusters=5, p_adjusted=0.0625, p_floor=0.0625), 0.05)
    '+10.00 [+2.00, +18.00] p=0.0625'
    """
    if math.isnan(c.difference) or (math.isnan(c.ci_low) and math.isnan(c.p_adjusted)):
        return c.note or "undefined"
    star = " *" if c.significant(alpha) else ""
    p = _p(c.p_adjusted)
    interval = (
        "(no interval)" if math.isnan(c.ci_low) else interval_text(c.ci_low, c.ci_high, 2, style="signed")
    )
    return f"{number_text(c.difference, 2, style='signed')} {interval} p{'' if p.startswith('<') else '='}{p}{star}"


def summary_lines(comparison: Comparison) -> list[str]:
    """The compact terminal table: one line per comparison."""
    header = f"{'key':<42} {'run':<24} {'difference [CI] Holm p':<40} McNemar p"
    lines = [header, "-" * len(header)]
    for c in comparison.comparisons:
        exact = _p(c.mcnemar.p_adjusted) if c.mcnemar else "-"
        lines.append(f"{c.key:<42} {c.a:<24} {format_difference(c, comparison.alpha):<40} {exact}")
    lines.append(f"(each run minus {comparison.runs[0]['label']}; * Holm-corrected p < {comparison.alpha:g})")
    methods = list(dict.fromkeys(c.method for c in comparison.comparisons if c.method and c.method != "none"))
    alpha = comparison.alpha  # notes that the table shows in place of a difference are not repeated below
    notes = {c.note for c in comparison.comparisons if c.note and format_difference(c, alpha) != c.note}
    return lines + [f"method: {method}" for method in methods] + [f"note: {note}" for note in sorted(notes)]


def write_comparison(comparison: Comparison, out: str | Path) -> list[Path]:
    """Write ``compare.json``, ``compare.md`` and ``compare.png`` into ``out``; returns their paths."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    json_path = folder / "compare.json"
    text = json.dumps(comparison_record(comparison), indent=2, allow_nan=False)
    json_path.write_text(text + "\n", encoding="utf-8")
    png = _plot(comparison, folder / "compare.png")
    md = folder / "compare.md"
    md.write_text(_markdown(comparison, png.name), encoding="utf-8")
    return [md, json_path, png]


def _markdown(comparison: Comparison, png: str) -> str:
    base = comparison.runs[0]["label"]
    lines = [
        f"# Paired comparison on {comparison.benchmark}",
        "",
        f"Each run minus the baseline **{base}**, on the same {comparison.benchmark} items (dataset hash "
        f"`{comparison.dataset_hash}`). {comparison.confidence:.0%} intervals and p-values: "
        f"{comparison_methods()} ({comparison.n_resamples} resamples or drawn flips, seed {comparison.seed}; the "
        f"sign-flip test is exact up to {EXACT_MAX_CLUSTERS} clusters that differ, and its p cannot go below "
        "2 / 2^clusters; its interval holds 0 exactly when its p is at least alpha). The "
        f"method column says which. p: Holm-corrected over the {len(comparison.comparisons)} comparisons; "
        "McNemar: exact test on the per-unit 0/1 outcomes the rate counts (Holm-corrected; it takes the units "
        f"as independent), where the key is such a rate. * : corrected p < {comparison.alpha:g}.",
        "",
        "| key | run | value | baseline | difference [CI] | p (raw) | McNemar p | units / clusters | method | note |",
        "|---|---|---:|---:|---|---:|---:|---:|---|---|",
    ]
    for c in comparison.comparisons:
        exact = f"{_p(c.mcnemar.p_adjusted)} ({c.mcnemar.only_a}:{c.mcnemar.only_b})" if c.mcnemar else "-"
        lines.append(
            f"| {c.key} | {c.a} | {_num(c.value_a)} | {_num(c.value_b)} | {format_difference(c, comparison.alpha)} "
            f"| {_p(c.p_value)} | {exact} | {c.n_units} / {c.n_clusters} | {c.method} | {c.note} |"
        )
    lines += [
        "",
        "McNemar (a:b): the discordant units, counted by the rate in the run only : in the baseline only "
        "(a correct answer for accuracies, a changed label for change rates).",
    ]
    if comparison.skipped:
        lines += ["", "Not compared: " + "; ".join(comparison.skipped) + "."]
    lines += ["", f"![differences]({png})", ""]
    return "\n".join(lines)


def _plot(comparison: Comparison, path: Path) -> Path:
    matplotlib = require("matplotlib", "space", purpose="the comparison's forest plot")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [c for c in comparison.comparisons if not math.isnan(c.ci_low)]
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.45 * max(1, len(shown))))
    for row, c in enumerate(shown):
        colour = "tab:red" if c.significant(comparison.alpha) else "tab:blue"
        ax.errorbar(c.difference, row, xerr=[[c.difference - c.ci_low], [c.ci_high - c.difference]], fmt="o",
                    color=colour, capsize=3)  # fmt: skip
    ax.axvline(0.0, color="grey", linewidth=1, linestyle="--")
    ax.set_yticks(range(len(shown)), [f"{c.key}\n{c.a} − {c.b}" for c in shown], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(
        f"difference with {comparison.confidence:.0%} paired CI (method per key in compare.md; red: Holm p < "
        f"{comparison.alpha:g})"
    )
    ax.set_title(f"{comparison.benchmark}: each run minus {comparison.runs[0]['label']}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _p(value: float) -> str:
    if math.isnan(value):
        return "-"
    return f"{value:.3g}" if value >= 0.001 else "<0.001"


def _num(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2f}"


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value
