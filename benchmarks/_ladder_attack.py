"""The boosting attack on a private-label leaderboard (Blum & Hardt 2015, Section 6.1; ``boostingattack`` in
their code, ``examples/attacks.jl``): how far the feedback lets a submitter overfit the labels.

Each replicate draws ``n`` random 0/1 labels and ``k`` random 0/1 submissions (every one 50% accurate in truth,
independent of the labels). The attacker submits them in turn, keeps those the feedback called good, and submits
their majority vote; its accuracy on the same labels above 50% is what the feedback leaked (its true accuracy is
50%). The feedbacks, as the leaderboard shows them (:class:`mmjudge.leaderboard.store.LadderRule`, the key in
points):

- ``exact``: the score itself (public labels); kept: every submission at 50% or more;
- ``fixed``: the Ladder with a fixed margin (``--ladder-margin``, default 1 point); kept: the first submission
  when shown above 50%, then every one whose shown score rose;
- ``free``: the parameter-free Ladder (the margin is the standard error of the paired difference with the row that
  set the best shown score, :func:`mmjudge.leaderboard.core.ladder.difference_se`); kept as for ``fixed``.

    .venv/bin/python benchmarks/_ladder_attack.py --replicates 100          # n 4,000, k 400 as in the paper
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

__all__ = ["FEEDBACKS", "Attack", "boosting_attack", "main"]

FEEDBACKS = ("exact", "fixed", "free")


class Attack(NamedTuple):
    """One replicate of the attack."""

    accuracy: float
    """The majority vote's accuracy on the labels, in points (50 in truth)."""
    kept: int
    """How many submissions the feedback let the attacker keep."""


def _outcomes(hits: np.ndarray, units: tuple[str, ...]):  # type: ignore[no-untyped-def]
    from mmjudge.stats import KeyOutcomes, Outcomes, Ratio

    columns = {"hit": hits.astype(np.float64), "one": np.ones(hits.size)}
    return KeyOutcomes("accuracy", Outcomes(units, units, columns), Ratio("hit", "one"))


def boosting_attack(n: int, k: int, feedback: str, rng: np.random.Generator, margin: float = 1.0) -> Attack:
    """One replicate: ``n`` labels, ``k`` submissions, the feedback ``feedback`` (:data:`FEEDBACKS`)."""
    from mmjudge.leaderboard.core.ladder import difference_se
    from mmjudge.leaderboard.store import LadderRule

    if feedback not in FEEDBACKS:
        raise ValueError(f"feedback must be one of {FEEDBACKS}, got {feedback!r}")
    labels = rng.integers(0, 2, n)
    subs = rng.integers(0, 2, (k, n))
    units = tuple(str(i) for i in range(n))
    rule = LadderRule("accuracy", True, margin)
    best: float | None = None
    leader: np.ndarray | None = None
    kept: list[int] = []
    for i in range(k):
        hits = subs[i] == labels
        score = 100.0 * float(hits.mean())
        if feedback == "exact":
            if score >= 50.0:
                kept.append(i)
            continue
        se = None
        if feedback == "free":  # a first score is shown as scored, as the board's store does
            se = 0.0 if leader is None else difference_se(_outcomes(hits, units), _outcomes(leader, units))
        shown = rule.shown(score, best, se)
        if shown != best:
            if best is not None or (shown is not None and shown > 50.0):
                kept.append(i)
            leader, best = hits, shown
    if not kept:
        return Attack(50.0, 0)
    vote = 2 * subs[kept].sum(axis=0) >= len(kept)
    return Attack(100.0 * float((vote == labels).mean()), len(kept))


def replicates(n: int, k: int, feedback: str, count: int, seed: int) -> list[Attack]:
    """``count`` replicates of :func:`boosting_attack` (seeded; the same labels and submissions per seed for every
    feedback)."""
    return [boosting_attack(n, k, feedback, np.random.default_rng([seed, r])) for r in range(count)]


def summary_rows(n: int, k: int, count: int, seed: int) -> list[dict[str, object]]:
    """One row per feedback: the vote's mean accuracy (points above 50 are leaked), its Monte Carlo se, the
    submissions kept."""
    rows: list[dict[str, object]] = []
    for feedback in FEEDBACKS:
        runs = replicates(n, k, feedback, count, seed)
        acc = np.array([r.accuracy for r in runs])
        rows.append({"feedback": feedback, "labels n": n, "submissions k": k, "replicates": count,
                     "vote accuracy %": round(float(acc.mean()), 2),
                     "MC se": round(float(acc.std(ddof=1) / np.sqrt(count)), 2),
                     "kept (mean)": round(float(np.mean([r.kept for r in runs])), 1)})  # fmt: skip
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=4000)
    parser.add_argument("--k", type=int, nargs="+", default=[100, 400])
    parser.add_argument("--replicates", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    from _results import markdown_table, write_results

    rows = [row for k in args.k for row in summary_rows(args.n, k, args.replicates, args.seed)]
    print(markdown_table(rows))
    if not args.no_write:
        write_results("Leaderboard: the Ladder against the boosting attack (_ladder_attack.py)", rows,
                      notes=NOTES)  # fmt: skip


NOTES = (
    "The boosting attack of Blum & Hardt (2015, Section 6.1): `k` random 0/1 submissions on `n` random labels, "
    "the attacker keeps those the feedback called good and submits their majority vote; its accuracy on the "
    "same labels is 50% in truth, so what it shows above 50 is what the feedback leaked. `exact`: the score "
    "itself (public labels); `fixed`: the Ladder at the default 1-point margin; `free`: the parameter-free Ladder "
    "(one standard error of the paired difference with the row that set the best shown score)."
)


if __name__ == "__main__":
    main()
