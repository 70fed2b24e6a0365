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
    python benchmarks/_coverage_strata.py --exact   # dimension_accuracy/overall's exact coverage, several rules
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


def _rule(name: str) -> Callable[[np.ndarray, np.ndarray], tuple[float, float]]:
    """One interval rule for a mean of the rates of independent strata (``x`` successes of ``n`` each), as
    fractions: ``scored`` is the scorer's own (``outcome_keys``); the others vary one part of it, or are Price and
    Bonett's adjusted Wald interval."""
    from scipy import stats

    from mmjudge.benchmarks._intervals import outcome_keys
    from mmjudge.stats import Outcomes, Ratio, wilson_effective

    def scored(x: np.ndarray, n: np.ndarray) -> tuple[float, float]:
        hits = np.concatenate([np.r_[np.ones(int(a)), np.zeros(int(b - a))] for a, b in zip(x, n, strict=True)])
        strata = tuple(f"s{k}" for k, b in enumerate(n) for _ in range(int(b)))
        units = tuple(str(i) for i in range(hits.size))
        o = Outcomes(units, units, {"c": hits, "one": np.ones(hits.size)}, strata, unit="pair", cluster_name="prompt")
        v, _ = outcome_keys(o, {"k": Ratio("c", "one", by_stratum=True)}, n_resamples=0, confidence=0.95, seed=0)
        return v["k_ci_low"] / 100, v["k_ci_high"] / 100

    def varied(x: np.ndarray, n: np.ndarray, *, floor: bool = True, z: bool = False, plug: bool = False) -> tuple[float, float]:
        h, a = len(n), 2.0 / len(n)
        p = x / n
        v = p * (1 - p) / (n if plug else n - 1)
        if floor:
            pt = (x + a) / (n + 2 * a)
            v = np.maximum(v, pt * (1 - pt) / (n + 2 * a))
        df = 10**7 if z else int(n.sum()) - h
        low, high = wilson_effective(100 * p.mean(), 1e4 * v.sum() / h**2, int(n.sum()), df, 0.95)
        return low / 100, high / 100

    def price_bonett(x: np.ndarray, n: np.ndarray) -> tuple[float, float]:
        a = 2.0 / len(n)
        pt = (x + a) / (n + 2 * a)
        half = float(stats.norm.ppf(0.975)) * float(np.sqrt(np.sum(pt * (1 - pt) / (n + 2 * a)))) / len(n)
        return max(0.0, pt.mean() - half), min(1.0, pt.mean() + half)

    rules: dict[str, Callable[[np.ndarray, np.ndarray], tuple[float, float]]] = {
        "scored": scored,
        "no floor": lambda x, n: varied(x, n, floor=False),
        "z": lambda x, n: varied(x, n, z=True),
        "binomial variance, floor, z": lambda x, n: varied(x, n, z=True, plug=True),
        "Price-Bonett Wald": price_bonett,
    }
    return rules[name]


def exact_coverage(sizes: tuple[int, ...], rates: tuple[float, ...], rule: str) -> tuple[float, float]:
    """The exact coverage and mean width of ``rule``'s interval for the mean of independent binomial rates (every
    outcome of the strata enumerated and weighted by its probability)."""
    import itertools

    from scipy import stats

    interval = _rule(rule)
    truth, n = float(np.mean(rates)), np.asarray(sizes, dtype=np.float64)
    covered = width = 0.0
    for x in itertools.product(*(range(k + 1) for k in sizes)):
        weight = float(np.prod(stats.binom.pmf(x, sizes, rates)))
        low, high = interval(np.asarray(x, dtype=np.float64), n)
        covered += weight * (low <= truth <= high)
        width += weight * (high - low)
    return covered, width


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--exact", action="store_true", help="dimension_accuracy/overall's exact coverage instead")
    args = parser.parse_args()
    if args.exact:
        from mmjudge.benchmarks.isovrbench.scoring import DIMENSIONS

        members = [_iso_interventions().index(iv) for iv in DIMENSIONS["overall"]]
        print("| rule | exact coverage % (up) | exact coverage % (down) | mean width (up) |")
        print("|---|---|---|---|")
        for rule in ("scored", "no floor", "z", "binomial variance, floor, z", "Price-Bonett Wald"):
            up, width = exact_coverage(tuple(SIZES[members]), tuple(_rates("up")[members]), rule)
            down, _ = exact_coverage(tuple(SIZES[members]), tuple(_rates("down")[members]), rule)
            print(f"| {rule} | {100 * up:.2f} | {100 * down:.2f} | {100 * width:.1f} |")
        raise SystemExit(0)
    print("| design | key | replicates | coverage | caveat shown (replicates) |")
    print("|---|---|---|---|---|")
    for order in ("up", "down"):
        for key, (cov, marks) in caveats(order, args.replicates, args.seed).items():
            shown = "; ".join(f"{note} ({n})" for note, n in marks.items())
            print(f"| isovrbench_unequal_interventions_{order} | {key} | {args.replicates} | {100 * cov:.1f} | {shown} |")
