"""``mmjudge compare`` is honest at few prompts: two equal judges, simulated (``benchmarks/_coverage_compare.py``).

Two judges of equal skill on IsoVRBench-like pairs (G prompts x 8 interventions x 5 pairs, a prompt effect of
sd 1 on the logit scale shared by both judges), compared by ``compare_units`` at G = 5, 8 and 12 prompts, 300
replicates each (fixed seed, so the figures are the same on every run):

- the false rejection rate at alpha 0.05 is at most 5% + 3 Monte Carlo standard errors (se 1.26 points at 300
  replicates: at most 8.8%); the sign-flip test is exact, so only chance can push it up;
- the interval (the shifts the same sign-flip test does not reject) covers the true difference (0) within 3
  Monte Carlo se of 95% (1.26 points at 300 replicates: 91.2% to 98.8%) and holds 0 exactly when the test does
  not reject; at 5 prompts no test can reject and no interval is given;
- the percentile bootstrap that ``compare`` used before, on the same draws, fails both checks pooled over the
  three G (at most 7.2% rejections and at least 92.8% coverage at 900 replicates; at 1,000 replicates per G it
  rejected 14.3 / 10.1 / 7.9% and covered 85.4 / 89.0 / 91.1%), so the checks can fail.

The 1,000-replicate figures: ``python benchmarks/_coverage_compare.py --prompts 5`` and
``--prompts 8 12 --n-resamples 500``.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from _coverage_compare import compare_replicates, rate

PROMPTS = (5, 8, 12)
REPLICATES = 300
ALPHA = 0.05
N_RESAMPLES = 400


@pytest.mark.simulation
def test_two_equal_judges_are_rarely_called_different_and_the_interval_covers() -> None:
    runs = {
        g: compare_replicates(g, REPLICATES, alpha=ALPHA, n_resamples=N_RESAMPLES, seed=11) for g in PROMPTS
    }
    se = math.sqrt(ALPHA * (1 - ALPHA) / REPLICATES)
    for g, r in runs.items():
        rejected, covered = rate(r.rejected)[0], rate(r.covered)[0]
        assert rejected <= ALPHA + 3 * se, f"G={g}: compare rejects a true null {rejected:.1%}"
        if g == 5:  # 2 / 2^5 > 0.05: no test at this size can reject, and no interval comes from it
            assert r.rejected.sum() == 0 and np.isnan(r.width).all()
            continue
        assert abs(covered - (1 - ALPHA)) <= 3 * se, f"G={g}: the interval covers {covered:.1%}"
        assert np.isfinite(r.width).all()
        assert (r.covered == ~r.rejected).all()  # the interval inverts the test: they never disagree
    # the old percentile bootstrap on the same draws, pooled over G: its checks fail
    pooled_se = math.sqrt(ALPHA * (1 - ALPHA) / (REPLICATES * len(PROMPTS)))
    old_rejected = rate(np.concatenate([r.old_rejected for r in runs.values()]))[0]
    old_covered = rate(np.concatenate([r.old_covered for r in runs.values()]))[0]
    assert old_rejected > ALPHA + 3 * pooled_se, (
        f"the bootstrap rejected {old_rejected:.1%}: the check has no teeth"
    )
    assert old_covered < 1 - ALPHA - 3 * pooled_se, (
        f"the bootstrap covered {old_covered:.1%}: the check has no teeth"
    )


@pytest.mark.simulation
def test_a_noisier_judge_on_unequal_prompts_keeps_the_test_and_the_interval_together() -> None:
    """Equal population accuracy, one judge far noisier across prompts, 1-40 pairs per prompt (the design where
    the judges are not exchangeable within a prompt): at 10 and 15 prompts, 300 replicates each, the interval
    agrees with the test on every replicate, rejects stay within 5% + 3 se and coverage within 3 se of 95%
    (at 1,000 replicates: 6.2-6.7% rejections, 93.3-93.8% coverage at 8-15 prompts, docs/performance.md)."""
    from _coverage_compare import hetero_replicates

    se = math.sqrt(ALPHA * (1 - ALPHA) / REPLICATES)
    for g in (10, 15):
        r = hetero_replicates(g, REPLICATES, alpha=ALPHA, n_resamples=N_RESAMPLES, seed=3)
        assert r.agree.all()
        assert rate(r.rejected)[0] <= ALPHA + 3 * se and abs(rate(r.covered)[0] - (1 - ALPHA)) <= 3 * se
