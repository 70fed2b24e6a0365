"""The cluster jackknife and the intervals built on it, against plain references.

- the variance: a delete-one loop written out here (pandas / scikit-learn / statsmodels recompute the
  statistic without each cluster), CR2 weights, within strata; for a mean of equal clusters the textbook
  ``s^2 / G``;
- the intervals: scipy's t interval, statsmodels' Wilson interval at the alpha whose z is the t quantile;
- degenerate inputs: one cluster, a stratum with one cluster, undefined leave-one-out values, all-equal
  values (never a zero-width interval), row order.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import f1_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa
from statsmodels.stats.proportion import proportion_confint

from mmjudge.stats import (
    Outcomes,
    Ratio,
    WeightedF1,
    effective_clusters,
    fleiss_kappa_jackknife,
    jackknife,
    jackknife_metrics,
    mean_interval,
    rate_df,
    t_interval,
    wilson_effective,
)


def _loop_variance(left_out: np.ndarray, sizes: np.ndarray) -> float:
    share = sizes / sizes.sum()
    return float(np.sum((1 - share) * (left_out - left_out.mean()) ** 2))


def test_mean_of_equal_clusters_is_the_textbook_variance() -> None:
    rng = np.random.default_rng(0)
    means = rng.normal(size=12)
    spread = jackknife(np.column_stack([means, np.ones(12)]), np.arange(12), lambda t: t[..., 0] / t[..., 1])
    assert spread.variance == pytest.approx(np.var(means, ddof=1) / 12, rel=1e-12)
    assert (spread.df, spread.n_clusters, spread.n_units, spread.stratified) == (11, 12, 12, False)


def test_pooled_rate_over_unequal_clusters_equals_the_loop() -> None:
    rng = np.random.default_rng(1)
    sizes = np.array([1, 1, 2, 7, 1, 3, 15, 1, 4])
    labels = np.repeat(np.arange(sizes.size), sizes)
    hit = (rng.random(labels.size) < 0.6).astype(float)
    table = Outcomes(tuple(map(str, range(labels.size))), tuple(f"c{k}" for k in labels),
                     {"hit": hit, "one": np.ones(labels.size)})  # fmt: skip
    spread = jackknife_metrics(table, {"rate": Ratio("hit", "one")})["rate"]
    left_out = np.array([100 * hit[labels != c].mean() for c in range(sizes.size)])
    assert spread.value == pytest.approx(100 * hit.mean())
    assert spread.variance == pytest.approx(_loop_variance(left_out, sizes.astype(float)), rel=1e-12)
    # Bell-McCaffrey degrees of freedom: (sum n)^2 / sum n^2 - 1, floored
    assert rate_df(spread) == int(np.floor(sizes.sum() ** 2 / np.sum(sizes**2) - 1))
    assert effective_clusters(spread.size_moments, 0.0) == pytest.approx(sizes.sum() ** 2 / np.sum(sizes**2))


def test_stratified_mean_of_rates_equals_the_loop_within_strata() -> None:
    """Clusters nested in strata: the variance is summed within each stratum (JKn) and ``df = G - H``."""
    rng = np.random.default_rng(2)
    strata = np.repeat(["a", "b", "c"], [12, 18, 9])
    cluster = np.array([f"{s}{k // 3}" for s, k in zip(strata, range(strata.size), strict=True)])
    hit = (rng.random(strata.size) < np.where(strata == "a", 0.9, 0.5)).astype(float)
    table = Outcomes(tuple(map(str, range(hit.size))), tuple(cluster), {"hit": hit, "one": np.ones(hit.size)},
                     tuple(strata))  # fmt: skip
    metric = Ratio("hit", "one", by_stratum=True)
    spread = jackknife_metrics(table, {"avg": metric})["avg"]

    def avg(keep: np.ndarray) -> float:
        return float(np.mean([100 * hit[keep & (strata == s)].mean() for s in "abc"]))

    expected, df = 0.0, 0
    for s in "abc":
        names = sorted(set(cluster[strata == s]))
        left_out = np.array([avg(cluster != c) for c in names])
        within = _loop_variance(left_out, np.array([np.sum(cluster == c) for c in names], dtype=float))
        # no stratum's variance under its binomial one with 2/3 of a success and of a failure added (Price-Bonett, 3 rates)
        x, n = hit[strata == s].sum(), np.sum(strata == s)
        p = (x + 2 / 3) / (n + 4 / 3)
        expected += max(within, (100 / 3) ** 2 * p * (1 - p) / (n + 4 / 3))
        df += len(names) - 1
    assert spread.stratified and spread.df == df == 13 - 3
    assert spread.variance == pytest.approx(expected, rel=1e-12)


def test_a_stratum_with_one_cluster_is_not_jackknifed_within_itself() -> None:
    hit = np.array([1.0, 0, 1, 1, 0, 1, 1, 0])
    strata = ("a", "a", "a", "a", "a", "a", "b", "b")
    clusters = ("x", "x", "y", "y", "z", "z", "w", "w")  # stratum b holds one cluster
    table = Outcomes(tuple(map(str, range(8))), clusters, {"hit": hit, "one": np.ones(8)}, strata)
    spread = jackknife_metrics(table, {"rate": Ratio("hit", "one")})["rate"]
    assert not spread.stratified and spread.df == 3 and spread.n_clusters == 4


def test_weighted_f1_equals_the_scikit_learn_loop() -> None:
    rng = np.random.default_rng(3)
    sizes = rng.integers(1, 6, 15)
    labels = np.repeat(np.arange(15), sizes)
    gold = rng.integers(0, 3, labels.size)
    pred = np.where(rng.random(labels.size) < 0.6, gold, rng.integers(0, 3, labels.size))
    table = Outcomes(tuple(map(str, range(labels.size))), tuple(map(str, labels)),
                     {"g": gold.astype(float), "p": pred.astype(float)})  # fmt: skip
    spread = jackknife_metrics(table, {"waf": WeightedF1("g", "p", 3)})["waf"]
    left_out = np.array([
        100 * f1_score(gold[labels != c], pred[labels != c], average="weighted", labels=[0, 1, 2], zero_division=0)
        for c in range(15)
    ])  # fmt: skip
    assert spread.value == pytest.approx(100 * f1_score(gold, pred, average="weighted"), abs=1e-9)
    assert spread.variance == pytest.approx(_loop_variance(left_out, sizes.astype(float)), rel=1e-9)


def test_fleiss_kappa_jackknife_equals_the_statsmodels_loop() -> None:
    rng = np.random.default_rng(4)
    ratings = rng.integers(0, 3, (25, 3))
    ratings[:8] = ratings[:8, :1]  # some unanimous items
    spread = fleiss_kappa_jackknife(ratings)

    def kappa(rows: np.ndarray) -> float:
        return float(fleiss_kappa(aggregate_raters(rows, n_cat=3)[0]))

    left_out = np.array([kappa(np.delete(ratings, i, axis=0)) for i in range(25)])
    assert spread.value == pytest.approx(kappa(ratings), abs=1e-12)
    assert spread.variance == pytest.approx(_loop_variance(left_out, np.ones(25)), rel=1e-9)


@pytest.mark.filterwarnings("error")
def test_one_item_has_kappa_but_no_variance_and_no_numpy_warning() -> None:
    """Leaving the only item out leaves nothing (0 / 0): the variance is NaN, said by the Spread, not by a
    numpy RuntimeWarning that a MIST run on few items printed to the user."""
    spread = fleiss_kappa_jackknife([["a", "b"]])
    assert spread.value == float(fleiss_kappa(aggregate_raters(np.array([[0, 1]]), n_cat=2)[0]))
    assert np.isnan(spread.variance) and spread.df == 0 and spread.n_clusters == 1


def test_row_order_does_not_move_the_variance() -> None:
    rng = np.random.default_rng(5)
    hit = (rng.random(300) < 0.3).astype(float)
    codes = np.arange(300)  # independent units: every unit its own cluster
    order = rng.permutation(300)
    terms = np.column_stack([hit, np.ones(300)])
    first = jackknife(terms, codes, lambda t: 100 * t[..., 0] / t[..., 1])
    second = jackknife(terms[order], codes, lambda t: 100 * t[..., 0] / t[..., 1])
    assert first == second


def test_t_interval_equals_scipy() -> None:
    low, high = t_interval(3.0, 0.25, 7, 0.9)
    assert (low, high) == pytest.approx(stats.t.interval(0.9, 7, loc=3.0, scale=0.5))
    assert all(np.isnan(t_interval(3.0, 0.25, 0, 0.9)))


@pytest.mark.parametrize(("value", "variance", "n", "df"), [(62.5, 40.0, 200, 17), (3.0, 1.5, 400, 40),
                                                             (90.0, 2.0, 80, 6), (50.0, 1e-6, 30, 29)])  # fmt: skip
def test_wilson_effective_equals_statsmodels_at_the_t_alpha(value: float, variance: float, n: int, df: int) -> None:
    """Away from the ends (more than four successes and failures on the effective sample size): no repair."""
    p = value / 100
    n_eff = min(max(p * (1 - p) / (variance / 1e4), 1.0), n)
    alpha = 2 * stats.norm.sf(stats.t.ppf(0.975, df))
    low, high = proportion_confint(p * n_eff, n_eff, alpha=alpha, method="wilson")
    assert wilson_effective(value, variance, n, df, 0.95) == pytest.approx((100 * low, 100 * high), abs=1e-9)


def _bcd_low(x: int, n: int, alpha: float = 0.05) -> float:
    """Brown, Cai and DasGupta (2001), section 4.1.1: for x = 1, 2 (n <= 50) or x = 1, 2, 3 (51 <= n <= 100)
    successes the Wilson lower bound is replaced by lambda_x / n, where exp(-lambda) sum_{j<x} lambda^j / j! =
    1 - alpha (the one-sided Poisson bound chi2_{2x}(alpha) / 2)."""
    return float(stats.chi2.ppf(alpha, 2 * x)) / 2.0 / n


@pytest.mark.parametrize(("x", "n"), [(1, 20), (2, 40), (2, 50), (3, 51), (3, 100), (1, 100)])
def test_the_boundary_repair_at_whole_counts_is_brown_cai_and_dasgupta(x: int, n: int) -> None:
    value, df = 100.0 * x / n, 10**9  # t at 10^9 df is z
    n_eff_variance = value * (100.0 - value) / n  # an effective sample size of exactly n
    low, _ = wilson_effective(value, n_eff_variance, 10 * n, df, 0.95)
    wilson = proportion_confint(x, n, alpha=0.05, method="wilson")
    assert low == pytest.approx(100.0 * min(wilson[0], _bcd_low(x, n)), rel=1e-6)
    mirrored = wilson_effective(100.0 - value, n_eff_variance, 10 * n, df, 0.95)
    assert mirrored[1] == pytest.approx(100.0 - low, rel=1e-6)  # the upper end for x failures


@pytest.mark.parametrize(("x", "n"), [(4, 50), (4, 100), (2, 101), (3, 150)])
def test_no_repair_outside_brown_cai_and_dasgupta_range(x: int, n: int) -> None:
    value = 100.0 * x / n
    low, _ = wilson_effective(value, value * (100.0 - value) / n, 10 * n, 10**9, 0.95)
    assert low == pytest.approx(100.0 * proportion_confint(x, n, alpha=0.05, method="wilson")[0], rel=1e-6)


@pytest.mark.parametrize("value", [0.7, 2.5, 4.0, 97.5])
def test_the_boundary_repair_is_continuous_in_the_effective_sample_size(value: float) -> None:
    """A clustered rate's effective sample size is rarely whole: the repaired ends move smoothly with it (at
    2.5% the lower end jumped from 0.128 to 0.421 as n_eff moved from 40.0 to 40.5, the repair applying only
    where p * n_eff was whole)."""
    grid = np.linspace(20.0, 130.0, 4401)  # steps of 0.025
    ends = np.array([wilson_effective(value, value * (100.0 - value) / n, 10_000, 10**6, 0.95) for n in grid])
    steps = np.abs(np.diff(ends, axis=0)).max(axis=0)
    assert steps.max() < 0.03, f"largest step {steps.max():.4f} between neighbouring n_eff 0.025 apart"
    if value == 2.5:
        at = {n: wilson_effective(2.5, 2.5 * 97.5 / n, 10_000, 10**6, 0.95)[0] for n in (40.0, 40.5)}
        assert abs(at[40.5] - at[40.0]) < 0.01 and at[40.0] == pytest.approx(100.0 * _bcd_low(1, 40), rel=1e-4)


@pytest.mark.parametrize("value", [0.0, 100.0])
def test_wilson_effective_never_collapses_at_the_ends(value: float) -> None:
    low, high = wilson_effective(value, 0.0, 40, 4, 0.95)
    assert high - low > 15.0 and low <= value <= high


def test_mean_interval_without_spread_is_not_certain() -> None:
    ratings = np.repeat(np.array([[0], [1], [2], [1], [0], [2]]), 3, axis=1)  # every item unanimous: kappa 1
    spread = fleiss_kappa_jackknife(ratings)
    low, high, how = mean_interval(spread, 0.95, (-1.0, 1.0), "item")
    assert spread.value == 1.0 and spread.variance == 0.0
    assert high == 1.0 and low < 0.6 and how.startswith("Wilson bound over 6 units")
    varied = fleiss_kappa_jackknife(np.random.default_rng(6).integers(0, 3, (30, 3)))
    low, high, how = mean_interval(varied, 0.95, (-1.0, 1.0), "item")
    expected = t_interval(varied.value, varied.variance, 29, 0.95)
    assert (low, high) == pytest.approx((max(expected[0], -1.0), min(expected[1], 1.0)))
    assert how == "t interval (jackknife over items; t quantile)"


def test_a_stratum_that_shows_no_spread_keeps_the_price_bonett_variance() -> None:
    """A mean of two rates, 5 of 5 and 5 of 10 independent pairs: the first stratum's jackknife variance is 0, so
    its variance is Agresti and Caffo's (one success and one failure added: Price and Bonett's rule for two rates),
    as statsmodels computes it for a difference of two rates; the second keeps its jackknife ``p q / (n - 1)``."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    hit = np.array([1.0] * 5 + [1.0] * 5 + [0.0] * 5)
    strata = ("a",) * 5 + ("b",) * 10
    table = Outcomes(tuple(map(str, range(15))), tuple(map(str, range(15))), {"hit": hit, "one": np.ones(15)}, strata)
    spread = jackknife_metrics(table, {"avg": Ratio("hit", "one", by_stratum=True)})["avg"]
    # statsmodels' Agresti-Caffo interval of 5/5 - 0/1: its half width over z is sqrt(var_a + var_of(0/1)).
    low, high = confint_proportions_2indep(5, 5, 0, 1, method="agresti-caffo", compare="diff")
    z = 1.959963984540054
    zero_one = (1 / 3) * (2 / 3) / 3
    var_a = ((high - low) / (2 * z)) ** 2 - zero_one
    assert var_a == pytest.approx((6 / 7) * (1 / 7) / 7, rel=1e-9)
    assert spread.variance == pytest.approx(50.0**2 * (var_a + 0.25 / 9), rel=1e-9)
