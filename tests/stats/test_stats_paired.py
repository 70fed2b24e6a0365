"""Paired cluster bootstrap against a plain numpy loop, McNemar against statsmodels directly."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar

from mmjudge.errors import SchemaError
from mmjudge.stats import mcnemar_exact, paired_cluster_bootstrap


def mean_of(values: np.ndarray):  # a weighted mean: the statistic of unit weights
    return lambda w: (w @ values) / w.sum(axis=1)


def reference_bootstrap(a, b, clusters, n_resamples, seed, confidence=0.95):
    """The rule written out: draw clusters with replacement, pool their units, difference of means."""
    names = list(dict.fromkeys(clusters))
    members = {c: [k for k, x in enumerate(clusters) if x == c] for c in names}
    draws = np.random.default_rng(seed).integers(0, len(names), size=(n_resamples, len(names)))
    diffs = []
    for row in draws:
        units = [k for c in row for k in members[names[c]]]
        diffs.append(np.mean(a[units]) - np.mean(b[units]))
    diffs = np.array(diffs)
    low, high = np.quantile(diffs, [(1 - confidence) / 2, (1 + confidence) / 2])
    tail = min(np.sum(diffs <= 0), np.sum(diffs >= 0))
    return low, high, min(1.0, 2 * (tail + 1) / (n_resamples + 1))


def test_cluster_bootstrap_equals_the_numpy_loop() -> None:
    rng = np.random.default_rng(3)
    a, b = rng.random(30), rng.random(30)
    clusters = [f"c{k // 3}" for k in range(30)]  # ten clusters of three units
    got = paired_cluster_bootstrap(mean_of(a), mean_of(b), clusters, n_resamples=500, seed=11)
    low, high, p = reference_bootstrap(a, b, clusters, 500, seed=11)
    assert got.estimate == pytest.approx(a.mean() - b.mean(), abs=1e-12)
    assert (got.low, got.high, got.p_value) == pytest.approx((low, high, p), abs=1e-12)
    assert (got.n_clusters, got.n_valid) == (10, 500)
    again = paired_cluster_bootstrap(mean_of(a), mean_of(b), clusters, n_resamples=500, seed=11)
    assert again == got


def test_a_known_difference_is_significant_and_none_is_not() -> None:
    rng = np.random.default_rng(0)
    n = 400
    good, poor = (rng.random(n) < 0.9).astype(float), (rng.random(n) < 0.5).astype(float)
    clusters = [str(k) for k in range(n)]
    r = paired_cluster_bootstrap(mean_of(good), mean_of(poor), clusters, n_resamples=2000)
    assert r.low > 0 and r.p_value < 0.01
    same = paired_cluster_bootstrap(mean_of(good), mean_of(good.copy()), clusters, n_resamples=2000)
    assert (same.estimate, same.low, same.high, same.p_value) == (0.0, 0.0, 0.0, 1.0)
    other = rng.permutation(good)  # the same rate, on other items: no difference in the mean
    null = paired_cluster_bootstrap(mean_of(good), mean_of(other), clusters, n_resamples=2000)
    assert null.estimate == 0.0 and null.low < 0.0 < null.high and null.p_value > 0.5


def test_undefined_resamples_are_left_out() -> None:
    values = np.array([1.0, 0.0, 1.0])
    only_c = lambda w: np.where(w[:, 2] > 0, w @ values / w.sum(axis=1), np.nan)  # noqa: E731
    r = paired_cluster_bootstrap(only_c, mean_of(values), ["a", "b", "c"], n_resamples=300, seed=1)
    draws = np.random.default_rng(1).integers(0, 3, size=(300, 3))
    assert r.n_valid == int(np.sum((draws == 2).any(axis=1)))


def test_single_and_empty_input() -> None:
    one = paired_cluster_bootstrap(mean_of(np.array([1.0])), mean_of(np.array([0.0])), ["x"], n_resamples=99)
    assert (one.estimate, one.low, one.high, one.n_clusters) == (1.0, 1.0, 1.0, 1)
    with pytest.raises(SchemaError, match="empty"):
        paired_cluster_bootstrap(mean_of(np.array([])), mean_of(np.array([])), [], n_resamples=10)


def statsmodels_p(a, b) -> float:
    a, b = np.asarray(a), np.asarray(b)
    table = [[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]]
    return float(mcnemar(table, exact=True).pvalue)


def test_mcnemar_equals_statsmodels_on_a_known_difference_and_none() -> None:
    rng = np.random.default_rng(5)
    a = rng.random(200) < 0.85
    b = a.copy()
    b[rng.choice(np.flatnonzero(a), 40, replace=False)] = False  # b loses 40 of a's hits
    b[rng.choice(np.flatnonzero(~a), 3, replace=False)] = True
    r = mcnemar_exact(a.astype(float), b.astype(float))
    assert (r.only_a, r.only_b) == (40, 3)
    assert r.p_value == pytest.approx(statsmodels_p(a, b), rel=1e-12) and r.p_value < 1e-6
    same = mcnemar_exact(a.astype(float), a.astype(float))  # no discordant unit
    assert (same.only_a, same.only_b, same.p_value) == (0, 0, 1.0)


def test_mcnemar_skips_units_not_scored_and_refuses_bad_input() -> None:
    r = mcnemar_exact([1, np.nan, 0, 1], [0, 1, np.nan, 1])
    assert (r.both, r.only_a, r.only_b, r.neither) == (1, 1, 0, 0)
    assert mcnemar_exact([1], [0]).p_value == pytest.approx(statsmodels_p([True], [False]))
    with pytest.raises(SchemaError, match="at least one unit"):
        mcnemar_exact([], [])
    with pytest.raises(SchemaError, match="0, 1 or NaN"):
        mcnemar_exact([2, 1], [0, 1])
    with pytest.raises(SchemaError, match="one length"):
        mcnemar_exact([1, 0], [1])
