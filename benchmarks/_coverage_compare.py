"""``mmjudge compare`` at few prompts: how often two equal judges are called different, and interval coverage.

Two judges of equal skill score the same IsoVRBench-like pairs: ``G`` anchor prompts, each in all eight
interventions with ``pairs`` pairs per prompt and intervention. A pair is won with probability
``logistic(mu_intervention + u_prompt)``, ``u_prompt ~ N(0, sd)`` on the logit scale and *shared* by the two
judges (a hard prompt is hard for both); given ``u`` the judges' outcomes are independent. Each judge's
``average`` (the mean over interventions of the accuracy) comes from the public scorer's outcomes
(:func:`mmjudge.benchmarks.isovrbench.scoring.outcomes` / ``metric_specs``), and the two are compared by
:func:`mmjudge.comparison.compare_units`, the code ``mmjudge compare`` runs. The true difference is 0, so
a replicate

- *rejects* when the comparison is significant at ``alpha`` (one comparison: Holm changes nothing);
- *covers* when the interval holds 0 (no interval: not covered).

The same draws also go through the percentile bootstrap that ``compare`` used at every size before
(:func:`mmjudge.stats.paired_metric_bootstrap` with its two-sided p), for the ``old_*`` columns. From 100
prompts on, ``compare`` itself is that bootstrap, so the two columns agree there.

    python benchmarks/_coverage_compare.py                          # 1,000 replicates at G = 5 ... 100
    python benchmarks/_coverage_compare.py --prompts 5 8 --replicates 300 --no-write
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from mmjudge.stats import KeyOutcomes

__all__ = ["CompareReplicates", "HeteroReplicates", "compare_replicates", "draw_hetero", "draw_pair", "hetero_replicates", "rate"]

ISO_MU = np.linspace(0.2, 2.2, 8)
"""Logit of each intervention's success rate before the prompt effect (as ``_coverage.py``'s IsoVRBench)."""


class CompareReplicates(NamedTuple):
    """Per replicate: what ``compare`` says now, and what the percentile bootstrap said."""

    rejected: np.ndarray
    """``compare_units`` calls the difference significant at ``alpha``."""
    covered: np.ndarray
    """Its interval holds the true difference 0 (no interval: ``False``)."""
    width: np.ndarray
    """Its interval's width (NaN where none)."""
    old_rejected: np.ndarray
    """The paired percentile bootstrap's two-sided p is below ``alpha``."""
    old_covered: np.ndarray
    """The bootstrap percentile interval holds 0."""
    old_width: np.ndarray
    """Its width."""


def draw_pair(
    rng: np.random.Generator, n_prompts: int, *, sd: float = 1.0, pairs: int = 5
) -> tuple[KeyOutcomes, KeyOutcomes]:
    """Two equal judges' :class:`~mmjudge.stats.KeyOutcomes` of ``average`` on the same pairs."""
    from mmjudge.benchmarks.isovrbench.scoring import INTERVENTIONS, metric_specs, outcomes
    from mmjudge.stats import KeyOutcomes

    n_iv = len(ISO_MU)
    prompt = np.repeat(np.arange(n_prompts), n_iv * pairs)
    iv = np.tile(np.repeat(np.arange(n_iv), pairs), n_prompts)
    chance = 1.0 / (1.0 + np.exp(-(ISO_MU[iv] + rng.normal(0.0, sd, n_prompts)[prompt])))
    names = list(np.asarray(INTERVENTIONS)[iv])
    ids, clusters = [str(k) for k in range(iv.size)], [f"p{p}" for p in prompt]
    units = []
    for _ in range(2):
        win = rng.random(iv.size) < chance
        table = outcomes(names, score_chosen=win.astype(float), score_rejected=(~win).astype(float), pair_id=ids,
                         cluster=clusters)  # fmt: skip
        units.append(KeyOutcomes.of("average", table, metric_specs(table)[0]["average"]))
    return units[0], units[1]


def compare_replicates(
    n_prompts: int,
    replicates: int,
    *,
    sd: float = 1.0,
    pairs: int = 5,
    alpha: float = 0.05,
    n_resamples: int = 1000,
    seed: int = 0,
    first: int = 0,
) -> CompareReplicates:
    """Replicates ``first .. first + replicates - 1`` at ``n_prompts`` prompts (each replicate's draws depend only
    on ``seed``, ``n_prompts`` and its number, so blocks run apart add up to one run)."""
    from mmjudge.comparison import compare_units
    from mmjudge.stats import paired_metric_bootstrap, two_sided_p

    out: dict[str, list[float]] = {name: [] for name in CompareReplicates._fields}
    for r in range(first, first + replicates):
        a, b = draw_pair(np.random.default_rng([seed, n_prompts, r]), n_prompts, sd=sd, pairs=pairs)
        c = compare_units(a, b, n_resamples=n_resamples, confidence=1.0 - alpha, seed=r)
        # one comparison: its Holm-corrected p is its p (adjust() is skipped: statsmodels' Holm runs gc.collect())
        out["rejected"].append(replace(c, p_adjusted=c.p_value).significant(alpha))
        out["covered"].append(c.ci_low <= 0.0 <= c.ci_high)
        out["width"].append(c.ci_high - c.ci_low)
        _, draws, _ = paired_metric_bootstrap(
            a.outcomes, b.outcomes, a.metric, n_resamples=n_resamples, seed=r
        )
        draws = draws[~np.isnan(draws)]
        low, high = np.quantile(draws, [alpha / 2.0, 1.0 - alpha / 2.0])
        out["old_rejected"].append(two_sided_p(draws) < alpha)
        out["old_covered"].append(low <= 0.0 <= high)
        out["old_width"].append(high - low)
    return CompareReplicates(**{
        name: np.asarray(values, dtype=float if name.endswith("width") else bool) for name, values in out.items()
    })  # fmt: skip


class HeteroReplicates(NamedTuple):
    """Per replicate of the heteroscedastic design: ``compare``'s decision, coverage and their agreement."""

    rejected: np.ndarray
    """The sign-flip p is below ``alpha``."""
    covered: np.ndarray
    """The interval holds the true difference 0 (none: ``False``)."""
    agree: np.ndarray
    """The interval leaves 0 out exactly when the test rejects (no interval: ``True`` when the test cannot
    reject)."""


def draw_hetero(
    rng: np.random.Generator, n_prompts: int, *, rate: float = 70.0, quiet: float = 0.3, noisy: float = 3.0
) -> tuple[KeyOutcomes, KeyOutcomes]:
    """Two judges with the same population accuracy ``rate`` on ``n_prompts`` prompts of unequal size (1 to 40
    pairs, uniform), one of them far noisier across prompts: judge A wins a pair of prompt ``p`` with
    probability ``logistic(mu_A + u_p)``, ``u_p ~ N(0, quiet)``, judge B with ``logistic(mu_B + v_p)``,
    ``v_p ~ N(0, noisy)`` independent of ``u``; ``mu_A``, ``mu_B`` solve for the same population rate. The
    judges are not exchangeable within a prompt (the sign-flip test's assumption), only equal on average."""
    from _coverage import _solve_mu

    from mmjudge.stats import KeyOutcomes, Outcomes, Ratio

    sizes = rng.integers(1, 41, n_prompts)
    prompt = np.repeat(np.arange(n_prompts), sizes)
    units = tuple(str(k) for k in range(prompt.size))
    clusters = tuple(f"p{p}" for p in prompt)
    out = []
    for sd in (quiet, noisy):
        mu = _solve_mu(rate, sd)
        chance = 1.0 / (1.0 + np.exp(-(mu + rng.normal(0.0, sd, n_prompts)[prompt])))
        win = (rng.random(prompt.size) < chance).astype(float)
        table = Outcomes(units, clusters, {"win": win, "one": np.ones(prompt.size)}, (), "pair", "prompt")
        out.append(KeyOutcomes("accuracy", table, Ratio("win", "one")))
    return out[0], out[1]


def hetero_replicates(
    n_prompts: int, replicates: int, *, alpha: float = 0.05, n_resamples: int = 1000, seed: int = 0
) -> HeteroReplicates:
    """``compare_units`` on :func:`draw_hetero`'s judges (true difference 0)."""
    from mmjudge.comparison import compare_units

    out: dict[str, list[bool]] = {name: [] for name in HeteroReplicates._fields}
    for r in range(replicates):
        a, b = draw_hetero(np.random.default_rng([seed, n_prompts, r, 48]), n_prompts)
        c = compare_units(a, b, n_resamples=n_resamples, confidence=1.0 - alpha, seed=r)
        rejected = bool(c.p_value < alpha and c.p_floor < alpha)
        covered = bool(c.ci_low <= 0.0 <= c.ci_high)
        shown = not math.isnan(c.ci_low)
        out["rejected"].append(rejected)
        out["covered"].append(covered)
        out["agree"].append((covered != rejected) if shown else not rejected)
    return HeteroReplicates(**{name: np.asarray(v, dtype=bool) for name, v in out.items()})


def rate(hits: np.ndarray) -> tuple[float, float]:
    """A rate and its Monte Carlo standard error."""
    p = float(np.mean(hits)) if hits.size else math.nan
    return p, math.sqrt(p * (1.0 - p) / max(1, hits.size))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--prompts", type=int, nargs="+", default=[5, 10, 20, 30, 50, 100], help="numbers of prompts G"
    )
    parser.add_argument("--no-write", action="store_true", help="print only, do not write to docs/performance.md")
    parser.add_argument("--replicates", type=int, default=1000, help="replicates per G (default 1000)")
    parser.add_argument("--n-resamples", type=int, default=1000, help="bootstrap resamples / drawn flips")
    parser.add_argument("--sd", type=float, default=1.0, help="prompt effect sd, logit scale (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hetero", action="store_true",
                        help="the heteroscedastic design instead (draw_hetero: unequal prompts, one judge noisier)")
    args = parser.parse_args(argv)
    if args.hetero:
        return _hetero_main(args)
    print(f"two equal judges, 8 interventions x 5 pairs per prompt, prompt sd {args.sd}, alpha 0.05, "
          f"{args.replicates} replicates per G, {args.n_resamples} resamples")  # fmt: skip
    print(
        "   G | rejects % (MC se) | old bootstrap rejects % | covers % (MC se) | old covers % | width | old width"
    )
    import time

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _results import write_results

    rows: list[dict[str, object]] = []
    started = time.perf_counter()
    for g in args.prompts:
        r = compare_replicates(g, args.replicates, sd=args.sd, n_resamples=args.n_resamples, seed=args.seed)
        (rej, rej_se), (old, _), (cov, cov_se), (old_cov, _) = map(
            rate, (r.rejected, r.old_rejected, r.covered, r.old_covered)
        )
        print(f"{g:4d} | {100 * rej:5.1f} ({100 * rej_se:.2f})     | {100 * old:5.1f}                   | "
              f"{100 * cov:5.1f} ({100 * cov_se:.2f})    | {100 * old_cov:5.1f}        | "
              f"{np.nanmean(r.width):5.2f} | {np.nanmean(r.old_width):5.2f}")  # fmt: skip
        rows.append({"prompts G": g, "replicates": args.replicates, "rejects true null %": round(100 * rej, 1),
                     "MC se": round(100 * rej_se, 2), "percentile bootstrap rejects %": round(100 * old, 1),
                     "covers 0 %": round(100 * cov, 1), "MC se ": round(100 * cov_se, 2),
                     "percentile bootstrap covers %": round(100 * old_cov, 1),
                     "mean width": round(float(np.nanmean(r.width)), 2),
                     "percentile bootstrap width": round(float(np.nanmean(r.old_width)), 2)})  # fmt: skip
    if not args.no_write:
        notes = (
            "Two equal judges on the same IsoVRBench-like pairs: G anchor prompts, each in all 8 interventions with "
            "5 pairs per prompt and intervention, the prompt effect shared by both judges, true difference of "
            f"`average` 0; prompt sd {args.sd}, alpha 0.05, {args.n_resamples} resamples or drawn flips; "
            f"{time.perf_counter() - started:.0f} s. `compare` now: the sign-flip test (exact up to 16 differing "
            "prompts) and the jackknife t interval below 100 prompts, the paired percentile bootstrap from 100 on."
        )
        write_results("mmjudge compare at few clusters (_coverage_compare.py)", rows, notes)
    return 0


def _hetero_main(args: argparse.Namespace) -> int:
    """Print the heteroscedastic design's table (``--hetero``): rejections, coverage, agreement."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _results import markdown_table

    rows = []
    for g in args.prompts:
        r = hetero_replicates(g, args.replicates, n_resamples=args.n_resamples, seed=args.seed)
        (rej, rej_se), (cov, cov_se) = rate(r.rejected), rate(r.covered)
        rows.append({"prompts G": g, "replicates": args.replicates, "rejects true null %": round(100 * rej, 1),
                     "MC se": round(100 * rej_se, 2), "covers 0 %": round(100 * cov, 1),
                     "MC se ": round(100 * cov_se, 2),
                     "interval and test disagree": int((~r.agree).sum())})  # fmt: skip
        print(markdown_table(rows[-1:]), flush=True)
    print(markdown_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
