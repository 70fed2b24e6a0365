"""Chance-corrected agreement: Fleiss' kappa (with an item bootstrap) and Cohen's kappa."""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from mmjudge._checks import (
    check_labels_present,
    check_positive_int,
    check_probability,
    check_same_length,
)
from mmjudge.errors import SchemaError, summarize
from mmjudge.stats._bootstrap import ConfidenceInterval, resample_indices
from mmjudge.stats._jackknife import Spread, jackknife

__all__ = ["cohen_kappa", "fleiss_kappa", "fleiss_kappa_ci", "fleiss_kappa_jackknife", "rating_table"]


def rating_table(ratings: Any) -> tuple[np.ndarray, list[Hashable]]:
    """Count table ``(n_items, n_categories)`` from an ``(n_items, n_raters)`` array of labels.

    Categories are listed in order of first appearance (row by row). Missing labels are refused.

    >>> table, categories = rating_table([["FF", "FF", "LL"], ["LL", "LL", "LL"]])
    >>> table.tolist(), categories
    ([[2, 1], [0, 3]], ['FF', 'LL'])
    """
    labels, n_items, n_raters = _label_grid(ratings)
    codes: dict[Hashable, int] = {}
    flat = np.fromiter((codes.setdefault(v, len(codes)) for v in labels), dtype=np.intp, count=len(labels))
    offsets = np.repeat(np.arange(n_items, dtype=np.intp) * len(codes), n_raters)
    table = np.bincount(flat + offsets, minlength=n_items * len(codes)).reshape(n_items, len(codes))
    return table, list(codes)


def fleiss_kappa(ratings: Any) -> float:
    """Fleiss' kappa for a fixed number of raters per item.

    Args:
        ratings: ``(n_items, n_raters)`` category labels (any hashable; ``None``/NaN refused).

    Returns:
        ``(P - P_e) / (1 - P_e)``; NaN (with a warning) when every rating is the same category,
        where kappa is undefined, as in statsmodels.

    >>> round(fleiss_kappa([["a", "a", "b"], ["b", "b", "b"], ["a", "a", "a"], ["a", "b", "b"]]), 4)
    0.3333
    """
    table, _ = rating_table(ratings)
    kappa = _kappa_from_parts(*_fleiss_parts(table))
    if np.isnan(kappa):
        warnings.warn(
            "Fleiss' kappa is undefined: every rating is the same category", RuntimeWarning, stacklevel=2
        )
    return float(kappa)


def fleiss_kappa_ci(
    ratings: Any,
    *,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> ConfidenceInterval:
    """Fleiss' kappa with a percentile interval from resampling items with replacement.

    Resamples where kappa is undefined (all ratings in one category) are left out of the
    quantiles, with a warning giving their number.

    >>> ci = fleiss_kappa_ci([["a", "a"], ["b", "b"], ["a", "b"], ["b", "b"]] * 5, n_resamples=500)
    >>> round(ci.estimate, 4), ci.low < ci.estimate < ci.high
    (0.4667, True)
    """
    n_resamples = check_positive_int("n_resamples", n_resamples)
    confidence = check_probability("confidence", confidence)
    table, _ = rating_table(ratings)
    agreement, shares = _fleiss_parts(table)
    estimate = float(_kappa_from_parts(agreement, shares))
    parts = []
    for idx in resample_indices(table.shape[0], n_resamples, seed, width=table.shape[1]):
        parts.append(_kappa_from_parts(agreement[idx], shares[idx]))
    boot = np.concatenate(parts)
    undefined = int(np.isnan(boot).sum())
    if undefined:
        warnings.warn(
            f"{undefined} of {n_resamples} bootstrap resamples had every rating in one category "
            "(kappa undefined); they were left out of the interval",
            RuntimeWarning,
            stacklevel=2,
        )
    alpha = (1.0 - confidence) / 2.0
    if undefined == n_resamples:
        return ConfidenceInterval(estimate, float("nan"), float("nan"), confidence)
    low, high = np.nanquantile(boot, [alpha, 1.0 - alpha])
    return ConfidenceInterval(estimate, float(low), float(high), confidence)


def cohen_kappa(
    a: Sequence[Any],
    b: Sequence[Any],
    *,
    weights: str | None = None,
    labels: Sequence[Any] | None = None,
) -> float:
    """Cohen's kappa between two raters, optionally weighted (as scikit-learn's ``cohen_kappa_score``).

    Args:
        a: labels from the first rater.
        b: labels from the second rater, same items in the same order.
        weights: ``None``, ``"linear"`` or ``"quadratic"`` (disagreement weights by label distance,
            in the order of ``labels``).
        labels: the label order; defaults to the sorted labels seen in ``a`` and ``b``.

    >>> round(cohen_kappa(["x", "x", "y", "y"], ["x", "y", "y", "y"]), 4)
    0.5
    """
    check_same_length(a=a, b=b)
    if len(a) == 0:
        raise SchemaError("`a` and `b` are empty: expected at least one rated item")
    check_labels_present("a", a)
    check_labels_present("b", b)
    order = _label_order(a, b, labels, weighted=weights is not None)
    index = {label: i for i, label in enumerate(order)}
    k = len(order)
    confusion = np.zeros((k, k), dtype=np.float64)
    np.add.at(confusion, ([index[v] for v in a], [index[v] for v in b]), 1.0)
    expected = np.outer(confusion.sum(axis=1), confusion.sum(axis=0)) / confusion.sum()
    distance = np.abs(np.subtract.outer(np.arange(k), np.arange(k))).astype(np.float64)
    if weights is None:
        penalty = (distance > 0).astype(np.float64)
    elif weights == "linear":
        penalty = distance
    elif weights == "quadratic":
        penalty = distance**2
    else:
        raise SchemaError(f'`weights` must be None, "linear" or "quadratic", got {weights!r}')
    denominator = float(np.sum(penalty * expected))
    if denominator == 0.0:
        warnings.warn(
            "Cohen's kappa is undefined: both raters used one same label", RuntimeWarning, stacklevel=2
        )
        return float("nan")
    return float(1.0 - np.sum(penalty * confusion) / denominator)


def _label_grid(ratings: Any) -> tuple[list[Hashable], int, int]:
    """Flatten an ``(n_items, n_raters)`` table row by row; return ``(labels, n_items, n_raters)``."""
    try:
        rows = [list(row) for row in ratings]
    except TypeError as exc:
        raise SchemaError(
            f"`ratings` must be a table of labels, one row (a list of raters' labels) per item; got {ratings!r:.80}"
        ) from exc
    if not rows:
        raise SchemaError("`ratings` is empty: expected at least one item")
    width = len(rows[0])
    ragged = [i for i, row in enumerate(rows) if len(row) != width]
    if ragged:
        raise SchemaError(
            f"`ratings` must have the same number of raters on every item ({width} on item 0); "
            f"{len(ragged)} items differ: {summarize(ragged)}"
        )
    if width < 2:
        raise SchemaError(f"`ratings` needs at least 2 raters per item, got {width}")
    flat = [label for row in rows for label in row]
    check_labels_present("ratings", flat)
    return flat, len(rows), width


def fleiss_kappa_jackknife(ratings: Any) -> Spread:
    """Fleiss' kappa with its delete-one-item jackknife variance (:func:`mmjudge.stats.jackknife`): kappa is a
    function of the items' summed agreement and category shares, so each item left out costs one reduction.

    >>> s = fleiss_kappa_jackknife([["a", "a"], ["b", "b"], ["a", "b"], ["b", "b"]] * 5)
    >>> round(s.value, 4), s.n_clusters, s.df, s.variance > 0
    (0.4667, 20, 19, True)
    """

    table, _ = rating_table(ratings)
    agreement, shares = _fleiss_parts(table)
    terms = np.column_stack([agreement, shares, np.ones(len(agreement))])
    return jackknife(terms, np.arange(len(agreement)), _kappa_from_sums)


def _kappa_from_sums(sums: np.ndarray) -> np.ndarray:
    """Kappa from the summed per-item agreement, category shares and item count (last axis)."""
    n = sums[..., -1]
    with np.errstate(divide="ignore", invalid="ignore"):  # a one-item jackknife leaves no item: 0 / 0, NaN
        observed = sums[..., 0] / n
        chance = np.sum((sums[..., 1:-1] / n[..., None]) ** 2, axis=-1)
        kappa = (observed - chance) / (1.0 - chance)
    return np.where(np.isclose(chance, 1.0, rtol=0.0, atol=1e-12), np.nan, kappa)


def _fleiss_parts(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-item observed agreement ``P_i`` and per-item category shares ``n_ij / r``."""
    counts = table.astype(np.float64)
    raters = counts[0].sum()
    agreement = (np.sum(counts**2, axis=-1) - raters) / (raters * (raters - 1.0))
    return agreement, counts / raters


def _kappa_from_parts(agreement: np.ndarray, shares: np.ndarray) -> Any:
    """Kappa along the item axis (last axis of ``agreement``, second to last of ``shares``)."""
    observed = agreement.mean(axis=-1)
    chance = np.sum(shares.mean(axis=-2) ** 2, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = (observed - chance) / (1.0 - chance)
    return np.where(np.isclose(chance, 1.0, rtol=0.0, atol=1e-12), np.nan, kappa)


def _label_order(
    a: Sequence[Any], b: Sequence[Any], labels: Sequence[Any] | None, weighted: bool
) -> list[Any]:
    seen = list(dict.fromkeys([*a, *b]))
    if labels is not None:
        unknown = [v for v in seen if v not in set(labels)]
        if unknown:
            raise SchemaError(
                f"{len(unknown)} labels are not in `labels` {summarize(labels)}: {summarize(unknown)}"
            )
        return list(labels)
    try:
        return sorted(seen)
    except TypeError:
        if weighted:
            raise SchemaError(
                f"weighted kappa needs an order of the labels: pass `labels`; got unsortable {summarize(seen)}"
            ) from None
        return seen
