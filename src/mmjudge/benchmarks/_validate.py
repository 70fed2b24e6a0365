"""Input checks shared by the scorers. Each raises :class:`~mmjudge.errors.SchemaError` (a
``ValueError``) naming the field, the count and a few offending values; none returns a silent zero.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence, Sized
from typing import Any

import numpy as np

from mmjudge.errors import SchemaError, summarize


def check_nonempty(name: str, values: Sized) -> None:
    """Refuse an empty input.

    >>> check_nonempty("predictions", [])
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: `predictions` is empty: expected at least one item to score
    """
    if len(values) == 0:
        raise SchemaError(f"`{name}` is empty: expected at least one item to score")


def check_same_length(**fields: Sized) -> int:
    """Require every field to have the same length; return it.

    >>> check_same_length(predictions=[1, 2], references=[1])
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: expected inputs of equal length, got predictions=2, references=1
    """
    lengths = {name: len(values) for name, values in fields.items()}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{name}={n}" for name, n in lengths.items())
        raise SchemaError(f"expected inputs of equal length, got {shown}")
    return next(iter(lengths.values()), 0)


def check_labels(name: str, values: Iterable[Any], allowed: Collection[Any]) -> None:
    """Require every value to be one of ``allowed``.

    >>> check_labels("choice", ["a1", "b", "c", "a2"], {"a1", "a2", "same"})
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: `choice` has 2 values outside ['a1', 'a2', 'same']: ['b', 'c']
    """
    bad = [v for v in values if v not in allowed]
    if bad:
        raise SchemaError(
            f"`{name}` has {len(bad)} values outside {sorted(allowed, key=str)}: {summarize(bad)}"
        )


def check_finite(name: str, values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Convert to float64 and refuse NaN or infinite entries (``None`` counts as NaN).

    >>> check_finite("score_chosen", [1.0, float("nan"), 2.0]).dtype
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: `score_chosen` has 1 non-finite values (NaN, inf or missing) at positions [1]; pass a finite score, or mark the item as no judgment
    """
    array = np.asarray([np.nan if v is None else v for v in values], dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        raise SchemaError(
            f"`{name}` has {bad.size} non-finite values (NaN, inf or missing) at positions "
            f"{summarize(bad.tolist())}; pass a finite score, or mark the item as no judgment"
        )
    return array


def check_unique(name: str, ids: Iterable[Any]) -> None:
    """Refuse duplicate ids.

    >>> check_unique("pair_id", ["p1", "p2", "p1"])
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: `pair_id` has 1 duplicated ids: ['p1'] (each id must appear once)
    """
    dupes = [key for key, count in Counter(ids).items() if count > 1]
    if dupes:
        raise SchemaError(
            f"`{name}` has {len(dupes)} duplicated ids: {summarize(dupes)} (each id must appear once)"
        )
