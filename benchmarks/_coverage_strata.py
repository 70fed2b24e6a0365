"""IsoVRBench with very unequal intervention sizes: a design of the coverage benchmark for the means over
interventions (``average``, ``dimension_accuracy/<dim>``).

Every pair is its own cluster (independent pairs); the eight interventions hold 1,000 / 500 / 250 / 100 / 40 / 15 /
8 / 5 pairs, with rates spread evenly over 55-95%: ``up`` gives the smallest interventions the highest rates
(the 5-pair intervention at 95%, often all correct), ``down`` the lowest. A mean over interventions weighs each
intervention alike, so its spread is mostly the smallest interventions'. The population values are the rates
themselves.

Run as a script, it counts over the same replicates how often each key's interval was marked thin and why
(``interval_caveat``, what reports, the evaluate output and the leaderboard show), beside its coverage:

    python benchmarks/_coverage_strata.py --replicates 1000
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


def _scores(order: str, rng: np.random.Generator, n_resamples: int, seed: int) -> Any:
    from mmjudge.benchmarks.isovrbench.scoring import score

    iv = np.repeat(np.arange(len(SIZES)), SIZES)
    win = rng.random(iv.size) < _rates(order)[iv]
    names = np.asarray(_iso_interventions())
    return score(list(names[iv]), score_chosen=win.astype(float), score_rejected=(~win).astype(float),
                 n_resamples=n_resamples, seed=seed)  # fmt: skip


def strata_draw(order: str) -> Callable[..., dict[str, tuple[float, float]]]:
    """One run scored by IsoVRBench's public scorer, without prompts (every pair its own cluster)."""

    def draw(rng: np.random.Generator, sd: float, n_resamples: int, seed: int) -> dict[str, tuple[float, float]]:
        return _intervals(_scores(order, rng, n_resamples, seed), KEYS)

    return draw


def caveats(order: str, replicates: int, seed: int = 0) -> dict[str, tuple[float, dict[str, int]]]:
    """Per key: coverage, and how many of the replicates each caveat (``interval_caveat``) marked, on the
    replicates ``bench_coverage.py`` draws (the same ``(seed, r)`` streams)."""
    from mmjudge.estimates import estimates_from, interval_caveat

    truth = strata_truth(order)(0.0)
    hits: dict[str, int] = dict.fromkeys(KEYS, 0)
    marks: dict[str, dict[str, int]] = {k: {} for k in KEYS}
    for r in range(replicates):
        scores = _scores(order, np.random.default_rng([seed, r]), 0, r)
        estimates = estimates_from(scores)
        for key in KEYS:
            low, high = _intervals(scores, (key,))[key]
            hits[key] += bool(low <= truth[key] <= high)
            note = interval_caveat(estimates.get(key)) or "(none)"
            marks[key][note] = marks[key].get(note, 0) + 1
    return {k: (hits[k] / replicates, marks[k]) for k in KEYS}


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


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print("| design | key | replicates | coverage | caveat shown (replicates) |")
    print("|---|---|---|---|---|")
    for order in ("up", "down"):
        for key, (cov, marks) in caveats(order, args.replicates, args.seed).items():
            shown = "; ".join(f"{note} ({n})" for note, n in marks.items())
            print(f"| isovrbench_unequal_interventions_{order} | {key} | {args.replicates} | {100 * cov:.1f} | {shown} |")
