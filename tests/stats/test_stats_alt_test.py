"""The alt-test against a straightforward per-item loop of the authors' procedure, hand-built cases
worked out step by step, and invariance properties."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special
from scipy import stats as sps

from mmjudge.errors import SchemaError
from mmjudge.stats import alt_test


def _accuracy(pred, rest):
    return float(np.mean([pred == r for r in rest]))


def _neg_rmse(pred, rest):
    return -float(np.sqrt(np.mean([(pred - r) ** 2 for r in rest])))


def _neg_mae(pred, rest):
    return -float(np.mean([abs(pred - r) for r in rest]))


SCORES = {"accuracy": _accuracy, "neg_rmse": _neg_rmse, "neg_mae": _neg_mae}


def loop_alt_test(judge, humans, score, epsilon=0.2, q=0.05, min_humans=2, min_items=30):
    """The procedure written out item by item, as in the authors' released notebook."""
    labellers = {}
    for annotator, labels in humans.items():
        for item in labels:
            labellers.setdefault(item, []).append(annotator)
    kept = {item for item, who in labellers.items() if len(who) >= min_humans and item in judge}
    p_values, advantage, n_items = {}, {}, {}
    for annotator, labels in humans.items():
        items = [item for item in labels if item in kept]
        n_items[annotator] = len(items)
        if len(items) < min_items:
            continue
        judge_wins, human_wins = [], []
        for item in items:
            rest = [humans[other][item] for other in labellers[item] if other != annotator]
            s_h, s_f = score(labels[item], rest), score(judge[item], rest)
            judge_wins.append(1 if s_f >= s_h else 0)
            human_wins.append(1 if s_h >= s_f else 0)
        d = [h - f for h, f in zip(human_wins, judge_wins, strict=True)]
        if len(set(d)) == 1:  # zero variance: t = -inf (p = 0) below epsilon, +inf (p = 1) above
            p_values[annotator] = 0.0 if d[0] < epsilon else 1.0
        else:
            p_values[annotator] = float(sps.ttest_1samp(d, epsilon, alternative="less").pvalue)
        advantage[annotator] = float(np.mean(judge_wins))
    names = list(p_values)
    ordered = sorted(range(len(names)), key=lambda k: p_values[names[k]])
    m = len(names)
    harmonic = sum(1.0 / k for k in range(1, m + 1))
    last = -1
    for rank, k in enumerate(ordered, start=1):
        if p_values[names[k]] <= rank / m * (q / harmonic):
            last = rank
    rejected = {name: False for name in names}
    for k in ordered[:last] if last > 0 else []:
        rejected[names[k]] = True
    return {
        "winning_rate": sum(rejected.values()) / m,
        "advantage_probability": float(np.mean(list(advantage.values()))),
        "p_values": p_values,
        "rejected": rejected,
        "annotator_advantage": advantage,
        "n_items": n_items,
        "dropped_annotators": set(humans) - set(p_values),
        "dropped_items": set(labellers) - kept,
    }


def assert_same(res, ref):
    assert res.winning_rate == ref["winning_rate"]
    assert res.advantage_probability == ref["advantage_probability"]
    assert res.passed == (ref["winning_rate"] >= 0.5)
    assert list(res.p_values) == list(ref["p_values"])
    for annotator, p in ref["p_values"].items():
        assert res.p_values[annotator] == pytest.approx(p, rel=1e-12, abs=1e-300)
    assert res.rejected == ref["rejected"]
    assert res.annotator_advantage == ref["annotator_advantage"]
    assert res.n_items == ref["n_items"]
    assert set(res.dropped_annotators) == ref["dropped_annotators"]
    assert set(res.dropped_items) == ref["dropped_items"]


def synthetic(n_items, n_humans, *, judge_noise, human_noise=0.3, n_labels=4, seed=0, coverage=1.0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n_labels, n_items)

    def noisy(noise):
        return np.where(rng.random(n_items) < noise, rng.integers(0, n_labels, n_items), truth)

    humans = {}
    for h in range(n_humans):
        labels = noisy(human_noise)
        seen = rng.random(n_items) < coverage
        humans[f"h{h}"] = {f"i{i}": int(labels[i]) for i in range(n_items) if seen[i]}
    judge = {f"i{i}": int(v) for i, v in enumerate(noisy(judge_noise))}
    return judge, humans


def test_hand_worked_case_step_by_step():
    humans = {
        "h1": {1: "A", 2: "A", 3: "B", 4: "B"},
        "h2": {1: "A", 2: "B", 3: "B", 4: "A"},
        "h3": {1: "A", 2: "A", 3: "B", 4: "A"},
    }
    judge = {1: "A", 2: "A", 3: "B", 4: "A"}
    res = alt_test(judge, humans, min_instances_per_human=2)
    # h1: items 1-3 are ties (d = 0); item 4: others say A, A -> judge 1, h1 0 -> d = -1.
    # d = [0, 0, 0, -1]: mean -0.25, sd 0.5, t = (-0.25 - 0.2) / (0.5 / 2) = -1.8 with 3 df.
    p_h1 = special.stdtr(3, -1.8)
    assert res.p_values["h1"] == pytest.approx(p_h1, rel=1e-12)
    assert res.p_values["h2"] == pytest.approx(p_h1, rel=1e-12)  # d = [0, -1, 0, 0]
    assert res.p_values["h3"] == 0.0  # judge equals h3 everywhere: all ties, zero variance, 0 < epsilon
    # BY with m = 3: thresholds (i/3) * 0.05 / (1 + 1/2 + 1/3) = 0.0091, 0.0182, 0.0273 -> only h3
    assert res.rejected == {"h1": False, "h2": False, "h3": True}
    assert res.winning_rate == pytest.approx(1 / 3)
    assert res.advantage_probability == 1.0  # the judge scores at least as well on every item
    assert not res.passed
    assert_same(res, loop_alt_test(judge, humans, _accuracy, min_items=2))


def test_annotators_below_minimum_and_items_with_one_human_are_dropped():
    judge, humans = synthetic(60, 3, judge_noise=0.2, seed=1)
    humans["late"] = {f"i{i}": 0 for i in range(10)}  # 10 items < 30
    humans["h0"]["solo"] = judge["solo"] = 1  # only one human labels "solo"
    humans["h1"]["unjudged"] = 2  # "unjudged" has two humans but no judge label
    humans["h2"]["unjudged"] = 2
    res = alt_test(judge, humans)
    assert res.dropped_annotators == {"late": "10 instances < min_instances_per_human=30"}
    assert res.n_items["late"] == 10 and res.n_items["h0"] == 60
    assert res.dropped_items == {"solo": ("too_few_humans",), "unjudged": ("no_judge_label",)}
    assert res.annotators == ("h0", "h1", "h2")
    assert_same(res, loop_alt_test(judge, humans, _accuracy))


def test_all_differences_equal_follow_the_zero_variance_rule():
    humans = {f"h{k}": {i: "x" for i in range(30)} for k in range(3)}
    same = alt_test({i: "x" for i in range(30)}, humans)
    assert set(same.p_values.values()) == {0.0} and same.winning_rate == 1.0 and same.passed
    wrong = alt_test({i: "y" for i in range(30)}, humans)  # d = 1 on every item, above epsilon
    assert set(wrong.p_values.values()) == {1.0} and wrong.winning_rate == 0.0
    assert wrong.advantage_probability == 0.0 and not wrong.passed
    assert_same(wrong, loop_alt_test({i: "y" for i in range(30)}, humans, _accuracy))


def test_clear_pass_and_clear_fail():
    judge, humans = synthetic(200, 3, judge_noise=0.0, human_noise=0.4, seed=2)
    good = alt_test(judge, humans)
    assert good.passed and good.winning_rate == 1.0 and good.advantage_probability > 0.8
    assert_same(good, loop_alt_test(judge, humans, _accuracy))
    bad_judge = {item: (label + 1) % 4 for item, label in judge.items()}
    bad = alt_test(bad_judge, humans)
    assert not bad.passed and bad.winning_rate == 0.0 and bad.advantage_probability < 0.5
    assert_same(bad, loop_alt_test(bad_judge, humans, _accuracy))


@pytest.mark.parametrize("scoring", ["accuracy", "neg_rmse", "neg_mae"])
@pytest.mark.parametrize("seed", [3, 4])
def test_matches_loop_on_sparse_overlapping_annotations(scoring, seed):
    judge, humans = synthetic(150, 6, judge_noise=0.3, seed=seed, coverage=0.5)
    del judge["i0"]
    res = alt_test(judge, humans, scoring=scoring, epsilon=0.15)
    assert_same(res, loop_alt_test(judge, humans, SCORES[scoring], epsilon=0.15))


def test_custom_scoring_callable_matches_loop():
    judge, humans = synthetic(80, 4, judge_noise=0.2, seed=5)

    def within_one(pred, rest):
        return float(np.mean([abs(pred - r) <= 1 for r in rest]))

    res = alt_test(judge, humans, scoring=within_one)
    assert res.scoring == "within_one"
    assert_same(res, loop_alt_test(judge, humans, within_one))


def test_flat_dict_has_per_annotator_keys():
    judge, humans = synthetic(40, 3, judge_noise=0.1, seed=6)
    flat = alt_test(judge, humans).as_dict()
    assert {"winning_rate", "advantage_probability", "passed", "p_value/h0", "n_items/h2"} <= set(flat)
    assert all(isinstance(v, (int, float, str, bool)) for v in flat.values())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), coverage=st.floats(0.5, 1.0), scoring=st.sampled_from(list(SCORES)))
def test_invariant_to_item_and_annotator_order_and_equal_to_loop(seed, coverage, scoring):
    judge, humans = synthetic(40, 4, judge_noise=0.3, seed=seed, coverage=coverage)
    try:
        base = alt_test(judge, humans, scoring=scoring, min_instances_per_human=10)
    except SchemaError:
        return
    assert_same(base, loop_alt_test(judge, humans, SCORES[scoring], min_items=10))
    shuffler = random.Random(seed)
    items = list(judge)
    shuffler.shuffle(items)
    names = list(humans)
    shuffler.shuffle(names)
    shuffled = {h: {i: humans[h][i] for i in items if i in humans[h]} for h in names}
    other = alt_test({i: judge[i] for i in items}, shuffled, scoring=scoring, min_instances_per_human=10)
    assert other.winning_rate == base.winning_rate
    assert other.advantage_probability == pytest.approx(base.advantage_probability, rel=1e-12)
    assert other.rejected == base.rejected
    for name, p in base.p_values.items():
        assert other.p_values[name] == pytest.approx(p, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"judge": {}, "humans": {"h": {1: "a"}}}, "`judge` must be a non-empty dict"),
        ({"judge": {1: "a"}, "humans": {}}, "`humans` must be a non-empty dict"),
        ({"judge": {1: "a"}, "humans": {"h": [1]}}, "values must be dicts"),
        (
            {"judge": {1: "a"}, "humans": {"h": {1: None}, "g": {1: "a"}}},
            r"humans\['h'\] has 1 missing labels .* items \[1\]",
        ),
        (
            {"judge": {1: float("nan")}, "humans": {"h": {1: "a"}, "g": {1: "a"}}},
            r"judge has 1 missing labels",
        ),
        (
            {"judge": {1: "a"}, "humans": {"h": {1: "a"}, "g": {1: "b"}}, "scoring": "neg_rmse"},
            "numeric labels",
        ),
        ({"judge": {1: "a"}, "humans": {"h": {1: "a"}}, "scoring": "f1"}, "`scoring` must be one of"),
        ({"judge": {1: "a"}, "humans": {"h": {1: "a"}}, "min_humans_per_instance": 1}, "integer >= 2"),
        ({"judge": {1: "a"}, "humans": {"h": {1: "a"}}, "q": 0}, "`q`"),
        (
            {"judge": {1: "a"}, "humans": {"h": {1: "a"}, "g": {1: "a"}}},
            r"no annotator has at least .*'h', 1",
        ),
    ],
)
def test_bad_input_raises_schema_error(kwargs, message):
    with pytest.raises(SchemaError, match=message):
        alt_test(**kwargs)
