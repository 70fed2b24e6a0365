"""MIST drift: the mean ordinal shift per sentence type x prompt x arm, decomposed as the paper does.

The paper (Table 7) reports, for each judge and prompt and each sentence type (figurative / literal),
three mean signed shifts on FF=0 ... LL=3: text-only -> aligned image, aligned -> misleading image and
text-only -> misleading image. A drift pooled over sentence types is not a paper quantity: the shift an
image-follower shows has opposite signs on the two types (up on figurative sentences, whose misleading
image is literal; down on literal ones), so pooling cancels it.

Rules:

* the three terms are computed on the same cells, those labelled under all three inputs (text only,
  aligned image, misleading image, in the arm), so ``text_to_misleading = text_to_aligned +
  aligned_to_misleading`` holds exactly, as it does to rounding in the paper's table;
* the point estimate is the mean over items of each item's mean shift (with one judge and one
  prompt an item has one cell; with several judges in the table their cells are pooled per item);
* the CI is the jackknife t interval over items (:func:`mmjudge.stats.mean_interval`; the Wilson bound
  rescaled to -3..3 when every item shifts alike), none with fewer than :data:`DRIFT_MIN_ITEMS` items of the
  sentence type, nor with fewer than :data:`~mmjudge.estimates.FEW_CLUSTERS` items when each item holds one
  cell (one judge's labels: :data:`SINGLE_CELL_NOTE`); the record says why, as under
  :data:`~mmjudge.estimates.MIN_CLUSTERS`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mmjudge.benchmarks.mist._inputs import ARMS
from mmjudge.estimates import FEW_CLUSTERS, MIN_CLUSTERS, interval_keys, thin_note
from mmjudge.stats import jackknife, mean_interval

SENSES: tuple[str, ...] = ("figurative", "literal")
"""Sentence types, in the paper's column order."""
TERMS: tuple[str, ...] = ("text_to_aligned", "aligned_to_misleading", "text_to_misleading")
"""The three shifts of each sentence type, in the paper's column order."""
DRIFT_MIN_ITEMS = 12
"""Fewer items of a sentence type than this: no drift interval. An item's mean shift is a few label steps over a
few cells, skewed by items that follow the image and items that never do; over 5 and 8 items the t interval
covered as little as 88-89% on some keys (88-98% over the keys, 200 replicates) with 10 judges' labels per item,
and up to 100% (uselessly wide, mostly the no-spread bound) with one judge's (``benchmarks/_coverage_drift.py``, ``docs/performance.md``)."""
SINGLE_CELL_NOTE = (
    "each item holds one cell, whose shift is a whole number of label steps: at least 30 such items needed; on 12 "
    "and 16 its interval covered 90.7-99.8%"
)
"""Why a drift over fewer than :data:`~mmjudge.estimates.FEW_CLUSTERS` items that each hold a single cell (one
judge's labels under the key's prompt) has no interval. Each item's shift is then a whole number of label steps,
mostly 0: a sentence type whose items rarely move shows no spread (the no-spread bound, 99.8%), and one whose few
items jump by several steps is skewed (the t interval, 90.7%); with 10 judges' cells per item the same 12 and 16
items covered 92.3-96.7% (``benchmarks/_coverage_drift.py``, ``docs/performance.md``)."""


def drift(
    table: pd.DataFrame,
    items: pd.DataFrame,
    *,
    n_resamples: int,
    confidence: float,
    seed: int,
    methods: dict[str, dict[str, Any]] | None = None,
) -> dict[str, float]:
    """``drift/<sense>/<prompt>/<arm>/<term>`` with ``_ci_low``/``_ci_high``, and ``.../n_items``; how each
    interval was made goes into ``methods``."""
    sense = dict(zip(items["item_id"], items["sense"], strict=True))
    item_ids = table.index.get_level_values("item_id").to_numpy()
    prompts = table.index.get_level_values("prompt").to_numpy()
    senses = np.array([sense.get(i) for i in item_ids], dtype=object)
    out: dict[str, float] = {}
    for kind in SENSES:
        for prompt in sorted(set(prompts[senses == kind].tolist()), key=str):
            rows = (senses == kind) & (prompts == prompt)
            for arm in ARMS:
                out.update(
                    _terms(
                        f"drift/{kind}/{prompt}/{arm}",
                        table[rows],
                        item_ids[rows],
                        arm,
                        n_resamples,
                        confidence,
                        seed,
                        methods,
                    )
                )
    return out


def _terms(
    prefix: str,
    rows: pd.DataFrame,
    item_ids: np.ndarray,
    arm: str,
    n_resamples: int,
    confidence: float,
    seed: int,
    methods: dict[str, dict[str, Any]] | None = None,
) -> dict[str, float]:
    text = rows[("none", "none")].to_numpy()
    aligned, misleading = rows[("aligned", arm)].to_numpy(), rows[("misleading", arm)].to_numpy()
    full = ~(np.isnan(text) | np.isnan(aligned) | np.isnan(misleading))
    if not full.any():
        return {f"{prefix}/n_items": 0}
    shifts = pd.DataFrame(
        np.column_stack([aligned - text, misleading - aligned, misleading - text])[full], columns=list(TERMS)
    )
    grouped = shifts.groupby(item_ids[full])
    per_item = grouped.mean().to_numpy()
    single = bool(grouped.size().max() == 1)
    cis = _cis(prefix, per_item, n_resamples, confidence, seed, methods, single=single)
    out: dict[str, float] = {}
    for term, value in zip(TERMS, per_item.mean(axis=0), strict=True):
        out[f"{prefix}/{term}"] = float(value)
        out.update({k: v for k, v in cis.items() if k.startswith(f"{prefix}/{term}_ci_")})
    out[f"{prefix}/n_items"] = len(per_item)
    return out


def _cis(
    prefix: str,
    per_item: np.ndarray,
    n_resamples: int,
    confidence: float,
    seed: int,
    methods: dict[str, dict[str, Any]] | None = None,
    *,
    single: bool = False,
) -> dict[str, float]:
    """Each term's jackknife interval over items (:func:`mmjudge.stats.mean_interval`, bounds -3..3 code
    points); ``single``: each item holds one cell (:data:`SINGLE_CELL_NOTE`). ``n_resamples`` and ``seed`` are
    not used (the jackknife draws nothing)."""

    del n_resamples, seed
    out: dict[str, float] = {}
    few = few_items_note(len(per_item), single=single)
    if few:
        if methods is not None:
            why = item_record(len(per_item), confidence, "none: " + few)
            methods.update({f"{prefix}/{term}": why for term in TERMS})
        return out
    codes = np.arange(len(per_item))
    for k, term in enumerate(TERMS):
        terms = np.column_stack([per_item[:, k], np.ones(len(per_item))])
        spread = jackknife(terms, codes, _mean)
        low, high, how = mean_interval(spread, confidence, (-3.0, 3.0), "item")
        out.update(interval_keys(f"{prefix}/{term}", low, high))
        if methods is not None:
            methods[f"{prefix}/{term}"] = item_record(len(per_item), confidence, how)
    return out


def few_items_note(n_items: int, *, single: bool = False) -> str:
    """Why a drift over ``n_items`` items has no interval (``""`` from :data:`DRIFT_MIN_ITEMS` on, and from
    :data:`~mmjudge.estimates.FEW_CLUSTERS` on when each item holds one cell: ``single``); under
    :data:`~mmjudge.estimates.MIN_CLUSTERS` the general reason.

    >>> few_items_note(8)
    'no interval: 8 items (at least 12 needed for a drift: on fewer its t interval covered as little as 88%)'
    >>> few_items_note(3), few_items_note(12)
    ('no interval: 3 items (at least 5 needed)', '')
    >>> few_items_note(16, single=True)
    'no interval: 16 items (each item holds one cell, whose shift is a whole number of label steps: at least 30 such items needed; on 12 and 16 its interval covered 90.7-99.8%)'
    >>> few_items_note(30, single=True)
    ''
    """

    if n_items >= DRIFT_MIN_ITEMS:
        if single and n_items < FEW_CLUSTERS:
            return f"no interval: {n_items} items ({SINGLE_CELL_NOTE})"
        return ""
    if n_items < MIN_CLUSTERS:
        return thin_note(n_items, "item")
    return (f"no interval: {n_items} item{'' if n_items == 1 else 's'} (at least {DRIFT_MIN_ITEMS} needed for a drift: "
            "on fewer its t interval covered as little as 88%)")


def _mean(sums: np.ndarray) -> np.ndarray:
    return sums[..., 0] / sums[..., 1]


def item_record(n_items: int, confidence: float, method: str) -> dict[str, Any]:
    """How an interval over ``n_items`` independent items was made (or why it was withheld), as
    :class:`~mmjudge.benchmarks.Scores` records it; MIST's drift and kappa intervals share it."""
    return {"method": method, "n_units": n_items, "n_clusters": n_items, "unit": "item", "cluster": "item",
            "confidence": confidence}  # fmt: skip
