"""MIST measures over validated frames (see :mod:`mmjudge.benchmarks.mist._inputs`).

A *cell* is one (item, judge, prompt strategy) combination; measures pool cells over items, judges
and prompt strategies, as the paper does. Rates are percentages (0-100) with Wilson intervals over
the cells they count (cells of one item share it, so these intervals are on the narrow side).
Documented rules:

* change rate A -> B: share of cells, present under both inputs, whose label differs. In strict mode a
  cell without a label (``no_judgment``) under either input counts as changed.
* direction: among cells whose label differs between the aligned and the misleading image (same
  arm), the share that moves toward the misleading image's sense on FF=0 ... LL=3: a literal image
  pulls toward LL (code rises), a figurative image toward FF (code falls). The misleading image shows
  the sense the sentence does not use, so for a figurative sentence "toward" is a rise. Chance 50%.
  NaN with ``n_changed = 0`` when no label differs. ``direction/<arm>`` pools every changed cell (the
  paper's running text, 37% over 13 judges); with several judges ``direction/<arm>/mean_over_judges``
  is the mean of the own rates of the judges that change at least one label (the paper's Table 6 mean
  row, 34), with an item bootstrap.
* trio majority: the most frequent human label of the item; a tie (e.g. a three-way split) goes to
  the lower median of the item's ordinal codes (the middle label of three).

The drift decomposition is in :mod:`mmjudge.benchmarks.mist._drift`, the alt-tests in
:mod:`mmjudge.benchmarks.mist._alt_test`.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from mmjudge.benchmarks._intervals import percentile_keys, wilson_keys
from mmjudge.benchmarks.mist._inputs import ARMS, CONDITIONS, IMAGE_CONDITIONS, NO_LABEL
from mmjudge.errors import SchemaError

CELL = ["item_id", "judge", "prompt"]
_SLOTS = [("none", "none")] + [(c, a) for c in IMAGE_CONDITIONS for a in ARMS]


class Pairs(NamedTuple):
    """Cells labelled under both of two inputs."""

    item_id: np.ndarray
    """Item of each cell."""
    judge: np.ndarray
    """Judge of each cell."""
    a: np.ndarray
    """Ordinal code under the first input."""
    b: np.ndarray
    """Ordinal code under the second input."""


def wide(judge: pd.DataFrame) -> pd.DataFrame:
    """One row per cell (item, judge, prompt), one column per (condition, arm); NaN where absent."""
    table = judge.pivot(index=CELL, columns=["condition", "arm"], values="code")
    return table.reindex(columns=pd.MultiIndex.from_tuples(_SLOTS, names=["condition", "arm"]))


def pair(table: pd.DataFrame, first: tuple[str, str], second: tuple[str, str]) -> Pairs:
    """The cells labelled under both inputs, with their codes."""
    a, b = table[first].to_numpy(), table[second].to_numpy()
    both = ~(np.isnan(a) | np.isnan(b))
    items = table.index.get_level_values("item_id").to_numpy()
    judges = table.index.get_level_values("judge").to_numpy()
    return Pairs(items[both], judges[both], a[both].astype(np.int64), b[both].astype(np.int64))


def _concat(parts: list[Pairs]) -> Pairs:
    return Pairs(*(np.concatenate(arrays) for arrays in zip(*parts, strict=True)))


def _rate(key: str, hits: np.ndarray, confidence: float) -> dict[str, float]:
    """``key`` = percent of true ``hits`` (NaN when empty) with its Wilson CI keys."""
    if hits.size == 0:
        return {key: math.nan}
    out = {key: 100.0 * float(hits.mean())}
    out.update(wilson_keys(key, int(hits.sum()), int(hits.size), confidence))
    return out


def changed(pairs: Pairs) -> np.ndarray:
    """Cells whose label differs between the two inputs; a cell without a label on either side counts.

    >>> changed(Pairs(np.array(["i"] * 3), np.array(["j"] * 3), np.array([0, 1, -1]), np.array([0, 2, -1])))
    array([False,  True,  True])
    """
    return (pairs.a != pairs.b) | (pairs.a == NO_LABEL) | (pairs.b == NO_LABEL)


def change_rates(table: pd.DataFrame, confidence: float) -> dict[str, float]:
    """Change rates text-only -> aligned/misleading per arm, and the control (explicit vs silent)."""
    out: dict[str, float] = {}
    for cond in IMAGE_CONDITIONS:
        for arm in ARMS:
            pairs = pair(table, ("none", "none"), (cond, arm))
            out.update(_rate(f"change_rate/none_to_{cond}/{arm}", changed(pairs), confidence))
            out[f"change_rate/none_to_{cond}/{arm}/n"] = len(pairs.a)
    controls = [pair(table, (c, "explicit"), (c, "silent")) for c in IMAGE_CONDITIONS]
    for cond, pairs in zip(IMAGE_CONDITIONS, controls, strict=True):
        out.update(_rate(f"change_rate/control/{cond}", changed(pairs), confidence))
    both = _concat(controls)
    out.update(_rate("change_rate/control", changed(both), confidence))
    out["change_rate/control/n"] = len(both.a)
    return out


def direction(
    table: pd.DataFrame, items: pd.DataFrame, *, n_resamples: int, confidence: float, seed: int
) -> dict[str, float]:
    """Share of aligned->misleading label changes that move toward the misleading image's sense."""
    sense = dict(zip(items["item_id"], items["sense"], strict=True))
    several = table.index.get_level_values("judge").nunique() > 1
    out: dict[str, float] = {}
    for arm in ARMS:
        pairs = pair(table, ("aligned", arm), ("misleading", arm))
        keep = np.array([i in sense for i in pairs.item_id], dtype=bool) & (pairs.a != pairs.b)
        # the misleading image is literal for a figurative sentence: toward = the code rises
        sign = np.array([1 if sense[i] == "figurative" else -1 for i in pairs.item_id[keep]], dtype=np.int64)
        toward = np.sign(pairs.b[keep] - pairs.a[keep]) == sign
        out.update(_rate(f"direction/{arm}", toward, confidence))
        out[f"direction/{arm}/n_changed"] = int(keep.sum())
        if several:
            out.update(
                _judge_mean(
                    f"direction/{arm}/mean_over_judges", pairs.item_id[keep], pairs.judge[keep], toward,
                    n_resamples=n_resamples, confidence=confidence, seed=seed,
                )
            )  # fmt: skip
    return out


def _judge_mean(
    key: str,
    item_ids: np.ndarray,
    judges: np.ndarray,
    hits: np.ndarray,
    *,
    n_resamples: int,
    confidence: float,
    seed: int,
) -> dict[str, float]:
    """Mean over judges of each judge's hit rate (percent), with a bootstrap over items.

    A resample draws items with replacement (multinomial counts of the items) and recomputes every
    judge's rate from its cells on those items; a judge without a cell in a resample is left out of
    that resample's mean.
    """
    names = sorted(set(judges.tolist()), key=str)
    out: dict[str, float] = {f"{key}/n_judges": len(names)}
    if not names:
        out[key] = math.nan
        return out
    item_list = sorted(set(item_ids.tolist()), key=str)
    row, col = {i: k for k, i in enumerate(item_list)}, {j: k for k, j in enumerate(names)}
    hit_table = np.zeros((len(item_list), len(names)))
    all_table = np.zeros((len(item_list), len(names)))
    np.add.at(all_table, ([row[i] for i in item_ids], [col[j] for j in judges]), 1.0)
    np.add.at(hit_table, ([row[i] for i in item_ids], [col[j] for j in judges]), hits.astype(float))
    out[key] = float(np.mean(100.0 * hit_table.sum(axis=0) / all_table.sum(axis=0)))
    if n_resamples > 0:
        weights = np.random.default_rng(seed).multinomial(
            len(item_list), np.full(len(item_list), 1.0 / len(item_list)), size=n_resamples
        )
        num, den = weights @ hit_table, weights @ all_table
        rates = np.divide(100.0 * num, den, out=np.full(num.shape, np.nan), where=den > 0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a resample without any changed cell
            means = np.nanmean(rates, axis=1)
        out.update(percentile_keys(key, means, confidence))
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


def agreement(judge: pd.DataFrame, humans: pd.DataFrame, confidence: float) -> dict[str, float]:
    """Percent of judge labels equal to the trio majority, per image condition and arm."""
    majority = trio_majority(humans)
    rows = judge[judge["item_id"].isin(majority.index)]
    match = rows["code"].to_numpy() == rows["item_id"].map(majority).to_numpy()
    out: dict[str, float] = {}
    for cond in CONDITIONS:
        for arm in ("none",) if cond == "none" else ARMS:
            sel = ((rows["condition"] == cond) & (rows["arm"] == arm)).to_numpy()
            key = "agreement/none" if cond == "none" else f"agreement/{cond}/{arm}"
            out.update(_rate(key, match[sel], confidence))
            out[f"{key}/n"] = int(sel.sum())
    return out


def kappa_by_trio(
    humans: pd.DataFrame, *, n_resamples: int, confidence: float, seed: int
) -> dict[str, float]:
    """Fleiss' kappa of each trio's labels with an item-bootstrap CI (none for ``n_resamples=0``)."""
    from mmjudge.stats import fleiss_kappa, fleiss_kappa_ci

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
        if n_resamples > 0:
            ci: Any = fleiss_kappa_ci(ratings, n_resamples=n_resamples, seed=seed, confidence=confidence)
            out[f"kappa/{trio}"] = float(ci.estimate)
            out[f"kappa/{trio}_ci_low"], out[f"kappa/{trio}_ci_high"] = float(ci.low), float(ci.high)
        else:
            out[f"kappa/{trio}"] = float(fleiss_kappa(ratings))
        out[f"kappa/{trio}/n_items"] = len(per_item)
    return out
