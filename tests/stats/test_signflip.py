"""The paired sign-flip test and the paired jackknife, against references written out plainly.

The reference swaps the two judges' per-unit columns in every subset of clusters (``itertools.product``),
builds the swapped outcomes and asks the metric for each judge's value: no cluster sums, no bit tricks. The
inputs are chosen to break a careless implementation: ties (many flips with ``|D*| = |D|``), one to six
clusters, all outcomes equal, clusters of unequal size, a stratified ratio whose flips can be undefined, a
weighted F1 with left-out units, clusters that carry nothing for the key.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from mmjudge.errors import ConfigError, SchemaError
from mmjudge.stats import (
    Metric,
    Outcomes,
    Ratio,
    WeightedF1,
    paired_jackknife,
    sign_flip_test,
)

TIE = 1e-9


def table(clusters, columns, strata=()) -> Outcomes:
    n = len(clusters)
    return Outcomes(tuple(f"u{k}" for k in range(n)), tuple(clusters), {k: np.asarray(v, float) for k, v in columns.items()},
                    tuple(strata), "pair", "prompt")  # fmt: skip


def brute_force(a: Outcomes, b: Outcomes, metric: Metric) -> tuple[float, int, int]:
    """``(p, flips, undefined flips)`` over every subset of clusters, swapping the units' columns."""
    clusters = sorted(set(a.clusters))
    observed = metric.value(a) - metric.value(b)
    values = []
    for flips in itertools.product((False, True), repeat=len(clusters)):
        flipped = {c for c, f in zip(clusters, flips, strict=True) if f}
        swap = np.array([c in flipped for c in a.clusters])
        cols_a = {k: np.where(swap, b.column(k), a.column(k)) for k in a.columns}
        cols_b = {k: np.where(swap, a.column(k), b.column(k)) for k in a.columns}
        star_a = Outcomes(a.units, a.clusters, cols_a, a.strata)
        star_b = Outcomes(a.units, a.clusters, cols_b, a.strata)
        values.append(metric.value(star_a) - metric.value(star_b))
    values_arr = np.array(values)
    defined = values_arr[~np.isnan(values_arr)]
    hits = np.sum(np.abs(defined) >= abs(observed) - TIE * (1 + abs(observed)))
    return float(hits / defined.size), len(values), int(values_arr.size - defined.size)


def check_exact(a: Outcomes, b: Outcomes, metric: Metric) -> None:
    result = sign_flip_test(a, b, metric)
    p, flips, undefined = brute_force(a, b, metric)
    assert result.exact
    assert result.difference == pytest.approx(metric.value(a) - metric.value(b), abs=1e-9)
    assert result.p_value == pytest.approx(p, abs=1e-12)
    # the test enumerates the clusters that differ only: each of its flips stands for 2^(G - G') of the reference's
    share = 2.0 ** (result.n_differing - len(set(a.clusters)))
    assert result.n_flips == flips * share and result.n_undefined == pytest.approx(undefined * share)
    assert result.p_floor <= result.p_value


def hits_table(
    rng: np.random.Generator, sizes: list[int], p_a: float, p_b: float
) -> tuple[Outcomes, Outcomes]:
    clusters = [f"c{g}" for g, size in enumerate(sizes) for _ in range(size)]
    n = len(clusters)
    a = table(clusters, {"hit": rng.random(n) < p_a, "one": np.ones(n)})
    b = table(clusters, {"hit": rng.random(n) < p_b, "one": np.ones(n)})
    return a, b


@pytest.mark.parametrize("g", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_pooled_rate_over_unequal_clusters_equals_the_reference(g: int, seed: int) -> None:
    rng = np.random.default_rng([g, seed])
    sizes = list(rng.integers(1, 6, g))  # 1 to 5 units per cluster
    a, b = hits_table(rng, sizes, 0.7, 0.4)
    check_exact(a, b, Ratio("hit", "one"))


@pytest.mark.parametrize("g", [1, 2, 3, 4, 5, 6])
def test_ties_every_flip_on_a_lattice(g: int) -> None:
    """One unit per cluster, A right and B wrong in some clusters, the reverse in others: every |D*| is a
    multiple of 100 / G, and many flips tie with |D| exactly."""
    clusters = [f"c{k}" for k in range(g)]
    a_hits = [1.0 if k % 3 != 2 else 0.0 for k in range(g)]
    b_hits = [1.0 - h for h in a_hits]
    a, b = (
        table(clusters, {"hit": a_hits, "one": np.ones(g)}),
        table(clusters, {"hit": b_hits, "one": np.ones(g)}),
    )
    check_exact(a, b, Ratio("hit", "one"))


def test_a_difference_at_the_extreme_reaches_the_floor_and_no_further() -> None:
    for g in range(1, 9):
        clusters = [f"c{k}" for k in range(g) for _ in range(3)]
        a = table(clusters, {"hit": np.ones(3 * g), "one": np.ones(3 * g)})
        b = table(clusters, {"hit": np.zeros(3 * g), "one": np.ones(3 * g)})
        r = sign_flip_test(a, b, Ratio("hit", "one"))
        assert r.p_value == r.p_floor == min(1.0, 2.0 / 2**g)  # identity and its mirror image only
    assert r.n_flips == 256 and r.n_clusters == 8


def test_equal_outcomes_and_identical_judges_give_p_one() -> None:
    clusters = ["x", "x", "y", "z", "z", "z"]
    same = table(clusters, {"hit": [1, 0, 1, 1, 1, 0], "one": np.ones(6)})
    r = sign_flip_test(same, same, Ratio("hit", "one"))
    assert (r.difference, r.p_value, r.n_differing, r.n_flips, r.p_floor) == (0.0, 1.0, 0, 1, 0.25)
    flat = table(clusters, {"hit": np.ones(6), "one": np.ones(6)})
    assert sign_flip_test(flat, flat, Ratio("hit", "one")).p_value == 1.0
    # different units, equal cluster sums: every flip leaves the difference at 0
    other = table(clusters, {"hit": [0, 1, 1, 1, 0, 1], "one": np.ones(6)})
    assert sign_flip_test(same, other, Ratio("hit", "one")).p_value == 1.0
    check_exact(same, other, Ratio("hit", "one"))


def stratified_pair(rng: np.random.Generator, g: int, nested: bool) -> tuple[Outcomes, Outcomes]:
    """Three strata; clusters span them (``nested=False``) or each sits in one; a sparse denominator so that
    some flips leave a stratum without a counted unit for a judge (an undefined difference)."""
    clusters, strata = [], []
    for k in range(g):
        size = int(rng.integers(2, 6))
        clusters += [f"c{k}"] * size
        strata += [f"s{k % 3}"] * size if nested else [f"s{s}" for s in rng.integers(0, 3, size)]
    n = len(clusters)
    den_a, den_b = (rng.random(n) < 0.5).astype(float), (rng.random(n) < 0.5).astype(float)
    a = table(clusters, {"hit": den_a * (rng.random(n) < 0.8), "den": den_a}, strata)
    b = table(clusters, {"hit": den_b * (rng.random(n) < 0.4), "den": den_b}, strata)
    return a, b


@pytest.mark.parametrize("nested", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_a_stratified_ratio_with_undefined_flips_equals_the_reference(nested: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a, b = stratified_pair(rng, 6, nested)
    metric = Ratio("hit", "den", by_stratum=True, strata=("s0", "s1", "s2"))
    if math.isnan(metric.value(a) - metric.value(b)):
        pytest.skip("undefined for a judge on this draw")
    check_exact(a, b, metric)


def test_undefined_flips_are_left_out_and_counted() -> None:
    """Stratum t has a counted unit in cluster x for A only: flipping x leaves A without one (D* undefined)."""
    a = table(["x", "x", "y", "z"], {"hit": [1, 1, 0, 1], "den": [1, 1, 1, 1]}, ["s", "t", "s", "s"])
    b = table(["x", "x", "y", "z"], {"hit": [0, 0, 1, 0], "den": [1, 0, 1, 1]}, ["s", "t", "s", "s"])
    metric = Ratio("hit", "den", by_stratum=True, strata=("s", "t"))
    r = sign_flip_test(a, b, metric)
    assert math.isnan(metric.value(b))
    assert math.isnan(r.difference) and math.isnan(r.p_value)
    b = table(["x", "x", "y", "z"], {"hit": [0, 0, 1, 0], "den": [1, 0, 1, 1]}, ["s", "t", "s", "t"])
    a = table(["x", "x", "y", "z"], {"hit": [1, 1, 0, 1], "den": [1, 1, 1, 0]}, ["s", "t", "s", "t"])
    r = sign_flip_test(a, b, metric)
    p, flips, undefined = brute_force(a, b, metric)
    assert undefined > 0 and r.n_undefined == undefined and r.n_flips == flips
    assert r.p_value == pytest.approx(p) and r.p_floor == 2.0 / (flips - undefined)


@pytest.mark.parametrize("seed", range(4))
def test_weighted_f1_with_left_out_units_equals_the_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    clusters = [f"c{k}" for k in range(6) for _ in range(int(rng.integers(1, 5)))]
    n = len(clusters)
    gold = rng.integers(-1, 3, n)  # -1: left out
    a = table(clusters, {"gold": gold, "pred": np.where(rng.random(n) < 0.7, gold, rng.integers(0, 3, n))})
    b = table(clusters, {"gold": gold, "pred": rng.integers(-1, 3, n)})
    check_exact(a, b, WeightedF1("gold", "pred", 3))


def test_clusters_that_carry_nothing_or_do_not_differ() -> None:
    """A key over one stratum: the other stratum's clusters carry nothing and do not count in G; clusters
    where the judges agree are not enumerated, and the p-value does not move."""
    rng = np.random.default_rng(5)
    a, b = hits_table(rng, [3, 1, 4, 2, 2], 0.8, 0.3)
    base = sign_flip_test(a, b, Ratio("hit", "one"))
    agree = [f"d{k}" for k in range(15) for _ in range(2)]  # 15 more clusters where the judges agree
    same = rng.random(len(agree)) < 0.5
    wide_a = table(
        [*a.clusters, *agree], {"hit": [*a.column("hit"), *same], "one": np.ones(len(a.units) + 30)}
    )
    wide_b = table(
        [*b.clusters, *agree], {"hit": [*b.column("hit"), *same], "one": np.ones(len(a.units) + 30)}
    )
    wide = sign_flip_test(wide_a, wide_b, Ratio("hit", "one"))
    assert wide.exact and wide.n_clusters == 20 and wide.n_differing == base.n_differing
    assert wide.p_value == pytest.approx(base.p_value, abs=1e-12) and wide.p_floor == 2.0 / 2**20
    # the same clusters over two strata, the key over the first only: the second's clusters carry nothing
    strata = ["first"] * len(a.units) + ["second"] * 30
    only = Ratio("hit", "one", strata=("first",))
    limited = sign_flip_test(table(wide_a.clusters, dict(wide_a.columns), strata),
                             table(wide_b.clusters, dict(wide_b.columns), strata), only)  # fmt: skip
    assert limited.n_clusters == 5 and limited.p_floor == 2.0 / 2**5
    assert limited.p_value == pytest.approx(base.p_value, abs=1e-12)


def test_monte_carlo_agrees_with_the_exact_test_at_twelve_clusters() -> None:
    """20,000 drawn flips against the 4,096 enumerated: the Monte Carlo p is within 4 of its standard errors
    (sqrt(p (1 - p) / 20000), about 0.002 here) of the exact p, with a fixed seed."""
    rng = np.random.default_rng(27)
    a, b = hits_table(rng, list(rng.integers(4, 9, 12)), 0.6, 0.45)
    exact = sign_flip_test(a, b, Ratio("hit", "one"))
    drawn = sign_flip_test(a, b, Ratio("hit", "one"), exact_max_clusters=0, n_flips=20_000, seed=3)
    assert exact.exact and exact.n_differing == 12 and exact.n_flips == 4096
    assert not drawn.exact and drawn.n_flips == 20_000
    assert 0.05 < exact.p_value < 0.95  # a p-value in the middle, where the check has teeth
    se = math.sqrt(exact.p_value * (1 - exact.p_value) / 20_000)
    assert abs(drawn.p_value - exact.p_value) <= 4 * se + 1 / 20_001
    assert drawn.p_floor == 1 / 20_001
    again = sign_flip_test(a, b, Ratio("hit", "one"), exact_max_clusters=0, n_flips=20_000, seed=3)
    assert again == drawn


def test_monte_carlo_counts_the_observed_flip_once() -> None:
    """At 20 clusters all in A's favour only the identity and its mirror reach |D|; 999 drawn flips miss both
    (chance 2 / 2^20 each), so p is exactly (1 + 0) / (1 + 999)."""
    clusters = [f"c{k}" for k in range(20)]
    a = table(clusters, {"hit": np.ones(20), "one": np.ones(20)})
    b = table(clusters, {"hit": np.zeros(20), "one": np.ones(20)})
    r = sign_flip_test(a, b, Ratio("hit", "one"), n_flips=999, seed=0)
    assert not r.exact and r.p_value == r.p_floor == 1 / 1000


def test_refusals() -> None:
    a = table(["x", "y"], {"hit": [1, 0], "one": [1, 1]})
    moved = table(["x", "x"], {"hit": [1, 0], "one": [1, 1]})
    with pytest.raises(SchemaError, match="different clusters"):
        sign_flip_test(a, moved, Ratio("hit", "one"))
    with pytest.raises(ConfigError, match="n_flips"):
        sign_flip_test(a, a, Ratio("hit", "one"), n_flips=0)


def brute_jackknife(a: Outcomes, b: Outcomes, metric: Metric, strata_of: dict[str, str] | None) -> float:
    """Leave each cluster out, take the difference; (g - 1) / g * sum of squares within each stratum (the
    delete-one jackknife over clusters of equal size, which every weighting by cluster size reduces to)."""
    clusters = sorted(set(a.clusters))
    left_out = {}
    for c in clusters:
        keep = np.array([x != c for x in a.clusters])

        def part(o: Outcomes, keep: np.ndarray = keep) -> Outcomes:
            return Outcomes(tuple(np.asarray(o.units)[keep]), tuple(np.asarray(o.clusters)[keep]),
                            {k: o.column(k)[keep] for k in o.columns},
                            tuple(np.asarray(o.strata)[keep]) if o.strata else ())  # fmt: skip

        left_out[c] = metric.value(part(a)) - metric.value(part(b))
    groups = {}
    for c in clusters:
        groups.setdefault(strata_of[c] if strata_of else "", []).append(left_out[c])
    variance = 0.0
    for values in groups.values():
        v = np.array(values)
        variance += (v.size - 1) / v.size * float(np.sum((v - v.mean()) ** 2))
    return variance


@pytest.mark.parametrize("nested", [False, True])
def test_paired_jackknife_equals_leaving_each_cluster_out(nested: bool) -> None:
    rng = np.random.default_rng(4)
    clusters, strata = [], []
    for k in range(9):
        clusters += [f"c{k}"] * 4
        strata += [f"s{k % 3}"] * 4 if nested else [f"s{s}" for s in rng.integers(0, 3, 4)]
    n = len(clusters)
    a = table(clusters, {"hit": rng.random(n) < 0.7, "one": np.ones(n)}, strata)
    b = table(clusters, {"hit": rng.random(n) < 0.5, "one": np.ones(n)}, strata)
    metric = Ratio("hit", "one", by_stratum=True, strata=("s0", "s1", "s2"))
    spread = paired_jackknife(a, b, metric)
    strata_of = dict(zip(clusters, strata, strict=True)) if nested else None
    assert spread.value == pytest.approx(metric.value(a) - metric.value(b), abs=1e-12)
    assert spread.variance == pytest.approx(brute_jackknife(a, b, metric, strata_of), rel=1e-12)
    assert spread.df == (9 - 3 if nested else 8) and spread.stratified == nested and spread.n_clusters == 9
