"""MIST drift with few items: the designs of the coverage benchmark for ``drift/<sense>/<prompt>/<arm>/<term>``.

A run holds ``n_items`` items, half figurative (cell T1) and half literal (T3), labelled by ``n_judges`` judges
under ``n_prompts`` prompt strategies; each (item, judge, prompt) cell is labelled text-only, then under the
aligned and the misleading image in both arms. Codes FF=0, WF=1, FL=2, LL=3. The text-only label is drawn from the
sentence type's own distribution (figurative sentences near FF, literal ones near LL); under an image the judge
keeps it, or with probability ``logistic(mu + u_item)`` (``mu`` per image and arm as in the change-rate designs,
``u_item ~ N(0, sd)`` shared by every judge and prompt) relabels from the image's distribution: the sense the
image depicts (an aligned image the sentence's, a misleading one the other). The labels of one cell are
independent given ``u_item``, so each term's population value is ``E_u[c(u)] * (E[image label] - E[text label])``
(aligned-to-misleading the difference of the two), integrated by Gauss-Hermite quadrature.

Drift reads judge labels only: the human raters of the issue's design enter kappa and the alt-test, not drift.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from _coverage import _MIST_MU, DESIGNS, Design, _add_mist_slots, _expect, _intervals, _logistic

__all__ = ["DRIFT_DESIGNS", "drift_draw", "drift_keys", "drift_truth"]

_CODES = np.arange(4.0)
_TEXT = {"figurative": (0.6, 0.25, 0.1, 0.05), "literal": (0.05, 0.1, 0.25, 0.6)}
"""Each sentence type's text-only label distribution over FF, WF, FL, LL."""
_IMAGE = {("figurative", "aligned"): (0.5, 0.3, 0.15, 0.05), ("figurative", "misleading"): (0.05, 0.1, 0.25, 0.6),
          ("literal", "aligned"): (0.05, 0.15, 0.3, 0.5), ("literal", "misleading"): (0.6, 0.25, 0.1, 0.05)}  # fmt: skip
"""The distribution a judge relabels from under an image (the sense the image depicts)."""
_PROMPTS = ("zero_shot", "cot", "few_shot", "few_shot_cot")
_SENSES = ("figurative", "literal")
_ARMS = ("explicit", "silent")


def drift_keys(n_prompts: int) -> tuple[str, ...]:
    """Every drift key of a run with ``n_prompts`` prompt strategies."""
    return tuple(f"drift/{s}/{p}/{a}/{t}" for s in _SENSES for p in _PROMPTS[:n_prompts] for a in _ARMS
                 for t in ("text_to_aligned", "aligned_to_misleading", "text_to_misleading"))  # fmt: skip


def _mean(p: tuple[float, ...]) -> float:
    return float(np.dot(p, _CODES))


def _moved(cond: str, arm: str, sd: float) -> float:
    """The probability that a judge relabels under ``cond``'s image in ``arm``, over the items' effects."""
    mu = _MIST_MU[(cond, arm)]
    return _expect(lambda u: _logistic(mu + u), sd)


def drift_truth(n_prompts: int) -> Callable[[float], dict[str, float]]:
    """The population value of every drift key at item sd ``sd`` (the same for every prompt strategy)."""

    def truth(sd: float) -> dict[str, float]:
        out: dict[str, float] = {}
        for sense in _SENSES:
            for arm in _ARMS:
                shift = {cond: _moved(cond, arm, sd) * (_mean(_IMAGE[(sense, cond)]) - _mean(_TEXT[sense]))
                         for cond in ("aligned", "misleading")}  # fmt: skip
                for prompt in _PROMPTS[:n_prompts]:
                    key = f"drift/{sense}/{prompt}/{arm}"
                    out[f"{key}/text_to_aligned"] = shift["aligned"]
                    out[f"{key}/aligned_to_misleading"] = shift["misleading"] - shift["aligned"]
                    out[f"{key}/text_to_misleading"] = shift["misleading"]
        return out

    return truth


def drift_draw(n_items: int, n_judges: int, n_prompts: int) -> Callable[..., dict[str, tuple[float, float]]]:
    """One run scored by MIST's public scorer (:func:`mmjudge.benchmarks.mist.scoring.score`)."""
    keys = drift_keys(n_prompts)

    def draw(rng: np.random.Generator, sd: float, n_resamples: int, seed: int) -> dict[str, tuple[float, float]]:
        from mmjudge.benchmarks.mist.scoring import score

        u = rng.normal(0.0, sd, n_items)
        senses = [_SENSES[i % 2] for i in range(n_items)]
        rows: dict[str, list[Any]] = {"item_ids": [], "image_conditions": [], "arms": [], "prompt_strategies": [],
                                      "predictions": [], "judges": []}  # fmt: skip
        labels = np.array(["FF", "WF", "FL", "LL"])
        for item in range(n_items):
            sense = senses[item]
            for judge in range(n_judges):
                for prompt in _PROMPTS[:n_prompts]:
                    base = int(rng.choice(4, p=_TEXT[sense]))
                    slots = [("none", "none", base)]
                    for (cond, arm), mu in _MIST_MU.items():
                        moved = rng.random() < _logistic(mu + u[item])
                        slots.append((cond, arm, int(rng.choice(4, p=_IMAGE[(sense, cond)])) if moved else base))
                    _add_mist_slots(rows, item, prompt, slots, labels, judge)
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # no human labels: the alt-test warns that it cannot run
            scores = score(item_ids=rows["item_ids"], image_conditions=rows["image_conditions"], arms=rows["arms"],
                           prompt_strategies=rows["prompt_strategies"], predictions=rows["predictions"],
                           judges=rows["judges"], meta_item_ids=[f"i{i}" for i in range(n_items)],
                           meta_cells=["T1" if s == "figurative" else "T3" for s in senses],
                           n_resamples=n_resamples, seed=seed)  # fmt: skip
        return _intervals(scores, keys)

    return draw


DRIFT_DESIGNS: dict[str, Design] = {}
for _items, _judges in ((10, 10), (16, 10), (10, 1), (16, 1), (24, 10), (32, 10), (24, 1), (32, 1), (60, 1), (64, 1)):
    DRIFT_DESIGNS[f"mist_drift_{_items}_items_{_judges}_judges"] = Design(
        f"MIST drift, {_items} items, {_judges} judge{'s' if _judges > 1 else ''}",
        f"{_items} items (half figurative, half literal) x {_judges} judge{'s' if _judges > 1 else ''} x 2 prompts x "
        "5 inputs; drift per sentence type, prompt and arm over items",
        drift_draw(_items, _judges, 2), drift_truth(2), (1.0, 2.0),
    )  # fmt: skip
DESIGNS.update(DRIFT_DESIGNS)
