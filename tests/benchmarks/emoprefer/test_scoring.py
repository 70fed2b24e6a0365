"""EmoPrefer-Data scoring: the official parser, 2-/3-class rules, swap consistency, votes, ranking."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, f1_score
from wilson_reference import repaired_wilson

from mmjudge.benchmarks import emoprefer as ep
from mmjudge.benchmarks import get_benchmark
from mmjudge.errors import SchemaError

LABELS = ["a1", "a2", "same"]


def _sk(refs, preds):
    """Independent reference: scikit-learn on the same label lists, x100."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return 100 * f1_score(refs, preds, average="weighted"), 100 * accuracy_score(refs, preds)


# --- parser: every branch of the official rule -------------------------------------------------


@pytest.mark.parametrize(
    ("response", "label"),
    [
        ("a1", "a1"),
        ("A2", "a2"),
        ("SAME", "same"),
        ("a1. Description a1 is more precise", "a1"),  # starts with a1
        ("a2 rather than a1", "a2"),  # starts with a2 although a1 also occurs
        ("same, though a1 is close", "same"),  # starts with same
        ("The better one is A2, not a1", "a2"),  # earliest substring: a2 before a1
        ("I choose a1 over a2", "a1"),  # earliest substring: a1 before a2
        ("They are the same; a2 is longer", "same"),  # earliest substring: same before a2
        ("Answer: A1", "a1"),  # lowercased before matching
        ("no preference at all", "same"),  # none of the three -> same
        ("", "same"),  # empty response -> same
        ("a12", "a1"),  # a prefix match, as the official startswith does
    ],
)
def test_parse_response_official_rule(response, label):
    assert ep.parse_response(response) == label


def official_postprocess_preference(response: str) -> str:
    """EmoPrefer's ``utils/common.py::func_postprocess_preference`` for one response, as its code states it."""
    response = response.lower()
    if response.startswith("a1"):
        return "a1"
    if response.startswith("a2"):
        return "a2"
    if response.startswith("same"):
        return "same"
    if response.find("a1") != -1 or response.find("a2") != -1 or response.find("same") != -1:
        keys = ["a1", "a2", "same"]
        poses = [response.find("a1"), response.find("a2"), response.find("same")]
        poses = [10000 if item == -1 else item for item in poses]
        return keys[int(np.argmin(poses))]
    return "same"


@pytest.mark.parametrize(
    "response",
    [
        "x" * 10_001 + "a2",  # a2 past the sentinel: the absent a1 wins
        "x" * 10_000 + "a2",  # a2 at the sentinel: the tie goes to a1, first in order
        "x" * 9_999 + "a2",  # just before the sentinel: a2
        "x" * 10_000 + "same then a2",  # same at 10000 ties the absent a1 and a2: a1
        "x" * 12_000 + "a2 and a1",  # both past it: the absent same (10000) wins
        "y" * 20_000,  # none: same
        "x" * 10_005 + "same",  # same alone far out: a1 (10000) beats it
    ],
)
def test_long_replies_follow_the_official_sentinel(response):
    assert ep.parse_response(response) == official_postprocess_preference(response)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["a1", "a2", "same", "A1", "Same", "x", " ", "sa", "a", "2", "\n"]), max_size=30),
    st.integers(0, 12_000),
)
def test_parser_equals_the_official_code_on_random_replies(parts, pad):
    response = "z" * pad + "".join(parts)
    assert ep.parse_response(response) == official_postprocess_preference(response)


def test_parse_responses_refuses_missing():
    with pytest.raises(SchemaError, match=r"`predictions` has 2 missing.*\[1, 3\]"):
        ep.parse_responses("predictions", ["a1", None, "a2", float("nan")])


# --- 3-class and 2-class -----------------------------------------------------------------------


def test_three_class_matches_sklearn_on_random_labels():
    rng = np.random.default_rng(0)
    for _ in range(20):
        refs = rng.choice(LABELS, size=40).tolist()
        preds = rng.choice(LABELS, size=40).tolist()
        got = ep.three_class(refs, preds)
        waf, acc = _sk(refs, preds)
        assert got.waf == pytest.approx(waf) and got.accuracy == pytest.approx(acc) and got.n == 40


def test_two_class_rule_step_by_step():
    refs = ["a1", "a2", "same", "a2", "a1", "same", "a2"]
    preds = ["same", "a2", "a1", "same", "a2", "a2", "a2"]
    # rule: drop gold `same` (positions 2 and 5), then predicted `same` -> a1
    kept_refs = ["a1", "a2", "a2", "a1", "a2"]
    kept_preds = ["a1", "a2", "a1", "a2", "a2"]
    got = ep.two_class(refs, preds)
    waf, acc = _sk(kept_refs, kept_preds)
    assert got == (pytest.approx(waf), pytest.approx(acc), 5)
    assert got.accuracy == pytest.approx(60.0)


def test_waf_edge_cases_against_sklearn():
    cases = [
        (["a1"] * 4, ["a1"] * 4),  # single class, all right
        (["a1"] * 4, ["a2"] * 4),  # single class, all wrong
        (["a1", "a2", "a1", "a2"], ["a1", "a1", "a2", "a2"]),  # balanced, half right
        (["a1", "a2", "same"], ["same", "same", "same"]),  # one class predicted
        (["a1", "a1", "a2", "a2"], ["a2", "a2", "a1", "a1"]),  # all swapped
    ]
    for refs, preds in cases:
        waf, acc = _sk(refs, preds)
        got = ep.three_class(refs, preds)
        assert (got.waf, got.accuracy) == (pytest.approx(waf), pytest.approx(acc))


def test_all_same_gold_gives_nan_two_class_with_warning():
    with pytest.warns(UserWarning, match="2-class subset is empty"):
        result = ep.score(["a1", "same"], ["same", "same"])
    assert math.isnan(result["waf_2class"]) and math.isnan(result["acc_2class"])
    assert result["n_2class"] == 0
    assert result["acc_3class"] == 50.0


# --- swap consistency and score ----------------------------------------------------------------


def test_swap_consistency_rule_step_by_step():
    forward = ["a1", "a2", "same", "a1", "a2"]
    reversed_space = ["a2", "a2", "same", "same", "a1"]
    mapped_back = ["a1", "a1", "same", "same", "a2"]  # a1<->a2, same stays
    expected = 100 * np.mean([f == b for f, b in zip(forward, mapped_back, strict=True)])
    assert ep.swap_consistency(forward, reversed_space) == pytest.approx(expected) == 60.0


def test_score_keys_and_values():
    refs = ["a1", "a2", "same", "a1", "a2", "a1"]
    preds = ["A1 is better", "a2", "same", "same", "the first, a1", "a1"]
    swapped = ["a2", "a1", "same", "a1", "a2", "a2"]
    result = ep.score(preds, refs, swapped)
    parsed = ["a1", "a2", "same", "same", "a1", "a1"]
    waf3, acc3 = _sk(refs, parsed)
    waf2, acc2 = _sk(["a1", "a2", "a1", "a2", "a1"], ["a1", "a2", "a1", "a1", "a1"])
    assert result["waf_3class"] == pytest.approx(waf3) and result["acc_3class"] == pytest.approx(acc3)
    assert result["waf_2class"] == pytest.approx(waf2) and result["acc_2class"] == pytest.approx(acc2)
    # swapped mapped back: a1 a2 same a2 a1 a1; equal to parsed forward except position 3 (same vs a2)
    assert result["swap_consistency"] == pytest.approx(100 * 5 / 6)
    assert "swap_consistency" not in ep.score(preds, refs)


def test_registered_and_keys_documented():
    spec = get_benchmark("emoprefer")
    assert spec.metrics.score is ep.score
    documented = {k.name for k in spec.metrics.result_keys}
    result = ep.score(["a1", "a2"] * 3, ["a1", "a2"] * 3, ["a2", "a1"] * 3, strategy="S1")
    assert set(result) <= documented and "waf_2class_ci_low" in result and result["strategy"] == "S1"
    rounds = ep.mean_std_over_rounds([["a1", "a2"]] * 2, ["a1", "a2"], [["a2", "a1"]] * 2, strategy="S4")
    assert set(rounds) <= documented and "waf_2class_std" in rounds
    assert documented == set(result) | set(rounds)


def test_proportions_get_wilson_intervals():
    refs = ["a1", "a2", "same", "a1", "a2", "a1", "same", "a2"]
    preds = ["a1", "a2", "a1", "same", "a1", "a1", "same", "a2"]
    swapped = ["a2", "a2", "same", "a1", "a1", "a2", "same", "a1"]
    result = ep.score(preds, refs, swapped, n_resamples=0)
    # 3-class: 5 of 8 exact; 2-class (gold same dropped, same -> a1): 5 of 6;
    # swapped mapped back: a1 a1 same a2 a2 a1 same a2, equal to the forward label 4 times of 8
    for key, k, n in (("acc_3class", 5, 8), ("acc_2class", 5, 6), ("swap_consistency", 4, 8)):
        assert result[key] == pytest.approx(100 * k / n)
        low, high = repaired_wilson(k, n)
        assert (result[f"{key}_ci_low"], result[f"{key}_ci_high"]) == pytest.approx((100 * low, 100 * high))
    assert "waf_3class_ci_low" in result  # the jackknife draws nothing: present with n_resamples=0
    perfect = ep.score(["a1", "a2"] * 3, ["a1", "a2"] * 3, n_resamples=0)
    assert perfect["acc_3class"] == 100.0 and perfect["acc_3class_ci_low"] < 62.0  # 6/6 is not certainty
    assert perfect["waf_3class"] == 100.0 and perfect["waf_3class_ci_low"] < 70.0  # nor is a perfect WAF


def test_waf_cis_are_the_item_bootstrap():
    rng = np.random.default_rng(7)
    refs = rng.choice(LABELS, size=150, p=[0.45, 0.4, 0.15]).tolist()
    preds = [r if rng.random() < 0.6 else str(rng.choice(LABELS)) for r in refs]
    result = ep.score(preds, refs, n_resamples=4000, seed=1)
    boot3, boot2 = [], []
    for _ in range(800):  # resample items, score them with scikit-learn
        idx = rng.integers(0, len(refs), len(refs))
        r, p = [refs[i] for i in idx], [preds[i] for i in idx]
        boot3.append(_sk(r, p)[0])
        kept = [(a, "a1" if b == "same" else b) for a, b in zip(r, p, strict=True) if a != "same"]
        boot2.append(_sk(*map(list, zip(*kept, strict=True)))[0])
    for key, boot in (("waf_3class", boot3), ("waf_2class", boot2)):
        assert result[f"{key}_ci_low"] == pytest.approx(np.quantile(boot, 0.025), abs=1.5)
        assert result[f"{key}_ci_high"] == pytest.approx(np.quantile(boot, 0.975), abs=1.5)
        assert result[f"{key}_ci_low"] < result[key] < result[f"{key}_ci_high"]


def test_no_two_class_items_means_no_two_class_intervals():
    with pytest.warns(UserWarning, match="2-class subset is empty"):
        result = ep.score(["a1", "same"] * 3, ["same", "same"] * 3, n_resamples=200)
    assert not [k for k in result if k.startswith(("waf_2class_ci", "acc_2class_ci"))]
    assert "waf_3class_ci_low" in result and "acc_3class_ci_low" in result


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"predictions": ["a1"], "references": ["a1", "a2"]}, "predictions=1, references=2"),
        (
            {"predictions": ["a1", "a2"], "references": ["a1", "A2"]},
            r"`references` has 1 values outside.*'A2'",
        ),
        ({"predictions": ["a1", None], "references": ["a1", "a2"]}, "`predictions` has 1 missing"),
        ({"predictions": [], "references": []}, "`references` is empty"),
        (
            {"predictions": ["a1", "a2"], "references": ["a1", "a2"], "ids": ["v1", "v1"]},
            r"`ids` has 1 duplicated ids: \['v1'\]",
        ),
        (
            {"predictions": ["a1", "a2"], "references": ["a1", "a2"], "swapped_predictions": ["a1"]},
            "swapped_predictions=1",
        ),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(SchemaError, match=match):
        ep.score(**kwargs)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS), st.sampled_from(LABELS)),
        min_size=1,
        max_size=30,
    ),
    st.randoms(),
)
def test_scores_invariant_to_row_order(rows, rnd):
    shuffled = rows[:]
    rnd.shuffle(shuffled)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = ep.score(*map(list, zip(*rows, strict=True)))
        b = ep.score(*map(list, zip(*shuffled, strict=True)))
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == pytest.approx(b[key], nan_ok=True)


# --- rounds, votes, strategy -------------------------------------------------------------------


def test_mean_std_over_rounds_uses_numpy_population_std():
    refs = ["a1", "a2", "a1", "a2"]
    rounds = [["a1", "a2", "a1", "a1"], ["a1", "a1", "a1", "a1"], ["a2", "a2", "a1", "a2"]]
    accs = [ep.score(r, refs)["acc_3class"] for r in rounds]
    result = ep.mean_std_over_rounds(rounds, refs)
    assert result["acc_3class"] == pytest.approx(np.mean(accs))
    assert result["acc_3class_std"] == pytest.approx(np.std(accs, ddof=0))
    assert result["n_rounds"] == 3 and result["n_items"] == 4
    assert not [k for k in result if "_ci_" in k]  # the spread over rounds is the std
    swapped = ep.mean_std_over_rounds(rounds, refs, [["a2", "a1", "a2", "a1"]] * 3)
    assert "swap_consistency" in swapped and "swap_consistency_std" in swapped


def test_majority_vote_tie_breaks():
    votes = [["a1", "a2", "same", "a1"], ["a2", "a2", "a1", "a1"], ["same", "a1", "a1", "a2"]]
    # item 0: three-way split; item 1: a2 wins 2-1; item 2: a1 wins; item 3: a1 wins 2-1
    assert ep.majority_vote(votes) == ["same", "a2", "a1", "a1"]
    assert ep.majority_vote(votes, tie_break="first") == ["a1", "a2", "a1", "a1"]
    # 2-2 tie where the first voter's label is not among the tied ones: earliest tied voter wins
    assert ep.majority_vote([["same"], ["a2"], ["a1"], ["a2"], ["a1"]], tie_break="first") == ["a2"]
    with pytest.raises(SchemaError, match="tie_break"):
        ep.majority_vote(votes, tie_break="last")  # type: ignore[arg-type]


def test_vote_normal_swapped_maps_reversed_runs_back():
    forward = [["a1", "a2", "same"], ["a1", "a1", "a2"]]
    swapped = [["a1", "a1", "a1"], ["a2", "same", "a1"]]  # back: a2 a2 a2 / a1 same a2
    # item0: a1,a1,a2,a1 -> a1; item1: a2,a1,a2,same -> a2; item2: same,a2,a2,a2 -> a2
    assert ep.vote_normal_swapped(forward, swapped) == ["a1", "a2", "a2"]


def official_normal_reverse_voting(forward_runs, reverse_runs):
    """The release's ``func_normal_reverse_voting`` + ``func_majority_vote``, written out from their code.

    Voters: the forward runs, then the reverse runs mapped a1<->a2. Per item, labels are counted in a
    dict in the order they are first seen, and the first label (in that order) reaching the top count
    is the vote.
    """
    back = {"a1": "a2", "a2": "a1", "same": "same"}
    voters = [list(run) for run in forward_runs] + [[back[x] for x in run] for run in reverse_runs]
    voted = []
    for item in range(len(voters[0])):
        counts = {}
        for run in voters:
            counts[run[item]] = counts.get(run[item], 0) + 1
        top = max(counts.values())
        voted.append(next(label for label, count in counts.items() if count == top))
    return voted


def test_vote_normal_swapped_default_is_the_official_rule_on_the_issue_case():
    assert official_normal_reverse_voting([["a1"]], [["a1"]]) == ["a1"]
    assert ep.vote_normal_swapped([["a1"]], [["a1"]]) == ["a1"]  # the tie goes to the label seen first
    assert ep.vote_normal_swapped([["a1"]], [["a1"]], tie_break="same") == ["same"]  # the named other rule


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 30).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(st.sampled_from(LABELS), min_size=n, max_size=n), min_size=1, max_size=4),
            st.lists(st.lists(st.sampled_from(LABELS), min_size=n, max_size=n), min_size=1, max_size=4),
        )
    )
)
def test_vote_normal_swapped_equals_func_normal_reverse_voting(runs):
    """Random runs: 2-2 and three-way ties, a single label everywhere, one or four runs per direction."""
    forward, reverse = runs
    assert ep.vote_normal_swapped(forward, reverse) == official_normal_reverse_voting(forward, reverse)


def test_top_k_vote_ranks_by_two_class_waf():
    refs = ["a1", "a2", "a1", "a2"]
    preds = {
        "best": ["a1", "a2", "a1", "a2"],
        "good": ["a1", "a2", "a1", "a1"],
        "ok": ["a1", "a1", "a1", "a1"],
        "bad": ["a2", "a1", "a2", "a1"],
    }
    vote = ep.top_k_vote(preds, refs, k=3)
    assert vote.models == ("best", "good", "ok")
    assert vote.predictions == ep.majority_vote([preds["best"], preds["good"], preds["ok"]])
    assert ep.top_k_vote(preds, refs, k=4).models[-1] == "bad"
    with pytest.raises(SchemaError, match="k must be between 1 and 4"):
        ep.top_k_vote(preds, refs, k=5)


def test_best_strategy():
    results = {"S1": {"waf_2class": 61.0}, "S2": {"waf_2class": float("nan")}, "S3": {"waf_2class": 64.2}}
    assert ep.best_strategy(results) == "S3"
    assert ep.best_strategy({"S2": {"waf_2class": 50.0}, "S1": {"waf_2class": 50.0}}) == "S1"
    with pytest.raises(SchemaError, match="no 'waf_2class'"):
        ep.best_strategy({"S1": {"acc_2class": 1.0}})


# --- Bradley-Terry ranking of description models -----------------------------------------------


def test_rank_description_models_counts_and_order():
    rng = np.random.default_rng(3)
    strength = {"merrfine": 1.0, "mercaptionplus": 2.5, "third": 0.4}
    beta = 0.8
    names = list(strength)
    m1, m2, prefs = [], [], []
    for _ in range(3000):
        i, j = rng.choice(3, size=2, replace=False)
        a, b = names[i], names[j]
        ta, tb = strength[a], strength[b]
        p = np.array([ta, tb, beta]) / (ta + tb + beta)
        m1.append(a)
        m2.append(b)
        prefs.append(rng.choice(["a1", "a2", "same"], p=p))
    with pytest.warns(UserWarning, match="dropped 1 self-comparisons"):
        ranking = ep.rank_description_models([*m1, "third"], [*m2, "third"], [*prefs, "a1"])
    assert ranking.models == ("mercaptionplus", "merrfine", "third")
    assert ranking.ranking == ("mercaptionplus", "merrfine", "third")
    # counts: a1 is a win of model1, a2 a win of model2, same a tie on both sides
    idx = {m: k for k, m in enumerate(ranking.models)}
    i, j = idx["merrfine"], idx["third"]
    expect_win = sum(
        (a == "merrfine" and b == "third" and p == "a1") or (a == "third" and b == "merrfine" and p == "a2")
        for a, b, p in zip(m1, m2, prefs, strict=True)
    )
    assert ranking.wins[i, j] == expect_win
    assert np.array_equal(ranking.ties, ranking.ties.T)
    assert ranking.wins.sum() + ranking.ties.sum() / 2 == 3000
    ratio = ranking.theta[idx["mercaptionplus"]] / ranking.theta[idx["merrfine"]]
    assert ratio == pytest.approx(2.5, rel=0.15)
    assert ranking.beta / ranking.theta[idx["merrfine"]] == pytest.approx(beta, rel=0.15)
