"""Classification summaries used by emotion recognition benchmarks (DFEW, RAVDESS, MER2023)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from mmjudge._checks import check_labels_present, check_same_length
from mmjudge._deps import require
from mmjudge.errors import SchemaError, summarize

__all__ = ["ClassificationSummary", "classification_summary", "weighted_f1_from_counts"]


class ClassificationSummary(NamedTuple):
    """Accuracy, F1 and recall averages of one set of predictions (all in [0, 1], higher is better)."""

    accuracy: float
    """Share of exact matches."""
    weighted_f1: float
    """Per-class F1 averaged with weights equal to each class's support (MER2023 reports this)."""
    macro_f1: float
    """Per-class F1 averaged uniformly over the classes seen in references or predictions."""
    uar: float
    """Unweighted average recall: per-class recall averaged over the classes present in the references."""
    war: float
    """Weighted average recall: recall weighted by class support, which equals accuracy."""
    n: int
    """Number of scored items."""

    def as_dict(self) -> dict[str, float | int]:
        """The fields as a plain dict (for evaluate modules and JSON), the scores as percentages (0-100),
        the unit of every mmjudge result.

        >>> ClassificationSummary(0.5, 0.25, 0.2, 0.5, 0.5, 4).as_dict()
        {'accuracy': 50.0, 'weighted_f1': 25.0, 'macro_f1': 20.0, 'uar': 50.0, 'war': 50.0, 'n': 4}
        """
        return {name: value if name == "n" else 100.0 * value for name, value in self._asdict().items()}


def classification_summary(
    y_true: Sequence[Any],
    y_pred: Sequence[Any],
    labels: Sequence[Any] | None = None,
) -> ClassificationSummary:
    """Accuracy, weighted F1, macro F1, UAR and WAR with scikit-learn.

    DFEW and RAVDESS report UAR and WAR; MER2023 reports weighted F1. UAR averages recall over
    the classes that occur in ``y_true`` (a class seen only in predictions has no recall);
    macro F1 averages F1 over the classes seen in either input (a predicted-only class adds an
    F1 of 0). Both use ``zero_division=0``.

    Args:
        y_true: reference labels.
        y_pred: predicted labels, same length and order.
        labels: the allowed label set; labels outside it raise :class:`SchemaError`.

    >>> s = classification_summary(["hap", "sad", "sad", "ang"], ["hap", "sad", "hap", "hap"])
    >>> s.accuracy, round(s.uar, 4), round(s.weighted_f1, 4), s.n
    (0.5, 0.5, 0.4583, 4)
    """
    n = check_same_length(y_true=y_true, y_pred=y_pred)
    if n == 0:
        raise SchemaError(
            "`y_true` and `y_pred` are empty: expected at least one item to score; pass one reference and "
            "one prediction per item"
        )
    check_labels_present("y_true", y_true)
    check_labels_present("y_pred", y_pred)
    if labels is not None:
        allowed = set(labels)
        for name, values in (("y_true", y_true), ("y_pred", y_pred)):
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise SchemaError(
                    f"`{name}` has {len(unknown)} labels outside {summarize(labels)}: {summarize(unknown)}"
                )
    kinds = {isinstance(v, str) for v in (*y_true, *y_pred)}
    if len(kinds) > 1:
        raise SchemaError(
            "labels mix strings and numbers: "
            f"{summarize([v for v in (*y_true, *y_pred) if not isinstance(v, str)])} beside strings; use one type"
        )
    metrics = require("sklearn.metrics", "metrics", purpose="classification_summary")
    true, pred = list(y_true), list(y_pred)
    seen = sorted({*true, *pred})
    present = sorted(set(true))
    return ClassificationSummary(
        accuracy=float(metrics.accuracy_score(true, pred)),
        weighted_f1=float(metrics.f1_score(true, pred, labels=seen, average="weighted", zero_division=0)),
        macro_f1=float(metrics.f1_score(true, pred, labels=seen, average="macro", zero_division=0)),
        uar=float(metrics.recall_score(true, pred, labels=present, average="macro", zero_division=0)),
        war=float(metrics.recall_score(true, pred, labels=seen, average="weighted", zero_division=0)),
        n=n,
    )


def weighted_f1_from_counts(confusion: Any) -> Any:
    """Support-weighted F1 from confusion counts (rows: reference class, columns: predicted class).

    The same number as scikit-learn's ``f1_score(average="weighted", zero_division=0)`` on the items
    the matrix counts, written over counts so a batch of bootstrap matrices of shape ``(..., C, C)``
    is scored at once (the leading axes are kept). A class without reference items weighs 0.

    >>> weighted_f1_from_counts([[1, 0, 0], [0, 1, 0], [1, 0, 1]])
    0.75
    """
    import numpy as np

    table = np.asarray(confusion, dtype=np.float64)
    if table.ndim < 2 or table.shape[-1] != table.shape[-2]:
        raise SchemaError(f"`confusion` must end in a square (C, C) table, got shape {table.shape}")
    tp = np.diagonal(table, axis1=-2, axis2=-1)
    support, predicted = table.sum(axis=-1), table.sum(axis=-2)
    denom = support + predicted
    f1 = np.divide(2.0 * tp, denom, out=np.zeros_like(tp), where=denom > 0)
    total = support.sum(axis=-1)
    if np.any(total == 0):
        raise SchemaError("`confusion` counts no item: expected at least one item per table")
    out = (f1 * support).sum(axis=-1) / total
    return float(out) if out.ndim == 0 else out
