"""Argument checks shared by every layer (a leaf module: it imports only numpy and ``mmjudge.errors``).

Each check raises :class:`~mmjudge.errors.SchemaError` (a ``ValueError``) naming the field, the count
and a few offending values; none returns a silent zero. The scorers (``mmjudge.benchmarks``) and the
statistics (``mmjudge.stats``) both use them. The name checks (:func:`ref_name_problem`,
:func:`hub_repo_problem`) return why a name is not valid, so that each caller raises its own error type:
``--data``, a recorded data location and a model request all read Hub ids and revisions by the same rules.
"""

from __future__ import annotations

import math
import re
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


_REF_FORBIDDEN = frozenset(" ~^:?*[\\")
_HUB_NAME = re.compile(r"[A-Za-z0-9](?:[\w.-]{0,94}[A-Za-z0-9])?")


def ref_name_problem(revision: str) -> str:
    """Why ``revision`` is not a git ref name (a branch, tag or commit; ``""`` when it is one).

    The rules of ``git check-ref-format`` (one level allowed): no empty part, no part starting with ``.`` or
    ending with ``.lock``, no ``..``, ``@{``, control or space characters, none of ``~^:?*[\\``, no
    leading, trailing or doubled ``/``, no trailing ``.``, not ``@``; so never a path (``/etc/passwd``,
    ``./main``, ``../x``) and never a URL.

    >>> ref_name_problem("main"), ref_name_problem("refs/pr/3"), ref_name_problem("v1.0")
    ('', '', '')
    >>> ref_name_problem("/etc/passwd")
    "a git ref name never starts or ends with '/' (a path is not a revision)"
    >>> ref_name_problem("./main")
    "a git ref name has no part starting with '.' (a path is not a revision)"
    """
    if not revision:
        return "a git ref name is not empty"
    if len(revision) > 255:
        return f"a git ref name has at most 255 characters, this one {len(revision)}"
    bad = next((c for c in revision if ord(c) < 0x20 or ord(c) == 0x7F or c in _REF_FORBIDDEN), None)
    if bad is not None:
        return f"a git ref name holds no spaces, control characters or any of ~^:?*[\\, got {bad!r}"
    if revision.startswith("/") or revision.endswith("/"):
        return "a git ref name never starts or ends with '/' (a path is not a revision)"
    if "//" in revision or ".." in revision or "@{" in revision or revision == "@":
        return "a git ref name holds no '//', '..' or '@{' and is not '@' (a path is not a revision)"
    parts = revision.split("/")
    if any(part.startswith(".") or part.endswith(".lock") for part in parts):
        return "a git ref name has no part starting with '.' (a path is not a revision)"
    if revision.endswith("."):
        return "a git ref name does not end with '.'"
    return ""


def hub_repo_problem(repo_id: str) -> str:
    """Why ``repo_id`` is not a Hub repo id ``org/name`` or ``name`` (``""`` when it is one), by the rules
    of ``huggingface_hub``'s ``validate_repo_id``: letters, digits, ``-``, ``_`` and ``.``, at most 96 per part,
    not starting or ending with ``-`` or ``.``, no ``--`` or ``..``, not ending with ``.git``.

    >>> hub_repo_problem("org/mist-labels"), hub_repo_problem("gpt2")
    ('', '')
    >>> hub_repo_problem("../../etc")
    "a Hub repo id is 'org/name' or 'name' of letters, digits, '-', '_' and '.' (never a path or a URL)"
    """
    parts = repo_id.split("/")
    if len(parts) > 2 or not all(_HUB_NAME.fullmatch(p) for p in parts):
        return "a Hub repo id is 'org/name' or 'name' of letters, digits, '-', '_' and '.' (never a path or a URL)"
    if "--" in repo_id or ".." in repo_id or repo_id.endswith(".git"):
        return "a Hub repo id holds no '--' or '..' and does not end with '.git'"
    return ""
