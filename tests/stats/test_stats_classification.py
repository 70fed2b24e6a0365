"""Classification summaries against scikit-learn and the definitions written out."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, f1_score, recall_score

from mmjudge.errors import SchemaError
from mmjudge.stats import classification_summary

EMOTIONS = ["hap", "sad", "neu", "ang", "sur", "dis", "fea"]


def test_matches_sklearn_and_hand_definitions():
    rng = np.random.default_rng(0)
    true = rng.choice(EMOTIONS, 500, p=[0.3, 0.2, 0.2, 0.1, 0.1, 0.05, 0.05])
    pred = np.where(rng.random(500) < 0.6, true, rng.choice(EMOTIONS, 500))
    s = classification_summary(true.tolist(), pred.tolist())
    assert s.n == 500
    assert s.accuracy == pytest.approx(accuracy_score(true, pred))
    assert s.weighted_f1 == pytest.approx(f1_score(true, pred, average="weighted"))
    assert s.macro_f1 == pytest.approx(f1_score(true, pred, average="macro"))
    assert s.uar == pytest.approx(recall_score(true, pred, average="macro"))
    recalls = [np.mean(pred[true == c] == c) for c in np.unique(true)]
    assert s.uar == pytest.approx(np.mean(recalls))  # UAR: mean of per-class recall
    assert s.war == pytest.approx(np.mean(true == pred))  # WAR: support-weighted recall = accuracy


def test_label_only_in_predictions_counts_for_f1_not_for_uar():
    true = ["hap", "hap", "sad", "sad"]
    pred = ["hap", "fea", "sad", "sad"]  # "fea" never occurs in the references
    s = classification_summary(true, pred)
    assert s.uar == pytest.approx((0.5 + 1.0) / 2)
    assert s.macro_f1 == pytest.approx(f1_score(true, pred, average="macro", zero_division=0))
    assert s.macro_f1 == pytest.approx((2 / 3 + 1.0 + 0.0) / 3)
    assert s.war == s.accuracy == 0.75


def test_single_class():
    s = classification_summary(["neu"] * 3, ["neu"] * 3)
    assert s == (1.0, 1.0, 1.0, 1.0, 1.0, 3)
    wrong = classification_summary(["neu"] * 3, ["hap"] * 3)
    assert (wrong.accuracy, wrong.uar, wrong.weighted_f1, wrong.macro_f1) == (0.0, 0.0, 0.0, 0.0)


def test_row_order_does_not_matter():
    true, pred = ["a", "b", "c", "a", "b"], ["a", "c", "c", "b", "b"]
    order = [3, 1, 4, 0, 2]
    assert classification_summary(true, pred) == classification_summary(
        [true[i] for i in order], [pred[i] for i in order]
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: classification_summary([], []), "empty"),
        (lambda: classification_summary(["a"], ["a", "b"]), "y_true=1, y_pred=2"),
        (lambda: classification_summary(["a", None], ["a", "b"]), "missing labels"),
        (
            lambda: classification_summary(["a", "x"], ["a", "b"], labels=["a", "b"]),
            r"`y_true` has 1 labels outside",
        ),
        (lambda: classification_summary(["a", 1], ["a", "b"]), "mix strings and numbers"),
    ],
)
def test_bad_input_raises_schema_error(call, message):
    with pytest.raises(SchemaError, match=message):
        call()
