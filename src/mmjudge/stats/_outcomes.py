"""Per-unit outcomes first: a typed table of scored units, metrics as reductions over it, cluster intervals.

A benchmark's scorer turns predictions into :class:`Outcomes`: one row per scored unit (a pair, a grid
cell, a question), named numeric columns, the id of the cluster each unit belongs to (the top cluster the
benchmark declares: IsoVRBench's anchor prompt, MIST's item, EmoReAlM's clip) and its stratum (e.g. the
intervention). Every rate or mean key is a :class:`Metric` over that table:

- :class:`Ratio`: ``100 * sum(num) / sum(den)``, pooled, or per stratum and averaged over the strata
  (optionally only the strata named in ``strata``);
- :class:`WeightedF1`: ``100 *`` scikit-learn's weighted F1 of the confusion table of two code columns.

A metric is linear in per-unit *terms* (:meth:`Metric.terms`, shape ``(n, m)``) followed by a reduction of
their sums (:meth:`Metric.reduce`): the value is the reduction of the full sums, and a cluster bootstrap
draws clusters with replacement, sums each cluster's terms once and reduces the resampled sums of every
resample (:func:`bootstrap_metrics`), so one draw serves every key and
both judges of a paired comparison (:func:`paired_metric_bootstrap`). Clusters nested in strata are drawn
within their stratum (each stratum keeps its number of clusters); clusters that span strata are drawn
over all. The percentile interval is the result, with its method named (:class:`~mmjudge.estimates.Estimate`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mmjudge.errors import SchemaError
from mmjudge.estimates import Estimate
from mmjudge.stats._classification import weighted_f1_from_counts
from mmjudge.stats._jackknife import Spread, jackknife

__all__ = [
    "CLUSTER_CHUNK",
    "HarmonicMean",
    "KeyOutcomes",
    "Metric",
    "Outcomes",
    "Ratio",
    "WeightedF1",
    "bootstrap_metrics",
    "jackknife_metrics",
    "metric_from_json",
    "paired_metric_bootstrap",
    "rates_floor",
]

CLUSTER_CHUNK = 2_000_000
"""Cluster counts held in memory at once (resamples x clusters)."""


@dataclass(frozen=True)
class Outcomes:
    """One judge's per-unit outcomes on a benchmark."""

    units: tuple[str, ...]
    """Unit ids (unique)."""
    clusters: tuple[str, ...]
    """The top cluster of each unit: units of one cluster are resampled together."""
    columns: Mapping[str, np.ndarray]
    """Named per-unit values (float arrays of length ``len(units)``)."""
    strata: tuple[str, ...] = ()
    """The stratum of each unit (empty: one stratum)."""
    unit: str = "unit"
    """What a unit is (``pair``, ``cell``, ``question``), for the method's name."""
    cluster_name: str = "cluster"
    """What a cluster is (``prompt``, ``item``, ``clip``), for the method's name."""

    def __post_init__(self) -> None:
        n = len(self.units)
        if len(self.clusters) != n or (self.strata and len(self.strata) != n):
            raise SchemaError(
                f"outcomes: expected {n} clusters and strata, got {len(self.clusters)}, {len(self.strata)}"
            )
        for name, column in self.columns.items():
            if np.asarray(column).shape != (n,):
                raise SchemaError(
                    f"outcomes column {name!r}: expected shape ({n},), got {np.asarray(column).shape}"
                )

    @property
    def n_clusters(self) -> int:
        """Distinct clusters."""
        return len(set(self.clusters))

    @property
    def independent(self) -> bool:
        """Whether every unit is its own cluster (then units are independent draws)."""
        return self.n_clusters == len(self.units)

    def column(self, name: str) -> np.ndarray:
        """A column as float64 (``SchemaError`` naming the known ones when absent)."""
        try:
            return np.asarray(self.columns[name], dtype=np.float64)
        except KeyError:
            raise SchemaError(f"outcomes have no column {name!r}; they have {sorted(self.columns)}") from None

    def stratum_names(self) -> list[str]:
        """The strata in order of first appearance (``[""]`` for one stratum)."""
        return list(dict.fromkeys(self.strata)) if self.strata else [""]

    def stratum_member(self, names: Sequence[str] | None = None) -> np.ndarray:
        """``(n, S)`` 0/1 membership of each unit in each of ``names`` (default: every stratum)."""
        names = list(names) if names is not None else self.stratum_names()
        codes = self._stratum_codes
        member = np.zeros((len(self.units), len(names)))
        for k, name in enumerate(names):
            code = codes[1].get(name)
            if code is not None:
                member[codes[0] == code, k] = 1.0
        return member

    @functools.cached_property
    def _stratum_codes(self) -> tuple[np.ndarray, dict[str, int]]:
        """Each unit's stratum as an integer code, and the code of each stratum name (computed once)."""
        if not self.strata:
            return np.zeros(len(self.units), dtype=np.int64), {"": 0}
        names, codes = np.unique(np.asarray(self.strata), return_inverse=True)
        return codes.astype(np.int64), {str(n): k for k, n in enumerate(names.tolist())}

    def reordered(self, units: Sequence[str]) -> Outcomes:
        """The same outcomes with the units in the order of ``units`` (the same set)."""
        if set(units) != set(self.units) or len(units) != len(self.units):
            raise SchemaError("outcomes of two judges must cover the same units")
        position = {u: k for k, u in enumerate(self.units)}
        order = np.fromiter((position[u] for u in units), dtype=np.int64, count=len(units))
        return Outcomes(
            tuple(units), tuple(np.asarray(self.clusters)[order]), {k: np.asarray(v)[order] for k, v in self.columns.items()},
            tuple(np.asarray(self.strata)[order]) if self.strata else (), self.unit, self.cluster_name,
        )  # fmt: skip

    def method(self, n_resamples: int, stratified: bool) -> str:
        """The interval's name, e.g. ``cluster bootstrap over prompts (stratified), 10000 resamples``."""
        how = " (stratified)" if stratified else ""
        what = f"{self.unit}s" if self.independent else f"{self.cluster_name}s"
        return f"percentile bootstrap over {what}{how}, {n_resamples} resamples"


class Metric:
    """A reduction over outcomes: linear per-unit terms, then a function of their sums."""

    def terms(self, outcomes: Outcomes) -> np.ndarray:
        """Per-unit terms ``(n, m)``."""
        raise NotImplementedError

    def reduce(self, sums: np.ndarray) -> np.ndarray:
        """The metric of term sums ``(..., m)`` -> ``(...)`` (NaN where undefined)."""
        raise NotImplementedError

    def value(self, outcomes: Outcomes) -> float:
        """The metric on the full sample."""
        return float(self.reduce(self.terms(outcomes).sum(axis=0)))

    def counted(self, outcomes: Outcomes) -> np.ndarray:
        """Which units the metric counts (bool, ``(n,)``): what the interval's cluster and unit counts read."""
        return np.any(self.terms(outcomes) != 0.0, axis=1)

    def columns(self) -> tuple[str, ...]:
        """The outcome columns the metric reads."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """A JSON object :func:`metric_from_json` reads back."""
        raise NotImplementedError


@dataclass(frozen=True)
class Ratio(Metric):
    """``100 * sum(num) / sum(den)``: pooled, or per stratum and averaged (``by_stratum``).

    ``strata`` limits the strata (e.g. one intervention, or the interventions of a dimension). A stratum
    whose units are drawn but whose denominator sums to 0 takes ``empty``; one with no unit drawn makes a
    stratified mean undefined (NaN) for that resample.
    """

    num: str
    """Numerator column."""
    den: str
    """Denominator column."""
    by_stratum: bool = False
    """Average the per-stratum rates (the mean over interventions) instead of pooling."""
    strata: tuple[str, ...] | None = None
    """Only these strata (``None``: all)."""
    empty: float = float("nan")
    """Value of a stratum with units but a zero denominator."""
    share_first: bool = False
    """Compute ``100 * (num / den)`` instead of ``(100 * num) / den`` (the two differ in the last bit; each
    scorer keeps the order it always used, so its numbers do not move)."""

    def columns(self) -> tuple[str, ...]:
        return (self.num, self.den)

    def to_json(self) -> dict[str, Any]:
        return {"metric": "ratio", "num": self.num, "den": self.den, "by_stratum": self.by_stratum,
                "strata": None if self.strata is None else list(self.strata),
                "empty": None if math.isnan(self.empty) else self.empty, "share_first": self.share_first}  # fmt: skip

    def terms(self, outcomes: Outcomes) -> np.ndarray:
        names = list(self.strata) if self.strata is not None else outcomes.stratum_names()
        member = outcomes.stratum_member(names)
        if not self.by_stratum:
            member = member.sum(axis=1, keepdims=True)
        num, den = outcomes.column(self.num)[:, None], outcomes.column(self.den)[:, None]
        return np.concatenate([member, num * member, den * member], axis=1)

    def counted(self, outcomes: Outcomes) -> np.ndarray:
        names = list(self.strata) if self.strata is not None else outcomes.stratum_names()
        inside = outcomes.stratum_member(names).sum(axis=1) > 0
        return inside & (outcomes.column(self.den) > 0)

    def reduce(self, sums: np.ndarray) -> np.ndarray:
        drawn, num, den = np.split(np.asarray(sums, dtype=np.float64), 3, axis=-1)
        if self.share_first:
            rate = 100.0 * np.divide(num, den, out=np.full(num.shape, self.empty / 100.0), where=den > 0)
        else:
            rate = np.divide(100.0 * num, den, out=np.full(num.shape, self.empty), where=den > 0)
        rate = np.where(drawn > 0, rate, np.nan)
        with np.errstate(invalid="ignore"):
            return np.mean(rate, axis=-1)


@dataclass(frozen=True)
class HarmonicMean(Metric):
    """``2 p r / (p + r)`` of two metrics (0 where both are 0): e.g. the F1 of a yes/no task's per-class
    accuracies."""

    first: Ratio
    """``p`` (a pooled ratio, or one over named strata)."""
    second: Ratio
    """``r``."""

    def columns(self) -> tuple[str, ...]:
        return (*self.first.columns(), *self.second.columns())

    def to_json(self) -> dict[str, Any]:
        return {"metric": "harmonic_mean", "first": self.first.to_json(), "second": self.second.to_json()}

    def terms(self, outcomes: Outcomes) -> np.ndarray:
        return np.concatenate([self.first.terms(outcomes), self.second.terms(outcomes)], axis=1)

    def counted(self, outcomes: Outcomes) -> np.ndarray:
        return self.first.counted(outcomes) | self.second.counted(outcomes)

    def reduce(self, sums: np.ndarray) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        m = _width(self.first)
        p, r = self.first.reduce(sums[..., :m]), self.second.reduce(sums[..., m:])
        total = np.asarray(p + r, dtype=np.float64)
        return np.divide(2.0 * p * r, total, out=np.zeros_like(total), where=total > 0)


def _width(ratio: Ratio) -> int:
    """How many terms ``ratio`` has (it must name its strata when it averages over them)."""
    if not ratio.by_stratum:
        return 3
    if ratio.strata is None:
        raise SchemaError("a ratio inside a combined metric must name its strata")
    return 3 * len(ratio.strata)


@dataclass(frozen=True)
class WeightedF1(Metric):
    """``100 *`` the support-weighted F1 of the confusion table of ``gold`` x ``pred`` codes (0..classes-1);
    units with a negative code are left out."""

    gold: str
    """Gold class code column."""
    pred: str
    """Predicted class code column."""
    classes: int
    """Number of classes."""

    def columns(self) -> tuple[str, ...]:
        return (self.gold, self.pred)

    def to_json(self) -> dict[str, Any]:
        return {"metric": "weighted_f1", "gold": self.gold, "pred": self.pred, "classes": self.classes}

    def terms(self, outcomes: Outcomes) -> np.ndarray:
        gold, pred = outcomes.column(self.gold).astype(np.int64), outcomes.column(self.pred).astype(np.int64)
        cells = np.zeros((len(gold), self.classes * self.classes))
        keep = (gold >= 0) & (pred >= 0)
        cells[np.flatnonzero(keep), gold[keep] * self.classes + pred[keep]] = 1.0
        return cells

    def reduce(self, sums: np.ndarray) -> np.ndarray:

        sums = np.asarray(sums, dtype=np.float64)
        tables = sums.reshape(-1, self.classes, self.classes)
        out = np.full(tables.shape[0], np.nan)
        filled = tables.sum(axis=(1, 2)) > 0
        if filled.any():
            out[filled] = 100.0 * np.asarray(weighted_f1_from_counts(tables[filled]))
        return out.reshape(sums.shape[:-1])


def metric_from_json(data: Mapping[str, Any]) -> Metric:
    """The metric of :meth:`Metric.to_json`'s object.

    >>> r = Ratio("a", "b", strata=("x",))
    >>> metric_from_json(r.to_json()).to_json() == r.to_json()
    True
    """
    kind = data.get("metric")
    if kind == "ratio":
        strata = data.get("strata")
        empty = data.get("empty")
        return Ratio(str(data["num"]), str(data["den"]), bool(data.get("by_stratum")),
                     None if strata is None else tuple(str(s) for s in strata),
                     float("nan") if empty is None else float(empty), bool(data.get("share_first")))  # fmt: skip
    if kind == "weighted_f1":
        return WeightedF1(str(data["gold"]), str(data["pred"]), int(data["classes"]))
    if kind == "harmonic_mean":
        first, second = metric_from_json(data["first"]), metric_from_json(data["second"])
        if not (isinstance(first, Ratio) and isinstance(second, Ratio)):
            raise SchemaError("a harmonic mean combines two ratios")
        return HarmonicMean(first, second)
    raise SchemaError(f"unknown metric {kind!r}; expected ratio, weighted_f1 or harmonic_mean")


@dataclass(frozen=True)
class KeyOutcomes:
    """One result key of one judge: the outcomes it reduces (its columns only) and the metric."""

    key: str
    """The result key."""
    outcomes: Outcomes
    """The units, clusters, strata and the metric's columns."""
    metric: Metric
    """The reduction that gives the key's value."""

    @classmethod
    def of(cls, key: str, outcomes: Outcomes, metric: Metric) -> KeyOutcomes:
        """Keep only the columns ``metric`` reads."""
        columns = {name: outcomes.column(name) for name in dict.fromkeys(metric.columns())}
        kept = Outcomes(
            outcomes.units, outcomes.clusters, columns, outcomes.strata, outcomes.unit, outcomes.cluster_name
        )
        return cls(key, kept, metric)

    def value(self) -> float:
        """The key's value on the full sample."""
        return self.metric.value(self.outcomes) if self.outcomes.units else float("nan")

    def binary(self) -> np.ndarray | None:
        """Per-unit 0/1 outcomes (NaN where the unit is not counted) when the key is a rate of such outcomes
        (a ratio with 0/1 numerator and denominator), else ``None``: what McNemar's test reads."""
        if not isinstance(self.metric, Ratio):
            return None
        num, den = self.outcomes.column(self.metric.num), self.outcomes.column(self.metric.den)
        if not (np.isin(num, (0.0, 1.0)).all() and np.isin(den, (0.0, 1.0)).all()):
            return None
        if self.metric.strata is not None:
            den = den * self.outcomes.stratum_member(list(self.metric.strata)).sum(axis=1)
        return np.where(den > 0, num, np.nan)

    def to_json(self) -> dict[str, Any]:
        """A JSON object (NaN as ``null``) that :meth:`from_json` reads back."""
        o = self.outcomes
        return {"key": self.key, "metric": self.metric.to_json(), "units": list(o.units), "clusters": list(o.clusters),
                "strata": list(o.strata), "unit": o.unit, "cluster_name": o.cluster_name,
                "columns": {k: [None if math.isnan(x) else float(x) for x in o.column(k)] for k in o.columns}}  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> KeyOutcomes:
        """Read :meth:`to_json`'s object back."""
        columns = {
            str(k): np.array([np.nan if x is None else float(x) for x in v])
            for k, v in data["columns"].items()
        }
        outcomes = Outcomes(tuple(str(u) for u in data["units"]), tuple(str(c) for c in data["clusters"]), columns,
                            tuple(str(s) for s in data.get("strata") or ()), str(data.get("unit", "unit")),
                            str(data.get("cluster_name", "cluster")))  # fmt: skip
        return cls(str(data["key"]), outcomes, metric_from_json(data["metric"]))


@dataclass
class _Draws:
    codes: np.ndarray
    n_clusters: int
    groups: list[np.ndarray] = field(default_factory=list)
    """Cluster codes of each stratum when clusters nest in strata (empty: draw over all)."""


def _draws(outcomes: Outcomes, stratify: bool) -> _Draws:
    names, codes = np.unique(np.asarray(outcomes.clusters), return_inverse=True)
    draws = _Draws(codes.astype(np.int64), len(names))
    if stratify and outcomes.strata:
        strata = np.asarray(outcomes.strata)
        owner: dict[int, str] = {}
        nested = True
        for code, stratum in zip(draws.codes.tolist(), strata.tolist(), strict=True):
            if owner.setdefault(code, stratum) != stratum:
                nested = False
                break
        if nested:
            by: dict[str, list[int]] = {}
            for code, stratum in owner.items():
                by.setdefault(stratum, []).append(code)
            # strata in name order: the draws do not depend on the order of the rows
            draws.groups = [np.asarray(sorted(by[k]), dtype=np.int64) for k in sorted(by)]
    return draws


def _cluster_sums(terms: np.ndarray, draws: _Draws) -> np.ndarray:
    sums = np.zeros((draws.n_clusters, terms.shape[1]))
    np.add.at(sums, draws.codes, terms)
    return sums


def _resampled_sums(sums: np.ndarray, draws: _Draws, n_resamples: int, seed: int) -> Iterator[np.ndarray]:
    """Chunks of resampled term sums ``(chunk, m)`` of clusters with per-cluster sums ``sums`` (C, m).

    Clusters with equal sums are one *type*: drawing ``k`` clusters with equal probabilities gives the same
    law of sums as drawing the types' multiplicities from ``Multinomial(k, multiplicity / k)``, which is
    what is drawn (0/1 outcomes of independent units have two types per stratum: a bootstrap of 8,000
    pairs takes milliseconds).
    """
    if draws.n_clusters == 0:
        raise SchemaError(
            "outcomes hold no unit: there is nothing to resample (expected at least one cluster)"
        )
    rng = np.random.default_rng(seed)
    groups = []
    for group in draws.groups or [np.arange(draws.n_clusters)]:
        rows, mult = np.unique(sums[group], axis=0, return_counts=True)
        groups.append((len(group), rows, mult / len(group)))
    widest = max(len(rows) for _, rows, _ in groups)
    chunk = max(1, CLUSTER_CHUNK // max(1, widest + sums.shape[1]))
    done = 0
    while done < n_resamples:
        size = min(chunk, n_resamples - done)
        out = np.zeros((size, sums.shape[1]))
        for k, rows, shares in groups:
            out += rng.multinomial(k, shares, size=size) @ rows
        yield out
        done += size


def bootstrap_metrics(
    outcomes: Outcomes,
    metrics: Mapping[str, Metric],
    *,
    n_resamples: int,
    confidence: float,
    seed: int,
    stratify: bool = True,
) -> dict[str, Estimate]:
    """Each metric's value and percentile cluster-bootstrap interval, from one set of cluster draws.

    >>> o = Outcomes(("a", "b", "c", "d"), ("x", "x", "y", "z"), {"hit": np.array([1.0, 1, 0, 1]),
    ...              "one": np.ones(4)})
    >>> e = bootstrap_metrics(o, {"acc": Ratio("hit", "one")}, n_resamples=200, confidence=0.95, seed=0)["acc"]
    >>> e.value, e.n_clusters, e.low <= e.value <= e.high
    (75.0, 3, True)
    """
    draws = _draws(outcomes, stratify)
    terms = {key: metric.terms(outcomes) for key, metric in metrics.items()}
    widths = [t.shape[1] for t in terms.values()]
    edges = np.cumsum([0, *widths])
    replicates: dict[str, list[np.ndarray]] = {key: [] for key in metrics}
    if n_resamples > 0 and metrics:
        sums = _cluster_sums(np.concatenate(list(terms.values()), axis=1), draws)
        for chunk in _resampled_sums(sums, draws, n_resamples, seed):
            for (key, metric), lo, hi in zip(metrics.items(), edges[:-1], edges[1:], strict=True):
                replicates[key].append(metric.reduce(chunk[:, lo:hi]))
    method = outcomes.method(n_resamples, bool(draws.groups))
    out = {}
    for key, metric in metrics.items():
        value = float(metric.reduce(terms[key].sum(axis=0)))
        low, high = _percentile(
            np.concatenate(replicates[key]) if replicates[key] else np.array([]), confidence
        )
        cluster = outcomes.unit if outcomes.independent else outcomes.cluster_name
        out[key] = Estimate(_number(value), _number(low), _number(high), confidence, method, len(outcomes.units),
                            draws.n_clusters, outcomes.unit, cluster=cluster)  # fmt: skip
    return out


def jackknife_metrics(
    outcomes: Outcomes, metrics: Mapping[str, Metric], *, stratify: bool = True
) -> dict[str, Spread]:
    """Each metric's value and delete-one-cluster jackknife variance (:func:`mmjudge.stats.jackknife`), the
    clusters nested in strata handled as :func:`bootstrap_metrics` draws them.

    >>> o = Outcomes(("a", "b", "c", "d"), ("x", "x", "y", "z"), {"hit": np.array([1.0, 1, 0, 1]),
    ...              "one": np.ones(4)})
    >>> s = jackknife_metrics(o, {"acc": Ratio("hit", "one")})["acc"]
    >>> s.value, s.n_clusters, s.df, s.n_units
    (75.0, 3, 2, 4)

    A mean of the rates of several strata (a ``by_stratum`` :class:`Ratio` of 0/1 outcomes) has each
    stratum's variance raised to at least :func:`rates_floor`'s (Price and Bonett's pseudo-counts).
    """

    draws = _draws(outcomes, stratify)
    return {
        key: jackknife(
            metric.terms(outcomes),
            draws.codes,
            metric.reduce,
            draws.groups or None,
            counted=metric.counted(outcomes),
            floor=rates_floor(metric, outcomes),
        )
        for key, metric in metrics.items()
    }


def rates_floor(
    metric: Metric, outcomes: Outcomes, pseudo: float | None = None
) -> Callable[[np.ndarray], float] | None:
    """The least variance of a mean of the rates of ``H`` strata (a ``by_stratum`` :class:`Ratio` of 0/1
    outcomes; ``None`` for any other metric), as a function of the term sums of some of its units:
    ``(100 / H)^2 sum_h p~_h (1 - p~_h) / (n_h + 2 a)`` over the strata with a denominator, with
    ``p~_h = (x_h + a) / (n_h + 2 a)``: Price and Bonett's (2004) interval for a linear function of ``H``
    binomial rates adds ``a = 2 / H`` successes and as many failures to each (``pseudo`` sets another ``a``);
    at ``H = 2`` this is Agresti and Caffo's (2000) one success and one failure.

    Why: the spread of such a mean is mostly its smallest strata's, and a small stratum often shows none
    (5 pairs at 95% are all right 77% of the time): its jackknife variance is then 0, and IsoVRBench's
    ``average`` over interventions of 1,000 down to 5 pairs covered 90.5-91.1% (``benchmarks/_coverage_strata.py``).
    Where a stratum shows spread, its jackknife variance (``p (1 - p) / (n - 1)`` on independent units) is
    mostly the larger one and stands.

    >>> o = Outcomes(tuple("abcdefg"), tuple("abcdefg"), {"hit": np.array([1.0, 1, 1, 1, 1, 0, 1]),
    ...              "one": np.ones(7)}, ("x",) * 5 + ("y",) * 2)
    >>> r = Ratio("hit", "one", by_stratum=True)
    >>> round(rates_floor(r, o)(r.terms(o)[:5].sum(axis=0)), 2)  # 5 of 5 in x: 50^2 (6/7)(1/7) / 7
    43.73
    """
    if not (isinstance(metric, Ratio) and metric.by_stratum):
        return None
    num, den = outcomes.column(metric.num), outcomes.column(metric.den)
    if not (np.isin(num, (0.0, 1.0)).all() and np.isin(den, (0.0, 1.0)).all()):
        return None
    drawn = np.split(metric.terms(outcomes).sum(axis=0), 3)[0]
    strata = int(np.sum(drawn > 0))
    if strata == 0:
        return None
    scale = (100.0 / strata) ** 2
    added = 2.0 / strata if pseudo is None else float(pseudo)

    def floor(sums: np.ndarray) -> float:
        _, x, n = np.split(np.asarray(sums, dtype=np.float64), 3)
        keep = n > 0
        trials = n[keep] + 2.0 * added
        p = (x[keep] + added) / trials
        return scale * float(np.sum(p * (1.0 - p) / trials))

    return floor


def paired_metric_bootstrap(
    a: Outcomes, b: Outcomes, metric: Metric, *, n_resamples: int, seed: int, stratify: bool = True
) -> tuple[float, np.ndarray, int]:
    """``metric(a) - metric(b)`` on the full sample and on each resample of the same cluster draws.

    The two judges' outcomes must cover the same units (``b`` is reordered to ``a``'s units) in the same
    clusters. Returns ``(difference, replicate differences (NaN where undefined), clusters)``.
    """
    b = _paired(a, b)
    draws = _draws(a, stratify)
    ta, tb = metric.terms(a), metric.terms(b)
    estimate = float(metric.reduce(ta.sum(axis=0)) - metric.reduce(tb.sum(axis=0)))
    m = ta.shape[1]
    sums = _cluster_sums(np.concatenate([ta, tb], axis=1), draws)
    parts = [
        metric.reduce(c[:, :m]) - metric.reduce(c[:, m:])
        for c in _resampled_sums(sums, draws, n_resamples, seed)
    ]
    return estimate, np.concatenate(parts) if parts else np.array([]), draws.n_clusters


def _paired(a: Outcomes, b: Outcomes) -> Outcomes:
    """``b`` in ``a``'s unit order (``SchemaError`` unless the two put the same units in the same clusters)."""
    b = b.reordered(a.units)
    if tuple(b.clusters) != tuple(a.clusters):
        raise SchemaError("the two judges' outcomes put the same units in different clusters")
    return b


def _number(value: float) -> float | None:
    """A finite value, else ``None`` (an :class:`~mmjudge.estimates.Estimate` has no NaN ends)."""
    return value if math.isfinite(value) else None


def _percentile(values: np.ndarray, confidence: float) -> tuple[float, float]:
    values = values[~np.isnan(values)]
    if values.size == 0:
        return float("nan"), float("nan")
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(values, [alpha, 1.0 - alpha])
    return float(low), float(high)
