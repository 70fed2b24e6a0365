"""``report.md`` and its plot for one scored prediction file (matplotlib, Agg backend).

Nothing is computed here that the scorer does not already return: the headline keys are the
benchmark's (``Benchmark.headline``), the CIs the scorer's ``<key>_ci_low``/``_ci_high``, and the plot
is the benchmark's own breakdown (``Benchmark.report_plot``, e.g. IsoVRBench's accuracy per
intervention or EmoPrefer's confusion matrix).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks import get_benchmark

__all__ = ["ci_text", "headline", "write_report"]


def headline(benchmark: str, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The few scores a summary table shows for ``benchmark``: its headline keys that are present."""
    return {key: scores[key] for key in get_benchmark(benchmark).headline if key in scores}


def ci_text(scores: Mapping[str, Any], key: str) -> str:
    """``key``'s 95% CI as the scorer wrote it (``<key>_ci_low``/``_ci_high``), or ``""`` without one.

    >>> ci_text({"overall": 50.0, "overall_ci_low": 31.25, "overall_ci_high": 68.75}, "overall")
    '[31.2, 68.8]'
    """
    low, high = scores.get(f"{key}_ci_low"), scores.get(f"{key}_ci_high")
    if not isinstance(low, (int, float)) or not isinstance(high, (int, float)):
        return ""
    return f"[{_num1(low)}, {_num1(high)}]"


def _num1(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.1f}"


def write_report(
    folder: str | Path,
    benchmark: str,
    scores: Mapping[str, Any],
    predictions: Any,
    rows: Sequence[Mapping[str, Any]],
    provenance: Mapping[str, Any],
    run: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``folder/report.md`` and its PNG plots; returns the report path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    spec = get_benchmark(benchmark)
    records = predictions.records
    figure = [] if spec.report_plot is None else [spec.report_plot(folder, scores, records, rows)]
    failed = sum(bool(r.get("no_judgment")) for r in records)
    lines = [
        f"# {benchmark}: {predictions.header.judge}",
        "",
        f"- judge fingerprint `{provenance.get('fingerprint')}`, model `{provenance.get('model')}` "
        f"(revision `{provenance.get('model_revision')}`)",
        f"- dataset `{provenance.get('dataset', {}).get('folder')}` "
        f"(hash `{provenance.get('dataset', {}).get('hash')}`), mmjudge {provenance.get('mmjudge_version')}",
        f"- frames {_frames(provenance)}, seed {provenance.get('seeds', {}).get('judge')}, "
        f"swap {provenance.get('swap')}, limit {provenance.get('limit')}",
        f"- {len(records)} prediction records, {failed} without a judgment",
    ]
    if run:
        lines.append(
            f"- run: {run.get('world')} process(es), {run.get('judged')} verdicts judged, "
            f"{run.get('cached')} from the cache, {_num(run.get('wall_s'))} s wall, "
            f"{_num(run.get('judge_s'))} s in the judge"
        )
    lines += ["", "## Headline", "", "| score | value | 95% CI |", "|---|---|---|"]
    lines += [
        f"| `{k}` | {_num(v)} | {ci_text(scores, k) or '-'} |" for k, v in headline(benchmark, scores).items()
    ]
    for plot, caption in figure:
        lines += ["", f"![{benchmark}]({plot.name})", "", caption]
    lines += [
        "",
        "## All scores",
        "",
        "| key | value |",
        "|---|---|",
    ]
    lines += [f"| `{k}` | {_num(v)} |" for k, v in scores.items()]
    lines += [
        "",
        f"Scores come from `{spec.package or 'mmjudge.benchmarks.' + benchmark}.score`, the core `evaluate.load("
        f'"metrics/{benchmark}")` calls; re-score with `mmjudge score predictions.jsonl --data DIR`.',
        "",
    ]
    path = folder / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _frames(provenance: Mapping[str, Any]) -> str:
    frames = provenance.get("frames") or {}
    if frames.get("fps") is not None:
        return f"at {frames['fps']} fps"
    return str(frames.get("frames") if frames.get("frames") is not None else "judge default")


def _num(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.4g}"
    return str(value)
