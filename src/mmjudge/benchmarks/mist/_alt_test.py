"""MIST alt-tests: each trio against the judge, per slice, scoring, prompt strategy and arm.

The paper (Table 9) runs the alt-test of Calderon, Reichart and Dror (:func:`mmjudge.stats.alt_test`)
on three slices of each trio's items: ``all`` (T1-T4), ``aligned`` (T2 + T3, the items whose humans saw
the aligned image) and ``misleading`` (T1 + T4). The judge label compared with the humans' is always
the one under the image the humans saw. Scorings: ``acc`` (exact match) and ``mae`` (negative mean
absolute error on the ordinal codes). Each trio uses its own epsilon.

Keys: ``alt_test/<trio>/<slice>/<scoring>/<prompt>/<arm>/winning_rate`` and ``/advantage_probability``
(percent; a judge passes at a winning rate >= 50) and ``/passed``; then per trio and arm
``alt_test/<trio>/<arm>/n_passed`` and ``/n_tests``, the configurations (slice x scoring x prompt)
passed and run. A configuration in which no annotator keeps ``min_instances_per_human`` items is not
run; one warning lists those.
"""

from __future__ import annotations

import warnings
from typing import Any

import pandas as pd

from mmjudge.errors import SchemaError
from mmjudge.stats import alt_test

SLICES: dict[str, tuple[str, ...]] = {
    "all": ("aligned", "misleading"),
    "aligned": ("aligned",),
    "misleading": ("misleading",),
}
"""Slice -> the human image conditions whose items it holds (aligned: T2, T3; misleading: T1, T4)."""
SCORINGS: dict[str, str] = {"acc": "accuracy", "mae": "neg_mae"}
"""Short scoring name in the keys -> the :func:`mmjudge.stats.alt_test` scoring."""


def alt_tests(
    judge: pd.DataFrame,
    items: pd.DataFrame,
    humans: pd.DataFrame,
    *,
    epsilons: dict[str, float],
    q: float,
    min_humans_per_instance: int,
    min_instances_per_human: int,
) -> dict[str, Any]:
    """Every alt-test of the grid (see the module docstring)."""
    matched = judge.merge(items[["item_id", "human_condition"]], on="item_id")
    matched = matched[matched["condition"] == matched["human_condition"]]
    settings = {"q": q, "min_humans_per_instance": min_humans_per_instance,
                "min_instances_per_human": min_instances_per_human}  # fmt: skip
    out: dict[str, Any] = {}
    skipped: list[str] = []
    for trio, hrows in humans.groupby("trio", sort=True):
        if trio not in epsilons:
            raise SchemaError(
                f"no alt-test epsilon for trio {trio!r}; pass epsilons={{{trio!r}: ...}} (known: {epsilons})"
            )
        annotators = {
            ann: dict(zip(rows["item_id"], rows["code"].astype(float), strict=True))
            for ann, rows in hrows.groupby("annotator", sort=True)
        }
        mine = matched[matched["item_id"].isin(set(hrows["item_id"]))]
        tally: dict[str, list[int]] = {}
        for (prompt, arm), jrows in mine.groupby(["prompt", "arm"], sort=True):
            count = tally.setdefault(str(arm), [0, 0])
            for slice_name, conditions in SLICES.items():
                rows = jrows[jrows["human_condition"].isin(conditions)]
                labels = dict(zip(rows["item_id"], rows["code"].astype(float), strict=True))
                if not _any_annotator_qualifies(
                    labels, annotators, min_humans_per_instance, min_instances_per_human
                ):
                    skipped.append(f"{trio}/{slice_name}/{prompt}/{arm}")
                    continue
                for short, scoring in SCORINGS.items():
                    res: Any = _run(labels, annotators, scoring, epsilons[str(trio)], settings)
                    prefix = f"alt_test/{trio}/{slice_name}/{short}/{prompt}/{arm}"
                    out[f"{prefix}/winning_rate"] = 100.0 * float(res.winning_rate)
                    out[f"{prefix}/advantage_probability"] = 100.0 * float(res.advantage_probability)
                    out[f"{prefix}/passed"] = bool(res.passed)
                    count[0] += bool(res.passed)
                    count[1] += 1
        for arm, (passed, tests) in sorted(tally.items()):
            out[f"alt_test/{trio}/{arm}/n_passed"], out[f"alt_test/{trio}/{arm}/n_tests"] = passed, tests
    if skipped:
        warnings.warn(
            f"alt-test not run for {len(skipped)} (trio/slice/prompt/arm) configurations where no annotator "
            f"has {min_instances_per_human} items with a judge label and >= {min_humans_per_instance} human "
            f"labels: {skipped[:6]}{' ...' if len(skipped) > 6 else ''}",
            stacklevel=3,
        )
    return out


def _run(labels: dict[Any, float], annotators: dict[Any, dict[Any, float]], scoring: str, epsilon: float,
         settings: dict[str, Any]) -> Any:  # fmt: skip

    return alt_test(labels, annotators, scoring=scoring, epsilon=epsilon, **settings)


def _any_annotator_qualifies(
    labels: dict[Any, float], annotators: dict[Any, dict[Any, float]], min_humans: int, min_instances: int
) -> bool:
    """Whether the alt-test would keep at least one annotator (its own rule, checked up front)."""
    humans_per_item: dict[Any, int] = {}
    for items in annotators.values():
        for item in items:
            humans_per_item[item] = humans_per_item.get(item, 0) + 1
    kept = {item for item, n in humans_per_item.items() if n >= min_humans and item in labels}
    return any(len(kept.intersection(items)) >= min_instances for items in annotators.values())
