"""Wilson intervals against statsmodels, category-count resampling, weighted F1 from counts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import f1_score
from statsmodels.stats.proportion import proportion_confint

from mmjudge.errors import SchemaError
from mmjudge.stats import multinomial_counts, weighted_f1_from_counts, wilson_interval


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99]),
)
def test_wilson_equals_statsmodels(kn, confidence):
    k, n = kn
    low, high = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
    ci = wilson_interval(k, n, confidence=confidence)
    assert ci.estimate == k / n
    assert ci.low == pytest.approx(max(float(low), 0.0), abs=1e-12)
    assert ci.high == pytest.approx(min(float(high), 1.0), abs=1e-12)
    assert 0.0 <= ci.low <= ci.estimate <= ci.high <= 1.0


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (0, 2), (2, 2), (0, 1000), (1000, 1000)])
def test_wilson_never_collapses_at_the_edges(k, n):
    ci = wilson_interval(k, n)
    assert ci.high - ci.low > 0
    assert (ci.low == 0.0) == (k == 0) and (ci.high == 1.0) == (k == n)


@pytest.mark.parametrize(
    ("k", "n", "match"),
    [(1, 0, "`n` must be a positive integer"), (-1, 3, "whole number"), (1.5, 3, "whole number"),
     (True, 3, "whole number"), (4, 3, "between 0 and n=3"), (float("nan"), 3, "whole number")],
)  # fmt: skip
def test_wilson_refuses_bad_counts(k, n, match):
    with pytest.raises(SchemaError, match=match):
        wilson_interval(k, n)


def test_wilson_refuses_bad_confidence():
    with pytest.raises(SchemaError, match="strictly between 0 and 1"):
        wilson_interval(1, 2, confidence=1.0)


def test_multinomial_counts_keep_the_total_and_the_shares():
    draws = multinomial_counts([[30, 10], [0, 60]], n_resamples=4000, seed=3)
    assert draws.shape == (4000, 2, 2) and (draws.sum(axis=(1, 2)) == 100).all()
    assert (draws[:, 1, 0] == 0).all()  # an empty category stays empty
    assert draws.mean(axis=0) == pytest.approx(np.array([[30, 10], [0, 60]]), abs=1.0)
    assert (multinomial_counts([5, 5], 3, seed=1) == multinomial_counts([5, 5], 3, seed=1)).all()
    for bad in ([], [0, 0], [-1, 3]):
        with pytest.raises(SchemaError, match="non-negative counts"):
            multinomial_counts(bad, 10)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=60))
def test_weighted_f1_from_counts_equals_sklearn(pairs):
    """Random (reference, prediction) pairs, single classes and never-predicted classes included."""
    labels = ["a1", "a2", "same"]
    table = np.zeros((3, 3), dtype=int)
    for r, p in pairs:
        table[r, p] += 1
    refs, preds = [labels[r] for r, _ in pairs], [labels[p] for _, p in pairs]
    seen = sorted(set(refs) | set(preds))
    expected = f1_score(refs, preds, labels=seen, average="weighted", zero_division=0)
    assert weighted_f1_from_counts(table) == pytest.approx(expected, abs=1e-12)
    batch = weighted_f1_from_counts(np.stack([table, table]))
    assert batch.shape == (2,) and batch == pytest.approx([expected] * 2, abs=1e-12)


def test_weighted_f1_from_counts_refuses_bad_tables():
    with pytest.raises(SchemaError, match=r"square \(C, C\)"):
        weighted_f1_from_counts([[1, 2, 3]])
    with pytest.raises(SchemaError, match="counts no item"):
        weighted_f1_from_counts([[0, 0], [0, 0]])
