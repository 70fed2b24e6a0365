"""``robustness.md`` and its plots, from a validated ``robustness.json`` object (computes no statistic)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mmjudge.estimates import Estimate, Footnotes, interval_caption, interval_text, number_text

__all__ = ["write_markdown"]


def _num(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return number_text(value, 3, style="significant")
    return str(value)


def _ci(effect: Mapping[str, Any]) -> str:
    if effect.get("ci_low") is None:
        return "-"
    return f"{interval_text(effect['ci_low'], effect['ci_high'], 3, style='significant')} ({effect['interval']})"


def _effect_rows(probe: Mapping[str, Any]) -> list[str]:
    lines = ["| effect | value | unit | 95% CI | n | p | what it is |", "|---|---|---|---|---|---|---|"]
    for e in probe["effects"]:
        what = e["description"] + (f" ({e['note']})" if e["note"] else "")
        lines.append(
            f"| `{e['name']}` | {_num(e['value'])} | {e['unit'] or '-'} | {_ci(e)} | {e['n']} | "
            f"{_num(e['p_value'])} | {what} |"
        )
    return lines


def _plot_effects(folder: Path, report: Mapping[str, Any]) -> Path | None:
    """Every percentage effect with its interval, one row each (``robustness_effects.png``)."""
    shown = [
        (f"{p['name']}/{e['name']}", e)
        for p in report["probes"]
        for e in p["effects"]
        if e["unit"] == "%" and e["value"] is not None
    ]
    if not shown:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.35 * len(shown) + 1.2))
    for k, (_, e) in enumerate(shown):
        if e["ci_low"] is not None:
            ax.plot([e["ci_low"], e["ci_high"]], [k, k], color="tab:blue", lw=2)
        ax.plot([e["value"]], [k], "o", color="black")
    ax.set_yticks(range(len(shown)), [name for name, _ in shown], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(-2, 102)
    ax.set_xlabel("percent (95% CI)")
    ax.set_title(f"{report['benchmark']}: {report['judge']}")
    fig.tight_layout()
    path = folder / "robustness_effects.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _plot_frames(folder: Path, probe: Mapping[str, Any]) -> Path | None:
    table = probe["details"].get("accuracy_per_frame_count")
    if not table:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = sorted(table, key=int)
    fig, ax = plt.subplots(figsize=(5, 3.2))
    x = [int(c) for c in counts]
    y = [table[c]["accuracy"] for c in counts]
    nan = float("nan")  # no band where the scorer withheld the interval
    low = [nan if table[c]["ci_low"] is None else table[c]["ci_low"] for c in counts]
    high = [nan if table[c]["ci_high"] is None else table[c]["ci_high"] for c in counts]
    ax.fill_between(x, low, high, alpha=0.25)
    ax.plot(x, y, "o-")
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [str(v) for v in x])
    ax.set_xlabel("frames per clip")
    ax.set_ylabel("headline accuracy (%)")
    ax.set_ylim(-2, 102)
    fig.tight_layout()
    path = folder / "robustness_frames.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _headline(report: Mapping[str, Any]) -> list[str]:
    """The headline line (each score with its interval as ``report.md`` writes it, marked when thin or
    withheld), then the caption naming how each interval was made and the footnotes, from the recorded
    estimates."""
    estimates = {k: Estimate.from_json(e) for k, e in (report.get("estimates") or {}).items()}
    notes = Footnotes()
    shown = []
    for key, value in report["headline"].items():
        estimate = estimates.get(key)
        if estimate is None or value is None:
            shown.append(f"`{key}` {_num(value)}")
            continue
        low, high = estimate.low, estimate.high
        interval = f" {interval_text(low, high)}" if low is not None and high is not None else ""
        shown.append(f"`{key}` {number_text(float(value))}{interval}{notes.mark(estimate)}")
    captions = (interval_caption(estimates, report["headline"]), "; ".join(notes.lines()))
    lines = ["- headline: " + (", ".join(shown) or "-")]
    return lines + [line for text in captions if text for line in ("", text)]


def write_markdown(folder: str | Path, report: Mapping[str, Any]) -> Path:
    """Write ``folder/robustness.md`` (and its PNG plots) from a report object; returns its path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    base = report["base"]
    lines = [
        f"# Robustness: {report['judge']} on {report['benchmark']}",
        "",
        f"- judge fingerprint `{report['fingerprint']}`, dataset `{report['dataset'].get('folder')}` "
        f"(hash `{report['dataset'].get('hash')}`), mmjudge {report['mmjudge_version']}, probe seed {report['seed']}",
        f"- the benchmark's own items: {base['items']} ({base['judged']} judged, {base['cached']} from the cache)",
        *_headline(report),
        "",
        "Probes derive their items at run time and record them in `robustness.json` (`variants`); they do not "
        "change the benchmark's scoring.",
    ]
    effects_png = _plot_effects(folder, report)
    if effects_png is not None:
        lines += ["", f"![effects]({effects_png.name})"]
    for probe in report["probes"]:
        lines += ["", f"## {probe['title']} (`{probe['name']}`)", "", probe["description"], ""]
        if probe["status"] == "skipped":
            lines.append(f"Skipped: {probe['reason']}")
            continue
        cost = probe["cost"]
        lines += [f"Cost: {cost['items']} items asked, {cost['judged']} judged, {cost['cached']} from the cache.", ""]
        lines += _effect_rows(probe)
        frames_png = _plot_frames(folder, probe)
        if frames_png is not None:
            lines += ["", f"![frame count]({frames_png.name})"]
        if probe["details"]:
            lines += ["", "<details><summary>details</summary>", "", "```json",
                      json.dumps(probe["details"], indent=1), "```", "", "</details>"]  # fmt: skip
    path = folder / "robustness.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
