"""Fleiss' and Cohen's kappa against statsmodels and scikit-learn; item-bootstrap interval."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats import inter_rater

from mmjudge.errors import SchemaError
from mmjudge.stats import cohen_kappa, fleiss_kappa, fleiss_kappa_ci, rating_table

LABELS = np.array(["FF", "WF", "FL", "LL"])


def _statsmodels_fleiss(ratings) -> float:
    table, _ = inter_rater.aggregate_raters(np.asarray(ratings))
    return float(inter_rater.fleiss_kappa(table, method="fleiss"))


@pytest.mark.parametrize(
    ("n_items", "n_raters", "n_cat", "seed"), [(100, 3, 4, 0), (30, 5, 2, 1), (7, 2, 3, 2)]
)
def test_fleiss_matches_statsmodels(n_items, n_raters, n_cat, seed):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n_cat, n_items)
    noisy = np.where(
        rng.random((n_items, n_raters)) < 0.6, truth[:, None], rng.integers(0, n_cat, (n_items, n_raters))
    )
    assert fleiss_kappa(noisy) == pytest.approx(_statsmodels_fleiss(noisy), abs=1e-12)
    # string labels give the same kappa as their codes
    assert fleiss_kappa(LABELS[noisy].tolist()) == pytest.approx(_statsmodels_fleiss(noisy), abs=1e-12)


def test_rating_table_counts_per_item():
    table, categories = rating_table([["a", "b", "b"], ["c", "c", "c"]])
    assert categories == ["a", "b", "c"]
    assert table.tolist() == [[1, 2, 0], [0, 0, 3]]


def test_fleiss_undefined_when_all_ratings_agree_on_one_category():
    with pytest.warns(RuntimeWarning, match="undefined"):
        assert np.isnan(fleiss_kappa([["a", "a"], ["a", "a"]]))


def test_fleiss_ci_agrees_with_a_loop_over_statsmodels():
    rng = np.random.default_rng(4)
    truth = rng.integers(0, 4, 100)
    ratings = np.where(rng.random((100, 3)) < 0.5, truth[:, None], rng.integers(0, 4, (100, 3)))
    ci = fleiss_kappa_ci(ratings, n_resamples=4000, seed=0)
    loop_rng = np.random.default_rng(123)
    boot = [_statsmodels_fleiss(ratings[loop_rng.integers(0, 100, 100)]) for _ in range(1500)]
    ref_low, ref_high = np.quantile(boot, [0.025, 0.975])
    assert ci.estimate == pytest.approx(_statsmodels_fleiss(ratings))
    assert ci.low == pytest.approx(ref_low, abs=0.025)
    assert ci.high == pytest.approx(ref_high, abs=0.025)
    assert ci.low < ci.estimate < ci.high


def test_fleiss_ci_skips_undefined_resamples_with_a_warning():
    ratings = [["a", "a"]] * 9 + [["a", "b"]]
    with pytest.warns(RuntimeWarning, match="left out"):
        ci = fleiss_kappa_ci(ratings, n_resamples=300)
    assert np.isfinite(ci.low) and np.isfinite(ci.high)


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_matches_sklearn(weights):
    rng = np.random.default_rng(9)
    a = rng.integers(0, 4, 200)
    b = np.where(rng.random(200) < 0.7, a, rng.integers(0, 4, 200))
    assert cohen_kappa(a.tolist(), b.tolist(), weights=weights) == pytest.approx(
        cohen_kappa_score(a, b, weights=weights), abs=1e-12
    )
    order = ["FF", "WF", "FL", "LL"]
    sa, sb = [order[i] for i in a], [order[i] for i in b]
    assert cohen_kappa(sa, sb, weights=weights, labels=order) == pytest.approx(
        cohen_kappa_score(sa, sb, weights=weights, labels=order), abs=1e-12
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: fleiss_kappa([]), "`ratings` is empty"),
        (lambda: fleiss_kappa([["a", None], ["a", "b"]]), r"1 missing labels .* positions \[1\]"),
        (lambda: fleiss_kappa([["a", float("nan")]]), "missing labels"),
        (lambda: fleiss_kappa([["a", "b"], ["a"]]), "same number of raters"),
        (lambda: fleiss_kappa([["a"], ["b"]]), "at least 2 raters"),
        (lambda: cohen_kappa(["a"], ["a", "b"]), "a=1, b=2"),
        (lambda: cohen_kappa([], []), "empty"),
        (lambda: cohen_kappa(["a", "z"], ["a", "b"], labels=["a", "b"]), r"not in `labels`.*'z'"),
        (lambda: cohen_kappa(["a"], ["b"], weights="cubic"), "`weights`"),
    ],
)
def test_bad_input_raises_schema_error(call, message):
    with pytest.raises(SchemaError, match=message):
        call()
