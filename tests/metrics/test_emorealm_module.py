"""The `metrics/emorealm` evaluate module: loads offline, returns the core's result, card names the keys.

Fixtures `metric` and `card_text` come from conftest.py; the card example, front matter, app and
requirements are tested for every metric folder in test_metric_cards.py."""

from __future__ import annotations

import re

import pytest
from metric_cases import compute_in_two_batches

from mmjudge.benchmarks import emorealm, get_benchmark
from mmjudge.errors import ConfigError, SchemaError


def test_compute_returns_exactly_the_core_result(metric):
    kwargs = {
        "predictions": ["(B)", "a smile", None, "", "Answer: A", "B", "no"],
        "references": ["B", "A", "C", "D", "A", "A", "B"],
        "tasks": ["reasoning_basic_video"] * 4 + ["reasoning_stress_video"] * 3,
        "choices": [["(A) Happy", "(B) Sad", "(C) Angry", "(D) Calm"]] * 4 + [["(A) Yes", "(B) No"]] * 3,
        "ids": list(range(7)),
        "n_resamples": 300,
        "seed": 2,
    }
    for options in ({}, {"mode": "strict"}, {"matcher": "explicit"}, {"matcher": "official_parse"}):
        assert metric.compute(**kwargs, **options) == emorealm.score(**kwargs, **options)
    flags = {"gold_is_yes": [None] * 4 + [True, True, False]}
    plain = {k: v for k, v in kwargs.items() if k != "choices"}
    assert metric.compute(**plain, **flags) == emorealm.score(**plain, **flags)


def test_a_missing_answer_in_the_first_position_is_scored_like_any_other(metric):
    kwargs = {
        "predictions": [None, "A", "(B) No"],
        "references": ["A", "A", "B"],
        "tasks": ["modality_agreement"] * 3,
    }
    result = metric.compute(**kwargs)
    assert result == emorealm.score(**kwargs)
    assert result["n_missing"] == 1


def test_bad_input_reaches_the_user(metric):
    with pytest.raises(SchemaError, match="`tasks` has 1 values outside"):
        metric.compute(predictions=["A", "B"], references=["A", "B"], tasks=["modality_agreement", "emotion"])
    with pytest.raises(ConfigError, match="`mode`"):
        metric.compute(predictions=["A"], references=["A"], tasks=["modality_agreement"], mode="lenient")


def test_card_names_every_result_key(card_text):
    generic = {
        re.sub(r"/(" + "|".join(emorealm.TASKS) + r")(?=_ci_|$)", "/<task>", key.name)
        for key in get_benchmark("emorealm").metrics.result_keys
    }
    for name in generic:
        assert f"`{name}`" in card_text, name
    assert 'calls this "precision"' in card_text and 'calls this "recall"' in card_text


def test_a_gold_letter_outside_the_items_choices_is_refused(metric):
    """Issue 11 item 8: a gold 'E' on a four-choice question was scored without error."""
    mcq = ["(A) Happy", "(B) Sad", "(C) Angry", "(D) Calm"]
    with pytest.raises(SchemaError, match=r"position 1 \(id 'q2'\): gold letter 'E' has no choice among"):
        metric.compute(predictions=["A", "E"], references=["A", "E"], tasks=["reasoning_basic_video"] * 2,
                       choices=[mcq, mcq], ids=["q1", "q2"], n_resamples=0)  # fmt: skip


def test_rows_added_in_two_batches_score_as_in_one_call(metric):
    """Per-row inputs (choices, yes/no flags, ids, clusters) are features, so `add_batch` then `compute()` works."""
    kwargs = {
        "predictions": ["(B)", "a smile", None, "", "Answer: A", "B", "no"],
        "references": ["B", "A", "C", "D", "A", "A", "B"],
        "tasks": ["reasoning_basic_video"] * 4 + ["reasoning_stress_video"] * 3,
        "choices": [["(A) Happy", "(B) Sad", "(C) Angry", "(D) Calm"]] * 4 + [["(A) Yes", "(B) No"]] * 3,
        "ids": list(range(7)),
        "clusters": ["v1", "v1", "v2", "v3", "v3", "v4", "v4"],
    }
    for options in ({}, {"mode": "strict"}, {"matcher": "official_parse"}):
        want = emorealm.score(**kwargs, n_resamples=300, seed=2, **options)
        assert compute_in_two_batches(metric, kwargs, n_resamples=300, seed=2, **options) == want
    flags = {k: kwargs[k] for k in ("predictions", "references", "tasks")}
    flags["gold_is_yes"] = [None] * 4 + [True, True, False]
    assert compute_in_two_batches(metric, flags, n_resamples=0) == emorealm.score(**flags, n_resamples=0)
