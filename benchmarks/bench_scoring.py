"""Time the IsoVRBench and EmoReAlM scorers at benchmark size, bootstrap CIs included.

Goal (issue 4): scoring 8,000 IsoVRBench pairs with 10,000 bootstrap resamples in under 1 s.
As a cross-check the script also bootstraps each intervention's accuracy the straightforward way
(drawing item indices with :func:`mmjudge.stats.bootstrap_ci`) and asserts that both sets of intervals
agree to within 1 percentage point.

Run: ``.venv/bin/python benchmarks/bench_scoring.py [--pairs 8000] [--resamples 10000] [--repeats 5]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import write_results

from mmjudge.benchmarks import emorealm, isovrbench
from mmjudge.stats import bootstrap_ci


class IsoInputs(TypedDict):
    """``isovrbench.score``'s inputs (mypy checks them against its signature)."""

    intervention: list[str]
    score_chosen: np.ndarray
    score_rejected: np.ndarray
    no_judgment: np.ndarray
    pair_id: list[str]


class EmoInputs(TypedDict):
    """``emorealm.score``'s inputs."""

    predictions: list[str]
    references: list[str]
    tasks: list[str]
    choices: list[list[str]]


def isovrbench_inputs(n_pairs: int, seed: int = 0) -> IsoInputs:
    """Synthetic judge scores: ~70-95% correct per intervention, some exact ties and missing judgments."""
    rng = np.random.default_rng(seed)
    per = n_pairs // len(isovrbench.INTERVENTIONS)
    intervention = np.repeat(isovrbench.INTERVENTIONS, per).tolist()
    margin = np.repeat(np.linspace(0.5, 1.6, len(isovrbench.INTERVENTIONS)), per)
    chosen = np.round(rng.normal(margin, 1.0), 1)
    rejected = np.round(rng.normal(0.0, 1.0, size=len(intervention)), 1)
    return {
        "intervention": intervention,
        "score_chosen": chosen,
        "score_rejected": rejected,
        "no_judgment": rng.random(len(intervention)) < 0.02,
        "pair_id": [f"pair-{i}" for i in range(len(intervention))],
    }


def emorealm_inputs(n_items: int, seed: int = 0) -> EmoInputs:
    rng = np.random.default_rng(seed)
    tasks = rng.choice(emorealm.TASKS, size=n_items).tolist()
    gold = rng.choice(["A", "B"], size=n_items).tolist()
    pool = ["(A)", "B", "The answer is A.", "a sad face", "", "Answer: B"]
    return {
        "predictions": [pool[i] for i in rng.integers(0, len(pool), size=n_items)],
        "references": gold,
        "tasks": tasks,
        "choices": [["(A) Yes", "(B) No"]] * n_items,
    }


def timed(repeats: int, fn: Callable[[], Any]) -> tuple[float, float, Any]:
    times: list[float] = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=8000)
    parser.add_argument("--items", type=int, default=4000, help="EmoReAlM items")
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    iso_in = isovrbench_inputs(args.pairs)
    iso_med, iso_min, iso_result = timed(
        args.repeats, lambda: isovrbench.score(**iso_in, n_resamples=args.resamples)
    )
    assert isinstance(iso_result, dict)

    # Cross-check: the same per-intervention intervals by drawing item indices (mmjudge.stats).
    verdicts = np.array(
        isovrbench.choices_from_scores(
            iso_in["score_chosen"], iso_in["score_rejected"], no_judgment=iso_in["no_judgment"]
        )
    )
    ivs = np.array(iso_in["intervention"])

    def index_bootstrap() -> dict[str, tuple[float, float]]:
        out = {}
        for k, iv in enumerate(isovrbench.INTERVENTIONS):
            ci = bootstrap_ci(100.0 * (verdicts[ivs == iv] == "chosen"), n_resamples=args.resamples, seed=k)
            out[iv] = (ci.low, ci.high)
        return out

    ref_med, _, reference = timed(1, index_bootstrap)
    assert isinstance(reference, dict)
    worst = max(
        max(abs(iso_result[f"accuracy/{iv}_ci_low"] - lo), abs(iso_result[f"accuracy/{iv}_ci_high"] - hi))
        for iv, (lo, hi) in reference.items()
    )
    assert worst <= 1.0, f"stratified binomial and index bootstrap disagree by {worst:.2f} points"

    emo_in = emorealm_inputs(args.items)
    emo_med, emo_min, _ = timed(args.repeats, lambda: emorealm.score(**emo_in, n_resamples=args.resamples))

    rows = [
        {
            "scorer": f"isovrbench.score ({args.pairs} pairs, all keys + CIs)",
            "resamples": args.resamples,
            "median_s": iso_med,
            "min_s": iso_min,
            "goal": "< 1 s",
        },
        {
            "scorer": "cross-check: per-intervention bootstrap_ci by index draws (8 CIs only)",
            "resamples": args.resamples,
            "median_s": ref_med,
            "min_s": ref_med,
            "goal": f"CI endpoints within 1 point (worst {worst:.2f})",
        },
        {
            "scorer": f"emorealm.score ({args.items} items, official matcher, CIs)",
            "resamples": args.resamples,
            "median_s": emo_med,
            "min_s": emo_min,
            "goal": "-",
        },
    ]
    for row in rows:
        print(row)
    write_results(
        "Scoring: IsoVRBench and EmoReAlM",
        rows,
        notes=(
            f"{args.repeats} repeats each (the cross-check once). IsoVRBench inputs: scores with exact ties "
            "and ~2% missing judgments; its CIs are stratified by intervention and drawn as binomial counts "
            "(the same law as drawing item indices). EmoReAlM CIs use mmjudge.stats.bootstrap_ci per task."
        ),
    )


if __name__ == "__main__":
    main()
