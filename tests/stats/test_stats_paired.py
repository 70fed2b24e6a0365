"""The paired cluster bootstrap against a plain numpy loop of its rule, McNemar against statsmodels directly."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar

from mmjudge.errors import SchemaError
from mmjudge.stats import Outcomes, Ratio, mcnemar_exact, paired_metric_bootstrap
from mmjudge.stats._bootstrap import two_sided_p


def _outcomes(values: np.ndarray, clusters: list[str]) -> Outcomes:
    return Outcomes(tuple(f"u{k}" for k in range(len(values))), tuple(clusters),
                    {"x": np.asarray(values, dtype=float), "one": np.ones(len(values))})  # fmt: skip


MEAN = Ratio("x", "one", share_first=True)
"""100 x the mean of ``x``: a statistic of per-unit values, as every benchmark metric is."""


def reference_bootstrap(a, b, clusters, n_resamples, seed, confidence=0.95):
    """The rule written out: draw clusters with replacement, pool their units, difference of means."""
    names = list(dict.fromkeys(clusters))
    members = {c: [k for k, x in enumerate(clusters) if x == c] for c in names}
    draws = np.random.default_rng(seed).integers(0, len(names), size=(n_resamples, len(names)))
    diffs = []
    for row in draws:
        units = [k for c in row for k in members[names[c]]]
        diffs.append(100 * (np.mean(a[units]) - np.mean(b[units])))
    diffs = np.array(diffs)
    low, high = np.quantile(diffs, [(1 - confidence) / 2, (1 + confidence) / 2])
    tail = min(np.sum(diffs <= 0), np.sum(diffs >= 0))
    return diffs, low, high, min(1.0, 2 * (tail + 1) / (n_resamples + 1))


def test_paired_bootstrap_has_the_law_of_the_numpy_loop() -> None:
    """Clusters drawn as multinomial counts of their outcome types have the law of drawing clusters with
    replacement: the replicate differences match the loop's in mean, spread, percentile ends and p."""
    rng = np.random.default_rng(3)
    a, b = rng.random(30), rng.random(30) - 0.05
    clusters = [f"c{k // 3}" for k in range(30)]  # ten clusters of three units
    estimate, reps, n_clusters = paired_metric_bootstrap(
        _outcomes(a, clusters), _outcomes(b, clusters), MEAN, n_resamples=20_000, seed=11
    )
    loop, low, high, p = reference_bootstrap(a, b, clusters, 20_000, seed=12)
    assert estimate == pytest.approx(100 * (a.mean() - b.mean()), abs=1e-9) and n_clusters == 10
    sd = loop.std()
    assert reps.mean() == pytest.approx(loop.mean(), abs=0.05 * sd)
    assert reps.std() == pytest.approx(sd, rel=0.03)
    assert np.quantile(reps, [0.025, 0.975]) == pytest.approx([low, high], abs=0.1 * sd)
    assert two_sided_p(reps) == pytest.approx(p, abs=0.02)
    again = paired_metric_bootstrap(_outcomes(a, clusters), _outcomes(b, clusters), MEAN, n_resamples=20_000, seed=11)
    assert np.array_equal(again[1], reps)


def test_a_known_difference_is_significant_and_none_is_not() -> None:
    rng = np.random.default_rng(0)
    n = 400
    good, poor = (rng.random(n) < 0.9).astype(float), (rng.random(n) < 0.5).astype(float)
    clusters = [str(k) for k in range(n)]
    _, reps, _ = paired_metric_bootstrap(_outcomes(good, clusters), _outcomes(poor, clusters), MEAN, n_resamples=2000, seed=0)
    assert np.quantile(reps, 0.025) > 0 and two_sided_p(reps) < 0.01
    diff, same, _ = paired_metric_bootstrap(_outcomes(good, clusters), _outcomes(good.copy(), clusters), MEAN,
                                            n_resamples=2000, seed=0)  # fmt: skip
    assert diff == 0.0 and np.all(same == 0.0) and two_sided_p(same) == 1.0
    other = rng.permutation(good)  # the same rate, on other items: no difference in the mean
    diff, null, _ = paired_metric_bootstrap(_outcomes(good, clusters), _outcomes(other, clusters), MEAN,
                                            n_resamples=2000, seed=0)  # fmt: skip
    assert diff == 0.0 and np.quantile(null, 0.025) < 0.0 < np.quantile(null, 0.975) and two_sided_p(null) > 0.5


def test_single_and_empty_input() -> None:
    diff, reps, n_clusters = paired_metric_bootstrap(
        _outcomes(np.array([1.0]), ["x"]), _outcomes(np.array([0.0]), ["x"]), MEAN, n_resamples=99, seed=0
    )
    assert (diff, n_clusters) == (100.0, 1) and np.all(reps == 100.0)
    with pytest.raises(SchemaError, match="nothing to resample"):
        paired_metric_bootstrap(_outcomes(np.array([]), []), _outcomes(np.array([]), []), MEAN, n_resamples=10, seed=0)


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
