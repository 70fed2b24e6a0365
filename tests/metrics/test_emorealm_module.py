"""The `metrics/emorealm` evaluate module: loads offline, returns the core's result, card names the keys.

Fixtures `metric` and `card_text` come from conftest.py; the card example, front matter, app and
requirements are tested for every metric folder in test_metric_cards.py."""

from __future__ import annotations

import re

import pytest
from metric_cases import compute_in_two_batches
from report_helpers import check_notes, needs_mark

from mmjudge.benchmarks import emorealm, get_benchmark
from mmjudge.errors import ConfigError, SchemaError
from mmjudge.metric_inputs import with_interval_notes


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
        assert metric.compute(**kwargs, **options) == with_interval_notes(emorealm.score(**kwargs, **options))
    flags = {"gold_is_yes": [None] * 4 + [True, True, False]}
    plain = {k: v for k, v in kwargs.items() if k != "choices"}
    assert metric.compute(**plain, **flags) == with_interval_notes(emorealm.score(**plain, **flags))


def test_a_missing_answer_in_the_first_position_is_scored_like_any_other(metric):
    kwargs = {
        "predictions": [None, "A", "(B) No"],
        "references": ["A", "A", "B"],
        "tasks": ["modality_agreement"] * 3,
    }
    result = metric.compute(**kwargs)
    assert result == with_interval_notes(emorealm.score(**kwargs))
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
        want = with_interval_notes(emorealm.score(**kwargs, n_resamples=300, seed=2, **options))
        assert compute_in_two_batches(metric, kwargs, n_resamples=300, seed=2, **options) == want
    flags = {k: kwargs[k] for k in ("predictions", "references", "tasks")}
    flags["gold_is_yes"] = [None] * 4 + [True, True, False]
    assert compute_in_two_batches(metric, flags, n_resamples=0) == with_interval_notes(
        emorealm.score(**flags, n_resamples=0)
    )


def test_the_output_names_the_thin_and_withheld_intervals_and_changes_no_score(metric):
    """A dozen clips, two questions each, two tasks: every interval rests on few clips. The one string key
    `interval_notes` says which, as the recorded estimates have it; every other key is the core's."""
    from mmjudge.metric_inputs import INTERVAL_NOTES
    from mmjudge.results import estimates_of

    n = 24
    kwargs = {
        "predictions": ["A", "B", "A", "A"] * 6,
        "references": ["A"] * n,
        "tasks": ["reasoning_basic_audio"] * 12 + ["modality_agreement"] * 12,
        "clusters": [f"clip{k // 2}" for k in range(n)],
        "n_resamples": 200,
    }
    result = metric.compute(**kwargs)
    core = emorealm.score(**kwargs)
    assert {k: v for k, v in result.items() if k != INTERVAL_NOTES} == core
    estimates = {k: e.to_json() for k, e in estimates_of("emorealm", core).items()}
    assert any(needs_mark(e) for e in estimates.values()), estimates
    check_notes(result[INTERVAL_NOTES], estimates)
