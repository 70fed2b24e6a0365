"""IsoVRBench with very unequal intervention sizes: a design of the coverage benchmark for the means over
interventions (``average``, ``dimension_accuracy/<dim>``).

Every pair is its own cluster (independent pairs); the eight interventions hold 1,000 / 500 / 250 / 100 / 40 / 15 /
8 / 5 pairs, with rates spread evenly over 55-95%: ``up`` gives the smallest interventions the highest rates
(the 5-pair intervention at 95%, often all correct), ``down`` the lowest. A mean over interventions weighs each
intervention alike, so its spread is mostly the smallest interventions'. The population values are the rates
themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from _coverage import DESIGNS, Design, _intervals, _iso_interventions

__all__ = ["SIZES", "STRATA_DESIGNS", "strata_draw", "strata_truth"]

SIZES = np.array([1000, 500, 250, 100, 40, 15, 8, 5])
"""Pairs per intervention, in :data:`mmjudge.benchmarks.isovrbench.scoring.INTERVENTIONS` order."""
KEYS = ("average", "dimension_accuracy/overall", "dimension_accuracy/motion")


def _rates(order: str) -> np.ndarray:
    rates = np.linspace(0.55, 0.95, len(SIZES))
    return rates if order == "up" else rates[::-1]


def strata_truth(order: str) -> Callable[[float], dict[str, float]]:
    """The population value of :data:`KEYS` (the cluster sd plays no part: the pairs are independent)."""

    def truth(sd: float) -> dict[str, float]:
        from mmjudge.benchmarks.isovrbench.scoring import DIMENSIONS

        rates = dict(zip(_iso_interventions(), 100.0 * _rates(order), strict=True))
        out = {"average": float(np.mean(list(rates.values())))}
        for dim in ("overall", "motion"):
            out[f"dimension_accuracy/{dim}"] = float(np.mean([rates[iv] for iv in DIMENSIONS[dim]]))
        return out

    return truth


def strata_draw(order: str) -> Callable[..., dict[str, tuple[float, float]]]:
    """One run scored by IsoVRBench's public scorer, without prompts (every pair its own cluster)."""

    def draw(rng: np.random.Generator, sd: float, n_resamples: int, seed: int) -> dict[str, tuple[float, float]]:
        from mmjudge.benchmarks.isovrbench.scoring import score

        iv = np.repeat(np.arange(len(SIZES)), SIZES)
        win = rng.random(iv.size) < _rates(order)[iv]
        names = np.asarray(_iso_interventions())
        scores: Any = score(list(names[iv]), score_chosen=win.astype(float), score_rejected=(~win).astype(float),
                            n_resamples=n_resamples, seed=seed)  # fmt: skip
        return _intervals(scores, KEYS)

    return draw


STRATA_DESIGNS: dict[str, Design] = {
    f"isovrbench_unequal_interventions_{order}": Design(
        f"IsoVRBench, very unequal intervention sizes, rates {'rising' if order == 'up' else 'falling'} as they shrink",
        "independent pairs; 1,000/500/250/100/40/15/8/5 pairs per intervention, rates 55-95% "
        f"({'the 5-pair intervention at 95%' if order == 'up' else 'the 5-pair intervention at 55%'})",
        strata_draw(order), strata_truth(order), (0.0,),
    )
    for order in ("up", "down")
}
DESIGNS.update(STRATA_DESIGNS)
