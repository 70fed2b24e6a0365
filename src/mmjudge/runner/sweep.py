"""The summary of a frame-count sweep: ``sweep.md``, ``sweep.json`` and ``sweep.png`` in the ``--out`` root.

A sweep (``mmjudge eval --frames 4,8,16``) writes one ``frames_<n>/`` folder per count; this module puts
the counts side by side. What a sweep follows is the benchmark's (``Benchmark.present.sweep_series``, e.g.
IsoVRBench's accuracy per intervention; default: its headline keys). Every value and CI is read from
the scores each ``frames_<n>/results.json`` holds: nothing is recomputed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from mmjudge.benchmarks import SweepSeries, get_benchmark
from mmjudge.estimates import Footnotes, estimates_from, interval_caption, interval_of
from mmjudge.report import MISSING, UNDEFINED, value_text

__all__ = ["SWEEP_FILES", "SweepFiles", "SweepRun", "sweep_series", "write_sweep"]

SWEEP_FILES: tuple[str, str, str] = ("sweep.md", "sweep.json", "sweep.png")
"""The files a sweep summary writes into the output root."""


class SweepRun(NamedTuple):
    """One frame count of a sweep."""

    frames: int
    """Frame count."""
    results: Path
    """Its ``frames_<n>/results.json``."""
    scores: Mapping[str, Any]
    """The scores written there."""


class SweepFiles(NamedTuple):
    """The written summary."""

    markdown: Path
    """``sweep.md``: one row per series, one column per frame count, values with CIs."""
    json: Path
    """``sweep.json``: the same numbers, machine-readable."""
    plot: Path
    """``sweep.png``: each series against the frame count, with its CI band."""


def sweep_series(benchmark: str, runs: Sequence[SweepRun]) -> list[SweepSeries]:
    """The series the benchmark follows over the runs (union over the counts, first-seen order).

    >>> sweep_series("emorealm", [SweepRun(8, Path("r.json"), {"overall": 50.0})])
    [SweepSeries(label='overall', key='overall', aggregate=False)]
    """
    spec = get_benchmark(benchmark)
    found: dict[str, SweepSeries] = {}
    for run in runs:
        declared = spec.present.sweep_series(run.scores) if spec.present.sweep_series is not None else ()
        for series in declared or [SweepSeries(key, key) for key in spec.metrics.headline]:
            found.setdefault(series.key, series)
    return list(found.values())


def write_sweep(out_dir: str | Path, benchmark: str, judge: str, runs: Sequence[SweepRun]) -> SweepFiles:
    """Write ``sweep.md``, ``sweep.json`` and ``sweep.png`` into ``out_dir``; returns their paths.

    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp())
    >>> runs = [SweepRun(n, out / f"frames_{n}" / "results.json", {"overall": v}) for n, v in ((8, 40.0), (4, 30.0))]
    >>> files = write_sweep(out, "emorealm", "random", runs)
    >>> json.loads(files.json.read_text())["series"][0]["points"][0]
    {'frames': 4, 'value': 30.0, 'ci_low': None, 'ci_high': None}
    """
    out = Path(out_dir)
    runs = sorted(runs, key=lambda r: r.frames)
    series = sweep_series(benchmark, runs)
    payload = _payload(out, benchmark, judge, runs, series)
    json_path = out / SWEEP_FILES[1]
    json_path.write_text(json.dumps(payload, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    plot = _plot(out / SWEEP_FILES[2], benchmark, judge, payload, [s.aggregate for s in series])
    markdown = out / SWEEP_FILES[0]
    markdown.write_text(_markdown(benchmark, judge, runs, series, plot), encoding="utf-8")
    return SweepFiles(markdown, json_path, plot)


def _number(scores: Mapping[str, Any], key: str) -> float | None:
    value = scores.get(key)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        return None  # strict JSON, as results.json stores NaN and infinities
    return float(value)


def _payload(
    out: Path, benchmark: str, judge: str, runs: Sequence[SweepRun], series: Sequence[SweepSeries]
) -> dict[str, Any]:
    return {
        "benchmark": benchmark,
        "judge": judge,
        "frames": [r.frames for r in runs],
        "results": {str(r.frames): _relative(r.results, out) for r in runs},
        "series": [
            {
                "label": s.label,
                "key": s.key,
                "points": [
                    _point(r.frames, r.scores, s.key)
                    for r in runs
                ],
            }
            for s in series
        ],
    }


def _point(frames: int, scores: Mapping[str, Any], key: str) -> dict[str, Any]:
    low, high = interval_of(scores, key) or (None, None)
    return {"frames": frames, "value": _number(scores, key), "ci_low": low, "ci_high": high}


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _markdown(
    benchmark: str, judge: str, runs: Sequence[SweepRun], series: Sequence[SweepSeries], plot: Path
) -> str:
    header = ["series", "key", *(f"{r.frames} frames" for r in runs)]
    lines = [
        f"# {benchmark}: {judge}, frame-count sweep",
        "",
        f"Each column is one frame count, scored in `frames_<n>/results.json`; values with their interval "
        f"as `value [low, high]` ({MISSING}: not in the results, {UNDEFINED}: undefined; a mark: the interval "
        "is thin or withheld, see below the table).",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    estimates = [estimates_from(r.scores) for r in runs]
    notes = Footnotes()
    for s in series:
        values = [_marked(r.scores, s.key, e, notes) for r, e in zip(runs, estimates, strict=True)]
        lines.append("| " + " | ".join([s.label, f"`{s.key}`", *values]) + " |")
    keys = [s.key for s in series]
    captions = {r.frames: interval_caption(e, keys) for r, e in zip(runs, estimates, strict=True)}
    if len(set(captions.values())) == 1:
        lines += ["", next(iter(captions.values()))] if any(captions.values()) else []
    else:  # one line each (two trailing spaces: a markdown line break)
        lines += ["", *(f"{n} frames: {text}  " for n, text in captions.items())]
    lines += ["", "; ".join(notes.lines())] if notes.lines() else []
    lines += ["", f"![{benchmark} frame-count sweep]({plot.name})", ""]
    lines.append(
        "The plot has one panel per series (black: an aggregate such as the average); the band is its stored interval."
    )
    return "\n".join(lines) + "\n"


def _marked(scores: Mapping[str, Any], key: str, estimates: Mapping[str, Any], notes: Footnotes) -> str:
    text = value_text(scores, key)
    return text if text in (MISSING, UNDEFINED) else text + notes.mark(estimates.get(key))


def _plot(
    path: Path, benchmark: str, judge: str, payload: Mapping[str, Any], aggregate: Sequence[bool]
) -> Path:
    """One small panel per series (value and CI band against the frame count), on shared axes."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    series = payload["series"]
    ncols = min(3, max(1, len(series)))
    nrows = max(1, math.ceil(len(series) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 2.4 * nrows + 0.5), dpi=100,
                             sharex=True, sharey=True, squeeze=False)  # fmt: skip
    for ax, one, bold in zip(axes.flat, series, aggregate, strict=False):
        _panel(ax, one, "black" if bold else "#4c72b0")
    for ax in list(axes.flat)[len(series) :]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xscale("log", base=2)
        ax.set_xticks(payload["frames"], [str(f) for f in payload["frames"]])
        ax.minorticks_off()
        ax.set_xlabel("frames per clip", fontsize=8)
    for row in axes:
        row[0].set_ylabel("score", fontsize=8)
    fig.suptitle(f"{benchmark}: {judge}, score per frame count (band: the stored interval)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def _panel(ax: Any, series: Mapping[str, Any], color: str) -> None:
    points = [p for p in series["points"] if p["value"] is not None]
    ax.set_title(series["label"], fontsize=9)
    ax.grid(alpha=0.3)
    ax.tick_params(labelsize=7)
    if not points:
        ax.text(0.5, 0.5, "no value", ha="center", va="center", transform=ax.transAxes, fontsize=8)
        return
    ax.plot([p["frames"] for p in points], [p["value"] for p in points], marker="o", markersize=4,
            color=color, linewidth=1.8)  # fmt: skip
    band = [p for p in points if p["ci_low"] is not None and p["ci_high"] is not None]
    if band:
        ax.fill_between([p["frames"] for p in band], [p["ci_low"] for p in band], [p["ci_high"] for p in band],
                        color=color, alpha=0.18, linewidth=0)  # fmt: skip
