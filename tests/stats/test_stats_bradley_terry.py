"""Bradley–Terry with ties: recovery of known parameters from simulated comparisons, agreement with
a direct numerical maximisation (scipy) and, without ties, with a statsmodels logistic fit."""

from __future__ import annotations

import numpy as np
import pytest
import statsmodels.api as sm
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

from mmjudge.errors import SchemaError
from mmjudge.stats import (
    bradley_terry,
    bradley_terry_ci,
    bradley_terry_ties,
    pairwise_counts,
)

THETA = np.array([0.4, 0.3, 0.2, 0.1])
BETA = 0.15


def simulate(theta, beta, per_pair, seed):
    """Counts from per_pair comparisons of every pair, outcome probabilities of Appendix F."""
    rng = np.random.default_rng(seed)
    n = len(theta)
    wins, ties = np.zeros((n, n), int), np.zeros((n, n), int)
    for i in range(n):
        for j in range(i + 1, n):
            p = np.array([theta[i], theta[j], beta]) / (theta[i] + theta[j] + beta)
            a, b, t = rng.multinomial(per_pair, p)
            wins[i, j], wins[j, i], ties[i, j], ties[j, i] = a, b, t, t
    return wins, ties


def neg_log_likelihood(params, wins, ties):
    """The Appendix F likelihood written out term by term, in log-parameters."""
    theta, beta = np.exp(params[:-1]), np.exp(params[-1])
    total = 0.0
    n = len(theta)
    for i in range(n):
        for j in range(n):
            if i != j:
                denom = theta[i] + theta[j] + beta
                total += wins[i, j] * np.log(theta[i] / denom)
                if i < j:
                    total += ties[i, j] * np.log(beta / denom)
    return -total


def test_recovers_known_theta_and_beta_from_simulated_counts():
    wins, ties = simulate(THETA, BETA, per_pair=20_000, seed=0)
    fit = bradley_terry_ties(wins, ties, names=list("abcd"))
    assert fit.converged and fit.names == tuple("abcd")
    assert fit.theta.sum() == pytest.approx(1.0)
    assert fit.theta == pytest.approx(THETA, abs=0.01)
    assert fit.beta == pytest.approx(BETA, abs=0.01)
    assert fit.ranking() == list("abcd")


def test_matches_direct_numerical_maximisation():
    wins, ties = simulate([0.5, 0.2, 0.2, 0.1], 0.3, per_pair=50, seed=1)
    fit = bradley_terry_ties(wins, ties)
    res = minimize(neg_log_likelihood, np.zeros(5), args=(wins, ties), method="BFGS", options={"gtol": 1e-9})
    theta = np.exp(res.x[:-1])
    assert fit.theta == pytest.approx(theta / theta.sum(), abs=1e-6)
    assert fit.beta == pytest.approx(np.exp(res.x[-1]) / theta.sum(), abs=1e-6)
    assert fit.log_likelihood == pytest.approx(-res.fun, abs=1e-8)
    params = np.log(np.append(fit.theta, fit.beta))
    assert fit.log_likelihood == pytest.approx(-neg_log_likelihood(params, wins, ties), rel=1e-12)


def test_plain_bradley_terry_matches_statsmodels_logistic_regression():
    wins, _ = simulate([0.35, 0.3, 0.2, 0.1, 0.05], 0.0, per_pair=40, seed=2)
    fit = bradley_terry(wins)
    rows, successes, failures = [], [], []
    for i in range(5):
        for j in range(i + 1, 5):
            x = np.zeros(5)
            x[i], x[j] = 1.0, -1.0
            rows.append(x[1:])  # model 0 is the reference level
            successes.append(wins[i, j])
            failures.append(wins[j, i])
    glm = sm.GLM(np.column_stack([successes, failures]), np.array(rows), family=sm.families.Binomial()).fit()
    strengths = np.exp(np.concatenate([[0.0], glm.params]))
    assert fit.beta == 0.0
    assert fit.theta == pytest.approx(strengths / strengths.sum(), abs=1e-7)
    assert fit.log_likelihood == pytest.approx(
        np.sum(wins * np.log(fit.theta[:, None] / (fit.theta[:, None] + fit.theta[None, :] + np.eye(5)))),
        rel=1e-10,
    )


def test_pairwise_counts_from_comparison_rows():
    counts = pairwise_counts(
        ["m1", "m2", "m1", "m3", "m2"],
        ["m2", "m1", "m3", "m1", "m3"],
        ["first", "first", "tie", "second", "tie"],
    )
    assert counts.names == ("m1", "m2", "m3")
    assert counts.wins.tolist() == [[0, 1, 1], [1, 0, 0], [0, 0, 0]]
    assert counts.ties.tolist() == [[0, 0, 1], [0, 0, 1], [1, 1, 0]]


def test_bootstrap_intervals_cover_the_truth_and_are_seeded():
    wins, ties = simulate(THETA, BETA, per_pair=2000, seed=3)
    ci = bradley_terry_ci(wins, ties, n_resamples=400, seed=1)
    assert np.all(ci.theta.low <= THETA) and np.all(ci.theta.high >= THETA)
    assert ci.beta.low <= BETA <= ci.beta.high
    assert np.all(ci.theta.high - ci.theta.low < 0.05)
    again = bradley_terry_ci(wins, ties, n_resamples=400, seed=1)
    assert np.array_equal(again.theta.low, ci.theta.low) and again.beta == ci.beta


def test_model_that_never_wins_gets_zero_strength_with_a_warning():
    wins = np.array([[0, 3, 2], [1, 0, 2], [0, 0, 0]])
    ties = np.array([[0, 0, 1], [0, 0, 1], [1, 1, 0]])
    with pytest.warns(RuntimeWarning, match="never win"):
        fit = bradley_terry_ties(wins, ties)
    assert fit.theta[2] == 0.0 and fit.theta[:2].sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: bradley_terry_ties([[0, 1, 2]]), "square"),
        (lambda: bradley_terry_ties([[0, -1], [1, 0]]), "negative or non-finite"),
        (lambda: bradley_terry_ties([[0, np.nan], [1, 0]]), "negative or non-finite"),
        (lambda: bradley_terry_ties([[1, 1], [1, 0]]), "zero diagonal"),
        (lambda: bradley_terry_ties([[0, 1], [1, 0]], [[0, 1], [0, 0]]), "symmetric"),
        (
            lambda: bradley_terry_ties(
                np.ones((4, 4)) - np.eye(4) - np.kron(np.eye(2)[::-1], np.ones((2, 2)))
            ),
            "disconnected",
        ),
        (lambda: bradley_terry([[0, 1], [1, 0]], names=["a"]), "1 entries for 2 models"),
        (lambda: pairwise_counts(["a"], ["b", "c"], ["tie"]), "first=1, second=2"),
        (lambda: pairwise_counts(["a"], ["b"], ["draw"]), "outside"),
        (lambda: pairwise_counts(["a"], ["a"], ["tie"]), "against itself"),
    ],
)
def test_bad_input_raises_schema_error(call, message):
    with pytest.raises(SchemaError, match=message):
        call()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 6))
def test_relabelling_models_permutes_the_fit(seed, n):
    rng = np.random.default_rng(seed)
    wins = rng.integers(1, 30, (n, n)) * (1 - np.eye(n, dtype=int))
    upper = np.triu(rng.integers(0, 10, (n, n)), 1)
    ties = upper + upper.T
    order = rng.permutation(n)
    fit = bradley_terry_ties(wins, ties)
    moved = bradley_terry_ties(wins[np.ix_(order, order)], ties[np.ix_(order, order)])
    assert moved.theta == pytest.approx(fit.theta[order], abs=1e-8)
    assert moved.beta == pytest.approx(fit.beta, rel=1e-7)
    assert moved.log_likelihood == pytest.approx(fit.log_likelihood, rel=1e-10)
