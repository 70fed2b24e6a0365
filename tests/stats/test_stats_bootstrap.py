"""Bootstrap intervals: agreement with scipy.stats.bootstrap and the normal approximation,
determinism, the paired design and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from mmjudge.errors import SchemaError
from mmjudge.stats import (
    ConfidenceInterval,
    bootstrap_ci,
    bootstrap_cis,
    paired_bootstrap_diff,
)


def scipy_seed(function, seed):
    """The seed keyword of a scipy resampling function: ``rng`` (SciPy 1.15+) or, before it, ``random_state``
    given the generator ``rng=seed`` would make (the same stream), so the oldest allowed SciPy runs this too."""
    import inspect

    if "rng" in inspect.signature(function).parameters:
        return {"rng": seed}
    return {"random_state": np.random.default_rng(seed)}


@pytest.fixture()
def sample() -> np.ndarray:
    return np.random.default_rng(3).normal(1.0, 2.0, size=300)


def test_mean_interval_matches_scipy_percentile_bootstrap(sample):
    ours = bootstrap_ci(sample, n_resamples=10_000, seed=0)
    ref = sps.bootstrap(
        (sample,), np.mean, n_resamples=10_000, method="percentile", **scipy_seed(sps.bootstrap, 1)
    )
    se = sample.std() / np.sqrt(sample.size)
    assert ours.estimate == pytest.approx(sample.mean())
    assert ours.low == pytest.approx(ref.confidence_interval.low, abs=0.1 * se)
    assert ours.high == pytest.approx(ref.confidence_interval.high, abs=0.1 * se)


def test_mean_interval_close_to_normal_theory(sample):
    ci = bootstrap_ci(sample, confidence=0.9, n_resamples=20_000, seed=5)
    se = sample.std() / np.sqrt(sample.size)
    z = sps.norm.ppf(0.95)
    assert ci.low == pytest.approx(sample.mean() - z * se, abs=0.15 * se)
    assert ci.high == pytest.approx(sample.mean() + z * se, abs=0.15 * se)
    assert ci.confidence == 0.9


def test_callable_statistic_matches_scipy_median(sample):
    ours = bootstrap_ci(sample, np.median, n_resamples=5000, seed=2)
    ref = sps.bootstrap(
        (sample,), np.median, n_resamples=5000, method="percentile", **scipy_seed(sps.bootstrap, 2)
    )
    se = ref.standard_error
    assert ours.estimate == pytest.approx(np.median(sample))
    assert ours.low == pytest.approx(ref.confidence_interval.low, abs=0.5 * se)
    assert ours.high == pytest.approx(ref.confidence_interval.high, abs=0.5 * se)


def test_seeded_and_deterministic(sample):
    assert bootstrap_ci(sample, seed=7, n_resamples=500) == bootstrap_ci(sample, seed=7, n_resamples=500)
    assert bootstrap_ci(sample, seed=7, n_resamples=500) != bootstrap_ci(sample, seed=8, n_resamples=500)


def test_columns_share_resamples_and_match_one_dimensional_runs(sample):
    table = np.column_stack([sample, sample**2, np.exp(sample)])
    joint = bootstrap_ci(table, n_resamples=3000, seed=4)
    assert isinstance(joint, ConfidenceInterval) and joint.low.shape == (3,)
    per_column = bootstrap_cis(table, n_resamples=3000, seed=4)
    for k, ci in enumerate(per_column):
        single = bootstrap_ci(table[:, k], n_resamples=3000, seed=4)
        assert ci.estimate == pytest.approx(single.estimate)
        assert ci.low == pytest.approx(single.low, rel=1e-12)
        assert ci.high == pytest.approx(single.high, rel=1e-12)
        assert (ci.low, ci.high) == (joint.low[k], joint.high[k])


@pytest.mark.parametrize("shape", [(2000,), (2000, 2)])
def test_mean_of_few_distinct_values_agrees_with_item_resampling(shape):
    # 0/1 data takes the multinomial-count path; the callable statistic resamples item indices
    data = (np.random.default_rng(8).random(shape) < 0.7).astype(float)
    fast = bootstrap_ci(data, n_resamples=20_000, seed=1)
    by_items = bootstrap_ci(data, lambda r, axis: r.mean(axis=axis), n_resamples=20_000, seed=2)
    se = data.std(axis=0) / np.sqrt(len(data))
    assert np.allclose(fast.estimate, data.mean(axis=0))
    assert np.all(np.abs(np.asarray(fast.low) - by_items.low) < 0.1 * se)
    assert np.all(np.abs(np.asarray(fast.high) - by_items.high) < 0.1 * se)
    assert np.all(np.abs(np.asarray(fast.low) - (data.mean(axis=0) - 1.96 * se)) < 0.15 * se)


def test_paired_difference_interval_and_p_value():
    rng = np.random.default_rng(0)
    base = rng.normal(size=400)
    better = base + 0.3 + rng.normal(scale=0.2, size=400)
    res = paired_bootstrap_diff(better, base, n_resamples=4000, seed=1)
    assert res.estimate == pytest.approx(np.mean(better) - np.mean(base))
    assert 0 < res.low < res.estimate < res.high
    # every resampled difference is positive: the p-value is the smallest one possible
    assert res.p_value == pytest.approx(2 / 4001)
    same = paired_bootstrap_diff(base, base, n_resamples=200)
    assert (same.estimate, same.low, same.high, same.p_value) == (0.0, 0.0, 0.0, 1.0)


def test_paired_interval_equals_bootstrap_of_differences_and_p_value_agrees_with_interval():
    rng = np.random.default_rng(11)
    for shift in (0.0, 0.05, 0.1, 0.2):
        a = rng.integers(0, 2, 300).astype(float)
        b = np.where(rng.random(300) < 0.8, a, 1 - a) - shift * (rng.random(300) < 0.5)
        res = paired_bootstrap_diff(a, b, n_resamples=3000, seed=2)
        ci = bootstrap_ci(a - b, n_resamples=3000, seed=2)
        assert (res.low, res.high) == (ci.low, ci.high)
        excludes_zero = res.low > 0 or res.high < 0
        assert excludes_zero == (res.p_value <= 0.05 + 2 / 3001)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: bootstrap_ci([]), "`values` is empty"),
        (lambda: bootstrap_ci([1.0, float("nan"), 2.0]), r"1 non-finite values .* positions \[1\]"),
        (lambda: bootstrap_ci([[1.0], [np.inf]]), r"positions \[\(1, 0\)\]"),
        (lambda: bootstrap_ci(["a", "b"]), "must hold numbers"),
        (lambda: bootstrap_ci([1.0, 2.0], confidence=1.0), "`confidence`"),
        (lambda: bootstrap_ci([1.0, 2.0], n_resamples=0), "`n_resamples`"),
        (lambda: bootstrap_ci([1.0, 2.0], statistic="median"), "`statistic`"),
        (lambda: paired_bootstrap_diff([1.0, 2.0], [1.0]), "a=2, b=1"),
        (lambda: bootstrap_cis([1.0, 2.0]), "2 dimensions"),
    ],
)
def test_bad_input_raises_schema_error(call, message):
    with pytest.raises(SchemaError, match=message):
        call()
