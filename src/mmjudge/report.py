"""``report.md`` and its plots for one scored prediction file (matplotlib, Agg backend).

Nothing is computed here that the scorer does not already return, except the EmoPrefer confusion
matrix, which counts the official parser's reading of each forward prediction against the gold label
(:func:`mmjudge.benchmarks.emoprefer.parse_response`). Plots:

- IsoVRBench: accuracy per intervention with its CI, the 50% chance line and the paper's human row.
- MIST: change rates (text-only -> aligned / misleading per arm, and the control) and the direction
  percentages with their 50% chance line, with the scorer's intervals.
- EmoPrefer: the 3 x 3 confusion matrix (gold rows, predicted columns).
- EmoReAlM: accuracy per task with its CI.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["ci_text", "emoprefer_confusion", "headline", "write_report"]

_HEADLINES: dict[str, tuple[str, ...]] = {
    "isovrbench": ("average",),
    "mist": ("change_rate/none_to_misleading/explicit", "direction/explicit", "agreement/none"),
    "emoprefer": ("waf_2class", "acc_3class", "swap_consistency"),
    "emorealm": ("overall",),
}
_LABELS = ("a1", "a2", "same")


def headline(benchmark: str, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The few scores a summary table shows for ``benchmark`` (those present).

    >>> headline("emorealm", {"overall": 50.0, "n_items": 4})
    {'overall': 50.0}
    """
    return {key: scores[key] for key in _HEADLINES[benchmark] if key in scores}


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


def emoprefer_confusion(
    records: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]]
) -> list[list[int]]:
    """Counts of (gold, parsed forward prediction) over a1/a2/same; a no-judgment reads as ``same``.

    >>> emoprefer_confusion([{"name": "x", "order": "forward", "prediction": "a2 is better"}],
    ...                     [{"name": "x", "preference": "a1"}])
    [[0, 1, 0], [0, 0, 0], [0, 0, 0]]
    """
    from mmjudge.benchmarks.emoprefer import parse_response

    forward = {str(r["name"]): r for r in records if r.get("order") == "forward"}
    matrix = [[0] * 3 for _ in _LABELS]
    for row in rows:
        record = forward.get(str(row["name"]))
        if record is None:
            continue
        text = (
            "" if record.get("no_judgment") or record.get("prediction") is None else str(record["prediction"])
        )
        matrix[_LABELS.index(str(row["preference"]))][_LABELS.index(parse_response(text))] += 1
    return matrix


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
    plot, caption = _PLOTS[benchmark](folder, scores, predictions.records, rows)
    records = predictions.records
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
    lines += [
        "",
        f"![{benchmark}]({plot.name})",
        "",
        caption,
        "",
        "## All scores",
        "",
        "| key | value |",
        "|---|---|",
    ]
    lines += [f"| `{k}` | {_num(v)} |" for k, v in scores.items()]
    lines += [
        "",
        "Scores come from `mmjudge.benchmarks." + benchmark + ".score`, the core `evaluate.load("
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


def _figure(width: float = 7.0, height: float = 3.6, **kwargs: Any) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    return plt.subplots(figsize=(width, height), dpi=100, **kwargs)


def _save(fig: Any, path: Path) -> Path:
    from matplotlib import pyplot as plt

    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def _bars(ax: Any, names: Sequence[str], scores: Mapping[str, Any], prefix: str) -> None:
    keys = [f"{prefix}/{n}" for n in names]
    values = [_float(scores.get(k)) for k in keys]
    ax.bar(range(len(names)), values, yerr=_errors(scores, keys), capsize=3, color="#4c72b0", label="judge")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)


def _float(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def _isovrbench(folder: Path, scores: Mapping[str, Any], records: Any, rows: Any) -> tuple[Path, str]:
    from mmjudge.benchmarks.isovrbench import HUMAN_ACCURACY, INTERVENTIONS

    names = [n for n in INTERVENTIONS if f"accuracy/{n}" in scores]
    fig, ax = _figure()
    _bars(ax, names, scores, "accuracy")
    ax.scatter(
        range(len(names)),
        [HUMAN_ACCURACY[n] for n in names],
        color="#dd8452",
        marker="_",
        s=400,
        linewidths=3,
        label="humans (paper)",
        zorder=3,
    )
    ax.axhline(50.0, color="grey", linestyle="--", linewidth=1, label="chance")
    ax.set_ylim(0, 105)
    ax.set_ylabel("accuracy (%)")
    ax.legend(fontsize=7, loc="lower right")
    caption = (
        "Accuracy per intervention (ties and no-judgments count as wrong) with 95% Wilson intervals; "
        "dashed: chance (50%); orange: the paper's human accuracy."
    )
    return _save(fig, folder / "isovrbench_accuracy.png"), caption


def _errors(scores: Mapping[str, Any], keys: Sequence[str]) -> list[list[float]]:
    """Error-bar lengths below and above each value from its ``_ci_low``/``_ci_high`` keys (0 without)."""
    values = [_float(scores.get(k)) for k in keys]
    low = [v - _float(scores.get(f"{k}_ci_low", v)) for k, v in zip(keys, values, strict=True)]
    high = [_float(scores.get(f"{k}_ci_high", v)) - v for k, v in zip(keys, values, strict=True)]
    return [low, high]


def _mist(folder: Path, scores: Mapping[str, Any], records: Any, rows: Any) -> tuple[Path, str]:
    change = [
        k for k in scores if k.startswith("change_rate/") and not k.endswith(("/n", "_ci_low", "_ci_high"))
    ]
    direction = [k for k in ("direction/explicit", "direction/silent") if k in scores]
    fig, (left, right) = _figure(9.0, 3.8, ncols=2, gridspec_kw={"width_ratios": [3, 1]})
    left.bar(range(len(change)), [_float(scores[k]) for k in change], yerr=_errors(scores, change), capsize=3,
             color="#4c72b0")  # fmt: skip
    left.set_xticks(
        range(len(change)),
        [k.removeprefix("change_rate/") for k in change],
        rotation=30,
        ha="right",
        fontsize=7,
    )
    left.set_ylim(0, 100)
    left.set_ylabel("change rate (%)")
    right.bar(range(len(direction)), [_float(scores[k]) for k in direction], yerr=_errors(scores, direction),
              capsize=3, color="#55a868")  # fmt: skip
    right.set_xticks(range(len(direction)), [k.removeprefix("direction/") for k in direction], fontsize=8)
    right.axhline(50.0, color="grey", linestyle="--", linewidth=1)
    right.set_ylim(0, 100)
    right.set_ylabel("toward the image's sense (%)")
    caption = (
        "Left: percent of cells whose label changes from text-only to an image (per arm) and in the "
        "control; right: among changed labels, the percent moving toward the sense the image depicts "
        "(dashed: chance). Bars: 95% Wilson intervals from the scorer."
    )
    return _save(fig, folder / "mist_change_direction.png"), caption


def _emoprefer(folder: Path, scores: Mapping[str, Any], records: Any, rows: Any) -> tuple[Path, str]:
    matrix = emoprefer_confusion(records, rows)
    fig, ax = _figure(4.2, 3.6)
    ax.imshow(matrix, cmap="Blues")
    for i, row in enumerate(matrix):
        for j, count in enumerate(row):
            ax.text(j, i, str(count), ha="center", va="center")
    ax.set_xticks(range(3), _LABELS)
    ax.set_yticks(range(3), _LABELS)
    ax.set_xlabel("predicted (official parser)")
    ax.set_ylabel("gold")
    caption = (
        "Confusion matrix of the forward pairs; a no-judgment reads as `same`, as the official parser does."
    )
    return _save(fig, folder / "emoprefer_confusion.png"), caption


def _emorealm(folder: Path, scores: Mapping[str, Any], records: Any, rows: Any) -> tuple[Path, str]:
    from mmjudge.benchmarks.emorealm import TASKS

    names = [t for t in TASKS if f"accuracy/{t}" in scores]
    fig, ax = _figure()
    _bars(ax, names, scores, "accuracy")
    ax.set_ylim(0, 105)
    ax.set_ylabel("accuracy (%)")
    caption = f"Accuracy per task with 95% Wilson intervals (mode `{scores.get('mode')}`, matcher `{scores.get('matcher')}`)."
    return _save(fig, folder / "emorealm_accuracy.png"), caption


_PLOTS = {"isovrbench": _isovrbench, "mist": _mist, "emoprefer": _emoprefer, "emorealm": _emorealm}
