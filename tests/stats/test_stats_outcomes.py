"""Outcomes-first metrics and their cluster intervals, against independent references.

- reductions: numpy / pandas group means and scikit-learn's weighted F1 (ties, one class, left-out units);
- the cluster bootstrap: its half-width against statsmodels' cluster-robust standard error of a mean, and
  the stratified draw (each stratum keeps its clusters);
- the scorers' intervals: the jackknife Wilson interval against a plain delete-one loop and statsmodels'
  Wilson (``proportion_confint``), never zero-width at 0 or 100, none below five clusters;
- the paired bootstrap's p-value: exact tie counting, against integer counts of the same draws.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy import stats
from sklearn.metrics import f1_score
from statsmodels.stats.proportion import proportion_confint
from wilson_reference import repaired_wilson

from mmjudge.benchmarks._intervals import jackknife_method, outcome_keys
from mmjudge.stats import (
    HarmonicMean,
    Outcomes,
    Ratio,
    WeightedF1,
    bootstrap_metrics,
    paired_metric_bootstrap,
)
from mmjudge.stats._bootstrap import two_sided_p


def _table(hit: np.ndarray, clusters: list[str], strata: list[str] | None = None, **extra: np.ndarray) -> Outcomes:
    n = len(hit)
    columns = {"hit": np.asarray(hit, dtype=float), "one": np.ones(n), **extra}
    return Outcomes(tuple(f"u{k}" for k in range(n)), tuple(clusters), columns, tuple(strata or ()), "pair", "prompt")


def test_ratio_reductions_equal_pandas_group_means() -> None:
    rng = np.random.default_rng(3)
    n = 400
    strata = rng.choice(["a", "b", "c"], n).tolist()
    hit = (rng.random(n) < 0.6).astype(float)
    den = (rng.random(n) < 0.8).astype(float)  # some units are not counted (no judgment)
    hit *= den
    table = _table(hit, [str(k) for k in range(n)], strata, den=den)
    frame = pd.DataFrame({"hit": hit, "den": den, "s": strata})
    pooled = Ratio("hit", "den").value(table)
    assert pooled == pytest.approx(100 * frame.hit.sum() / frame.den.sum(), abs=1e-12)
    sums = frame.groupby("s")[["hit", "den"]].sum()
    assert Ratio("hit", "den", by_stratum=True).value(table) == pytest.approx(100 * (sums.hit / sums.den).mean(), abs=1e-12)
    assert Ratio("hit", "den", strata=("b",)).value(table) == pytest.approx(100 * sums.hit["b"] / sums.den["b"], abs=1e-12)
    # harmonic mean of two per-stratum rates, 0 where both are 0
    p, r = Ratio("hit", "den", strata=("a",)), Ratio("hit", "den", strata=("c",))
    pa, pc = 100 * sums.hit["a"] / sums.den["a"], 100 * sums.hit["c"] / sums.den["c"]
    assert HarmonicMean(p, r).value(table) == pytest.approx(2 * pa * pc / (pa + pc), abs=1e-12)
    zero = _table(np.zeros(4), list("wxyz"), list("aacc"), den=np.ones(4))
    assert HarmonicMean(p, r).value(zero) == 0.0
    # no unit counted: undefined
    assert np.isnan(Ratio("hit", "den").value(_table(np.zeros(3), list("xyz"), den=np.zeros(3))))


@pytest.mark.parametrize("case", ["random", "one_class", "never_predicted", "ties_everywhere", "left_out"])
def test_weighted_f1_equals_sklearn(case: str) -> None:
    rng = np.random.default_rng(len(case))
    n = 90
    gold = rng.integers(0, 3, n)
    pred = np.where(rng.random(n) < 0.5, gold, rng.integers(0, 3, n))
    if case == "one_class":
        gold = np.zeros(n, dtype=int)
    elif case == "never_predicted":
        pred = np.where(pred == 2, 0, pred)
    elif case == "ties_everywhere":
        gold, pred = np.tile([0, 1, 2], n // 3), np.tile([1, 2, 0], n // 3)
    elif case == "left_out":
        gold = np.where(rng.random(n) < 0.2, -1, gold)  # gold "same" dropped from the 2-class subset, say
    keep = gold >= 0
    table = _table(np.zeros(n), [str(k) for k in range(n)], gold=gold.astype(float), pred=pred.astype(float))
    expected = 100 * f1_score(gold[keep], pred[keep], average="weighted", labels=[0, 1, 2], zero_division=0)
    assert WeightedF1("gold", "pred", 3).value(table) == pytest.approx(expected, abs=1e-10)


def test_weighted_f1_without_units_is_undefined() -> None:
    table = _table(np.zeros(2), ["a", "b"], gold=np.array([-1.0, -1.0]), pred=np.array([0.0, 1.0]))
    assert np.isnan(WeightedF1("gold", "pred", 3).value(table))


def _clustered(rng: np.random.Generator, n_clusters: int, size: int, sd: float) -> tuple[np.ndarray, list[str]]:
    effect = rng.normal(0.0, sd, n_clusters)
    p = 1.0 / (1.0 + np.exp(-(0.3 + np.repeat(effect, size))))
    return (rng.random(n_clusters * size) < p).astype(float), [f"c{k}" for k in np.repeat(np.arange(n_clusters), size)]


def test_cluster_bootstrap_width_equals_cluster_robust_standard_error() -> None:
    """The percentile interval's half-width is z * the cluster-robust SE of the mean (statsmodels OLS on a
    constant with ``cov_type="cluster"``); the unit-level SE is much smaller, so ignoring clusters fails."""
    rng = np.random.default_rng(11)
    hit, clusters = _clustered(rng, 150, 6, sd=1.5)
    table = _table(hit, clusters)
    est = bootstrap_metrics(table, {"acc": Ratio("hit", "one")}, n_resamples=8000, confidence=0.95, seed=1)["acc"]
    groups = pd.factorize(pd.Series(clusters))[0]
    fit = sm.OLS(100 * hit, np.ones((hit.size, 1))).fit(cov_type="cluster", cov_kwds={"groups": groups})
    robust = float(fit.bse[0])
    naive = float(sm.OLS(100 * hit, np.ones((hit.size, 1))).fit().bse[0])
    assert est.value == pytest.approx(float(fit.params[0]), abs=1e-9)
    assert (est.high - est.low) / 2 == pytest.approx(1.96 * robust, rel=0.08)
    assert robust > 1.5 * naive  # the design is one where clusters matter
    assert est.n_clusters == 150 and est.n_units == 900
    assert est.method == "percentile bootstrap over prompts, 8000 resamples"


def test_stratified_draw_keeps_every_stratum() -> None:
    """Clusters nested in strata are drawn within their stratum: a mean over strata whose outcomes are constant
    within each stratum never moves; drawn over all clusters, it would."""
    hit = np.array([1.0] * 6 + [0.0] * 6)
    table = _table(hit, [f"c{k // 2}" for k in range(12)], ["a"] * 6 + ["b"] * 6)
    mean = {"mean": Ratio("hit", "one", by_stratum=True)}
    kept = bootstrap_metrics(table, mean, n_resamples=500, confidence=0.95, seed=0)["mean"]
    assert (kept.value, kept.low, kept.high) == (50.0, 50.0, 50.0)
    assert "(stratified)" in kept.method
    pooled = bootstrap_metrics(table, {"acc": Ratio("hit", "one")}, n_resamples=500, confidence=0.95, seed=0, stratify=False)
    assert pooled["acc"].high - pooled["acc"].low > 20.0


@pytest.mark.parametrize("value", [0.0, 1.0])
def test_rate_with_equal_outcomes_is_not_certain(value: float) -> None:
    """Every pair tied (rate 0) or every pair won (rate 100): a bootstrap would repeat the value; the interval
    is Wilson over the units with the t quantile of the prompts (statsmodels' Wilson at the matching alpha)."""
    hit = np.full(40, value)
    table = _table(hit, [f"p{k // 4}" for k in range(40)])
    values, methods = outcome_keys(
        table, {"rate": Ratio("hit", "one")}, proportions=("rate",), n_resamples=300, confidence=0.95, seed=0
    )
    alpha = 2 * stats.norm.sf(stats.t.ppf(0.975, 9))  # 10 prompts of 4 pairs: 9 degrees of freedom
    low, high = proportion_confint(int(40 * value), 40, alpha=alpha, method="wilson")
    assert values["rate"] == 100 * value
    assert values["rate_ci_low"] == pytest.approx(100 * low, abs=1e-9)
    assert values["rate_ci_high"] == pytest.approx(100 * high, abs=1e-9)
    assert values["rate_ci_high"] - values["rate_ci_low"] > 10.0
    assert methods["rate"] == {"method": jackknife_method("prompt", False), "n_units": 40, "n_clusters": 10,
                               "unit": "pair", "cluster": "prompt", "confidence": 0.95}  # fmt: skip
    # the same rate over independent units: Wilson over the units
    free = _table(hit, [str(k) for k in range(40)])
    values, methods = outcome_keys(free, {"rate": Ratio("hit", "one")}, proportions=("rate",), n_resamples=300,
                                   confidence=0.95, seed=0)  # fmt: skip
    low, high = repaired_wilson(int(40 * value), 40)
    assert values["rate_ci_low"] == pytest.approx(100 * low, abs=1e-9)
    assert methods["rate"]["method"] == "Wilson score interval over independent pairs (repaired next to 0 and 100)"


def test_rate_that_varies_gets_the_jackknife_wilson_interval() -> None:
    """Reference: delete each prompt in a plain loop, the CR2-weighted jackknife variance, the effective
    sample size, and statsmodels' Wilson at the alpha whose z is the t quantile."""
    hit, clusters = _clustered(np.random.default_rng(2), 30, 4, sd=1.0)
    values, methods = outcome_keys(_table(hit, clusters), {"rate": Ratio("hit", "one")}, proportions=("rate",),
                                   n_resamples=300, confidence=0.95, seed=0)  # fmt: skip
    names = sorted(set(clusters))
    labels = np.asarray(clusters)
    left_out = np.array([100 * hit[labels != c].mean() for c in names])
    share = np.array([np.mean(labels == c) for c in names])
    variance = float(np.sum((1 - share) * (left_out - left_out.mean()) ** 2))
    p = hit.mean()
    n_eff = min(p * (1 - p) / (variance / 100**2), hit.size)
    alpha = 2 * stats.norm.sf(stats.t.ppf(0.975, 29))
    low, high = proportion_confint(p * n_eff, n_eff, alpha=alpha, method="wilson")
    assert values["rate_ci_low"] == pytest.approx(100 * low, abs=1e-9)
    assert values["rate_ci_high"] == pytest.approx(100 * high, abs=1e-9)
    assert methods["rate"]["method"] == jackknife_method("prompt", False)


def test_few_clusters_get_no_interval_and_say_why() -> None:
    hit, clusters = _clustered(np.random.default_rng(4), 4, 6, sd=1.0)
    values, methods = outcome_keys(_table(hit, clusters), {"rate": Ratio("hit", "one")}, proportions=("rate",),
                                   n_resamples=300, confidence=0.95, seed=0)  # fmt: skip
    assert "rate_ci_low" not in values and values["rate"] == pytest.approx(100 * hit.mean())
    assert methods["rate"]["method"] == "none: no interval: 4 prompts (at least 5 needed)"


def test_paired_identical_judges_differ_by_nothing() -> None:
    hit, clusters = _clustered(np.random.default_rng(5), 40, 3, sd=1.0)
    a = _table(hit, clusters)
    diff, reps, n_clusters = paired_metric_bootstrap(a, a, Ratio("hit", "one"), n_resamples=400, seed=0)
    assert diff == 0.0 and n_clusters == 40
    assert np.all(reps == 0.0)
    assert two_sided_p(reps) == 1.0


def _integer_p(count_differences: np.ndarray) -> float:
    """The bootstrap p-value counted on integer differences of hit counts (the exact reference)."""
    tail = min(int(np.sum(count_differences <= 0)), int(np.sum(count_differences >= 0)))
    return min(1.0, 2.0 * (tail + 1) / (count_differences.size + 1))


def test_two_sided_p_counts_exact_ties_like_integer_counts() -> None:
    """8 pairs, judge A wins 5 and B wins 5 of them on different pairs: many resampled differences are exactly
    0. The float p-value equals the integer count's, here and on 3,000 random paired averages over strata."""
    a = np.array([1, 1, 1, 1, 1, 0, 0, 0], dtype=float)
    b = np.array([0, 0, 1, 1, 1, 1, 1, 0], dtype=float)
    table_a, table_b = _table(a, [str(k) for k in range(8)]), _table(b, [str(k) for k in range(8)])
    _, reps, _ = paired_metric_bootstrap(table_a, table_b, Ratio("hit", "one", share_first=True), n_resamples=2000, seed=0)
    counts = np.rint(reps * 8 / 100).astype(int)  # each replicate is 100 * (k_a - k_b) / 8
    assert np.allclose(reps, 100 * counts / 8, atol=1e-9)
    assert np.any(reps == 0.0) or np.any(np.abs(reps) < 1e-12)
    assert two_sided_p(reps) == _integer_p(counts)

    # the average over strata of per-stratum rates (IsoVRBench's mean over interventions): equal averages
    # summed in another order differ in the last bit; the exact reference counts in units of 1 / lcm(sizes)
    rng = np.random.default_rng(0)
    mismatches = 0
    for _ in range(3000):
        sizes = rng.integers(1, 7, int(rng.integers(2, 9)))
        rates_a, rates_b = np.empty((100, sizes.size)), np.empty((100, sizes.size))
        exact = np.zeros(100, dtype=np.int64)
        lcm = math.lcm(*sizes.tolist())
        for s, k in enumerate(sizes.tolist()):
            xa, xb = (rng.random(k) < 0.6).astype(float), (rng.random(k) < 0.6).astype(float)
            idx = rng.integers(0, k, size=(100, k))
            ka, kb = xa[idx].sum(axis=1), xb[idx].sum(axis=1)
            rates_a[:, s], rates_b[:, s] = 100 * ka / k, 100 * kb / k
            exact += (ka - kb).astype(np.int64) * (lcm // k)
        mismatches += two_sided_p(rates_a.mean(axis=1) - rates_b.mean(axis=1)) != _integer_p(exact)
    assert mismatches == 0  # the rule before tie tolerance: 305 of these 3,000 cases
