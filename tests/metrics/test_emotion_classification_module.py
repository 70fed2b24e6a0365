"""The `metrics/emotion_classification` evaluate module: loads offline, returns the core's result,
card names the keys.

Fixtures `metric` and `card_text` come from conftest.py; the card example, front matter, app and
requirements are tested for every metric folder in test_metric_cards.py."""

from __future__ import annotations

import numpy as np
import pytest

from mmjudge.errors import SchemaError
from mmjudge.stats import classification_summary

DFEW = ["happy", "sad", "neutral", "angry", "surprise", "disgust", "fear"]


@pytest.mark.parametrize("as_index", [False, True])
def test_compute_returns_exactly_the_core_result(metric, as_index):
    rng = np.random.default_rng(int(as_index))
    refs = rng.integers(0, 7, 300)
    preds = np.where(rng.random(300) < 0.6, refs, rng.integers(0, 7, 300))
    refs_in = refs.tolist() if as_index else [DFEW[k] for k in refs]
    preds_in = preds.tolist() if as_index else [DFEW[k] for k in preds]
    result = metric.compute(predictions=preds_in, references=refs_in)
    assert result == classification_summary(refs_in, preds_in).as_dict()
    assert set(result) == {"accuracy", "weighted_f1", "macro_f1", "uar", "war", "n"}


def test_bad_input_reaches_the_user(metric):
    with pytest.raises(SchemaError, match="outside"):
        metric.compute(predictions=["happy", "joy"], references=["happy", "sad"], labels=DFEW)
    with pytest.raises(ValueError, match=r"Mismatch|equal length"):
        metric.compute(predictions=["happy"], references=["happy", "sad"])


def test_a_missing_label_in_the_first_position_gets_the_scorers_message(metric):
    with pytest.raises(SchemaError, match=r"missing labels \(None or NaN\) at positions \[0\]"):
        metric.compute(predictions=[None, "happy"], references=["happy", "sad"])


def test_empty_input_is_one_clear_error(metric):
    """Issue 11 item 10: empty input raised an IndexError inside evaluate's type inference."""
    with pytest.raises(SchemaError, match="empty: expected at least one item to score"):
        metric.compute(predictions=[], references=[])


def test_card_names_every_result_key(card_text):
    for key in classification_summary(["a"], ["a"]).as_dict():
        assert f"`{key}`" in card_text, key


def test_scores_are_percentages_as_every_mmjudge_result(metric):
    from sklearn.metrics import accuracy_score, f1_score, recall_score

    refs = ["happy", "happy", "happy", "sad", "sad", "neutral", "angry", "surprise"]
    preds = ["happy", "happy", "neutral", "sad", "happy", "neutral", "angry", "fear"]
    result = metric.compute(predictions=preds, references=refs)
    present = sorted(set(refs))
    assert result["uar"] == pytest.approx(100 * recall_score(refs, preds, labels=present, average="macro"))
    assert result["war"] == result["accuracy"] == pytest.approx(100 * accuracy_score(refs, preds))
    assert result["weighted_f1"] == pytest.approx(100 * f1_score(refs, preds, average="weighted"))
    assert result["n"] == 8
