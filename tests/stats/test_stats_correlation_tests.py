"""Spearman permutation test against scipy; Welch t-test and Benjamini–Yekutieli against
scipy/statsmodels and the formulas written out."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from mmjudge.errors import SchemaError
from mmjudge.stats import benjamini_yekutieli, spearman_permutation_test, welch_t_test


def scipy_seed(function, seed):
    """The seed keyword of a scipy resampling function: ``rng`` (SciPy 1.15+) or, before it, ``random_state``
    given the generator ``rng=seed`` would make (the same stream), so the oldest allowed SciPy runs this too."""
    import inspect

    if "rng" in inspect.signature(function).parameters:
        return {"rng": seed}
    return {"random_state": np.random.default_rng(seed)}


def scipy_permutation_p(x, y, alternative="two-sided", n_resamples=np.inf, rng=None):
    """scipy's permutation test of Spearman's rho (exact when n_resamples is inf)."""
    rx = sps.rankdata(x)

    def statistic(yy, axis=-1):
        ry = sps.rankdata(yy, axis=axis)
        ry = ry - ry.mean(axis=axis, keepdims=True)
        cx = rx - rx.mean()
        return (ry * cx).sum(axis=axis) / np.sqrt((cx**2).sum() * (ry**2).sum(axis=axis))

    return sps.permutation_test(
        (np.asarray(y, float),),
        statistic,
        permutation_type="pairings",
        n_resamples=n_resamples,
        alternative=alternative,
        vectorized=True,
        **scipy_seed(sps.permutation_test, rng),
    ).pvalue


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize(("n", "seed", "ties"), [(5, 0, False), (7, 1, False), (7, 2, True), (8, 3, True)])
def test_exact_matches_scipy_permutation_test(n, seed, ties, alternative):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 4, n) if ties else rng.normal(size=n)
    y = x + rng.normal(scale=1.5, size=n)
    if ties:
        y = np.round(y)
    res = spearman_permutation_test(x, y, alternative=alternative)
    assert res.method == "exact" and res.n_permutations == int(np.prod(range(1, n + 1)))
    assert res.rho == pytest.approx(sps.spearmanr(x, y).statistic, abs=1e-12)
    assert res.p_value == pytest.approx(scipy_permutation_p(x, y, alternative), abs=1e-12)


@pytest.mark.slow
def test_exact_at_n_10_matches_scipy_enumeration():
    rng = np.random.default_rng(4)
    x = rng.normal(size=10)
    y = x + rng.normal(size=10)
    res = spearman_permutation_test(x, y)
    assert res.method == "exact" and res.n_permutations == 3_628_800
    assert res.p_value == pytest.approx(scipy_permutation_p(x, y), abs=1e-12)


def test_monte_carlo_beyond_ten_close_to_scipy():
    rng = np.random.default_rng(5)
    x = rng.normal(size=25)
    y = 0.4 * x + rng.normal(size=25)
    res = spearman_permutation_test(x, y, n_resamples=20_000, seed=1)
    ref_p = scipy_permutation_p(x, y, n_resamples=20_000, rng=2)
    assert res.method == "monte_carlo" and res.n_permutations == 20_000
    assert res.rho == pytest.approx(sps.spearmanr(x, y).statistic, abs=1e-12)
    assert res.p_value == pytest.approx(ref_p, abs=0.01)
    again = spearman_permutation_test(x, y, n_resamples=20_000, seed=1)
    assert again == res


def test_perfect_monotone_relation_small_n():
    res = spearman_permutation_test([1, 2, 3, 4], [10, 20, 30, 40], alternative="greater")
    assert res.rho == pytest.approx(1.0) and res.p_value == pytest.approx(1 / 24)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: spearman_permutation_test([1, 2, 3], [1, 2]), "x=3, y=2"),
        (lambda: spearman_permutation_test([1, 1, 1], [1, 2, 3]), "`x` is constant"),
        (lambda: spearman_permutation_test([1, 2, np.nan], [1, 2, 3]), "non-finite"),
        (lambda: spearman_permutation_test([1], [1]), "at least 2 pairs"),
        (lambda: spearman_permutation_test([1, 2], [1, 2], alternative="up"), "`alternative`"),
    ],
)
def test_spearman_bad_input(call, message):
    with pytest.raises(SchemaError, match=message):
        call()


def test_welch_matches_scipy_and_the_formula():
    rng = np.random.default_rng(6)
    a, b = rng.normal(0, 1, 30), rng.normal(0.5, 3, 12)
    res = welch_t_test(a, b)
    ref = sps.ttest_ind(a, b, equal_var=False)
    assert (res.statistic, res.p_value, res.df) == pytest.approx(
        (ref.statistic, ref.pvalue, ref.df), rel=1e-12
    )
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    t = (a.mean() - b.mean()) / np.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.df == pytest.approx(df, rel=1e-12)
    assert res.p_value == pytest.approx(2 * sps.t.sf(abs(t), df), rel=1e-10)


def test_welch_bad_input():
    with pytest.raises(SchemaError, match="at least 2 values"):
        welch_t_test([1.0], [1.0, 2.0])
    with pytest.raises(SchemaError, match="non-finite"):
        welch_t_test([1.0, np.inf], [1.0, 2.0])
    with pytest.warns(RuntimeWarning, match="constant"):
        assert np.isnan(welch_t_test([2.0, 2.0], [2.0, 2.0]).statistic)
    with pytest.warns(RuntimeWarning, match="constant"):
        assert welch_t_test([1.0, 1.0], [2.0, 2.0]).p_value == 0.0


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("q", [0.05, 0.2])
def test_benjamini_yekutieli_matches_statsmodels(seed, q):
    rng = np.random.default_rng(seed)
    p = np.concatenate([rng.uniform(0, 0.01, 5), rng.uniform(0, 1, 15)])
    rng.shuffle(p)
    rejected, adjusted = benjamini_yekutieli(p, q=q)
    ref_rejected, ref_adjusted, _, _ = multipletests(p, alpha=q, method="fdr_by")
    assert rejected.tolist() == ref_rejected.tolist()
    assert adjusted == pytest.approx(ref_adjusted, rel=1e-12)


def test_benjamini_yekutieli_bad_input():
    with pytest.raises(SchemaError, match="outside"):
        benjamini_yekutieli([0.1, 1.5])
    with pytest.raises(SchemaError, match="empty"):
        benjamini_yekutieli([])


@settings(max_examples=30, deadline=None)
@given(
    x=st.lists(st.integers(0, 5), min_size=4, max_size=8),
    seed=st.integers(0, 1000),
)
def test_exact_test_is_symmetric_and_order_free(x, seed):
    rng = np.random.default_rng(seed)
    y = np.asarray(x) + rng.integers(-2, 3, len(x))
    if len(set(x)) < 2 or len(set(y.tolist())) < 2:
        return
    res = spearman_permutation_test(x, y)
    assert spearman_permutation_test(y, x).p_value == pytest.approx(res.p_value, abs=1e-12)
    order = rng.permutation(len(x))
    shuffled = spearman_permutation_test(np.asarray(x)[order], y[order])
    assert (shuffled.rho, shuffled.p_value) == pytest.approx((res.rho, res.p_value), abs=1e-12)
