"""Per-unit paired data of a headline key: what ``mmjudge compare`` and the leaderboard resample.

A benchmark declares, through :class:`PairingSpec` on its Benchmark object, how its records and
reference rows become :class:`UnitScores` for each headline key: one row per unit (a pair, a question,
a grid cell), the cluster it is drawn with, a few numbers per unit and the statistic that turns unit
weights into the key's value. Weights of 1 give the scorer's own number; a bootstrap draw gives each
unit the count of its cluster. The statistics are named (:data:`STATISTICS`) so that the data can be
stored (the leaderboard keeps it as JSON) and read back without code.

Statistics:

* ``"ratio"``: columns ``(numerator, denominator)`` per unit; per stratum ``100 * sum(w num) / sum(w den)``,
  then the mean over strata (one stratum: a plain rate). A stratum whose units are drawn but whose
  denominator sums to 0 takes ``params["empty"]`` (NaN unless set); a stratum with no unit drawn makes
  the resample undefined (NaN).
* ``"weighted_f1"``: columns ``(gold class, predicted class)`` per unit, ``params["classes"]`` classes;
  ``100 *`` the support-weighted F1 of the weighted confusion table (scikit-learn's weighted F1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mmjudge.errors import SchemaError

__all__ = ["STATISTICS", "PairingSpec", "UnitScores", "evaluate_statistic"]

Row = Mapping[str, Any]
Record = Mapping[str, Any]


@dataclass(frozen=True)
class UnitScores:
    """One judge's per-unit data for one result key."""

    key: str
    """The result key the data reproduces (``statistic`` at weights 1 equals the scorer's value)."""
    statistic: str
    """Name in :data:`STATISTICS`."""
    units: tuple[str, ...]
    """Unit ids, one per unit (the same set for every judge on the same reference rows)."""
    clusters: tuple[str, ...]
    """Cluster of each unit: units of one cluster are resampled together (e.g. pairs of one anchor)."""
    values: tuple[tuple[float, ...], ...]
    """The statistic's columns per unit (see the module docstring)."""
    strata: tuple[str, ...] = ()
    """Stratum of each unit for ``"ratio"`` (empty: one stratum)."""
    outcomes: tuple[float, ...] | None = None
    """Per-unit correct (1) / wrong (0) outcome when the key is a rate of such outcomes (NaN: the unit
    is not scored for this judge), for McNemar's test; ``None`` when the key is not of that kind."""
    params: Mapping[str, float] = field(default_factory=dict)
    """Parameters of the statistic (``empty``, ``classes``)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON object (NaN as ``null``) that :meth:`from_json` reads back.

        >>> u = UnitScores("k", "ratio", ("a",), ("a",), ((1.0, 1.0),), outcomes=(float("nan"),))
        >>> UnitScores.from_json(u.to_json()).outcomes
        (nan,)
        """
        return {
            "key": self.key,
            "statistic": self.statistic,
            "units": list(self.units),
            "clusters": list(self.clusters),
            "values": [list(v) for v in self.values],
            "strata": list(self.strata),
            "outcomes": None if self.outcomes is None else [_null(v) for v in self.outcomes],
            "params": {k: _null(v) for k, v in self.params.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UnitScores:
        """Read :meth:`to_json`'s object back."""
        outcomes = data.get("outcomes")
        return cls(
            key=str(data["key"]),
            statistic=str(data["statistic"]),
            units=tuple(str(u) for u in data["units"]),
            clusters=tuple(str(c) for c in data["clusters"]),
            values=tuple(tuple(float(x) for x in v) for v in data["values"]),
            strata=tuple(str(s) for s in data.get("strata") or ()),
            outcomes=None if outcomes is None else tuple(_nan(v) for v in outcomes),
            params={str(k): _nan(v) for k, v in (data.get("params") or {}).items()},
        )

    def reordered(self, units: Sequence[str]) -> UnitScores:
        """The same data with the units in the order of ``units`` (the same set)."""
        position = {u: k for k, u in enumerate(self.units)}
        order = [position[u] for u in units]

        def pick(values: Any) -> Any:
            return tuple(values[k] for k in order) if values else values

        return UnitScores(
            self.key, self.statistic, tuple(units), pick(self.clusters), pick(self.values),
            pick(self.strata), None if self.outcomes is None else pick(self.outcomes), self.params,
        )  # fmt: skip

    def weight_statistic(self) -> Callable[[np.ndarray], np.ndarray]:
        """``f(weights (B, n)) -> (B,)``: the key's value under unit weights."""
        return lambda weights: evaluate_statistic(self, weights)


@dataclass(frozen=True)
class PairingSpec:
    """How a benchmark's records become per-unit paired data (``mmjudge compare``, the leaderboard)."""

    units: Callable[[str, Sequence[Record], Sequence[Row], Mapping[str, Any]], UnitScores]
    """``units(key, records, rows, scores) -> UnitScores`` for a headline key; ``scores`` is the run's
    result (it names the scoring mode and options the records were scored with)."""
    keys: tuple[str, ...] = ()
    """Keys compared (default: the benchmark's headline keys)."""


def evaluate_statistic(data: UnitScores, weights: np.ndarray) -> np.ndarray:
    """The statistic of ``data`` under unit weights ``(B, n)`` -> ``(B,)``.

    >>> u = UnitScores("k", "ratio", ("a", "b"), ("a", "b"), ((1.0, 1.0), (0.0, 1.0)))
    >>> evaluate_statistic(u, np.array([[1.0, 1.0], [2.0, 0.0]])).tolist()
    [50.0, 100.0]
    """
    try:
        statistic = STATISTICS[data.statistic]
    except KeyError:
        raise SchemaError(
            f"unknown paired statistic {data.statistic!r} for {data.key!r}; expected one of {sorted(STATISTICS)}"
        ) from None
    return statistic(data, np.atleast_2d(np.asarray(weights, dtype=np.float64)))


def _ratio(data: UnitScores, weights: np.ndarray) -> np.ndarray:
    columns = np.asarray(data.values, dtype=np.float64).reshape(len(data.units), 2)
    names = list(dict.fromkeys(data.strata)) if data.strata else [""]
    strata = np.asarray(data.strata) if data.strata else np.full(len(data.units), "")
    member = (strata[:, None] == np.asarray(names)[None, :]).astype(np.float64)  # (n, S)
    # one matrix product gives, per stratum, the units drawn and the weighted numerator and denominator
    sums = weights @ np.concatenate([member, columns[:, :1] * member, columns[:, 1:] * member], axis=1)
    drawn, num, den = np.split(sums, 3, axis=1)
    empty = float(data.params.get("empty", np.nan))
    rate = np.divide(100.0 * num, den, out=np.full(num.shape, empty), where=den > 0)
    return np.mean(np.where(drawn > 0, rate, np.nan), axis=1)


def _weighted_f1(data: UnitScores, weights: np.ndarray) -> np.ndarray:
    from mmjudge.stats import weighted_f1_from_counts

    classes = int(data.params["classes"])
    codes = np.asarray(data.values, dtype=np.int64).reshape(len(data.units), 2)
    cell = np.zeros((len(data.units), classes * classes))
    cell[np.arange(len(data.units)), codes[:, 0] * classes + codes[:, 1]] = 1.0
    tables = (weights @ cell).reshape(-1, classes, classes)
    out = np.full(tables.shape[0], np.nan)
    filled = tables.sum(axis=(1, 2)) > 0
    if filled.any():
        out[filled] = 100.0 * np.asarray(weighted_f1_from_counts(tables[filled]))
    return out


STATISTICS: Mapping[str, Callable[[UnitScores, np.ndarray], np.ndarray]] = {
    "ratio": _ratio,
    "weighted_f1": _weighted_f1,
}
"""The statistics a :class:`UnitScores` may name (see the module docstring)."""


def _null(value: float) -> float | None:
    return None if value is None or np.isnan(value) else float(value)


def _nan(value: Any) -> float:
    return float("nan") if value is None else float(value)
