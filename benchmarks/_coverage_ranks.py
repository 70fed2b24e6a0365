"""Simulated leaderboards of several judges on the same IsoVRBench-like pairs: stars and rank sets.

Each replicate draws ``n_judges`` judges on ``n_prompts`` anchor prompts with ``pairs_per_prompt`` pairs each
(the pairs of a prompt spread over the eight interventions in turn), scores them with IsoVRBench's public
outcomes and metric (``mmjudge.benchmarks.isovrbench.scoring.outcomes`` / ``metric_specs``, key ``average``)
and reads the board two ways:

- **rank sets** (:func:`mmjudge.stats.rank_sets`, what the leaderboard shows now): a star on a row when
  another row is significantly better at family-wise 5%;
- **the old rule** (the leaderboard's column before rank sets): each row against the row that came out best,
  paired percentile cluster bootstrap p-value, Holm-corrected over the rows, a star when the corrected p is
  below 0.05.

A pair is won with probability ``logistic(mu_intervention + shift_judge + u_prompt)``, ``u ~ N(0, sd)`` per
prompt and shared by every judge (a hard prompt is hard for all), independently across judges given ``u``
(as ``benchmarks/_coverage.py`` draws IsoVRBench runs). ``offsets`` are the judges' true ``average`` scores in
points above the first judge's (all 0: equal judges); each shift is solved so that the population ``average``
(Gauss-Hermite, :func:`_coverage.iso_truth`) lands on it. True ranks count ties: a judge's true ranks are its
tie block, from 1 + the judges truly better to N - the judges truly worse.

    .venv/bin/python benchmarks/_coverage_ranks.py --replicates 500          # equal and unequal judges
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypedDict

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _coverage import _ISO_MU, _logistic, iso_truth

if TYPE_CHECKING:
    from mmjudge.stats import KeyOutcomes

__all__ = ["UNEQUAL", "BoardReplicates", "rank_replicates", "summary"]

UNEQUAL = (0.0, 0.0, 2.0, 2.0, 4.0, 4.0)
"""The second design's true ``average`` offsets (points): three tied blocks 2 points apart."""
BASE_SHIFT = 0.0
"""The first judge's logit shift (its ``average`` is :func:`_coverage.iso_truth`'s at shift 0)."""


class BoardReplicates(NamedTuple):
    """Per simulated board: whether a star appeared (each rule) and whether the rank sets covered."""

    star: np.ndarray
    """Rank sets: some row has another row significantly better (lower rank bound > 1)."""
    star_holm: np.ndarray
    """The old rule: some row significantly worse than the observed best (Holm p < 0.05)."""
    covered: np.ndarray
    """Every row's rank set meets its true tie block (any rank in the block counts as the true rank)."""
    covered_block: np.ndarray
    """Every row's rank set holds its whole true tie block (what the procedure guarantees)."""
    top_covered: np.ndarray
    """The observed top row's own interval (the scorer's, for ``average``) holds its true value."""


def _shifts(offsets: Sequence[float], sd: float) -> np.ndarray:
    """The logit shift of each judge whose population ``average`` is the first's plus its offset (bisection)."""
    base = iso_truth(sd, BASE_SHIFT)["average"]
    out = []
    for offset in offsets:
        low, high = -3.0, 3.0
        for _ in range(80):
            mid = (low + high) / 2
            low, high = (mid, high) if iso_truth(sd, mid)["average"] < base + offset else (low, mid)
        out.append((low + high) / 2)
    return np.asarray(out)


def _tie_blocks(truth: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each judge's true ranks: from 1 + #{truly better} to N - #{truly worse} (truth rounded to 1e-9)."""
    t = np.round(truth, 9)
    better = (t[None, :] > t[:, None]).sum(axis=1)
    worse = (t[None, :] < t[:, None]).sum(axis=1)
    return 1 + better, t.size - worse


class IsoRun(TypedDict):
    """One judge's scores on a draw, as :func:`mmjudge.benchmarks.isovrbench.scoring.score` takes them."""

    score_chosen: np.ndarray
    score_rejected: np.ndarray
    pair_id: list[str]
    cluster: list[str]


def _board(
    rng: np.random.Generator, shifts: np.ndarray, n_prompts: int, pairs_per_prompt: int, sd: float
) -> tuple[list[KeyOutcomes], list[tuple[list[str], IsoRun]]]:
    """Every judge's ``average`` outcomes on one draw of prompts (``KeyOutcomes`` per judge)."""
    from mmjudge.benchmarks.isovrbench.scoring import INTERVENTIONS, metric_specs, outcomes
    from mmjudge.stats import KeyOutcomes

    n_pairs = n_prompts * pairs_per_prompt
    prompt = np.repeat(np.arange(n_prompts), pairs_per_prompt)
    iv = np.arange(n_pairs) % len(_ISO_MU)
    u = rng.normal(0.0, sd, n_prompts)
    names, clusters = list(np.asarray(INTERVENTIONS)[iv]), [f"p{p}" for p in prompt]
    judges, runs = [], []
    for shift in shifts:
        win = rng.random(n_pairs) < _logistic(_ISO_MU[iv] + shift + u[prompt])
        run = IsoRun(score_chosen=win.astype(float), score_rejected=(~win).astype(float),
                     pair_id=[str(k) for k in range(n_pairs)], cluster=clusters)  # fmt: skip
        table = outcomes(names, **run)
        judges.append(KeyOutcomes.of("average", table, metric_specs(table)[0]["average"]))
        runs.append((names, run))
    return judges, runs


def _top_interval(runs: list[tuple[list[str], IsoRun]], values: list[float]) -> tuple[int, float, float]:
    """The observed top row and its own ``average`` interval from the public scorer."""
    from mmjudge.benchmarks.isovrbench.scoring import score

    top = int(np.argmax(values))
    names, run = runs[top]
    scores = score(names, **run)
    return top, float(scores.get("average_ci_low", np.nan)), float(scores.get("average_ci_high", np.nan))


def _holm_star(judges: list, n_resamples: int, seed: int) -> bool:
    """The old leaderboard rule, as it was: each row against the observed best by the paired percentile cluster
    bootstrap (``paired_metric_bootstrap``, ``two_sided_p``), Holm-corrected over the rows, star below 0.05.
    (Written out here: ``mmjudge.comparison.compare_units`` now tests fewer than 100 clusters otherwise.)"""
    from statsmodels.stats.multitest import multipletests

    from mmjudge.stats import paired_metric_bootstrap, two_sided_p

    values = [j.value() for j in judges]
    best = judges[int(np.argmax(values))]
    p = []
    for judge in judges:
        if judge is best:
            continue
        _, d, _ = paired_metric_bootstrap(judge.outcomes, best.outcomes, judge.metric, n_resamples=n_resamples,
                                          seed=seed)  # fmt: skip
        p.append(two_sided_p(d[~np.isnan(d)]))
    return bool((multipletests(p, method="holm")[1] < 0.05).any())


def rank_replicates(
    n_judges: int = 6,
    n_prompts: int = 50,
    pairs_per_prompt: int = 8,
    sd: float = 1.0,
    replicates: int = 200,
    seed: int = 0,
    *,
    offsets: Sequence[float] | None = None,
    n_resamples: int = 2000,
    ranks: bool = True,
    holm: bool = True,
    top_row: bool = True,
    first: int = 0,
) -> BoardReplicates:
    """Boards ``first .. first + replicates - 1`` (each one's stream depends on ``seed`` and its number only).

    Args:
        n_judges: judges per board (ignored when ``offsets`` is given).
        n_prompts, pairs_per_prompt: the layout (pairs of a prompt spread over the interventions in turn).
        sd: the prompt effect's sd on the logit scale.
        replicates, seed, first: which boards.
        offsets: the judges' true ``average`` in points above the first's (default: ``n_judges`` equal judges).
        n_resamples: bootstrap resamples of each board (the leaderboard draws 2,000).
        ranks: read each board with rank sets (``star``, ``covered``, ``covered_block`` all False without).
        holm: also read each board with the old rule (``star_holm`` is all False without it).
        top_row: also score the observed top row with the public scorer (``top_covered``; all False without).
    """
    from mmjudge.stats import rank_sets

    offsets = tuple(offsets) if offsets is not None else (0.0,) * n_judges
    shifts = _shifts(offsets, sd)
    truth = np.array([iso_truth(sd, s)["average"] for s in shifts])
    block_low, block_high = _tie_blocks(truth)
    star, star_holm, covered, covered_block, top_covered = [], [], [], [], []
    for r in range(first, first + replicates):
        rng = np.random.default_rng([seed, r])
        judges, runs = _board(rng, shifts, n_prompts, pairs_per_prompt, sd)
        if top_row:
            top, low, high = _top_interval(runs, [j.value() for j in judges])
            top_covered.append(bool(low <= truth[top] <= high))
        else:
            top_covered.append(False)
        if ranks:
            sets = rank_sets(judges, n_resamples=n_resamples, seed=r)
            lower = np.array([s.lower if s else 0 for s in sets.sets])
            upper = np.array([s.upper if s else 0 for s in sets.sets])
        else:
            lower = upper = np.zeros(len(judges), dtype=np.int64)
        star.append(ranks and bool((lower > 1).any()))
        covered.append(ranks and bool(((lower <= block_high) & (upper >= block_low)).all()))
        covered_block.append(ranks and bool(((lower <= block_low) & (upper >= block_high)).all()))
        star_holm.append(_holm_star(judges, n_resamples, r) if holm else False)
    return BoardReplicates(*(np.asarray(x) for x in (star, star_holm, covered, covered_block, top_covered)))


def rate(hits: np.ndarray) -> tuple[float, float]:
    """A rate and its Monte Carlo standard error."""
    p = float(np.mean(hits))
    return p, float(np.sqrt(p * (1 - p) / max(1, hits.size)))


def summary(name: str, boards: BoardReplicates) -> str:
    """One line of figures (percent, with Monte Carlo se)."""
    parts = [f"{label} {100 * p:.1f}% (se {100 * se:.1f})" for label, p, se in (
        ("star rate", *rate(boards.star)), ("old Holm star rate", *rate(boards.star_holm)),
        ("joint coverage", *rate(boards.covered)), ("holds whole tie block", *rate(boards.covered_block)),
        ("top row's own interval covers", *rate(boards.top_covered)),
    )]  # fmt: skip
    return f"{name}, {boards.star.size} boards: " + "; ".join(parts)


def _block(args: tuple) -> BoardReplicates:
    offsets, n_prompts, pairs, sd, count, seed, n_resamples, first = args
    return rank_replicates(n_prompts=n_prompts, pairs_per_prompt=pairs, sd=sd, replicates=count, seed=seed,
                           offsets=offsets, n_resamples=n_resamples, first=first)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--replicates", type=int, default=500)
    parser.add_argument("--n-prompts", type=int, default=50)
    parser.add_argument("--pairs-per-prompt", type=int, default=8)
    parser.add_argument("--sd", type=float, default=1.0)
    parser.add_argument("--n-resamples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    designs = {
        "6 equal judges": (0.0,) * 6,
        f"6 judges at {'/'.join(f'{o:g}' for o in UNEQUAL)} points": UNEQUAL,
    }
    step = -(-args.replicates // args.workers)
    with ProcessPoolExecutor(args.workers) as pool:
        for name, offsets in designs.items():
            jobs = [(offsets, args.n_prompts, args.pairs_per_prompt, args.sd, min(step, args.replicates - s),
                     args.seed, args.n_resamples, s) for s in range(0, args.replicates, step)]  # fmt: skip
            blocks = list(pool.map(_block, jobs))
            boards = BoardReplicates(
                *(np.concatenate([getattr(b, f) for b in blocks]) for f in BoardReplicates._fields)
            )
            layout = f"{args.n_prompts} prompts x {args.pairs_per_prompt} pairs, prompt sd {args.sd:g}"
            print(summary(f"{name} ({layout}, {args.n_resamples} resamples)", boards), flush=True)


if __name__ == "__main__":
    main()
