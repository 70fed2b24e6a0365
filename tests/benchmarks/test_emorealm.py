"""EmoReAlM scoring against the official evaluation rules written out step by step."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mmjudge.benchmarks import emorealm as emo
from mmjudge.errors import ConfigError, SchemaError
from mmjudge.registry import get_benchmark
from mmjudge.stats import bootstrap_ci

YN = ["(A) Yes", "(B) No"]
NY = ["(A) No", "(B) Yes"]
MCQ = ["(A) Happy", "(B) Sad", "(C) Angry", "(D) Neutral"]


def whole_word(prediction, gold):
    """The official rule reduced to its effect: the gold letter is a standalone word, any case."""
    words = re.findall(r"[A-Za-z0-9_]+", prediction)
    return gold.lower() in [w.lower() for w in words]


@pytest.mark.parametrize(
    ("prediction", "gold", "expected"),
    [
        ("B", "B", True),
        ("(B)", "B", True),
        ("[b]", "B", True),
        ("B.", "B", True),
        ("Answer: B:", "B", True),
        ("the answer is b", "B", True),
        ("Bob looks sad", "B", False),
        ("AB", "B", False),
        ("B2", "B", False),
        ("A or B", "A", True),
        ("A or B", "B", True),
        ("(A)", "B", False),
        ("a person who frowns", "A", True),  # the quirk: the English article counts as A
        ("A person who frowns", "C", False),
        ("I think so", "I", True),
        ("", "A", False),
    ],
)
def test_official_matcher(prediction, gold, expected):
    assert emo.matches_official(prediction, gold) is expected
    assert emo.is_correct(prediction, gold) is expected


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet="abAB()[].:;, -_1xyz\n", max_size=20),
    gold=st.sampled_from(["A", "B", "C"]),
)
def test_official_matcher_is_the_whole_word_rule(text, gold):
    assert emo.matches_official(text, gold) == whole_word(text, gold)


def test_standalone_a_quirk_and_explicit_parser():
    response = "It is a happy scene, so the answer is (B)."
    assert emo.is_correct(response, "A") and emo.is_correct(response, "B")
    assert not emo.is_correct(response, "A", matcher="explicit")
    assert emo.is_correct(response, "B", matcher="explicit")


@pytest.mark.parametrize(
    ("prediction", "choices", "expected"),
    [
        ("B", None, "B"),
        ("(c)", None, "C"),
        ("d.", None, "D"),
        ("Answer: B", None, "B"),
        ("The answer is (b) because", None, "B"),
        ("The final answer is option C.", None, "C"),
        ("the answer is b.", None, "B"),
        ("the answer is a smiling face", None, None),
        ("I see [D] here", None, "D"),
        ("C. Angry", None, "C"),
        ("a woman smiles", None, None),
        ("A or B", None, None),
        ("(E)", MCQ, None),
        ("(E) then (B)", MCQ, "B"),
        ("Answer: C, not (B)", MCQ, "C"),
        ("Yes, they match.", YN, "A"),
        ("no.", NY, "A"),
        ("Yes", None, None),
        ("", None, None),
    ],
)
def test_explicit_parser(prediction, choices, expected):
    assert emo.explicit_answer(prediction, choices) == expected


@pytest.mark.parametrize(
    ("prediction", "gold", "choices", "expected"),
    [
        ("b", "B", YN, True),
        ("yes they do", "A", YN, True),
        ("yes they do", "A", NY, False),
        ("no", "A", NY, True),
        ("b, not a", "A", YN, True),  # step 1 takes letters in choice order
        ("the person looks sad", "B", MCQ, True),  # step 3: choice text in the response
        ("angry or sad", "C", MCQ, False),  # step 3 takes choices in order: B ('sad') before C ('angry')
        ("angry or sad", "C", ["(C) Angry", "(B) Sad"], True),
        ("nothing recognisable", "A", MCQ, False),
    ],
)
def test_official_parse_answer(prediction, gold, choices, expected):
    assert emo.official_parse(prediction, gold, choices) is expected


def official_accuracy(predictions, references, tasks, strict=False):
    """get_accuracy written out: per task, skip missing outputs (or count them wrong), whole-word match."""
    per_task = {}
    for p, g, t in zip(predictions, references, tasks, strict=True):
        row = per_task.setdefault(t, [0, 0])
        if p is None or p == "":
            if strict:
                row[1] += 1
            continue
        row[0] += bool(re.search(rf"\b{g}\b", p, re.IGNORECASE))
        row[1] += 1
    accuracies = {t: (100.0 * c / n if n else 0.0) for t, (c, n) in per_task.items()}
    return accuracies, sum(accuracies.values()) / len(accuracies)


def random_items(seed, n=120):
    rng = np.random.default_rng(seed)
    tasks = rng.choice(emo.TASKS, size=n).tolist()
    references = rng.choice(list("ABCD"), size=n).tolist()
    pool = ["A", "(B)", "c.", "D", "a smile", "none of these", "", None, "B or C"]
    predictions = [pool[i] for i in rng.integers(0, len(pool), size=n)]
    return predictions, references, tasks


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("mode", ["official", "strict"])
def test_accuracy_matches_official_procedure(seed, mode):
    predictions, references, tasks = random_items(seed)
    result = emo.score(predictions, references, tasks, mode=mode, n_resamples=0)
    expected, overall = official_accuracy(predictions, references, tasks, strict=mode == "strict")
    for task, accuracy in expected.items():
        assert result[f"accuracy/{task}"] == pytest.approx(accuracy)
    assert result["overall"] == pytest.approx(overall)
    assert result["mode"] == mode and result["matcher"] == "official"
    assert result["n_missing"] == sum(p in (None, "") for p in predictions)


def test_overall_is_unweighted_mean_over_tasks():
    tasks = ["reasoning_basic_audio"] * 9 + ["reasoning_basic_video"]
    result = emo.score(["A"] * 10, ["A"] * 9 + ["B"], tasks, n_resamples=0)
    assert result["overall"] == 50.0  # pooled accuracy would be 90
    assert "accuracy/modality_agreement" not in result


def test_missing_outputs_official_versus_strict():
    predictions, references = ["A", None, "", "C"], ["A", "B", "C", "D"]
    tasks = ["reasoning_basic_video"] * 4
    official = emo.score(predictions, references, tasks, n_resamples=0)
    strict = emo.score(predictions, references, tasks, mode="strict", n_resamples=0)
    assert official["accuracy/reasoning_basic_video"] == 50.0 and official["n/reasoning_basic_video"] == 2
    assert strict["accuracy/reasoning_basic_video"] == 25.0 and strict["n/reasoning_basic_video"] == 4
    assert official["n_missing/reasoning_basic_video"] == strict["n_missing/reasoning_basic_video"] == 2


def test_task_with_every_output_missing_counts_zero_with_a_warning():
    tasks = ["reasoning_basic_audio", "reasoning_stress_video"]
    with pytest.warns(UserWarning, match="every prediction is missing"):
        result = emo.score(["A", None], ["A", "A"], tasks, n_resamples=100)
    assert result["accuracy/reasoning_stress_video"] == 0.0 and result["overall"] == 50.0
    assert "accuracy/reasoning_stress_video_ci_low" not in result


def official_yes_no(predictions, references, choices):
    """get_metrics_yes_no_qa written out (official mode, official matcher)."""
    yes_total = no_total = yes_correct = no_correct = said_yes = total = 0
    for p, g, c in zip(predictions, references, choices, strict=True):
        if p is None:
            continue
        text = re.sub(r"^(\([A-D]\)|[A-D][:.])", "", c[ord(g) - 65].strip()).strip().lower()
        is_yes = "yes" in text
        ok = bool(re.search(rf"\b{g}\b", p, re.IGNORECASE))
        yes_total += is_yes
        no_total += not is_yes
        yes_correct += ok and is_yes
        no_correct += ok and not is_yes
        said_yes += (ok and is_yes) or (not ok and not is_yes)
        total += 1
    precision, recall = 100 * yes_correct / yes_total, 100 * no_correct / no_total
    return precision, recall, 2 * precision * recall / (precision + recall), 100 * said_yes / total


def test_yes_no_metrics_follow_the_official_code():
    rng = np.random.default_rng(3)
    n = 60
    choices = [YN if rng.random() < 0.5 else NY for _ in range(n)]
    references = rng.choice(["A", "B"], size=n).tolist()
    pool = ["A", "B", "(a)", "b.", "maybe", None]
    predictions = [pool[i] for i in rng.integers(0, len(pool), size=n)]
    result = emo.score(predictions, references, ["modality_agreement"] * n, choices=choices, n_resamples=0)
    precision, recall, f1, yes_rate = official_yes_no(predictions, references, choices)
    task = "modality_agreement"
    assert result[f"yes_accuracy/{task}"] == pytest.approx(precision)
    assert result[f"no_accuracy/{task}"] == pytest.approx(recall)
    assert result[f"yes_no_f1/{task}"] == pytest.approx(f1)
    assert result[f"yes_rate/{task}"] == pytest.approx(yes_rate)
    assert result[f"n_yes/{task}"] + result[f"n_no/{task}"] == result[f"n/{task}"]


def test_gold_is_yes_flag_and_hand_case():
    tasks = ["reasoning_stress_audio"] * 4 + ["reasoning_basic_audio"]
    result = emo.score(
        ["A", "A", "B", None, "C"],
        ["A", "B", "B", "A", "C"],
        tasks,
        gold_is_yes=[True, False, False, True, None],
        n_resamples=0,
    )
    task = "reasoning_stress_audio"
    assert result[f"yes_accuracy/{task}"] == 100.0  # the missing gold-Yes item is skipped
    assert result[f"no_accuracy/{task}"] == 50.0
    assert result[f"yes_no_f1/{task}"] == pytest.approx(2 * 100 * 50 / 150)
    assert result[f"yes_rate/{task}"] == pytest.approx(200 / 3)  # correct on Yes + wrong on No
    assert "yes_accuracy/reasoning_basic_audio" not in result
    strict = emo.score(
        ["A", "A", "B", None],
        ["A", "B", "B", "A"],
        tasks[:4],
        gold_is_yes=[1, 0, 0, 1],
        mode="strict",
        n_resamples=0,
    )
    assert strict[f"yes_accuracy/{task}"] == 50.0 and strict[f"yes_rate/{task}"] == pytest.approx(200 / 3)


def test_yes_no_keys_need_the_gold_reading():
    result = emo.score(["A", "B"], ["A", "B"], ["modality_agreement"] * 2, n_resamples=0)
    assert result["accuracy/modality_agreement"] == 100.0
    assert not [k for k in result if k.startswith(("yes_", "no_"))]
    only_yes = emo.score(["A"], ["A"], ["modality_agreement"], choices=[YN], n_resamples=0)
    assert only_yes["yes_accuracy/modality_agreement"] == 100.0
    assert "no_accuracy/modality_agreement" not in only_yes and "yes_no_f1/modality_agreement" not in only_yes
    zero = emo.score(["B", "A"], ["A", "B"], ["modality_agreement"] * 2, choices=[YN, YN], n_resamples=0)
    assert zero["yes_no_f1/modality_agreement"] == 0.0


def test_cis_are_the_stats_bootstrap_of_correctness():
    predictions, references, tasks = random_items(4, n=200)
    result = emo.score(predictions, references, tasks, n_resamples=2000, seed=3)
    task = "reasoning_basic_video"
    correct = [
        emo.is_correct(p, g)
        for p, g, t in zip(predictions, references, tasks, strict=True)
        if t == task and p
    ]
    ci = bootstrap_ci(np.sort(100.0 * np.array(correct)), n_resamples=2000, seed=3)
    assert (result[f"accuracy/{task}_ci_low"], result[f"accuracy/{task}_ci_high"]) == (ci.low, ci.high)
    assert result[f"accuracy/{task}"] == pytest.approx(ci.estimate)


def test_single_task_and_registry():
    result = emo.score(["(B)"], ["b"], ["reasoning_basic_audio"], n_resamples=10)
    assert result["overall"] == result["accuracy/reasoning_basic_audio"] == 100.0
    spec = get_benchmark("emorealm")
    assert spec.score is emo.score
    predictions, references, tasks = random_items(5)
    choices = [YN if t in emo.YES_NO_TASKS else MCQ for t in tasks]
    references = [
        ("A" if r in "AC" else "B") if t in emo.YES_NO_TASKS else r
        for r, t in zip(references, tasks, strict=True)
    ]
    full = emo.score(predictions, references, tasks, choices=choices, n_resamples=20)
    names = {k.name for k in spec.result_keys}
    assert set(full) <= names and "yes_rate/modality_agreement" in full
    assert spec.higher_is_better("overall") and not spec.higher_is_better("yes_rate/modality_agreement")


@pytest.mark.parametrize("matcher", ["official", "official_parse", "explicit"])
def test_matchers_on_a_small_case(matcher):
    predictions = ["The answer is (B).", "a sad face", "Yes", "B"]
    choices = [MCQ, MCQ, YN, YN]
    tasks = ["reasoning_basic_video", "reasoning_basic_video", "modality_agreement", "modality_agreement"]
    result = emo.score(
        predictions, ["B", "A", "A", "B"], tasks, choices=choices, matcher=matcher, n_resamples=0
    )
    expected = {"official": (100.0, 50.0), "official_parse": (100.0, 100.0), "explicit": (50.0, 100.0)}[
        matcher
    ]
    assert (result["accuracy/reasoning_basic_video"], result["accuracy/modality_agreement"]) == expected
    assert result["matcher"] == matcher


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"predictions": [], "references": [], "tasks": []}, SchemaError, "`predictions` is empty"),
        (
            {"predictions": ["A"], "references": ["A", "B"], "tasks": ["modality_agreement"]},
            SchemaError,
            "references=2",
        ),
        (
            {"predictions": ["A"], "references": ["A"], "tasks": ["emotion"]},
            SchemaError,
            "`tasks` has 1 values",
        ),
        (
            {"predictions": [3], "references": ["A"], "tasks": ["modality_agreement"]},
            SchemaError,
            "`predictions`",
        ),
        (
            {"predictions": ["A"], "references": ["AB"], "tasks": ["modality_agreement"]},
            SchemaError,
            "`references`",
        ),
        (
            {"predictions": ["A"], "references": [None], "tasks": ["modality_agreement"]},
            SchemaError,
            "`references`",
        ),
        (
            {
                "predictions": ["A", "B"],
                "references": ["A", "B"],
                "tasks": ["modality_agreement"] * 2,
                "ids": [1, 1],
            },
            SchemaError,
            "`ids`",
        ),
        (
            {"predictions": ["A"], "references": ["C"], "tasks": ["modality_agreement"], "choices": [YN]},
            SchemaError,
            "no choice",
        ),
        (
            {"predictions": ["A"], "references": ["A"], "tasks": ["modality_agreement"], "choices": [MCQ]},
            SchemaError,
            "neither Yes nor No",
        ),
        (
            {
                "predictions": ["A"],
                "references": ["A"],
                "tasks": ["modality_agreement"],
                "gold_is_yes": ["y"],
            },
            SchemaError,
            "`gold_is_yes`",
        ),
        (
            {"predictions": ["A"], "references": ["A"], "tasks": ["modality_agreement"], "mode": "lenient"},
            ConfigError,
            "`mode`",
        ),
        (
            {"predictions": ["A"], "references": ["A"], "tasks": ["modality_agreement"], "n_resamples": -1},
            ConfigError,
            "`n_resamples`",
        ),
        (
            {"predictions": ["A"], "references": ["A"], "tasks": ["modality_agreement"], "confidence": 95},
            ConfigError,
            "`confidence`",
        ),
        (
            {"predictions": ["A"], "references": ["A"], "tasks": ["modality_agreement"], "matcher": "x"},
            ConfigError,
            "`matcher`",
        ),
        (
            {
                "predictions": ["A"],
                "references": ["A"],
                "tasks": ["modality_agreement"],
                "matcher": "official_parse",
            },
            ConfigError,
            "`choices`",
        ),
    ],
)
def test_bad_input(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        emo.score(**kwargs)


items = st.lists(
    st.tuples(
        st.sampled_from(emo.TASKS),
        st.sampled_from(["A", "B", "C"]),
        st.sampled_from(["A", "(b)", "c.", "a cat", "", None, "Answer: C"]),
    ),
    min_size=1,
    max_size=30,
)


@settings(max_examples=40, deadline=None)
@given(rows=items, seed=st.integers(0, 2**16), mode=st.sampled_from(emo.MODES))
def test_invariant_to_row_order(rows, seed, mode):
    order = np.random.default_rng(seed).permutation(len(rows))
    results = []
    for table in (rows, [rows[i] for i in order]):
        tasks, golds, predictions = (list(x) for x in zip(*table, strict=True))
        choices = [YN if g != "C" else ["(A) Yes", "(B) No", "(C) No"] for g in golds]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a task whose outputs are all missing warns
            results.append(emo.score(predictions, golds, tasks, choices=choices, mode=mode, n_resamples=100))
    assert results[0] == results[1]
