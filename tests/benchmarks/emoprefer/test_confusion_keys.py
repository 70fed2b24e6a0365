"""EmoPrefer's ``confusion/<gold>/<predicted>`` counts against scikit-learn's confusion matrix."""

from __future__ import annotations

import contextlib

import pytest
from sklearn.metrics import confusion_matrix

from mmjudge.benchmarks import emoprefer as ep

LABELS = ["a1", "a2", "same"]


@pytest.mark.parametrize(
    ("predictions", "references"),
    [
        (["a1", "A2 is better", "same", "a2", "no idea", ""], ["a1", "a2", "same", "a1", "a2", "same"]),
        (["a1", "a1", "a1"], ["a1", "a1", "a1"]),  # a single gold class, every answer the same
        (["a2", "same", "a1 and a2"], ["same", "same", "same"]),  # every gold label same: 2-class empty
        (["a1"], ["a2"]),
    ],
)
def test_confusion_keys_equal_sklearn(predictions: list[str], references: list[str]) -> None:
    with pytest.warns(UserWarning) if set(references) == {"same"} else contextlib.nullcontext():
        result = ep.score(predictions, references, n_resamples=0)
    parsed = [ep.parse_response(p) for p in predictions]
    expected = confusion_matrix(references, parsed, labels=LABELS)
    got = [[result[f"confusion/{g}/{p}"] for p in LABELS] for g in LABELS]
    assert got == expected.tolist()
    assert all(type(result[f"confusion/{g}/{p}"]) is int for g in LABELS for p in LABELS)
    assert sum(map(sum, got)) == result["n_items"]


def test_rounds_do_not_average_the_counts() -> None:
    rounds = ep.mean_std_over_rounds([["a1", "a2"], ["a1", "a1"]], ["a1", "a2"])
    assert not [k for k in rounds if k.startswith("confusion/")]
