"""``compare_units``: edge cases (mismatched units, one cluster, an undefined key, a value off its data) and the
method by number of clusters (none below 5, sign-flip test and jackknife t below 30, the bootstrap from 30)."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from scipy import stats as scipy_stats
from statsmodels.stats.multitest import multipletests

from mmjudge.comparison import (
    Comparison,
    KeyComparison,
    adjust,
    compare_units,
    format_difference,
    summary_lines,
    write_comparison,
)
from mmjudge.errors import SchemaError
from mmjudge.stats import KeyOutcomes, Outcomes, Ratio, paired_metric_bootstrap, sign_flip_test, two_sided_p


def outcome(units, clusters, num, den) -> KeyOutcomes:
    table = Outcomes(
        tuple(units), tuple(clusters), {"num": np.asarray(num, float), "den": np.asarray(den, float)}
    )
    return KeyOutcomes("acc", table, Ratio("num", "den"))


def rate(
    hits: tuple[float, ...], clusters: tuple[str, ...] | None = None, units: tuple[str, ...] | None = None
):
    units = units or tuple(f"u{k}" for k in range(len(hits)))
    return outcome(units, clusters or units, hits, [1.0] * len(hits))


def test_units_are_paired_by_id_whatever_their_order() -> None:
    a = rate((1.0, 0.0, 1.0), units=("x", "y", "z"))
    b = rate((1.0, 1.0, 0.0), units=("z", "y", "x"))  # x wrong, y right, z right
    r = compare_units(a, b, n_resamples=100)
    assert (r.mcnemar.both, r.mcnemar.only_a, r.mcnemar.only_b, r.mcnemar.neither) == (1, 1, 1, 0)
    assert r.difference == pytest.approx(0.0)


def test_different_units_are_refused() -> None:
    with pytest.raises(SchemaError, match="different units"):
        compare_units(rate((1.0, 0.0)), rate((1.0, 0.0), units=("u0", "other")))


def test_one_cluster_has_no_interval_but_mcnemar() -> None:
    r = compare_units(rate((1.0, 1.0), ("c", "c")), rate((0.0, 0.0), ("c", "c")), n_resamples=50)
    assert r.difference == 100.0 and math.isnan(r.ci_low) and "one cluster" in r.note
    assert (r.mcnemar.only_a, r.mcnemar.only_b, r.mcnemar.p_value) == (2, 0, 0.5)


def test_an_undefined_key_and_empty_units() -> None:
    empty = outcome((), (), [], [])
    assert compare_units(empty, empty).note == "no unit to pair"
    nothing_counted = outcome(("a", "b"), ("a", "b"), [0.0, 0.0], [0.0, 0.0])
    r = compare_units(nothing_counted, rate((1.0, 0.0), units=("a", "b")), n_resamples=50)
    assert math.isnan(r.difference) and r.note == "the key is undefined for a judge"


def test_a_value_that_its_units_do_not_give_is_refused() -> None:
    with pytest.raises(SchemaError, match="does not reproduce"):
        compare_units(rate((1.0, 0.0)), rate((1.0, 1.0)), values=(40.0, 100.0), n_resamples=10)


def test_mcnemar_needs_the_same_units_counted_for_both_judges() -> None:
    """A rate over the units each judge decided (e.g. IsoVRBench's decided accuracy) gets no McNemar test."""
    a = outcome(("x", "y", "z"), ("x", "y", "z"), [1.0, 0.0, 0.0], [1.0, 1.0, 0.0])
    b = outcome(("x", "y", "z"), ("x", "y", "z"), [1.0, 1.0, 0.0], [1.0, 1.0, 1.0])
    assert compare_units(a, b, n_resamples=20).mcnemar is None


# --- the method by number of clusters -------------------------------------------------------------------


def clustered(a_hits, b_hits, per: int, strata=None) -> tuple[KeyOutcomes, KeyOutcomes]:
    """Two judges' 0/1 outcomes, ``per`` units per prompt in order."""
    n = len(a_hits)
    clusters = tuple(f"p{k // per}" for k in range(n))
    units = tuple(f"u{k}" for k in range(n))

    def one(hits) -> KeyOutcomes:
        table = Outcomes(units, clusters, {"num": np.asarray(hits, float), "den": np.ones(n)}, tuple(strata or ()),
                         "pair", "prompt")  # fmt: skip
        metric = Ratio("num", "den", strata=("x",)) if strata else Ratio("num", "den")
        return KeyOutcomes("acc", table, metric)

    return one(a_hits), one(b_hits)


def random_pair(g: int, per: int = 4, seed: int = 0) -> tuple[KeyOutcomes, KeyOutcomes]:
    rng = np.random.default_rng([g, seed])
    return clustered(rng.random(g * per) < 0.7, rng.random(g * per) < 0.5, per)


@pytest.mark.parametrize("g", [2, 3, 4])
def test_below_five_clusters_there_is_no_interval_and_no_p(g: int) -> None:
    a, b = clustered([1.0] * (3 * g), [0.0] * (3 * g), 3)
    r = compare_units(a, b)
    assert r.difference == 100.0 and math.isnan(r.ci_low) and math.isnan(r.p_value) and math.isnan(r.p_floor)
    assert (
        r.note
        == f"no interval: {g} prompts (at least 5 needed); no p-value: no test at this size can reach p < 0.05"
    )
    assert r.method == "none" and r.n_clusters == g and not adjust([r])[0].significant(0.05)
    assert r.mcnemar is not None and r.mcnemar.only_a == 3 * g  # McNemar still runs on the units


def test_at_five_clusters_no_test_can_reach_five_percent() -> None:
    """A beats B on every unit of every prompt: the sign-flip p is 2 / 2^5 = 0.0625, its floor, and the
    difference is not starred; at the 10% level it is."""
    a, b = clustered([1.0] * 15, [0.0] * 15, 3)
    r = adjust([compare_units(a, b)])[0]
    assert (r.p_value, r.p_floor, r.n_clusters, r.n_valid) == (0.0625, 0.0625, 5, 32)
    assert not r.significant(0.05)
    assert r.note == "thin: 5 prompts (under 30); no test at this size can reach p < 0.05"
    assert r.method == ("sign-flip test over 5 prompts (exact, 32 flips); Wilson bound over 15 units rescaled to "
                        "[-100, 100] (no spread among prompts)")  # the same difference in every prompt
    assert r.ci_high == 100.0 and r.ci_low < 60.0  # not the zero-width [100, 100]
    loose = adjust([compare_units(a, b, confidence=0.9)])[0]
    assert loose.significant(0.1) and loose.note == "thin: 5 prompts (under 30)"


def test_a_star_needs_a_test_that_can_reach_alpha() -> None:
    c = KeyComparison("k", "a", "b", 60.0, 50.0, 10.0, 2.0, 18.0, 0.01, 100, 5, 32, True, p_adjusted=0.01)
    assert c.significant(0.05)  # no floor recorded
    assert not replace(c, p_floor=0.0625).significant(0.05)
    assert format_difference(replace(c, p_floor=0.0625), 0.05) == "+10.00 [+2.00, +18.00] p=0.01"


def leave_one_out_variance(a: KeyOutcomes, b: KeyOutcomes) -> float:
    """The delete-one-prompt jackknife variance of the difference, written out (equal prompt sizes)."""
    clusters = sorted(set(a.outcomes.clusters))
    values = []
    for c in clusters:
        keep = np.array([x != c for x in a.outcomes.clusters])
        hits_a, hits_b = a.outcomes.column("num")[keep], b.outcomes.column("num")[keep]
        values.append(100 * hits_a.mean() - 100 * hits_b.mean())
    v = np.array(values)
    return (v.size - 1) / v.size * float(np.sum((v - v.mean()) ** 2))


@pytest.mark.parametrize("g", [5, 8, 16])
def test_few_clusters_use_the_exact_sign_flip_and_a_jackknife_t_interval(g: int) -> None:
    a, b = random_pair(g)
    r = compare_units(a, b, n_resamples=100)
    flip = sign_flip_test(a.outcomes, b.outcomes, a.metric)
    assert flip.exact and r.p_value == flip.p_value and r.p_floor == 2.0 / 2**g
    half = scipy_stats.t.ppf(0.975, g - 1) * math.sqrt(leave_one_out_variance(a, b))
    assert (r.ci_low, r.ci_high) == pytest.approx((r.difference - half, r.difference + half), rel=1e-9)
    flips = f"exact, {2**g} flips" if flip.n_differing == g else f"exact, {flip.n_flips} flips of the"
    assert r.method.startswith(f"sign-flip test over {g} prompts ({flips}")
    assert r.method.endswith(f"; t interval (jackknife over prompts; t, {g - 1} df)")
    assert r.note.startswith(f"thin: {g} prompts (under 30)")


def test_between_17_and_29_clusters_the_flips_are_drawn() -> None:
    a, b = random_pair(20, per=12, seed=1)
    r = compare_units(a, b, n_resamples=2000, seed=5)
    flip = sign_flip_test(a.outcomes, b.outcomes, a.metric, n_flips=2000, seed=5)
    assert (
        flip.n_differing > 16
        and not flip.exact
        and r.p_value == flip.p_value
        and r.p_floor == 1 / (1 + r.n_valid)
        and r.n_valid == 2000
    )
    assert r.method == "sign-flip test over 20 prompts (Monte Carlo, 2000 flips); t interval (jackknife over prompts; t, 19 df)"


@pytest.mark.parametrize("g", [100, 130])
def test_from_100_clusters_the_bootstrap_numbers_do_not_move(g: int) -> None:
    """The bootstrap path is the one ``compare`` always had: its numbers, written out from the same draws."""
    a, b = random_pair(g, seed=2)
    r = compare_units(a, b, n_resamples=500, seed=9)
    _, draws, _ = paired_metric_bootstrap(a.outcomes, b.outcomes, a.metric, n_resamples=500, seed=9)
    valid = draws[~np.isnan(draws)]
    assert (r.ci_low, r.ci_high) == pytest.approx(tuple(np.quantile(valid, [0.025, 0.975])), rel=1e-12)
    assert r.p_value == two_sided_p(valid) and r.n_valid == 500 and r.p_floor == 2 / 501
    assert (
        r.note == ""
        and r.method == f"paired percentile bootstrap over {g} prompts, 500 resamples (interval and p)"
    )


def test_the_clusters_that_carry_the_key_decide_the_method() -> None:
    """40 prompts, but the key (stratum x) lives on 6 of them: the comparison is a 6-prompt one."""
    rng = np.random.default_rng(3)
    strata = ["x" if k < 24 else "y" for k in range(160)]
    a, b = clustered(rng.random(160) < 0.7, rng.random(160) < 0.5, 4, strata)
    r = compare_units(a, b)
    assert r.n_clusters == 6 and r.p_floor == 2.0 / 2**6 and r.note.startswith("thin: 6 prompts (under 30)")
    assert r.method.endswith("; t interval (jackknife over prompts; t, 5 df)")


def test_holm_runs_over_mixed_p_values() -> None:
    few = compare_units(*random_pair(8, seed=3))
    many = compare_units(*random_pair(40, seed=3), n_resamples=300)
    none = compare_units(*random_pair(3, seed=3))
    out = adjust([few, many, none])
    assert [c.p_adjusted for c in out[:2]] == pytest.approx(
        list(multipletests([few.p_value, many.p_value], method="holm")[1])
    )
    assert math.isnan(out[2].p_adjusted)


def test_the_written_comparison_shows_the_method_and_the_note(tmp_path) -> None:
    found = adjust([compare_units(*random_pair(g, seed=4), n_resamples=200) for g in (3, 5, 12, 100)])
    comparison = Comparison(
        "toy", "hash", ({"label": "base", "judge": "j", "path": "p"},), tuple(found), 200, 0, 0.95
    )
    lines = summary_lines(comparison)
    assert any(line.startswith("method: sign-flip test over 12 prompts (exact, ") for line in lines)
    assert any(line.startswith("method: paired percentile bootstrap over 100 prompts") for line in lines)
    assert "note: thin: 5 prompts (under 30); no test at this size can reach p < 0.05" in lines
    assert any(
        "no interval: 3 prompts (at least 5 needed)" in line for line in lines[2:6]
    )  # inline, not below
    md, json_path, _ = write_comparison(comparison, tmp_path)
    text = md.read_text()
    assert (
        "| method | note |" in text and "t, 11 df)" in text and "thin: 12 prompts" in text
    )
    rows = json.loads(json_path.read_text())["comparisons"]
    assert [row["p_floor"] for row in rows] == [None, 0.0625, 2 / 4096, 2 / 201]
    assert [row["significant"] for row in rows] == [c.significant(0.05) for c in found]
