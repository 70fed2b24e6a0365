"""EmoReAlM scoring against the official evaluation rules written out step by step."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.proportion import proportion_confint

from mmjudge.benchmarks import emorealm as emo
from mmjudge.benchmarks import get_benchmark
from mmjudge.errors import ConfigError, SchemaError

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


def avere_get_accuracy(items, files, strict=False):
    """AVERE's ``get_accuracy`` written out from its code (official matcher).

    ``files`` maps an item id to the text its inference wrote; an id absent from ``files`` has no
    prediction file. Per task: an item without a file is skipped (``strict``: counted wrong); every
    file is read, stripped and lower-cased, and scored, empty or not; accuracy is 100 x correct /
    total (0 when nothing is scored); yes/no tasks also give precision (accuracy on gold-Yes items),
    recall (on gold-No items), their F1 and the Yes percentage; ``average_accuracy`` is the
    unweighted mean over the tasks that have items.
    """
    groups = {}
    for item in items:
        groups.setdefault(item["task"], []).append(item)
    results = {}
    for task, group in groups.items():
        correct = total = yes_total = no_total = yes_correct = no_correct = said_yes = 0
        for item in group:
            if item["id"] not in files:
                if strict:
                    total += 1
                continue
            prediction = files[item["id"]].strip().lower()
            letter = item["answer"]
            ok = (
                re.search(rf"\b[\(\[]?{re.escape(letter)}[\)\]\.\:]?\b", prediction, re.IGNORECASE)
                is not None
            )
            if task in emo.YES_NO_TASKS:
                text = re.sub(
                    r"^(\([A-D]\)|[A-D][:.])", "", item["choices"][ord(letter.upper()) - 65].strip()
                )
                is_yes = "yes" in text.strip().lower()
                yes_total += is_yes
                no_total += not is_yes
                yes_correct += ok and is_yes
                no_correct += ok and not is_yes
                said_yes += ok == is_yes
            correct += ok
            total += 1
        results[f"{task}_overall_accuracy"] = correct * 100.0 / total if total else 0
        if task in emo.YES_NO_TASKS:
            precision = yes_correct * 100.0 / yes_total if yes_total else 0
            recall = no_correct * 100.0 / no_total if no_total else 0
            results[f"{task}_precision"], results[f"{task}_recall"] = precision, recall
            try:
                results[f"{task}_f1_score"] = 2 * precision * recall / (precision + recall)
            except ZeroDivisionError:  # the official code raises here; mmjudge reports 0
                results[f"{task}_f1_score"] = 0.0
            results[f"{task}_model_yes_percentage"] = said_yes * 100.0 / total if total else 0
    accuracies = [results[f"{t}_overall_accuracy"] for t in groups]
    results["average_accuracy"] = sum(accuracies) / len(accuracies)
    return results


def random_items(seed, n=120):
    rng = np.random.default_rng(seed)
    tasks = rng.choice(emo.TASKS, size=n).tolist()
    references = rng.choice(list("ABCD"), size=n).tolist()
    pool = ["A", "(B)", "c.", "D", "a smile", "none of these", "", "  ", "\n", None, "B or C"]
    predictions = [pool[i] for i in rng.integers(0, len(pool), size=n)]
    return predictions, references, tasks


def avere_inputs(predictions, references, tasks):
    """The same items as AVERE's benchmark list and prediction files (``None``: no file)."""
    choices = []
    for k, t in enumerate(tasks):
        if t in emo.YES_NO_TASKS:
            choices.append(YN if k % 2 else NY)
        else:
            choices.append(MCQ)
    references = [
        (("A" if g in "AC" else "B") if t in emo.YES_NO_TASKS else g)
        for g, t in zip(references, tasks, strict=True)
    ]
    items = [
        {"id": f"q{k}", "task": t, "answer": g, "choices": c}
        for k, (t, g, c) in enumerate(zip(tasks, references, choices, strict=True))
    ]
    files = {f"q{k}": p for k, p in enumerate(predictions) if p is not None}
    return items, files, references, choices


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("mode", ["official", "strict"])
def test_scores_match_avere_get_accuracy(seed, mode):
    """Adversarial outputs: empty, whitespace-only and newline-only responses, None, the article "a"."""
    predictions, references, tasks = random_items(seed)
    items, files, references, choices = avere_inputs(predictions, references, tasks)
    expected = avere_get_accuracy(items, files, strict=mode == "strict")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a task whose outputs are all missing warns
        result = emo.score(predictions, references, tasks, choices=choices, mode=mode, n_resamples=0)
    for task in set(tasks):
        assert result[f"accuracy/{task}"] == pytest.approx(expected[f"{task}_overall_accuracy"], abs=1e-9)
        if task in emo.YES_NO_TASKS and mode == "official":
            for ours, theirs in (("yes_accuracy", "precision"), ("no_accuracy", "recall"),
                                 ("yes_no_f1", "f1_score"), ("yes_rate", "model_yes_percentage")):  # fmt: skip
                if f"{ours}/{task}" in result:  # absent where the official code writes a 0 for no items
                    assert result[f"{ours}/{task}"] == pytest.approx(expected[f"{task}_{theirs}"], abs=1e-9)
    assert result["overall"] == pytest.approx(expected["average_accuracy"], abs=1e-9)
    assert result["n_missing"] == sum(p is None for p in predictions)


@pytest.mark.parametrize(
    ("predictions", "expected"),
    [(["B", ""], 50.0), (["B", "   "], 50.0), (["B", "\n\t"], 50.0), (["B", None], 100.0), ([None, ""], 0.0)],
)
def test_empty_output_is_a_wrong_answer_and_only_none_is_missing(predictions, expected):
    """The issue's case: AVERE scores an empty generation (its file exists) and skips only absent files."""
    tasks = ["reasoning_basic_audio"] * 2
    items, files, _, _ = avere_inputs(predictions, ["B", "A"], tasks)
    assert avere_get_accuracy(items, files)["average_accuracy"] == expected
    result = emo.score(predictions, ["B", "A"], tasks, n_resamples=0)
    assert result["overall"] == expected
    assert result["n_missing"] == predictions.count(None)


def test_overall_is_unweighted_mean_over_tasks():
    tasks = ["reasoning_basic_audio"] * 9 + ["reasoning_basic_video"]
    result = emo.score(["A"] * 10, ["A"] * 9 + ["B"], tasks, n_resamples=0)
    assert result["overall"] == 50.0  # pooled accuracy would be 90
    assert "accuracy/modality_agreement" not in result


def test_missing_outputs_official_versus_strict():
    predictions, references = ["A", None, "", "C", None], ["A", "B", "C", "D", "A"]
    tasks = ["reasoning_basic_video"] * 5
    official = emo.score(predictions, references, tasks, n_resamples=0)
    strict = emo.score(predictions, references, tasks, mode="strict", n_resamples=0)
    assert official["accuracy/reasoning_basic_video"] == pytest.approx(100 / 3) and official["n/reasoning_basic_video"] == 3
    assert strict["accuracy/reasoning_basic_video"] == 20.0 and strict["n/reasoning_basic_video"] == 5
    assert official["n_missing/reasoning_basic_video"] == strict["n_missing/reasoning_basic_video"] == 2


def test_task_with_every_output_missing_counts_zero_with_a_warning():
    tasks = ["reasoning_basic_audio", "reasoning_stress_video"]
    with pytest.warns(UserWarning, match="every prediction is missing"):
        result = emo.score(["A", None], ["A", "A"], tasks, n_resamples=100)
    assert result["accuracy/reasoning_stress_video"] == 0.0 and result["overall"] == 50.0
    assert "accuracy/reasoning_stress_video_ci_low" not in result


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


def test_proportions_get_wilson_intervals_and_the_overall_a_stratified_bootstrap():
    predictions, references, tasks = random_items(4, n=200)
    _, _, references, choices = avere_inputs(predictions, references, tasks)
    result = emo.score(predictions, references, tasks, choices=choices, n_resamples=4000, seed=3)
    for task in emo.TASKS:
        k, n = result[f"n_correct/{task}"], result[f"n/{task}"]
        low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
        assert result[f"accuracy/{task}_ci_low"] == pytest.approx(100 * low, abs=1e-9)
        assert result[f"accuracy/{task}_ci_high"] == pytest.approx(100 * high, abs=1e-9)
    task = "modality_agreement"
    for name, n_key in (("yes_accuracy", "n_yes"), ("no_accuracy", "n_no")):
        n = result[f"{n_key}/{task}"]
        k = round(result[f"{name}/{task}"] * n / 100)
        low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
        assert result[f"{name}/{task}_ci_low"] == pytest.approx(100 * low, abs=1e-9)
    assert (
        result[f"yes_no_f1/{task}_ci_low"] < result[f"yes_no_f1/{task}"] < result[f"yes_no_f1/{task}_ci_high"]
    )
    # the overall CI: resampling items within each task, the mean of the task accuracies
    rng = np.random.default_rng(11)
    per_task = {t: np.array([emo.is_correct(p, g) for p, g, tt in zip(predictions, references, tasks, strict=True)
                             if tt == t and p is not None]) for t in emo.TASKS}  # fmt: skip
    boot = np.mean(
        [[100 * rng.choice(c, c.size).mean() for c in per_task.values()] for _ in range(4000)], axis=1
    )
    assert result["overall_ci_low"] == pytest.approx(np.quantile(boot, 0.025), abs=0.6)
    assert result["overall_ci_high"] == pytest.approx(np.quantile(boot, 0.975), abs=0.6)


def test_a_perfect_small_task_does_not_read_as_certainty():
    result = emo.score(["B"] * 5, ["B"] * 5, ["reasoning_basic_audio"] * 5, n_resamples=1000)
    assert result["accuracy/reasoning_basic_audio"] == 100.0
    assert result["accuracy/reasoning_basic_audio_ci_low"] < 60.0  # Wilson 5/5: 56.6
    two = emo.score(["B", "B"], ["B", "B"], ["reasoning_basic_audio"] * 2)
    assert "accuracy/reasoning_basic_audio_ci_low" not in two  # two questions: no interval, and why
    assert two.intervals["accuracy/reasoning_basic_audio"]["method"].startswith("none: no interval: 2 questions")


def test_single_task_and_registry():
    result = emo.score(["(B)"], ["b"], ["reasoning_basic_audio"], n_resamples=10)
    assert result["overall"] == result["accuracy/reasoning_basic_audio"] == 100.0
    spec = get_benchmark("emorealm")
    assert spec.metrics.score is emo.score
    predictions, references, tasks = random_items(5)
    choices = [YN if t in emo.YES_NO_TASKS else MCQ for t in tasks]
    references = [
        ("A" if r in "AC" else "B") if t in emo.YES_NO_TASKS else r
        for r, t in zip(references, tasks, strict=True)
    ]
    full = emo.score(predictions, references, tasks, choices=choices, n_resamples=20)
    names = {k.name for k in spec.metrics.result_keys}
    assert set(full) <= names and "yes_rate/modality_agreement" in full
    assert spec.metrics.higher_is_better("overall") and not spec.metrics.higher_is_better("yes_rate/modality_agreement")


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


def test_overall_over_a_task_of_few_clips_is_marked_thin_and_says_which():
    """``overall`` (a mean over the tasks) over 48 clips of two questions each, one task of which holds 4 clips: the
    mean weighs that task as much as the others, so its interval is marked thin with the task named."""
    from mmjudge.benchmarks import emorealm
    from mmjudge.estimates import estimates_from, interval_caveat

    sizes = {"reasoning_basic_audio": 24, "reasoning_basic_video": 24, "reasoning_stress_audio": 20,
             "reasoning_stress_video": 20, "modality_agreement": 8}  # fmt: skip
    tasks = [t for t, n in sizes.items() for _ in range(n)]
    references = ["A"] * len(tasks)
    predictions = ["A" if k % 3 else "B" for k in range(len(tasks))]
    result = emorealm.score(predictions, references, tasks, clusters=[f"c{k // 2}" for k in range(len(tasks))],
                            n_resamples=0)  # fmt: skip
    estimates = estimates_from(result)
    assert estimates["overall"].n_clusters == 48
    assert interval_caveat(estimates["overall"]) == (
        "thin: stratum modality_agreement has 4 clips (under 30; 5 of the 5 strata the mean weighs alike are)"
    )
