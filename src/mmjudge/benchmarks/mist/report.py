"""MIST report: the plot of change rates and direction, and the breakdown tables of the paper.

Tables: label change rates per image condition x arm and the control (Table 6), the direction of the
changes, agreement with the trio majority and each trio's kappa, the label drift per prompt and
sentence type (Table 7, one table per arm), and the alt-test verdicts per trio, slice, scoring and
prompt (Table 9). Trios, slices and prompts are the ones the scores hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._figures import bars_caption, errors, number, report_figure, save
from mmjudge.benchmarks._report_tables import BreakdownTable, TableRow, cells, label, present_segments
from mmjudge.benchmarks.mist._drift import SENSES, TERMS
from mmjudge.benchmarks.mist._inputs import ARMS, IMAGE_CONDITIONS
from mmjudge.estimates import is_ci_key

__all__ = ["plot", "tables"]


def plot(
    folder: Path, scores: Mapping[str, Any], records: Sequence[Any], rows: Sequence[Any]
) -> tuple[Path, str]:
    """Draw ``mist_change_direction.png`` into ``folder``; returns its path and caption."""
    change = [k for k in scores if k.startswith("change_rate/") and not k.endswith("/n") and not is_ci_key(k)]
    direction = [k for k in ("direction/explicit", "direction/silent") if k in scores]
    fig, (left, right) = report_figure(9.0, 3.8, ncols=2, gridspec_kw={"width_ratios": [3, 1]})
    left.bar(range(len(change)), [number(scores[k]) for k in change], yerr=errors(scores, change), capsize=3,
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
    right.bar(range(len(direction)), [number(scores[k]) for k in direction], yerr=errors(scores, direction),
              capsize=3, color="#55a868")  # fmt: skip
    right.set_xticks(range(len(direction)), [k.removeprefix("direction/") for k in direction], fontsize=8)
    right.axhline(50.0, color="grey", linestyle="--", linewidth=1)
    right.set_ylim(0, 100)
    right.set_ylabel("toward the image's sense (%)")
    caption = (
        "Left: percent of cells whose label changes from text-only to an image (per arm) and in the "
        "control; right: among changed labels, the percent moving toward the sense the image depicts "
        "(dashed: chance)." + bars_caption(scores, [*change, *direction])
    )
    return save(fig, folder / "mist_change_direction.png"), caption


def tables(scores: Mapping[str, Any]) -> tuple[BreakdownTable, ...]:
    """Change rates, control, direction, agreement and kappa, drift and alt-test tables (result keys only).

    >>> [t.title for t in tables({"kappa/blind": 0.2})][:2]
    ['Label change rates (paper Table 6)', 'Control: prompt edited, image fixed (paper Table 6)']
    """
    trios = present_segments(scores, "kappa/", 1)
    return (
        _change_rates(),
        _control(),
        _direction(),
        _agreement(trios),
        *(_drift(present_segments(scores, "drift/", 2), arm) for arm in ARMS),
        *(_alt_test(scores, trio) for trio in present_segments(scores, "alt_test/", 1)),
    )


def _change_rates() -> BreakdownTable:
    rows = [
        TableRow(
            f"text only → {cond} image",
            tuple(c for arm in ARMS for c in cells(f"change_rate/none_to_{cond}/{arm}", f"change_rate/none_to_{cond}/{arm}/n")),
        )
        for cond in IMAGE_CONDITIONS
    ]  # fmt: skip
    header = ("perturbation", *(h for arm in ARMS for h in (f"{arm} arm: changed", f"{arm} arm: n")))
    return BreakdownTable(
        "Label change rates (paper Table 6)",
        header,
        tuple(rows),
        "Percent of cells whose label changes when the image is added; n: cells labelled under both "
        "inputs. The image never decides the label, so every change is an error.",
    )


def _control() -> BreakdownTable:
    rows = [
        TableRow(f"{cond} image", (*cells(f"change_rate/control/{cond}"), label("")))
        for cond in IMAGE_CONDITIONS
    ]
    rows.append(TableRow("both images (pooled)", cells("change_rate/control", "change_rate/control/n")))
    return BreakdownTable(
        "Control: prompt edited, image fixed (paper Table 6)",
        ("image", "changed", "n"),
        tuple(rows),
        "Percent of cells whose label differs between the explicit and the silent arm, the image kept.",
    )  # fmt: skip


def _direction() -> BreakdownTable:
    rows = [TableRow(f"{arm} arm", cells(f"direction/{arm}", f"direction/{arm}/n_changed")) for arm in ARMS]
    return BreakdownTable(
        "Direction of the changes (paper Table 6)",
        ("arm", "toward the image's sense", "changed cells"),
        tuple(rows),
        "Among cells whose label differs between the aligned and the misleading image, the percent that "
        "moved toward the sense the image depicts (chance 50).",
    )


def _agreement(trios: list[str]) -> BreakdownTable:
    rows = [TableRow("text only", cells("agreement/none", "agreement/none/n"))]
    rows += [
        TableRow(f"{cond} image, {arm} arm", cells(f"agreement/{cond}/{arm}", f"agreement/{cond}/{arm}/n"))
        for cond in IMAGE_CONDITIONS
        for arm in ARMS
    ]
    rows += [
        TableRow(f"{trio} trio: Fleiss' kappa", cells(f"kappa/{trio}", f"kappa/{trio}/n_items", digits=3))
        for trio in trios
    ]
    return BreakdownTable(
        "Agreement with the human trios",
        ("judge input", "agreement / kappa", "n"),
        tuple(rows),
        "Agreement: percent of the judge's labels equal to the majority of the trio that labelled the item. "
        "Kappa: the trio's own Fleiss' kappa (-1..1), a ceiling for reading the judge's agreement, not a "
        "judge score.",
    )


def _drift(prompts: list[str], arm: str) -> BreakdownTable:
    rows = [
        TableRow(prompt, (
            *cells(*(f"drift/{sense}/{prompt}/{arm}/{term}" for sense in SENSES for term in TERMS), digits=2),
            *cells(*(f"drift/{sense}/{prompt}/{arm}/n_items" for sense in SENSES)),
        ))
        for prompt in prompts
    ]  # fmt: skip
    short = {"figurative": "fig", "literal": "lit"}
    names = {"text_to_aligned": "text→aligned", "aligned_to_misleading": "aligned→misleading",
             "text_to_misleading": "text→misleading"}  # fmt: skip
    header = ("prompt", *(f"{short[sense]}: {names[term]}" for sense in SENSES for term in TERMS),
              *(f"{short[sense]}: n" for sense in SENSES))  # fmt: skip
    return BreakdownTable(
        f"Label drift, {arm} arm (paper Table 7)",
        header,
        tuple(rows),
        "Mean signed shift on the ordinal label scale (FF=0 ... LL=3; + = toward LL) over the items of one "
        "sentence type; n: items with all three labels.",
    )


def _alt_test(scores: Mapping[str, Any], trio: str) -> BreakdownTable:
    prefix = f"alt_test/{trio}/"
    configs: dict[str, None] = {}
    for key in scores:
        parts = key.split("/")
        if key.startswith(prefix) and len(parts) == 7 and parts[6] == "winning_rate":
            configs.setdefault("/".join(parts[2:5]), None)
    fields = ("winning_rate", "advantage_probability", "passed")
    rows = [
        TableRow(config.replace("/", " / "), tuple(c for arm in ARMS for c in cells(*(f"{prefix}{config}/{arm}/{f}" for f in fields))))
        for config in configs
    ]  # fmt: skip
    for name, field in (("configurations passed", "n_passed"), ("configurations run", "n_tests")):
        rows.append(
            TableRow(
                name,
                tuple(c for arm in ARMS for c in (label(""), label(""), *cells(f"{prefix}{arm}/{field}"))),
            )
        )
    header = (
        "slice / scoring / prompt",
        *(f"{arm}: {h}" for arm in ARMS for h in ("winning rate", "advantage", "passed")),
    )
    return BreakdownTable(
        f"Alt-test against the {trio} trio (paper Table 9)",
        header,
        tuple(rows),
        "Winning rate omega and advantage probability rho (0-100); the judge passes at omega >= 50. The "
        "last two rows count the configurations passed and run per arm.",
    )  # fmt: skip
