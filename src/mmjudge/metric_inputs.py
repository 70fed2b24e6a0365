"""What the ``evaluate`` modules in ``metrics/`` share: how they take their inputs, and their folder.

Per-row inputs (a prediction, its reference, the item's id, cluster, task or grid cell) are declared as
``features``, so ``add``/``add_batch`` then ``compute()`` works and distributed gathering carries them;
tables of other lengths (MIST's item metadata and human labels) and options stay ``compute`` keyword
arguments. Two things evaluate 0.4 does not do for such modules are done here:

* :class:`MissingFirstValueAllowed`: ``Metric._enforce_nested_string_type`` checks the *first* value of
  every string-typed column and raises an opaque "inputs don't match the expected format" error when it is
  ``None``. A missing prediction is a normal input to mmjudge's scorers (MIST's missing label, EmoReAlM's
  missing answer) or one they refuse with a message naming the positions (EmoPrefer, emotion
  classification), wherever it sits in the list; the mixin lets a ``None`` in the first position through,
  so the scorer decides about it as it does for any other position.
* :class:`RowColumns`: evaluate needs every feature column in every ``add``/``add_batch``/``compute`` call
  (all feature sets share the first set's names). A module lists the per-row columns a caller may leave
  out (``optional_columns``); a left-out column is filled with ``None`` per row, remembered as left out,
  and reaches the scorer as ``None`` (not given), as it would from a direct call.

A module returns its benchmark scorer's result through :func:`with_interval_notes`: the same keys and values,
plus one string key, :data:`INTERVAL_NOTES`, naming the intervals that are thin or withheld (read from the
scorer's records), since evaluate's output has no other place to say it.

:func:`metric_script` finds the evaluate script of a module folder, in this checkout (``metrics/<id>``),
in a folder ``mmjudge metric build`` wrote, or in a Space (whose folder is called ``app``).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from mmjudge.estimates import estimates_from, interval_notes

__all__ = [
    "INTERVAL_NOTES",
    "VENDORED_PREFIX",
    "MissingFirstValueAllowed",
    "RowColumns",
    "feature_sets",
    "metric_script",
    "with_interval_notes",
]

INTERVAL_NOTES = "interval_notes"
"""The string key an evaluate module adds to its scorer's result (:func:`with_interval_notes`)."""

_Result = TypeVar("_Result", bound=Mapping[str, Any])

VENDORED_PREFIX = "mmjudge_vendored"
"""Names of the files ``mmjudge metric build`` writes beside the script (the loader and the sources)."""


class MissingFirstValueAllowed:
    """Mixin for an ``evaluate.Metric`` subclass (listed first among its bases).

    >>> class Base:
    ...     def _enforce_nested_string_type(self, schema, obj):
    ...         raise TypeError(f"{obj!r} is not a string")
    >>> class Metric(MissingFirstValueAllowed, Base):
    ...     pass
    >>> Metric()._enforce_nested_string_type("string", None) is None
    True
    >>> Metric()._enforce_nested_string_type("string", 3)
    Traceback (most recent call last):
    TypeError: 3 is not a string
    """

    def _enforce_nested_string_type(self, schema: Any, obj: Any) -> Any:
        if obj is None:
            return None
        return super()._enforce_nested_string_type(schema, obj)  # type: ignore[misc]


class RowColumns(MissingFirstValueAllowed):
    """Mixin for an ``evaluate.Metric`` whose features include per-row columns a caller may leave out.

    Set ``optional_columns`` to those feature names; in ``_compute`` pass the feature columns through
    :meth:`given` so that the left-out ones become ``None``. A column is left out of ``compute`` or
    ``add_batch`` as of the core's functions, by passing ``None`` or nothing, and of ``add`` by not naming
    it. It must be given in every batch or in none (``ValueError`` otherwise).

    >>> class Base:
    ...     features = {"predictions": "string", "ids": "string"}
    ...     def add_batch(self, **columns):
    ...         self.rows = columns
    >>> class Metric(RowColumns, Base):
    ...     optional_columns = ("ids",)
    >>> metric = Metric()
    >>> metric.add_batch(predictions=["a", "b"])
    >>> metric.rows, metric.given({"predictions": ["a", "b"], "ids": [None, None]})
    ({'predictions': ['a', 'b'], 'ids': [None, None]}, {'predictions': ['a', 'b'], 'ids': None})
    >>> metric.add_batch(predictions=["c"], ids=["x"])
    Traceback (most recent call last):
    ValueError: `ids` was left out of an earlier batch but is given in this one: give each optional column in every batch or in none
    """

    optional_columns: tuple[str, ...] = ()
    _left_out: frozenset[str] | None = None
    _computing = False

    def add_batch(self, **columns: Any) -> Any:
        """evaluate's ``add_batch``, with the left-out optional columns filled with ``None``."""
        if not self._computing:  # evaluate's compute adds the rows it was given, filled already
            columns = self._filled(columns, [None] * _size((n, columns.get(n)) for n in self._names()))
        return super().add_batch(**columns)  # type: ignore[misc]

    def add(self, **values: Any) -> Any:
        """evaluate's ``add`` (``prediction``, ``reference``, and the other columns by their names), filled; here
        a column is left out by not naming it (``None`` is the row's value)."""
        return super().add(**self._filled(values, None, row=True))  # type: ignore[misc]

    def compute(self, **kwargs: Any) -> Any:
        """evaluate's ``compute``: on the rows given here, else on those added before."""
        rows = [(name, kwargs.get(name)) for name in self._names()]
        if any(v is not None for _, v in rows):
            kwargs = self._filled(kwargs, [None] * _size(rows))
        self._computing = True
        try:
            return super().compute(**kwargs)  # type: ignore[misc]
        finally:
            self._computing, self._left_out = False, None

    def given(self, columns: Mapping[str, Any]) -> dict[str, Any]:
        """``columns`` with each left-out optional column set to ``None``."""
        left_out = self._left_out or frozenset()
        return {name: None if name in left_out else value for name, value in columns.items()}

    def _names(self) -> list[str]:
        features = self.features  # type: ignore[attr-defined]
        return list((features[0] if isinstance(features, list) else features).keys())

    def _filled(self, values: dict[str, Any], missing: Any, *, row: bool = False) -> dict[str, Any]:
        left_out = frozenset(n for n in self.optional_columns if (n not in values if row else values.get(n) is None))
        if self._left_out is not None and left_out != self._left_out:
            name = sorted(left_out ^ self._left_out)[0]
            before, now = ("left out of", "is given in") if name in self._left_out else ("given in", "is left out of")
            raise ValueError(
                f"`{name}` was {before} an earlier batch but {now} this one: give each optional column in every "
                "batch or in none"
            )
        self._left_out = left_out
        return {**values, **dict.fromkeys(left_out, missing)}


def _size(columns: Iterable[tuple[str, Any]]) -> int:
    """The number of rows of the given columns (``ValueError`` when they differ or there are none: evaluate
    would fail on them with an ``IndexError``)."""
    sizes = {name: len(v) for name, v in columns if v is not None}
    if len(set(sizes.values())) > 1:
        raise ValueError(f"the per-row inputs differ in length: {sizes}; expected one value per row in each")
    if not sizes or not next(iter(sizes.values())):
        raise ValueError(f"expected at least one row, got {sizes or 'no per-row input'}")
    return next(iter(sizes.values()))


def feature_sets(columns: Mapping[str, Any], alternatives: Mapping[str, Iterable[Any]]) -> list[Any]:
    """``datasets.Features`` of ``columns`` with each column of ``alternatives`` taking each of its types,
    in order (evaluate picks the first set the first row fits).

    >>> [dict(f) == {"p": "s", "id": t} for f, t in zip(feature_sets({"p": "s", "id": None}, {"id": ["s", "i"]}), "si")]
    [True, True]
    """
    import datasets

    names = list(alternatives)
    out = []
    for types in itertools.product(*(list(alternatives[n]) for n in names)):
        out.append(datasets.Features({**columns, **dict(zip(names, types, strict=True))}))
    return out


def with_interval_notes(scores: _Result) -> _Result:
    """A copy of a scorer's result (a ``Scores`` stays one, with its records) with :data:`INTERVAL_NOTES`: its
    thin and withheld intervals, grouped by why (:func:`mmjudge.estimates.interval_notes`), ``""`` when none is;
    every other key and value unchanged.

    >>> from mmjudge.benchmarks import Scores
    >>> s = Scores({"acc": 40.0}, {"acc": {"method": "none: no interval: 3 clips (at least 5 needed)", "n_clusters": 3}})
    >>> with_interval_notes(s)
    {'acc': 40.0, 'interval_notes': 'acc — no interval: 3 clips (at least 5 needed)'}
    >>> with_interval_notes({"acc": 40.0, "acc_ci_low": 30.0, "acc_ci_high": 50.0})["interval_notes"]
    ''
    """
    out = copy.copy(scores)  # a dict subclass keeps its attributes (a Scores' intervals)
    out[INTERVAL_NOTES] = interval_notes(estimates_from(scores))  # type: ignore[index]
    return out


def metric_script(folder: str | Path) -> Path:
    """The evaluate script of a module folder: its one ``.py`` file besides ``app.py`` and the files
    ``mmjudge metric build`` vendors (``mmjudge_vendored*.py``).

    Raises:
        FileNotFoundError: the folder has no such script, or more than one.
    """
    folder = Path(folder)
    found = sorted(p for p in folder.glob("*.py") if p.name != "app.py" and not p.name.startswith(VENDORED_PREFIX))
    if len(found) != 1:
        raise FileNotFoundError(
            f"{folder}: expected one evaluate script besides app.py and {VENDORED_PREFIX}*.py, found "
            f"{[p.name for p in found]}"
        )
    return found[0]
