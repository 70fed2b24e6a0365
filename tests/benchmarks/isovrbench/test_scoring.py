"""IsoVRBench scoring against the paper's rule written out step by step, edge cases and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wilson_reference import repaired_wilson

from mmjudge.benchmarks import get_benchmark
from mmjudge.benchmarks import isovrbench as iso
from mmjudge.errors import SchemaError
from mmjudge.estimates import MIN_CLUSTERS

IVS = iso.INTERVENTIONS


def reference_rates(intervention, chosen, rejected, missing, tol):
    """The paper's rule, one pair at a time: correct iff chosen - rejected > tol; ties and no judgment wrong."""
    table = {}
    for iv, c, r, skip in zip(intervention, chosen, rejected, missing, strict=True):
        row = table.setdefault(iv, {"n": 0, "correct": 0, "tie": 0, "none": 0, "rejected": 0})
        row["n"] += 1
        if skip:
            row["none"] += 1
        elif abs(c - r) <= tol:
            row["tie"] += 1
        elif c - r > tol:
            row["correct"] += 1
        else:
            row["rejected"] += 1
    return table


def videoalign_accuracy_without_ties(h, m):
    """VideoAlign's ``calc_accuracy_without_ties`` (``calc_accuracy.py``), written out from its code.

    ``suff_stats(h, m, epsilon=-1)`` sorts each pair into Thm / Th (human tie), Tm (``|m| <= -1``: never),
    C (``h * m > 0``) or D (everything else, a NaN reward included); the result is ``C / (C + D)``.
    """
    C = D = Th = Tm = Thm = 0
    for hi, mi in zip(h, m, strict=True):
        if hi == 0 and abs(mi) <= -1:
            Thm += 1
        elif hi == 0:
            Th += 1
        elif abs(mi) <= -1:
            Tm += 1
        elif hi * mi > 0:
            C += 1
        else:
            D += 1
    return 100.0 * C / (C + D)


def random_pairs(seed, n=400, ties=0.2, missing=0.1):
    rng = np.random.default_rng(seed)
    intervention = rng.choice(IVS, size=n).tolist()
    chosen = rng.integers(0, 5, size=n).astype(float)
    rejected = np.where(rng.random(n) < ties, chosen, rng.integers(0, 5, size=n)).astype(float)
    flags = rng.random(n) < missing
    return intervention, chosen, rejected, flags


@pytest.mark.parametrize("tol", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_matches_rule_step_by_step(seed, tol):
    intervention, chosen, rejected, flags = random_pairs(seed)
    result = iso.score(intervention, chosen, rejected, no_judgment=flags, tie_tolerance=tol, n_resamples=0)
    table = reference_rates(intervention, chosen, rejected, flags, tol)
    for iv, row in table.items():
        assert result[f"accuracy/{iv}"] == pytest.approx(100 * row["correct"] / row["n"])
        assert result[f"tie_rate/{iv}"] == pytest.approx(100 * row["tie"] / row["n"])
        assert result[f"no_judgment_rate/{iv}"] == pytest.approx(100 * row["none"] / row["n"])
        decided = row["correct"] + row["rejected"]
        assert result[f"decided_accuracy/{iv}"] == pytest.approx(100 * row["correct"] / decided)
        assert result[f"n/{iv}"] == row["n"]
        assert (result[f"n_correct/{iv}"], result[f"n_tie/{iv}"]) == (row["correct"], row["tie"])
        assert result[f"n_no_judgment/{iv}"] == row["none"]
    accuracies = [100 * row["correct"] / row["n"] for row in table.values()]
    assert result["average"] == pytest.approx(sum(accuracies) / len(accuracies))
    motion = [100 * table[iv]["correct"] / table[iv]["n"] for iv in iso.DIMENSIONS["motion"] if iv in table]
    assert result["dimension_accuracy/motion"] == pytest.approx(sum(motion) / len(motion))
    total = sum(row["n"] for row in table.values())
    assert result["tie_rate"] == pytest.approx(100 * sum(r["tie"] for r in table.values()) / total)
    assert result["n_pairs"] == total == len(intervention)
    assert result["tie_tolerance"] == tol


@pytest.mark.parametrize("tol", [0.0, 0.5, 2.0])
@pytest.mark.parametrize("seed", [3, 4])
def test_vgrb_accuracy_is_videoalign_rule(seed, tol):
    """Exact ties, reversed pairs and unjudged pairs (NaN rewards for VideoAlign) in every intervention."""
    intervention, chosen, rejected, flags = random_pairs(seed, ties=0.3, missing=0.2)
    result = iso.score(intervention, chosen, rejected, no_judgment=flags, tie_tolerance=tol, n_resamples=0)
    m = np.where(flags, np.nan, chosen - rejected)  # an unjudged pair has no reward
    for iv in IVS:
        rows = [i for i, v in enumerate(intervention) if v == iv]
        expected = videoalign_accuracy_without_ties([1] * len(rows), m[rows])
        assert result[f"vgrb_accuracy/{iv}"] == pytest.approx(expected, abs=1e-9)
    assert result["vgrb_accuracy"] == pytest.approx(videoalign_accuracy_without_ties([1] * len(m), m))
    if tol == 0.0:  # no tolerance: VideoAlign's rule is the paper's ties-wrong accuracy
        assert all(result[f"vgrb_accuracy/{iv}"] == result[f"accuracy/{iv}"] for iv in IVS)


def test_unjudged_pairs_are_discordant_not_dropped():
    """The issue's case: dropping the unjudged pair would give 100."""
    result = iso.score(["t2v_5b"] * 2, [3.0, None], [1.0, None], no_judgment=[False, True], n_resamples=0)
    assert result["vgrb_accuracy/t2v_5b"] == videoalign_accuracy_without_ties([1, 1], [2.0, math.nan]) == 50.0
    assert iso.score(["t2v_5b"], choice=["none"], n_resamples=0)["vgrb_accuracy/t2v_5b"] == 0.0


def test_decided_average_is_the_mean_of_decided_accuracies():
    """Table 5 "Avg.": mean over interventions of each decided accuracy, not the pooled share."""
    choice = ["chosen"] * 9 + ["rejected"] + ["chosen"] + ["rejected"] * 3 + ["tie"] * 6
    intervention = ["temporal_shuffle"] * 10 + ["frame_hold"] * 10
    result = iso.score(intervention, choice=choice, n_resamples=2000)
    assert (
        result["decided_accuracy/temporal_shuffle"] == 90.0 and result["decided_accuracy/frame_hold"] == 25.0
    )
    assert result["decided_average"] == 57.5
    assert result["decided_accuracy_pooled"] == pytest.approx(100 * 10 / 14)
    assert "decided_accuracy" not in result  # the pooled share is named as such
    assert result["decided_average_ci_low"] < 57.5 < result["decided_average_ci_high"]
    undecided = iso.score(["frame_hold", "t2v_5b"], choice=["chosen", "tie"], n_resamples=0)
    assert (
        "decided_average" not in undecided
    )  # an intervention without a decided pair has no decided accuracy


def test_hand_computed_case():
    result = iso.score(
        ["temporal_shuffle"] * 4 + ["reduced_steps"] * 2,
        choice=["chosen", "chosen", "tie", "none", "rejected", "chosen"],
        n_resamples=0,
    )
    assert result["accuracy/temporal_shuffle"] == 50.0
    assert result["decided_accuracy/temporal_shuffle"] == 100.0
    assert result["tie_rate/temporal_shuffle"] == 25.0
    assert result["no_judgment_rate/temporal_shuffle"] == 25.0
    assert result["vgrb_accuracy/temporal_shuffle"] == 50.0
    assert result["accuracy/reduced_steps"] == 50.0
    assert result["average"] == 50.0
    assert result["dimension_accuracy/motion"] == 50.0 and result["dimension_accuracy/visual"] == 50.0
    assert "dimension_accuracy/text" not in result and "accuracy/frame_hold" not in result
    assert result["decided_accuracy_pooled"] == 75.0  # 3 of 4 decided pairs
    assert result["decided_average"] == 75.0  # (100 + 50) / 2
    assert result["tie_rate"] == pytest.approx(100 / 6)


def test_ties_and_tolerance():
    assert iso.choices_from_scores([1.0, 1.0, 2.0], [1.0, 1.0 + 1e-12, 1.5]) == ["tie", "rejected", "chosen"]
    assert iso.choices_from_scores([2.0, 2.0], [1.5, 1.49], tie_tolerance=0.5) == ["tie", "chosen"]
    assert iso.choices_from_scores([1.0], [1.5], tie_tolerance=0.5) == ["tie"]
    assert iso.choices_from_scores([1.0], [1.6], tie_tolerance=0.5) == ["rejected"]
    all_ties = iso.score(["t2v_5b"] * 5, [1.0] * 5, [1.0] * 5, n_resamples=100)
    assert all_ties["accuracy/t2v_5b"] == 0.0 and all_ties["tie_rate/t2v_5b"] == 100.0
    assert "decided_accuracy/t2v_5b" not in all_ties and all_ties["vgrb_accuracy/t2v_5b"] == 0.0
    assert all_ties["accuracy/t2v_5b_ci_low"] == 0.0 and all_ties["accuracy/t2v_5b_ci_high"] > 40.0  # 0/5


def test_missing_judgments():
    result = iso.score(
        ["frame_hold"] * 3,
        [None, float("nan"), 3.0],
        [1.0, None, 1.0],
        no_judgment=[True, True, False],
        n_resamples=0,
    )
    assert result["accuracy/frame_hold"] == pytest.approx(100 / 3)
    assert result["no_judgment_rate/frame_hold"] == pytest.approx(200 / 3)
    assert result["vgrb_accuracy/frame_hold"] == pytest.approx(100 / 3)
    nothing = iso.score(["frame_hold"], choice=["none"], n_resamples=0)
    assert nothing["accuracy/frame_hold"] == 0.0 and nothing["vgrb_accuracy/frame_hold"] == 0.0


def test_single_intervention_average_is_its_accuracy():
    result = iso.score(["attribute_edit"] * 5, [3, 2, 1, 5, 5], [1, 1, 2, 0, 5], n_resamples=500)
    assert result["average"] == result["accuracy/attribute_edit"] == 60.0
    assert result["dimension_accuracy/text"] == 60.0
    assert result["average_ci_low"] == result["dimension_accuracy/text_ci_low"]  # same replicates
    assert [k for k in result if k.startswith("dimension_accuracy/") and "_ci" not in k] == [
        "dimension_accuracy/text"
    ]


def test_rates_get_wilson_intervals():
    intervention, chosen, rejected, flags = random_pairs(6, ties=0.25, missing=0.1)
    result = iso.score(intervention, chosen, rejected, no_judgment=flags, n_resamples=0)
    for iv in IVS:
        n = result[f"n/{iv}"]
        decided = n - result[f"n_tie/{iv}"] - result[f"n_no_judgment/{iv}"]
        for key, k, total in (("accuracy", result[f"n_correct/{iv}"], n), ("decided_accuracy", result[f"n_correct/{iv}"], decided),
                              ("tie_rate", result[f"n_tie/{iv}"], n), ("no_judgment_rate", result[f"n_no_judgment/{iv}"], n)):  # fmt: skip
            if total < MIN_CLUSTERS:  # fewer than 5 pairs: no interval, and the record says why
                assert f"{key}/{iv}_ci_low" not in result
                assert result.intervals[f"{key}/{iv}"]["method"].startswith("none: ")
                continue
            low, high = repaired_wilson(k, total)
            assert result[f"{key}/{iv}_ci_low"] == pytest.approx(100 * low, abs=1e-9)
            assert result[f"{key}/{iv}_ci_high"] == pytest.approx(100 * high, abs=1e-9)
    five_of_five = iso.score(["t2v_1_3b"] * 5, choice=["chosen"] * 5, n_resamples=1000)
    assert five_of_five["accuracy/t2v_1_3b_ci_low"] == pytest.approx(56.55, abs=0.01)  # not [100, 100]
    two_of_two = iso.score(["t2v_1_3b"] * 2, choice=["chosen"] * 2)
    assert "accuracy/t2v_1_3b_ci_low" not in two_of_two
    assert two_of_two.intervals["accuracy/t2v_1_3b"]["method"] == "none: no interval: 2 pairs (at least 5 needed)"


def test_group_ci_is_stratified_bootstrap_of_mean_accuracy():
    rng = np.random.default_rng(7)
    sizes, rates = {"temporal_shuffle": 300, "frame_hold": 100, "motion_regen": 200}, [0.95, 0.6, 0.8]
    intervention, correct = [], []
    for (iv, n), p in zip(sizes.items(), rates, strict=True):
        intervention += [iv] * n
        correct += (rng.random(n) < p).tolist()
    choice = ["chosen" if c else "rejected" for c in correct]
    result = iso.score(intervention, choice=choice, n_resamples=20_000)
    # Reference: resample each intervention's pairs by index, average the three accuracies.
    boot = np.zeros(20_000)
    draw = np.random.default_rng(11)
    for iv in sizes:
        values = np.array([c for c, v in zip(correct, intervention, strict=True) if v == iv], dtype=float)
        boot += 100 * values[draw.integers(0, len(values), size=(20_000, len(values)))].mean(axis=1) / 3
    low, high = np.quantile(boot, [0.025, 0.975])
    assert result["dimension_accuracy/motion_ci_low"] == pytest.approx(low, abs=0.6)
    assert result["dimension_accuracy/motion_ci_high"] == pytest.approx(high, abs=0.6)
    assert result["dimension_accuracy/motion_ci_low"] < result["dimension_accuracy/motion"]
    assert result["dimension_accuracy/motion"] < result["dimension_accuracy/motion_ci_high"]


def test_intervals_draw_nothing():
    """The intervals are closed forms (Wilson, and the jackknife for the means): the seed and the number of
    resamples do not move them, and ``n_resamples=0`` keeps them."""
    intervention, chosen, rejected, _ = random_pairs(6)
    first = iso.score(intervention, chosen, rejected, n_resamples=300, seed=4)
    assert first == iso.score(intervention, chosen, rejected, n_resamples=300, seed=5)
    assert first == iso.score(intervention, chosen, rejected, n_resamples=0)
    means = [k for k in first if k.startswith(("average", "dimension_accuracy/")) and "_ci_" not in k]
    assert means and all(f"{k}_ci_low" in first for k in means)
    assert first.intervals["average"]["method"] == (
        "Wilson score interval on the effective sample size (jackknife over pairs, stratified; t quantile)"
    )
    assert all(first.intervals[k]["method"].startswith("Wilson score interval on the effective") for k in means)


def test_human_row_constant():
    assert tuple(iso.HUMAN_ACCURACY) == IVS
    assert list(iso.HUMAN_ACCURACY.values()) == [100, 93, 100, 98, 84, 98, 98, 100]
    assert round(sum(iso.HUMAN_ACCURACY.values()) / 8, 1) == iso.HUMAN_AVERAGE == 96.4
    assert sorted(iv for ivs in iso.DIMENSIONS.values() for iv in ivs) == sorted(IVS)


def test_every_key_is_documented():
    spec = get_benchmark("isovrbench")
    assert spec.metrics.score is iso.score
    intervention, chosen, rejected, flags = random_pairs(4)
    result = iso.score(intervention, chosen, rejected, no_judgment=flags, n_resamples=50)
    documented = {k.name for k in spec.metrics.result_keys}
    assert set(result) <= documented
    assert len(documented) == len(spec.metrics.result_keys)
    assert spec.metrics.higher_is_better("average") and not spec.metrics.higher_is_better("tie_rate")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"intervention": [], "choice": []}, "`intervention` is empty"),
        ({"intervention": ["t2v_5b", "t2v_14b"], "choice": ["chosen"] * 2}, "t2v_14b"),
        ({"intervention": ["t2v_5b"] * 2, "choice": ["chosen"]}, "intervention=2, choice=1"),
        ({"intervention": ["t2v_5b"], "choice": ["A"]}, "`choice` has 1 values outside"),
        ({"intervention": ["t2v_5b"], "score_chosen": [math.inf], "score_rejected": [1.0]}, "`score_chosen`"),
        (
            {"intervention": ["t2v_5b"], "score_chosen": [1.0], "score_rejected": [math.nan]},
            "`score_rejected`",
        ),
        (
            {"intervention": ["t2v_5b"], "score_chosen": [1.0], "score_rejected": [1.0, 2.0]},
            "score_rejected=2",
        ),
        ({"intervention": ["t2v_5b"] * 2, "choice": ["tie"] * 2, "pair_id": ["p", "p"]}, "`pair_id`"),
        (
            {"intervention": ["t2v_5b"], "choice": ["tie"], "score_chosen": [1.0], "score_rejected": [1.0]},
            "both",
        ),
        ({"intervention": ["t2v_5b"]}, "neither"),
        ({"intervention": ["t2v_5b"], "score_chosen": [1.0]}, "together"),
        ({"intervention": ["t2v_5b"], "choice": ["tie"], "no_judgment": [True]}, "'none'"),
        ({"intervention": ["t2v_5b"], "choice": ["tie"], "tie_tolerance": -1}, "`tie_tolerance`"),
        ({"intervention": ["t2v_5b"], "choice": ["tie"], "confidence": 1.5}, "`confidence`"),
        ({"intervention": ["t2v_5b"], "choice": ["tie"], "n_resamples": -3}, "`n_resamples`"),
        (
            {
                "intervention": ["t2v_5b"],
                "score_chosen": [1.0],
                "score_rejected": [1.0],
                "no_judgment": ["yes"],
            },
            "`no_judgment`",
        ),
    ],
)
def test_bad_input(kwargs, message):
    with pytest.raises(SchemaError, match=message.replace("(", r"\(").replace("[", r"\[")):
        iso.score(**kwargs)


def test_unknown_intervention_lists_the_allowed_ones():
    with pytest.raises(ValueError) as info:
        iso.score(["shuffle"] * 7, choice=["chosen"] * 7)
    text = str(info.value)
    assert "7 values outside" in text and all(iv in text for iv in IVS)


rows = st.lists(
    st.tuples(st.sampled_from(IVS), st.integers(0, 3), st.integers(0, 3), st.booleans()),
    min_size=1,
    max_size=40,
)


@settings(max_examples=40, deadline=None)
@given(rows=rows, seed=st.integers(0, 2**16), tol=st.sampled_from([0.0, 1.0]))
def test_invariant_to_row_order(rows, seed, tol):
    order = np.random.default_rng(seed).permutation(len(rows))
    shuffled = [rows[i] for i in order]
    results = []
    for table in (rows, shuffled):
        iv, c, r, flags = zip(*table, strict=True)
        results.append(
            iso.score(list(iv), list(c), list(r), no_judgment=list(flags), tie_tolerance=tol, n_resamples=200)
        )
    assert results[0] == results[1]


@settings(max_examples=40, deadline=None)
@given(rows=rows, tol=st.sampled_from([0.0, 1.0]))
def test_swapping_sides_turns_accuracy_into_rejected_share(rows, tol):
    iv, c, r, flags = (list(x) for x in zip(*rows, strict=True))
    forward = iso.score(iv, c, r, no_judgment=flags, tie_tolerance=tol, n_resamples=0)
    swapped = iso.score(iv, r, c, no_judgment=flags, tie_tolerance=tol, n_resamples=0)
    for name in set(iv):
        expected = (
            100
            - forward[f"accuracy/{name}"]
            - forward[f"tie_rate/{name}"]
            - forward[f"no_judgment_rate/{name}"]
        )
        assert swapped[f"accuracy/{name}"] == pytest.approx(expected, abs=1e-9)
        assert swapped[f"tie_rate/{name}"] == forward[f"tie_rate/{name}"]


@pytest.mark.parametrize("n_prompts", [10, 40])
def test_a_prompt_holding_half_the_pairs_leaves_no_interval_and_says_why(n_prompts: int) -> None:
    """Prompt 0 holds half the pairs of every intervention (the rest one per prompt and intervention): a jackknife
    over prompts cannot measure a spread that is mostly one prompt's (its intervals covered 99-100% at a width
    that said nothing), so the keys carry no interval and their records, and the caveat every report reads, say
    why; one fewer pair in that prompt and the interval is back."""
    from mmjudge.estimates import estimates_from, interval_caveat

    rng = np.random.default_rng(n_prompts)
    others = n_prompts - 1
    for held, withheld in ((others, True), (others - 1, False)):
        prompt = [0] * held + list(range(1, n_prompts))
        ivs = [iv for iv in IVS for _ in prompt]
        anchors = [f"p{p}" for _ in IVS for p in prompt]
        win = rng.random(len(ivs)) < 0.8
        result = iso.score(ivs, score_chosen=win.astype(float), score_rejected=(~win).astype(float),
                           pair_id=[str(k) for k in range(len(ivs))], cluster=anchors, n_resamples=0)  # fmt: skip
        estimates = estimates_from(result)
        for key in ("average", f"accuracy/{IVS[0]}"):
            assert ("average_ci_low" not in result if key == "average" else f"{key}_ci_low" not in result) == withheld
            caveat = interval_caveat(estimates[key])
            assert caveat.startswith("no interval: one prompt holds 50% of the units") == withheld, caveat


def test_a_small_intervention_all_right_still_adds_to_the_averages_spread():
    """``average`` over 5 pairs all right and 100 pairs half right (independent pairs): the 5-pair intervention's
    jackknife variance is 0, and its variance is taken as Price and Bonett's for two rates (one success and one
    failure added: ``p~ = 6/7`` over 7); the Wilson interval on the effective sample size of the mean, with t on
    the pairs less the two strata, written out here. Without the pseudo-counts the interval rested on the
    100-pair intervention's spread alone."""
    from scipy import stats

    result = iso.score(["frame_hold"] * 5 + ["t2v_5b"] * 100, choice=["chosen"] * 55 + ["rejected"] * 50)
    assert result["average"] == 75.0
    variance = 0.5**2 * ((6 / 7) * (1 / 7) / 7 + 0.25 / 99)  # of the mean, as a fraction
    p, n = 0.75, 0.75 * 0.25 / variance
    t = stats.t.ppf(0.975, 105 - 2)
    centre, half = (p + t**2 / (2 * n)) / (1 + t**2 / n), t * math.sqrt(p * (1 - p) / n + t**2 / (4 * n**2)) / (1 + t**2 / n)
    assert result["average_ci_low"] == pytest.approx(100 * (centre - half), rel=1e-9)
    assert result["average_ci_high"] == pytest.approx(100 * (centre + half), rel=1e-9)


def test_a_mean_over_a_stratum_of_few_pairs_is_marked_thin_and_says_which():
    """Interventions of 1,000 down to 5 independent pairs (the coverage benchmark's unequal design): ``average``
    holds 1,918 pairs, but it weighs the 5-pair intervention as much as the 1,000-pair one, so its interval rests on
    the strata under 30 pairs. Its record says so (the note ``interval_caveat`` shows in reports, the evaluate
    output and the leaderboard); ``dimension_accuracy/overall`` (15, 8 and 5 pairs) is marked thin by its own 28
    pairs, as before; a mean whose strata all hold 30 or more is not marked."""
    from mmjudge.estimates import Estimate, estimates_from, interval_caveat
    from mmjudge.metric_inputs import with_interval_notes

    sizes = (1000, 500, 250, 100, 40, 15, 8, 5)
    names = [iv for iv, n in zip(iso.INTERVENTIONS, sizes, strict=True) for _ in range(n)]
    choice = [("chosen" if k % 4 else "rejected") for k in range(len(names))]
    result = iso.score(names, choice=choice)
    estimates = estimates_from(result)
    why = "thin: stratum t2v_1_3b has 5 pairs (under 30; 3 of the 8 strata the mean weighs alike are)"
    assert estimates["average"].n_clusters == 1918
    assert interval_caveat(estimates["average"]) == why
    assert interval_caveat(estimates["decided_average"]) == why
    assert interval_caveat(estimates["dimension_accuracy/overall"]) == "thin: 28 pairs (under 30)"
    assert estimates["dimension_accuracy/overall"].note is None  # its own count already marks it
    assert interval_caveat(estimates["dimension_accuracy/motion"]) == ""
    # results.json and the leaderboard store the record and read it back
    assert interval_caveat(Estimate.from_json(estimates["average"].to_json())) == why
    assert why in with_interval_notes(result)["interval_notes"]
