"""The `metrics/emoprefer` evaluate module: loads offline, returns the core's result, card names the keys.

Fixtures `metric` and `card_text` come from conftest.py; the card example, front matter, app and
requirements are tested for every metric folder in test_metric_cards.py."""

from __future__ import annotations

import pytest
from metric_cases import compute_in_two_batches

from mmjudge.benchmarks import emoprefer
from mmjudge.errors import SchemaError
from mmjudge.metric_inputs import with_interval_notes


def test_compute_returns_exactly_the_core_result(metric):
    kwargs = {
        "predictions": ["a1", "The answer is A2", "same", "a1", "a2", "nothing"],
        "references": ["a1", "a2", "same", "a2", "a2", "a1"],
    }
    swapped = ["a2", "a1", "a1", "a2", "a1", "same"]
    assert metric.compute(**kwargs, swapped_predictions=swapped) == with_interval_notes(
        emoprefer.score(**kwargs, swapped_predictions=swapped)
    )
    assert metric.compute(**kwargs) == with_interval_notes(emoprefer.score(**kwargs))
    options = {"strategy": "S4", "n_resamples": 300, "confidence": 0.9, "seed": 3}
    assert metric.compute(**kwargs, **options) == with_interval_notes(emoprefer.score(**kwargs, **options))


def test_bad_input_reaches_the_user(metric):
    with pytest.raises(SchemaError, match="`references` has 1 values outside"):
        metric.compute(predictions=["a1", "a2"], references=["a1", "b"])


def test_a_missing_response_in_the_first_position_gets_the_scorers_message(metric):
    with pytest.raises(SchemaError, match=r"missing or non-string responses at positions \[0\]"):
        metric.compute(predictions=[None, "a1"], references=["a1", "a2"])


def test_card_names_every_result_key(card_text):
    for key in emoprefer.RESULT_KEYS:
        assert f"`{key.name}`" in card_text, key.name


def test_rows_added_in_two_batches_score_as_in_one_call(metric):
    """Per-row inputs (the swapped responses, ids, clusters) are features, so `add_batch` then `compute()` works."""
    kwargs = {
        "predictions": ["a1", "The answer is A2", "same", "a1", "a2", "nothing"],
        "references": ["a1", "a2", "same", "a2", "a2", "a1"],
        "swapped_predictions": ["a2", "a1", "a1", "a2", "a1", "same"],
        "ids": ["c1", "c2", "c3", "c4", "c5", "c6"],
        "clusters": ["v1", "v1", "v2", "v2", "v3", "v3"],
    }
    want = with_interval_notes(emoprefer.score(**kwargs, n_resamples=300, seed=2))
    assert compute_in_two_batches(metric, kwargs, n_resamples=300, seed=2) == want
    plain = {k: kwargs[k] for k in ("predictions", "references")}
    assert compute_in_two_batches(metric, plain, strategy="S1") == with_interval_notes(
        emoprefer.score(**plain, strategy="S1")
    )
