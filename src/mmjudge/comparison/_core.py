"""The paired comparison of two judges on one key, and of several runs with a multiple-test correction.

:func:`compare_units` is the one place a difference is tested: it pairs two judges' outcomes of one key
(:class:`~mmjudge.stats.KeyOutcomes`: the scorer's own per-unit outcomes and metric, on the same units),
draws the same clusters for both (:func:`mmjudge.stats.paired_metric_bootstrap`) and, where the key is a
rate of per-unit correct/wrong outcomes counted on the same units for both judges, runs McNemar's exact
test (statsmodels). ``mmjudge compare`` and the
leaderboard's significance column both call it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from mmjudge._deps import require
from mmjudge.errors import SchemaError, summarize
from mmjudge.stats import KeyOutcomes

__all__ = ["CORRECTION", "FEW_CLUSTERS", "KeyComparison", "McNemar", "adjust", "compare_units"]

CORRECTION = "holm"
"""Multiple-test correction over a comparison's tests (statsmodels ``multipletests`` method name)."""

TOLERANCE = 1e-9
"""Largest relative gap allowed between the pairing's statistic at weights 1 and the scorer's value
(the two sum the same counts in a different order, which moves the last bits only)."""


FEW_CLUSTERS = 30
"""Below this many clusters a comparison carries a note that its bootstrap interval and p are optimistic."""


@dataclass(frozen=True)
class McNemar:
    """Exact McNemar test on the units both judges are scored on."""

    both: int
    """Units both judges count as hits (correct)."""
    only_a: int
    """Units only judge A counts as hits."""
    only_b: int
    """Units only judge B counts as hits."""
    neither: int
    """Units neither judge counts as hits."""
    p_value: float
    """Exact two-sided p-value."""
    p_adjusted: float = math.nan
    """``p_value`` after the comparison's correction (:data:`CORRECTION`) over its McNemar tests."""


@dataclass(frozen=True)
class KeyComparison:
    """Judge A minus judge B on one result key, with a paired interval and tests."""

    key: str
    """Result key."""
    a: str
    """Label of run A."""
    b: str
    """Label of run B."""
    value_a: float
    """A's value (the scorer's, as in its results.json)."""
    value_b: float
    """B's value."""
    difference: float
    """``value_a - value_b`` (NaN when either is undefined)."""
    ci_low: float
    """Lower end of the paired cluster-bootstrap percentile interval of the difference."""
    ci_high: float
    """Upper end of that interval."""
    p_value: float
    """Two-sided bootstrap p-value of "no difference"."""
    n_units: int
    """Units paired."""
    n_clusters: int
    """Clusters resampled."""
    n_valid: int
    """Resamples on which both statistics are defined."""
    higher_is_better: bool
    """The key's direction (from the benchmark's result keys)."""
    mcnemar: McNemar | None = None
    """McNemar's exact test, for keys that are rates of per-unit correct/wrong outcomes."""
    p_adjusted: float = math.nan
    """``p_value`` after the correction over the comparison's bootstrap tests."""
    note: str = ""
    """Why a number is missing, or a caveat (few clusters)."""

    def significant(self, alpha: float) -> bool:
        """Whether the corrected bootstrap p-value is below ``alpha``."""
        return bool(self.p_adjusted < alpha)


def compare_units(
    a: KeyOutcomes,
    b: KeyOutcomes,
    *,
    labels: tuple[str, str] = ("A", "B"),
    values: tuple[float, float] | None = None,
    higher_is_better: bool = True,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> KeyComparison:
    """Compare two judges on the same units of one key.

    Args:
        a, b: each judge's outcomes of the key (the same units, clusters and strata, the same metric).
        labels: names of the two judges.
        values: the scorer's values of the key (default: the metric on the outcomes); the difference is
            ``values[0] - values[1]``, and each must match the metric on its outcomes (:data:`TOLERANCE`).
        higher_is_better: the key's direction.
        n_resamples, confidence, seed: the paired cluster bootstrap.

    Raises:
        SchemaError: the units, clusters or metrics differ, or a value does not match its outcomes.

    >>> import numpy as np
    >>> from mmjudge.stats import Outcomes, Ratio
    >>> u = lambda hits: KeyOutcomes("acc", Outcomes(("x", "y", "z"), ("x", "y", "z"),
    ...                              {"hit": np.array(hits), "one": np.ones(3)}), Ratio("hit", "one"))
    >>> r = compare_units(u([1.0, 1.0, 1.0]), u([0.0, 1.0, 1.0]), n_resamples=200)
    >>> round(r.difference, 2), r.mcnemar.only_a, r.mcnemar.p_value
    (33.33, 1, 1.0)
    """
    from mmjudge.stats import paired_metric_bootstrap, two_sided_p

    b = _aligned(a, b)
    value_a, value_b = values if values is not None else (a.value(), b.value())
    _check_value(a, value_a)
    _check_value(b, value_b)
    base: dict[str, Any] = {"key": a.key, "a": labels[0], "b": labels[1], "value_a": value_a, "value_b": value_b,
                            "n_units": len(a.outcomes.units), "higher_is_better": higher_is_better}  # fmt: skip
    n_clusters, mcnemar = a.outcomes.n_clusters, _mcnemar(a, b)
    if n_clusters < 2 or math.isnan(value_a) or math.isnan(value_b):
        # one cluster: every resample is the full sample, so the bootstrap says nothing about chance
        note = {0: "no unit to pair", 1: "one cluster: nothing to resample"}.get(n_clusters, "")
        note = note or "the key is undefined for a judge"
        return KeyComparison(**base, difference=value_a - value_b, ci_low=math.nan, ci_high=math.nan, p_value=math.nan,
                             n_clusters=n_clusters, n_valid=0, mcnemar=mcnemar, note=note)  # fmt: skip
    _, replicates, _ = paired_metric_bootstrap(
        a.outcomes, b.outcomes, a.metric, n_resamples=n_resamples, seed=seed
    )
    valid = replicates[~np.isnan(replicates)]
    alpha = (1.0 - confidence) / 2.0
    low, high = (np.quantile(valid, [alpha, 1.0 - alpha]) if valid.size else (math.nan, math.nan))
    return KeyComparison(
        **base, difference=value_a - value_b, ci_low=float(low), ci_high=float(high), p_value=two_sided_p(valid),
        n_clusters=n_clusters, n_valid=int(valid.size), mcnemar=mcnemar, note=_few(n_clusters),
    )  # fmt: skip


def _few(n_clusters: int) -> str:
    """A warning for few clusters: the percentile bootstrap under-covers there (its p-values are too small)."""
    if n_clusters >= FEW_CLUSTERS:
        return ""
    return f"only {n_clusters} clusters: bootstrap interval and p are optimistic below {FEW_CLUSTERS}"


def adjust(comparisons: Sequence[KeyComparison]) -> list[KeyComparison]:
    """Holm-correct the bootstrap p-values over all comparisons, and the McNemar p-values over theirs.

    Undefined (NaN) p-values stay NaN and do not count in the family.
    """
    boot = _holm([c.p_value for c in comparisons])
    exact = _holm([c.mcnemar.p_value if c.mcnemar else math.nan for c in comparisons])
    out = []
    for c, p_boot, p_exact in zip(comparisons, boot, exact, strict=True):
        mcnemar = replace(c.mcnemar, p_adjusted=p_exact) if c.mcnemar else None
        out.append(replace(c, p_adjusted=p_boot, mcnemar=mcnemar))
    return out


def _mcnemar(a: KeyOutcomes, b: KeyOutcomes) -> McNemar | None:
    """McNemar's exact test when the key is a rate of per-unit correct/wrong outcomes counted on the same
    units for both judges (not, e.g., a rate over the pairs each judge decided)."""
    from mmjudge.stats import mcnemar_exact

    first, second = a.binary(), b.binary()
    if first is None or second is None or not np.array_equal(np.isnan(first), np.isnan(second)):
        return None
    if np.isnan(first).all():
        return None
    m = mcnemar_exact(first.tolist(), second.tolist())
    return McNemar(m.both, m.only_a, m.only_b, m.neither, m.p_value)


def _holm(p_values: Sequence[float]) -> list[float]:
    multipletests = require(
        "statsmodels.stats.multitest", "metrics", purpose="the Holm correction"
    ).multipletests
    values = np.asarray(p_values, dtype=np.float64)
    out = np.full(values.shape, np.nan)
    defined = ~np.isnan(values)
    if defined.any():
        out[defined] = multipletests(values[defined], method=CORRECTION)[1]
    return [float(v) for v in out]


def _aligned(a: KeyOutcomes, b: KeyOutcomes) -> KeyOutcomes:
    if a.key != b.key or a.metric.to_json() != b.metric.to_json():
        raise SchemaError(f"cannot pair {a.key!r} with {b.key!r}: their metrics differ")
    units_a, units_b = a.outcomes.units, b.outcomes.units
    if set(units_a) != set(units_b) or len(units_a) != len(units_b):
        extra, missing = sorted(set(units_b) - set(units_a)), sorted(set(units_a) - set(units_b))
        raise SchemaError(
            f"{a.key}: the two judges are scored on different units ({len(extra)} only in B, e.g. "
            f"{summarize(extra, 3)}; {len(missing)} only in A, e.g. {summarize(missing, 3)}); pairing needs the same units"
        )
    outcomes = b.outcomes.reordered(units_a)
    if outcomes.clusters != a.outcomes.clusters or outcomes.strata != a.outcomes.strata:
        raise SchemaError(
            f"{a.key}: the judges' units fall into different clusters or strata; expected the same reference rows"
        )
    return KeyOutcomes(b.key, outcomes, b.metric)


def _check_value(data: KeyOutcomes, value: float) -> None:
    own = data.value()
    if math.isnan(own) and math.isnan(value):
        return
    if math.isnan(own) or math.isnan(value) or abs(own - value) > TOLERANCE * max(1.0, abs(value)):
        raise SchemaError(
            f"{data.key}: the scorer gives {value!r} but its outcomes give {own!r}; the benchmark's outcome "
            "metric does not reproduce this key (report it as a bug)"
        )
