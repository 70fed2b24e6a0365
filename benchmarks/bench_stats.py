"""Speed of the statistics core (issue 4, performance).

Measures, on generated data:

1. the alt-test on 200 items x 3 annotators (``mmjudge.stats.alt_test``, accuracy and neg_mae)
   against a straightforward per-item Python loop of the same procedure (written out below, as
   in the authors' released notebook); goal < 50 ms and >= 10x faster than the loop; the two
   outputs are asserted equal before any timing;
2. Bradley-Terry with ties for 20 models from 100,000 comparisons: counting the comparisons
   (``pairwise_counts``) plus the fit (``bradley_terry_ties``); goal < 1 s; also the bootstrap
   CI with 1,000 resamples;
3. the percentile bootstrap of the mean of 8,000 items with 10,000 resamples (``bootstrap_ci``):
   0/1 correctness as IsoVRBench scores it (few distinct values: multinomial-count path; goal
   < 1 s) and continuous values (item-index path), and the paired bootstrap of two judges' 0/1
   correctness on the same items.

Times are medians over ``--repeats`` runs (after one warm-up run).
Run: ``.venv/bin/python benchmarks/bench_stats.py`` (writes its section of docs/performance.md).
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats as sps

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _results import write_results

from mmjudge.stats import (
    alt_test,
    bootstrap_ci,
    bradley_terry_ci,
    bradley_terry_ties,
    paired_bootstrap_diff,
    pairwise_counts,
)


def loop_alt_test(
    judge: dict[str, Any],
    humans: dict[str, dict[str, Any]],
    score: Callable[[Any, list[Any]], float],
    epsilon: float = 0.2,
    q: float = 0.05,
    min_humans: int = 2,
    min_items: int = 30,
) -> dict[str, Any]:
    """The alt-test item by item: the baseline the vectorised version must beat and equal."""
    labellers: dict[Any, list[Any]] = {}
    for annotator, labels in humans.items():
        for item in labels:
            labellers.setdefault(item, []).append(annotator)
    kept = {item for item, who in labellers.items() if len(who) >= min_humans and item in judge}
    p_values: dict[str, float] = {}
    advantage: dict[str, float] = {}
    for annotator, labels in humans.items():
        items = [item for item in labels if item in kept]
        if len(items) < min_items:
            continue
        judge_wins, human_wins = [], []
        for item in items:
            rest = [humans[other][item] for other in labellers[item] if other != annotator]
            s_h, s_f = score(labels[item], rest), score(judge[item], rest)
            judge_wins.append(1 if s_f >= s_h else 0)
            human_wins.append(1 if s_h >= s_f else 0)
        d = [h - f for h, f in zip(human_wins, judge_wins, strict=True)]
        if len(set(d)) == 1:
            p_values[annotator] = 0.0 if d[0] < epsilon else 1.0
        else:
            p_values[annotator] = float(sps.ttest_1samp(d, epsilon, alternative="less").pvalue)
        advantage[annotator] = float(np.mean(judge_wins))
    names = list(p_values)
    ordered = sorted(range(len(names)), key=lambda k: p_values[names[k]])
    harmonic = sum(1.0 / k for k in range(1, len(names) + 1))
    last = max(
        (r for r, k in enumerate(ordered, 1) if p_values[names[k]] <= r / len(names) * q / harmonic),
        default=0,
    )
    rejected = {name: False for name in names}
    for k in ordered[:last]:
        rejected[names[k]] = True
    return {
        "winning_rate": sum(rejected.values()) / len(names),
        "advantage_probability": float(np.mean(list(advantage.values()))),
        "p_values": p_values,
        "rejected": rejected,
        "annotator_advantage": advantage,
    }


def _accuracy(pred: Any, rest: list[Any]) -> float:
    return float(np.mean([pred == r for r in rest]))


def _neg_mae(pred: Any, rest: list[Any]) -> float:
    return -float(np.mean([abs(pred - r) for r in rest]))


def alt_test_data(
    n_items: int = 200, n_humans: int = 3, seed: int = 0
) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, n_items)
    humans = {
        f"h{h}": {
            f"i{i}": int(v)
            for i, v in enumerate(np.where(rng.random(n_items) < 0.3, rng.integers(0, 4, n_items), truth))
        }
        for h in range(n_humans)
    }
    judge = {
        f"i{i}": int(v)
        for i, v in enumerate(np.where(rng.random(n_items) < 0.25, rng.integers(0, 4, n_items), truth))
    }
    return judge, humans


def check_equal(result: Any, reference: dict[str, Any]) -> None:
    assert result.winning_rate == reference["winning_rate"]
    assert result.advantage_probability == reference["advantage_probability"]
    assert result.rejected == reference["rejected"]
    assert result.annotator_advantage == reference["annotator_advantage"]
    for name, p in reference["p_values"].items():
        assert abs(result.p_values[name] - p) <= 1e-12 * max(abs(p), 1e-300), (name, result.p_values[name], p)


def timed(fn: Callable[[], Any], repeats: int) -> float:
    """Median wall time in seconds over ``repeats`` runs, after one warm-up."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bt_comparisons(
    n_models: int = 20, n: int = 100_000, seed: int = 0
) -> tuple[list[str], list[str], list[str], list[str], np.ndarray, float]:
    rng = np.random.default_rng(seed)
    theta = rng.gamma(2.0, 1.0, n_models)
    theta /= theta.sum()
    beta = 0.05
    first = rng.integers(0, n_models, n)
    second = (first + rng.integers(1, n_models, n)) % n_models
    u = rng.random(n) * (theta[first] + theta[second] + beta)
    outcome = np.where(u < theta[first], "first", np.where(u < theta[first] + theta[second], "second", "tie"))
    names = [f"model{k:02d}" for k in range(n_models)]
    return [names[k] for k in first], [names[k] for k in second], outcome.tolist(), names, theta, beta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--no-append", action="store_true", help="print only; do not write docs/performance.md")
    args = parser.parse_args()
    rows = []

    judge, humans = alt_test_data()
    numeric = ("neg_mae", _neg_mae)
    for scoring, score in (("accuracy", _accuracy), numeric):
        check_equal(alt_test(judge, humans, scoring=scoring), loop_alt_test(judge, humans, score))
        fast = timed(functools.partial(alt_test, judge, humans, scoring=scoring), args.repeats)
        slow = timed(functools.partial(loop_alt_test, judge, humans, score), args.repeats)
        rows.append(
            {
                "case": f"alt_test 200 items x 3 annotators ({scoring})",
                "median_ms": fast * 1e3,
                "goal": "< 50 ms, >= 10x loop",
                "baseline_ms": slow * 1e3,
                "speedup": slow / fast,
            }
        )

    first, second, outcome, names, theta, beta = bt_comparisons()

    def bt_fit():
        counts = pairwise_counts(first, second, outcome, names=names)
        return bradley_terry_ties(counts.wins, counts.ties, names=counts.names)

    fit = bt_fit()
    error = float(np.abs(fit.theta - theta).max())
    rows.append(
        {
            "case": "Bradley-Terry with ties, 20 models, 100,000 comparisons (count + fit)",
            "median_ms": timed(bt_fit, args.repeats) * 1e3,
            "goal": "< 1 s",
            "baseline_ms": "",
            "speedup": "",
        }
    )
    counts = pairwise_counts(first, second, outcome, names=names)
    rows.append(
        {
            "case": "Bradley-Terry with ties, bootstrap CI, 1,000 resamples",
            "median_ms": timed(lambda: bradley_terry_ci(counts.wins, counts.ties, n_resamples=1000), 3) * 1e3,
            "goal": "",
            "baseline_ms": "",
            "speedup": "",
        }
    )

    rng = np.random.default_rng(1)
    correct_a = (rng.random(8000) < 0.8).astype(float)
    correct_b = (rng.random(8000) < 0.75).astype(float)
    rows.append(
        {
            "case": "bootstrap_ci mean, 8,000 0/1 items x 10,000 resamples (multinomial path)",
            "median_ms": timed(lambda: bootstrap_ci(correct_a, n_resamples=10_000), args.repeats) * 1e3,
            "goal": "< 1 s",
            "baseline_ms": "",
            "speedup": "",
        }
    )
    scores = rng.normal(size=8000)
    rows.append(
        {
            "case": "bootstrap_ci mean, 8,000 continuous values x 10,000 resamples (index path)",
            "median_ms": timed(lambda: bootstrap_ci(scores, n_resamples=10_000), args.repeats) * 1e3,
            "goal": "",
            "baseline_ms": "",
            "speedup": "",
        }
    )
    rows.append(
        {
            "case": "paired_bootstrap_diff, 8,000 0/1 items x 10,000 resamples",
            "median_ms": timed(lambda: paired_bootstrap_diff(correct_a, correct_b), args.repeats) * 1e3,
            "goal": "< 1 s",
            "baseline_ms": "",
            "speedup": "",
        }
    )

    notes = (
        "alt_test outputs (winning rate, advantage probabilities, rejections; p-values to 1e-12 relative) "
        "were asserted equal to the per-item loop before timing. Bradley-Terry fit: "
        f"{fit.iterations} MM iterations, converged={fit.converged}, max |theta - true theta| = {error:.4f}, "
        f"beta = {fit.beta:.4f} (true {beta}). Medians over {args.repeats} runs after a warm-up "
        "(the bootstrap CI of Bradley-Terry: 3 runs). Load average (1, 5, 15 min) at the end of the run: "
        + ", ".join(f"{v:.1f}" for v in os.getloadavg())
        + " (the machine is shared; times scale with load)."
    )
    for row in rows:
        print({k: (round(v, 2) if isinstance(v, float) else v) for k, v in row.items()})
    print(notes)
    if not args.no_append:
        write_results("mmjudge.stats: alt-test, Bradley-Terry, bootstrap (bench_stats.py)", rows, notes)


if __name__ == "__main__":
    main()
