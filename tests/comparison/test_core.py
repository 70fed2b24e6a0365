"""``compare_units``: edge cases (mismatched units, one cluster, an undefined key, a value off its data) and the
method by number of clusters (none below 5, the sign-flip test and the interval inverting it below 100, the
bootstrap from 100)."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
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
    assert r.note == "thin: 5 prompts (under 30); no test at this size can reach p < 0.05, so no interval from it"
    assert r.method == "sign-flip test over 5 prompts (exact, 32 flips); no interval"
    assert math.isnan(r.ci_low) and math.isnan(r.ci_high)  # an interval would have to hold every difference
    loose = adjust([compare_units(a, b, confidence=0.9)])[0]
    assert loose.significant(0.1) and loose.note == "thin: 5 prompts (under 30)"
    assert 0.0 < loose.ci_low < 100.0 == loose.ci_high  # the test rejects 0 at 10%: its interval leaves 0 out


def test_a_star_needs_a_test_that_can_reach_alpha() -> None:
    c = KeyComparison("k", "a", "b", 60.0, 50.0, 10.0, 2.0, 18.0, 0.01, 100, 5, 32, True, p_adjusted=0.01)
    assert c.significant(0.05)  # no floor recorded
    assert not replace(c, p_floor=0.0625).significant(0.05)
    assert format_difference(replace(c, p_floor=0.0625), 0.05) == "+10.00 [+2.00, +18.00] p=0.01"


def reference_p(a: KeyOutcomes, b: KeyOutcomes, delta: float) -> float:
    """The exact sign-flip test of "A - B is ``delta``" for a pooled rate, written out: per prompt the
    difference of hits in points of the pooled rate, less ``delta`` times the prompt's share of the units; every
    sign vector of the prompts enumerated (itertools), p = share with ``|sum s_c e_c| >= |sum e_c|``."""
    import itertools

    clusters = np.asarray(a.outcomes.clusters)
    names = sorted(set(clusters.tolist()))
    hits_a, hits_b = a.outcomes.column("num"), b.outcomes.column("num")
    n = float(len(clusters))
    e = np.array([100.0 * (hits_a[clusters == c].sum() - hits_b[clusters == c].sum()) / n
                  - delta * np.sum(clusters == c) / n for c in names])  # fmt: skip
    bar = abs(e.sum()) * (1 - 1e-12) - 1e-12
    signs = np.array(list(itertools.product((1.0, -1.0), repeat=len(names))))
    return float(np.mean(np.abs(signs @ e) >= bar))


@pytest.mark.parametrize("g", [5, 8, 12])
def test_few_clusters_invert_the_exact_sign_flip_test(g: int) -> None:
    """The interval is the set of shifts the exact sign-flip test does not reject: just inside each end the
    written-out test accepts, just outside it rejects (or the end is the range's); 0 is inside exactly when the
    reported p is at least 0.05."""
    a, b = random_pair(g)
    r = compare_units(a, b, n_resamples=100)
    flip = sign_flip_test(a.outcomes, b.outcomes, a.metric)
    assert flip.exact and r.p_value == flip.p_value and r.p_floor == 2.0 / 2**g
    assert reference_p(a, b, 0.0) == pytest.approx(r.p_value, abs=1e-12)
    if g == 5:
        assert math.isnan(r.ci_low) and r.method.endswith("; no interval")
        return
    for end, outward in ((r.ci_low, -1.0), (r.ci_high, 1.0)):
        assert reference_p(a, b, end - outward * 1e-6) >= 0.05
        assert end in (-100.0, 100.0) or reference_p(a, b, end + outward * 1e-3) < 0.05
    assert (r.ci_low <= 0.0 <= r.ci_high) == (r.p_value >= 0.05)
    assert r.method.startswith(f"sign-flip test over {g} prompts (exact, ")
    assert r.method.endswith(f"; interval by inverting the sign-flip test (the shifts it does not reject; every flip of {g} prompts)")
    assert r.note.startswith(f"thin: {g} prompts (under 30)")


def test_the_interval_and_the_test_never_disagree() -> None:
    """200 random pairs at 6 to 40 prompts, unequal prompt sizes and a noisier judge B: the interval holds 0
    exactly when the sign-flip p is at least 0.05 (the jackknife t interval disagreed on up to 6% of such
    replicates)."""
    rng = np.random.default_rng(48)
    for _ in range(200):
        g = int(rng.integers(6, 41))
        sizes = rng.integers(1, 12, g)
        n = int(sizes.sum())
        clusters = np.repeat(np.arange(g), sizes)
        noise = rng.normal(0.0, 2.0, g)[clusters]
        a_hits = rng.random(n) < 0.6
        b_hits = rng.random(n) < 1.0 / (1.0 + np.exp(-(0.4 + noise)))
        pair = clustered(a_hits, b_hits, 1)
        a, b = (KeyOutcomes("acc", replace_clusters(o.outcomes, clusters), o.metric) for o in pair)
        r = compare_units(a, b, n_resamples=500, seed=int(g))
        assert (r.ci_low <= 0.0 <= r.ci_high) == (r.p_value >= 0.05), (g, r.p_value, r.ci_low, r.ci_high)


def replace_clusters(table: Outcomes, clusters: np.ndarray) -> Outcomes:
    return Outcomes(table.units, tuple(f"p{c}" for c in clusters), {"num": table.column("num"),
                    "den": table.column("den")}, (), "pair", "prompt")  # fmt: skip


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
    assert r.method == ("sign-flip test over 20 prompts (Monte Carlo, 2000 flips); interval by inverting the "
                        "sign-flip test (the shifts it does not reject; 2000 drawn flips of 20 prompts)")  # fmt: skip


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
    assert r.method.endswith("(the shifts it does not reject; every flip of 6 prompts)")


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
    assert "note: thin: 5 prompts (under 30); no test at this size can reach p < 0.05, so no interval from it" in lines
    assert any(
        "no interval: 3 prompts (at least 5 needed)" in line for line in lines[2:6]
    )  # inline, not below
    md, json_path, _ = write_comparison(comparison, tmp_path)
    text = md.read_text()
    assert (
        "| method | note |" in text and "every flip of 12 prompts)" in text and "thin: 12 prompts" in text
    )
    rows = json.loads(json_path.read_text())["comparisons"]
    assert [row["p_floor"] for row in rows] == [None, 0.0625, 2 / 4096, 2 / 201]
    assert [row["significant"] for row in rows] == [c.significant(0.05) for c in found]


def test_the_help_and_the_written_method_say_what_the_code_does(capsys) -> None:
    """``mmjudge compare --help`` said "below 30 clusters" while the code switched at ``RANDOMISATION_BELOW``
    (100): the text is now made from the constants, and the switch is where the text says."""
    from mmjudge.cli import main
    from mmjudge.commands import compare as command
    from mmjudge.estimates import RANDOMISATION_BELOW

    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "below 30 clusters" not in command.HELP
    assert f"paired cluster bootstrap from {RANDOMISATION_BELOW} clusters" in command.HELP
    below, at = (compare_units(*random_pair(g, seed=2), n_resamples=200)
                 for g in (RANDOMISATION_BELOW - 1, RANDOMISATION_BELOW))  # fmt: skip
    assert below.method.startswith("sign-flip test") and at.method.startswith("paired percentile bootstrap")
    assert f"paired cluster bootstrap from {RANDOMISATION_BELOW} clusters; from 5 to {RANDOMISATION_BELOW - 1}," in shown


def test_a_cluster_of_units_the_scorer_does_not_count_does_not_count_for_compare() -> None:
    """A rate over decided pairs: prompt p5's pairs are all no-judgments for both judges (denominator 0), so the
    scorer's interval counts 5 prompts (Metric.counted); compare counted 6 and allowed a test the scorer's 5
    prompts cannot back (2 / 2^6 < 0.05)."""
    from mmjudge.stats import jackknife_metrics

    n = 24
    clusters = tuple(f"p{k // 4}" for k in range(n))
    units = tuple(f"u{k}" for k in range(n))
    decided = np.array([0.0 if k >= 20 else 1.0 for k in range(n)])

    def one(hits) -> KeyOutcomes:
        table = Outcomes(units, clusters, {"num": np.asarray(hits, float) * decided, "den": decided}, (),
                         "pair", "prompt")  # fmt: skip
        return KeyOutcomes("decided", table, Ratio("num", "den"))

    a, b = one([1.0] * n), one([0.0] * n)
    scorer = jackknife_metrics(a.outcomes, {"decided": a.metric})["decided"]
    r = compare_units(a, b)
    assert scorer.n_clusters == 5 and r.n_clusters == 5 and r.p_floor == 2.0 / 2**5
    assert not r.significant(0.05) and "no test at this size can reach p < 0.05" in r.note
