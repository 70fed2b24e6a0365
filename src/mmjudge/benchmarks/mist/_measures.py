"""MIST measures over validated frames (see :mod:`mmjudge.benchmarks.mist._inputs`).

A *cell* is one (item, judge, prompt strategy) combination; measures pool cells over items, judges
and prompt strategies, as the paper does. Rates are percentages (0-100) over the per-cell outcomes
(:func:`cell_outcomes`), whose cluster is the item: the cells of one item (its prompts, its judges) are
left out together, so every rate gets the Wilson score interval on the effective sample size of the
delete-one-item jackknife with a t quantile (the Wilson score interval over the cells only when each item
has one cell of the rate; none with fewer than 5 items). Documented rules:

* change rate A -> B: share of cells, present under both inputs, whose label differs. In strict mode a
  cell without a label (``no_judgment``) under either input counts as changed.
* direction: among cells whose label differs between the aligned and the misleading image (same
  arm), the share that moves toward the misleading image's sense on FF=0 ... LL=3: a literal image
  pulls toward LL (code rises), a figurative image toward FF (code falls). The misleading image shows
  the sense the sentence does not use, so for a figurative sentence "toward" is a rise. Chance 50%.
  NaN with ``n_changed = 0`` when no label differs. ``direction/<arm>`` pools every changed cell (the
  paper's running text, 37% over 13 judges); with several judges ``direction/<arm>/mean_over_judges``
  is the mean of the own rates of the judges that change at least one label (the paper's Table 6 mean
  row, 34), with its jackknife interval over items.
* trio majority: the most frequent human label of the item; a tie (e.g. a three-way split) goes to
  the lower median of the item's ordinal codes (the middle label of three).

The drift decomposition is in :mod:`mmjudge.benchmarks.mist._drift`, the alt-tests in
:mod:`mmjudge.benchmarks.mist._alt_test`.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from mmjudge.benchmarks._intervals import outcome_keys
from mmjudge.benchmarks.mist._drift import item_record
from mmjudge.benchmarks.mist._inputs import ARMS, CONDITIONS, IMAGE_CONDITIONS, NO_LABEL
from mmjudge.errors import SchemaError
from mmjudge.estimates import MIN_CLUSTERS, interval_keys, thin_note, with_its_interval
from mmjudge.stats import Metric, Outcomes, Ratio, fleiss_kappa, fleiss_kappa_jackknife, mean_interval

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


def cell_outcomes(scored: pd.DataFrame, labelled: pd.DataFrame, items: pd.DataFrame | None,
                   majority: pd.Series | None) -> tuple[Outcomes, dict[str, Metric]]:  # fmt: skip
    """One unit per cell (item, judge, prompt), clustered by item: the change, direction and agreement
    outcomes of every slot, and the metric of each rate key over them."""
    table, lab = wide(scored), wide(labelled)
    lab = lab.reindex(table.index)
    items_of = table.index.get_level_values("item_id").to_numpy()
    columns: dict[str, np.ndarray] = {}
    metrics: dict[str, Metric] = {}

    def add(key: str, num: np.ndarray, den: np.ndarray) -> None:
        columns[f"{key}#num"], columns[f"{key}#den"] = num.astype(np.float64), den.astype(np.float64)
        metrics[key] = Ratio(f"{key}#num", f"{key}#den", share_first=True)

    def change(
        frame: pd.DataFrame, first: tuple[str, str], second: tuple[str, str]
    ) -> tuple[np.ndarray, np.ndarray]:
        a, b = frame[first].to_numpy(), frame[second].to_numpy()
        both = ~(np.isnan(a) | np.isnan(b))
        moved = both & ((a != b) | (a == NO_LABEL) | (b == NO_LABEL))
        return moved, both

    for cond in IMAGE_CONDITIONS:
        for arm in ARMS:
            add(f"change_rate/none_to_{cond}/{arm}", *change(table, ("none", "none"), (cond, arm)))
    control_num, control_den = np.zeros(len(table)), np.zeros(len(table))
    for cond in IMAGE_CONDITIONS:
        num, den = change(table, (cond, "explicit"), (cond, "silent"))
        add(f"change_rate/control/{cond}", num, den)
        control_num, control_den = control_num + num, control_den + den
    add("change_rate/control", control_num, control_den)
    if items is not None:
        sense = dict(zip(items["item_id"], items["sense"], strict=True))
        known = np.array([i in sense for i in items_of], dtype=bool)
        # the misleading image is literal for a figurative sentence: toward = the code rises
        sign = np.array([1 if sense.get(i) == "figurative" else -1 for i in items_of], dtype=np.float64)
        for arm in ARMS:
            a, b = lab[("aligned", arm)].to_numpy(), lab[("misleading", arm)].to_numpy()
            keep = known & ~(np.isnan(a) | np.isnan(b)) & (a != b)
            toward = keep & (np.sign(np.nan_to_num(b - a)) == sign)
            add(f"direction/{arm}", toward, keep)
    if majority is not None:
        gold = pd.Series(items_of).map(majority).to_numpy(dtype=np.float64)
        for cond in CONDITIONS:
            for arm in ("none",) if cond == "none" else ARMS:
                code = table[(cond, arm)].to_numpy()
                present = ~np.isnan(code) & ~np.isnan(gold)
                key = "agreement/none" if cond == "none" else f"agreement/{cond}/{arm}"
                add(key, present & (code == gold), present)
    units = tuple("::".join(map(str, cell)) for cell in table.index)
    return Outcomes(
        units, tuple(str(i) for i in items_of), columns, unit="cell", cluster_name="item"
    ), metrics


def outcome_scores(
    scored: pd.DataFrame,
    labelled: pd.DataFrame,
    items: pd.DataFrame | None,
    humans: pd.DataFrame | None,
    *,
    n_resamples: int,
    confidence: float,
    seed: int,
) -> tuple[dict[str, Any], dict[str, dict[str, Any]], Outcomes, dict[str, Metric]]:
    """Change rates, direction and agreement (with their counts) from the cell outcomes, clustered by item.

    Cells of one item share its sentence and image, so a rate's interval is the Wilson score interval on the
    effective sample size of the delete-one-item jackknife (t quantile); with one cell of the rate per item
    the cells are independent and the rate gets the Wilson score interval over the cells
    (:func:`mmjudge.benchmarks._intervals.outcome_keys`).
    """
    majority = trio_majority(humans) if humans is not None else None
    table, metrics = cell_outcomes(scored, labelled, items, majority)
    values, methods = outcome_keys(
        table, metrics, proportions=set(metrics), n_resamples=n_resamples, confidence=confidence, seed=seed
    )
    out: dict[str, Any] = {}
    for key in metrics:
        den = table.column(f"{key}#den").sum()
        if den == 0:
            out[key] = math.nan
        else:
            out.update(with_its_interval(values, key))
        if key.startswith("direction/"):
            out[f"{key}/n_changed"] = int(den)
        elif not key.startswith("change_rate/control/"):  # the per-condition controls carry no count
            out[f"{key}/n"] = int(den)
    return out, {k: v for k, v in methods.items() if k in out}, table, metrics


def changed(pairs: Pairs) -> np.ndarray:
    """Cells whose label differs between the two inputs; a cell without a label on either side counts.

    >>> changed(Pairs(np.array(["i"] * 3), np.array(["j"] * 3), np.array([0, 1, -1]), np.array([0, 2, -1])))
    array([False,  True,  True])
    """
    return (pairs.a != pairs.b) | (pairs.a == NO_LABEL) | (pairs.b == NO_LABEL)


def direction_means(
    table: pd.DataFrame,
    items: pd.DataFrame,
    *,
    n_resamples: int,
    confidence: float,
    seed: int,
    methods: dict[str, dict[str, Any]] | None = None,
) -> dict[str, float]:
    """With several judges: ``direction/<arm>/mean_over_judges``, the mean of the judges' own direction rates
    (the pooled ``direction/<arm>`` comes from the cell outcomes), with its jackknife interval over items
    (:func:`mmjudge.benchmarks._intervals.outcome_keys`: the judges are the strata of a rate averaged over
    them, the items the clusters); how it was made goes into ``methods``."""
    if table.index.get_level_values("judge").nunique() <= 1:
        return {}
    sense = dict(zip(items["item_id"], items["sense"], strict=True))
    out: dict[str, float] = {}
    for arm in ARMS:
        pairs = pair(table, ("aligned", arm), ("misleading", arm))
        keep = np.array([i in sense for i in pairs.item_id], dtype=bool) & (pairs.a != pairs.b)
        sign = np.array([1 if sense[i] == "figurative" else -1 for i in pairs.item_id[keep]], dtype=np.int64)
        toward = np.sign(pairs.b[keep] - pairs.a[keep]) == sign
        key = f"direction/{arm}/mean_over_judges"
        judges = pairs.judge[keep]
        out[f"{key}/n_judges"] = len(set(judges.tolist()))
        if not judges.size:
            out[key] = math.nan
            continue
        outcomes = Outcomes(
            tuple(str(k) for k in range(judges.size)), tuple(str(i) for i in pairs.item_id[keep]),
            {"toward": toward.astype(np.float64), "one": np.ones(judges.size)}, tuple(str(j) for j in judges),
            unit="cell", cluster_name="item",
        )  # fmt: skip
        names = tuple(sorted(set(outcomes.strata)))
        values, made = outcome_keys(outcomes, {key: Ratio("toward", "one", by_stratum=True, strata=names)},
                                    n_resamples=n_resamples, confidence=confidence, seed=seed)  # fmt: skip
        out.update(values)
        if methods is not None:
            methods.update(made)
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


def kappa_by_trio(
    humans: pd.DataFrame,
    *,
    n_resamples: int,
    confidence: float,
    seed: int,
    methods: dict[str, dict[str, Any]] | None = None,
) -> dict[str, float]:
    """Fleiss' kappa of each trio's labels with the jackknife interval over items
    (:func:`mmjudge.stats.fleiss_kappa_jackknife`, :func:`mmjudge.stats.mean_interval`; none with fewer than
    :data:`~mmjudge.estimates.MIN_CLUSTERS` items); how each interval was made goes into ``methods``.
    ``n_resamples`` and ``seed`` are not used (the jackknife draws nothing)."""

    del n_resamples, seed

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
        out[f"kappa/{trio}"] = float(fleiss_kappa(ratings))
        spread = fleiss_kappa_jackknife(ratings)
        if len(per_item) >= MIN_CLUSTERS and math.isfinite(spread.value):
            low, high, how = mean_interval(spread, confidence, (-1.0, 1.0), "item")
            out.update(interval_keys(f"kappa/{trio}", low, high))
            if methods is not None:
                methods[f"kappa/{trio}"] = item_record(len(per_item), confidence, how)
        elif methods is not None and len(per_item) < MIN_CLUSTERS:
            methods[f"kappa/{trio}"] = item_record(
                len(per_item), confidence, "none: " + thin_note(len(per_item), "item")
            )
        out[f"kappa/{trio}/n_items"] = len(per_item)
    return out
