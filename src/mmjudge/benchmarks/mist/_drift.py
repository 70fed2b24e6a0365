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
* the CI resamples items (the three terms with the same resamples); none for ``n_resamples=0``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mmjudge.benchmarks.mist._inputs import ARMS

SENSES: tuple[str, ...] = ("figurative", "literal")
"""Sentence types, in the paper's column order."""
TERMS: tuple[str, ...] = ("text_to_aligned", "aligned_to_misleading", "text_to_misleading")
"""The three shifts of each sentence type, in the paper's column order."""


def drift(
    table: pd.DataFrame, items: pd.DataFrame, *, n_resamples: int, confidence: float, seed: int
) -> dict[str, float]:
    """``drift/<sense>/<prompt>/<arm>/<term>`` with ``_ci_low``/``_ci_high``, and ``.../n_items``."""
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
) -> dict[str, float]:
    text = rows[("none", "none")].to_numpy()
    aligned, misleading = rows[("aligned", arm)].to_numpy(), rows[("misleading", arm)].to_numpy()
    full = ~(np.isnan(text) | np.isnan(aligned) | np.isnan(misleading))
    if not full.any():
        return {f"{prefix}/n_items": 0}
    shifts = pd.DataFrame(
        np.column_stack([aligned - text, misleading - aligned, misleading - text])[full], columns=list(TERMS)
    )
    per_item = shifts.groupby(item_ids[full]).mean().to_numpy()
    cis = _cis(prefix, per_item, n_resamples, confidence, seed) if n_resamples > 0 else {}
    out: dict[str, float] = {}
    for term, value in zip(TERMS, per_item.mean(axis=0), strict=True):
        out[f"{prefix}/{term}"] = float(value)
        out.update({k: v for k, v in cis.items() if k.startswith(f"{prefix}/{term}_ci_")})
    out[f"{prefix}/n_items"] = len(per_item)
    return out


def _cis(
    prefix: str, per_item: np.ndarray, n_resamples: int, confidence: float, seed: int
) -> dict[str, float]:
    from mmjudge.stats import bootstrap_cis

    cis: Any = bootstrap_cis(per_item, n_resamples=n_resamples, confidence=confidence, seed=seed)
    out: dict[str, float] = {}
    for term, ci in zip(TERMS, cis, strict=True):
        out[f"{prefix}/{term}_ci_low"], out[f"{prefix}/{term}_ci_high"] = float(ci.low), float(ci.high)
    return out
