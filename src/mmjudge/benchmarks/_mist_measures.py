"""MIST measures over validated frames (see :mod:`mmjudge.benchmarks._mist_inputs`).

A *cell* is one (item, judge, prompt strategy) combination; measures pool cells over items, judges
and prompt strategies, as the paper does. Documented rules:

* change rate A -> B: share of cells, present under both inputs, whose label differs.
* direction: among cells whose label differs between the aligned and the misleading image (same
  arm), the share that moves toward the misleading image's sense on FF=0 ... LL=3: a literal image
  pulls toward LL (code rises), a figurative image toward FF (code falls). The misleading image shows
  the sense the sentence does not use, so for a figurative sentence "toward" is a rise. Chance 50%.
  NaN with ``n_changed = 0`` when no label differs.
* drift: mean of code(image) - code(text only) (positive = toward LL). Its point estimate is the mean
  over items of each item's mean shift (the cell mean when every item has the same number of cells,
  as in the full grid); CIs resample items.
* trio majority: the most frequent human label of the item; a tie (e.g. a three-way split) goes to
  the lower median of the item's ordinal codes (the middle label of three).
"""

from __future__ import annotations

import math
import warnings
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from mmjudge.benchmarks._mist_inputs import ARMS, CONDITIONS, IMAGE_CONDITIONS
from mmjudge.errors import SchemaError

_CELL = ["item_id", "judge", "prompt"]
_SLOTS = [("none", "none")] + [(c, a) for c in IMAGE_CONDITIONS for a in ARMS]


class Pairs(NamedTuple):
    """Cells labelled under both of two inputs."""

    item_id: np.ndarray
    """Item of each cell."""
    a: np.ndarray
    """Ordinal code under the first input."""
    b: np.ndarray
    """Ordinal code under the second input."""


def wide(judge: pd.DataFrame) -> pd.DataFrame:
    """One row per cell (item, judge, prompt), one column per (condition, arm); NaN where absent."""
    table = judge.pivot(index=_CELL, columns=["condition", "arm"], values="code")
    return table.reindex(columns=pd.MultiIndex.from_tuples(_SLOTS, names=["condition", "arm"]))


def _pair(table: pd.DataFrame, first: tuple[str, str], second: tuple[str, str]) -> Pairs:
    a, b = table[first].to_numpy(), table[second].to_numpy()
    both = ~(np.isnan(a) | np.isnan(b))
    items = table.index.get_level_values("item_id").to_numpy()
    return Pairs(items[both], a[both].astype(np.int64), b[both].astype(np.int64))


def _concat(parts: list[Pairs]) -> Pairs:
    return Pairs(*(np.concatenate(arrays) for arrays in zip(*parts, strict=True)))


def _rate(pairs: Pairs) -> float:
    return float(np.mean(pairs.a != pairs.b)) if len(pairs.a) else math.nan


def change_rates(table: pd.DataFrame) -> dict[str, float]:
    """Change rates text-only -> aligned/misleading per arm, and the control (explicit vs silent)."""
    out: dict[str, float] = {}
    for cond in IMAGE_CONDITIONS:
        for arm in ARMS:
            pairs = _pair(table, ("none", "none"), (cond, arm))
            out[f"change_rate/none_to_{cond}/{arm}"] = _rate(pairs)
            out[f"change_rate/none_to_{cond}/{arm}/n"] = len(pairs.a)
    controls = [_pair(table, (c, "explicit"), (c, "silent")) for c in IMAGE_CONDITIONS]
    for cond, pairs in zip(IMAGE_CONDITIONS, controls, strict=True):
        out[f"change_rate/control/{cond}"] = _rate(pairs)
    both = _concat(controls)
    out["change_rate/control"] = _rate(both)
    out["change_rate/control/n"] = len(both.a)
    return out


def direction(table: pd.DataFrame, items: pd.DataFrame) -> dict[str, float]:
    """Share of aligned->misleading label changes that move toward the misleading image's sense."""
    sense = dict(zip(items["item_id"], items["sense"], strict=True))
    out: dict[str, float] = {}
    for arm in ARMS:
        pairs = _pair(table, ("aligned", arm), ("misleading", arm))
        keep = np.array([i in sense for i in pairs.item_id], dtype=bool) & (pairs.a != pairs.b)
        # the misleading image is literal for a figurative sentence: toward = the code rises
        sign = np.array([1 if sense[i] == "figurative" else -1 for i in pairs.item_id[keep]], dtype=np.int64)
        toward = np.sign(pairs.b[keep] - pairs.a[keep]) == sign
        out[f"direction/{arm}"] = float(toward.mean()) if keep.any() else math.nan
        out[f"direction/{arm}/n_changed"] = int(keep.sum())
    return out


def drift(table: pd.DataFrame, *, n_resamples: int, confidence: float, seed: int) -> dict[str, float]:
    """Mean ordinal shift text-only -> image per image condition and arm, with item-bootstrap CIs."""
    from mmjudge.stats import bootstrap_ci

    out: dict[str, float] = {}
    for cond in IMAGE_CONDITIONS:
        for arm in ARMS:
            key = f"drift/none_to_{cond}/{arm}"
            pairs = _pair(table, ("none", "none"), (cond, arm))
            if not len(pairs.a):
                out[key], out[f"{key}/ci_low"], out[f"{key}/ci_high"] = math.nan, math.nan, math.nan
                continue
            item_means = pd.Series(pairs.b - pairs.a).groupby(pairs.item_id).mean().to_numpy()
            ci: Any = bootstrap_ci(
                item_means, "mean", n_resamples=n_resamples, confidence=confidence, seed=seed
            )
            out[key], out[f"{key}/ci_low"], out[f"{key}/ci_high"] = (
                float(ci.estimate),
                float(ci.low),
                float(ci.high),
            )
    return out


def majority_label(codes: np.ndarray) -> int:
    """Most frequent code; a tie goes to the lower median code.

    >>> majority_label(np.array([0, 3, 3])), majority_label(np.array([0, 1, 3])), majority_label(np.array([3, 0]))
    (3, 1, 0)
    """
    counts = np.bincount(codes, minlength=4)
    if (counts == counts.max()).sum() == 1:
        return int(np.argmax(counts))
    return int(np.sort(codes)[(len(codes) - 1) // 2])


def trio_majority(humans: pd.DataFrame) -> pd.Series:
    """Item id -> majority code of the item's human labels."""
    return humans.groupby("item_id")["code"].agg(lambda s: majority_label(s.to_numpy()))


def agreement(judge: pd.DataFrame, humans: pd.DataFrame) -> dict[str, float]:
    """Share of judge labels equal to the trio majority, per image condition and arm."""
    majority = trio_majority(humans)
    rows = judge[judge["item_id"].isin(majority.index)]
    match = rows["code"].to_numpy() == rows["item_id"].map(majority).to_numpy()
    out: dict[str, float] = {}
    for cond in CONDITIONS:
        for arm in ("none",) if cond == "none" else ARMS:
            sel = ((rows["condition"] == cond) & (rows["arm"] == arm)).to_numpy()
            key = "agreement/none" if cond == "none" else f"agreement/{cond}/{arm}"
            out[key] = float(match[sel].mean()) if sel.any() else math.nan
    return out


def kappa_by_trio(
    humans: pd.DataFrame, *, n_resamples: int, confidence: float, seed: int
) -> dict[str, float]:
    """Fleiss' kappa of each trio's labels with an item-bootstrap CI."""
    from mmjudge.stats import fleiss_kappa_ci

    out: dict[str, float] = {}
    for trio, rows in humans.groupby("trio", sort=True):
        per_item = rows.groupby("item_id")["code"].apply(list)
        sizes = per_item.map(len)
        if sizes.nunique() != 1:
            raise SchemaError(
                f"trio {trio!r}: Fleiss' kappa needs the same number of labels per item, got counts "
                f"{sorted(set(sizes))}; drop the items with missing labels"
            )
        ratings = np.array(per_item.tolist(), dtype=np.int64)
        ci: Any = fleiss_kappa_ci(ratings, n_resamples=n_resamples, seed=seed, confidence=confidence)
        out[f"kappa/{trio}"] = float(ci.estimate)
        out[f"kappa/{trio}/ci_low"], out[f"kappa/{trio}/ci_high"] = float(ci.low), float(ci.high)
        out[f"kappa/{trio}/n_items"] = len(per_item)
    return out


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
    """Alt-test per trio, scoring (ACC, MAE), prompt strategy and arm, on the condition the trio saw."""
    from mmjudge.stats import alt_test

    matched = judge.merge(items[["item_id", "human_condition"]], on="item_id")
    matched = matched[matched["condition"] == matched["human_condition"]]
    out: dict[str, Any] = {}
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
        for (prompt, arm), jrows in mine.groupby(["prompt", "arm"], sort=True):
            labels = dict(zip(jrows["item_id"], jrows["code"].astype(float), strict=True))
            if not _any_annotator_qualifies(
                labels, annotators, min_humans_per_instance, min_instances_per_human
            ):
                warnings.warn(
                    f"alt-test for trio {trio!r}, prompt {prompt!r}, arm {arm!r} skipped: no annotator has "
                    f"{min_instances_per_human} items with a judge label and >= {min_humans_per_instance} human labels",
                    stacklevel=2,
                )
                continue
            for short, scoring in (("acc", "accuracy"), ("mae", "neg_mae")):
                res: Any = alt_test(
                    labels, annotators, scoring=scoring, epsilon=epsilons[trio], q=q,
                    min_humans_per_instance=min_humans_per_instance, min_instances_per_human=min_instances_per_human,
                )  # fmt: skip
                prefix = f"alt_test/{trio}/{short}/{prompt}/{arm}"
                out[f"{prefix}/winning_rate"] = float(res.winning_rate)
                out[f"{prefix}/advantage_probability"] = float(res.advantage_probability)
                out[f"{prefix}/passed"] = bool(res.passed)
    return out


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
