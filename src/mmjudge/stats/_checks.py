"""Input checks and lazy imports shared by the statistics modules (private)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np

from mmjudge._deps import require
from mmjudge.errors import SchemaError, summarize


def scipy_stats() -> ModuleType:
    """``scipy.stats``, imported on first use (it lives in the ``metrics`` extra)."""
    return require("scipy.stats", "metrics", purpose="mmjudge.stats")


def finite_array(name: str, values: Any, *, ndims: Sequence[int] = (1,)) -> np.ndarray:
    """Convert ``values`` to float64 and refuse empty, NaN, infinite or wrongly shaped input.

    >>> finite_array("scores", [1, 2]).tolist()
    [1.0, 2.0]
    >>> finite_array("scores", [])
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: `scores` is empty: expected at least one value
    """
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise SchemaError(
            f"`{name}` must hold numbers, got {summarize(_flat(values))}; convert labels to numeric codes first"
        ) from exc
    if array.ndim not in ndims:
        raise SchemaError(
            f"`{name}` must have {' or '.join(map(str, ndims))} dimensions, got shape {array.shape}"
        )
    if array.shape[0] == 0:
        raise SchemaError(f"`{name}` is empty: expected at least one value")
    bad = np.argwhere(~np.isfinite(array))
    if bad.size:
        shown = summarize(tuple(int(i) for i in row) if array.ndim > 1 else int(row[0]) for row in bad)
        raise SchemaError(
            f"`{name}` has {len(bad)} non-finite values (NaN, inf or missing) at positions {shown}; "
            "drop or fill them before computing statistics"
        )
    return array


def check_labels_present(name: str, values: Sequence[Any]) -> None:
    """Refuse missing labels (``None`` or NaN) in a sequence of categorical labels.

    >>> check_labels_present("ratings", ["a", None, float("nan")])
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: `ratings` has 2 missing labels (None or NaN) at positions [1, 2]; missing ratings are not supported, drop those items
    """
    bad = [i for i, v in enumerate(values) if is_missing(v)]
    if bad:
        raise SchemaError(
            f"`{name}` has {len(bad)} missing labels (None or NaN) at positions {summarize(bad)}; "
            "missing ratings are not supported, drop those items"
        )


def is_missing(value: Any) -> bool:
    """True for ``None`` and float NaN (including numpy floats)."""
    if value is None:
        return True
    return isinstance(value, (float, np.floating)) and math.isnan(value)


def check_probability(name: str, value: float) -> float:
    """Require ``0 < value < 1``."""
    if not 0.0 < float(value) < 1.0:
        raise SchemaError(f"`{name}` must lie strictly between 0 and 1, got {value!r}")
    return float(value)


def check_positive_int(name: str, value: int) -> int:
    """Require an integer >= 1."""
    if isinstance(value, bool) or int(value) != value or value < 1:
        raise SchemaError(f"`{name}` must be a positive integer, got {value!r}")
    return int(value)


def _flat(values: Any) -> list[Any]:
    try:
        return list(np.asarray(values, dtype=object).ravel())
    except (TypeError, ValueError):
        return [values]
