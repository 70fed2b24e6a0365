"""The paired comparison of two judges on one key, and of several runs with a multiple-test correction.

:func:`compare_units` is the one place a difference is tested: it pairs two judges' outcomes of one key
(:class:`~mmjudge.stats.KeyOutcomes`: the scorer's own per-unit outcomes and metric, on the same units) and,
by the number ``G`` of independent clusters that carry the key:

- ``G >= RANDOMISATION_BELOW`` (100): draws the same clusters for both judges
  (:func:`mmjudge.stats.paired_metric_bootstrap`): percentile interval and bootstrap p-value;
- ``MIN_CLUSTERS <= G < RANDOMISATION_BELOW`` (5 to 99): a percentile bootstrap over fewer clusters rejects a
  true null more often than its level (14.3% at 5 prompts, 7.1% at 30, 6.7% at 50, 4.0% at 100:
  ``benchmarks/_coverage_compare.py``, ``docs/performance.md``), so the p-value is the paired sign-flip test's
  (:func:`mmjudge.stats.sign_flip_test`, exact where at most 16 clusters differ) and the interval the set of
  differences that same test does not reject (:func:`mmjudge.stats.sign_flip_interval`), so the interval holds
  0 exactly when ``p >= alpha`` (a jackknife t interval beside the test disagreed with it on up to 6% of
  replicates); a test that cannot reach ``p < alpha`` at this size (``2 / 2^G >= alpha``: 5 clusters at 0.05)
  never marks a difference significant and gives no interval, and the note says so; below ``FEW_CLUSTERS``
  (30) the note marks it thin;
- ``G < MIN_CLUSTERS``: no interval and no p-value, and the note says why.

Where the key is a rate of per-unit correct/wrong outcomes counted on the same units for both judges, it also
runs McNemar's exact test (statsmodels). ``mmjudge compare`` and the leaderboard's significance column both
call it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from mmjudge._deps import require
from mmjudge.errors import SchemaError, summarize
from mmjudge.estimates import (
    DIFFERENCE_RANGE,
    FEW_CLUSTERS,
    MIN_CLUSTERS,
    RANDOMISATION_BELOW,
    no_test_reaches,
    thin_note,
)
from mmjudge.stats import (
    EXACT_MAX_CLUSTERS,
    KeyOutcomes,
    Outcomes,
    SignFlipResult,
    Spread,
    mcnemar_exact,
    paired_jackknife,
    paired_metric_bootstrap,
    sign_flip_interval,
    sign_flip_test,
    two_sided_p,
)

__all__ = [
    "CORRECTION", "FEW_CLUSTERS", "RANDOMISATION_BELOW", "KeyComparison", "McNemar", "adjust", "compare_units",
    "inversion_method",
]  # fmt: skip

CORRECTION = "holm"
"""Multiple-test correction over a comparison's tests (statsmodels ``multipletests`` method name)."""

TOLERANCE = 1e-9
"""Largest relative gap allowed between the pairing's statistic at weights 1 and the scorer's value
(the two sum the same counts in a different order, which moves the last bits only)."""


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
    """Lower end of the interval of the difference (:attr:`method` says which: the paired cluster-bootstrap
    percentile interval, or below :data:`RANDOMISATION_BELOW` clusters the differences the sign-flip test does
    not reject; NaN when none)."""
    ci_high: float
    """Upper end of that interval."""
    p_value: float
    """Two-sided p-value of "no difference" (the bootstrap's, or the sign-flip test's below
    :data:`RANDOMISATION_BELOW` clusters; NaN when none)."""
    n_units: int
    """Units paired."""
    n_clusters: int
    """Independent clusters carrying the key (those whose units count in it for either judge)."""
    n_valid: int
    """Bootstrap resamples, or sign flips (enumerated or drawn), on which the difference is defined."""
    higher_is_better: bool
    """The key's direction (from the benchmark's result keys)."""
    mcnemar: McNemar | None = None
    """McNemar's exact test, for keys that are rates of per-unit correct/wrong outcomes."""
    p_adjusted: float = math.nan
    """``p_value`` after the correction over the comparison's bootstrap tests."""
    note: str = ""
    """Why a number is missing, or a caveat (:func:`mmjudge.estimates.thin_note` below :data:`FEW_CLUSTERS`
    clusters; that no test at this size can reach ``p < alpha``)."""
    method: str = ""
    """How the interval and the p-value were made, e.g. ``sign-flip test over 12 prompts (exact, 4096 flips);
    interval by inverting the sign-flip test (...)`` (``none`` when neither was made)."""
    p_floor: float = 0.0
    """The smallest p-value the test can give at this size (``2 / 2^G`` for the exact sign-flip test over ``G``
    clusters, ``2 / (B + 1)`` for ``B`` bootstrap resamples; NaN without a test, 0 when not recorded)."""

    def significant(self, alpha: float) -> bool:
        """Whether the corrected p-value is below ``alpha``, by a test that can reach below ``alpha`` at all.

        >>> c = KeyComparison("k", "a", "b", 100.0, 0.0, 100.0, 60.0, 140.0, 0.0625, 50, 5, 32, True,
        ...                   p_adjusted=0.0625, p_floor=0.0625)
        >>> c.significant(0.05), c.significant(0.1)
        (False, True)
        """
        return bool(self.p_adjusted < alpha and self.p_floor < alpha)


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
    """Compare two judges on the same units of one key (the method depends on the clusters: module docstring).

    Args:
        a, b: each judge's outcomes of the key (the same units, clusters and strata, the same metric).
        labels: names of the two judges.
        values: the scorer's values of the key (default: the metric on the outcomes); the difference is
            ``values[0] - values[1]``, and each must match the metric on its outcomes (:data:`TOLERANCE`).
        higher_is_better: the key's direction.
        n_resamples: bootstrap resamples, or sign flips drawn when the sign-flip test is not exact.
        confidence: the interval's coverage; the note says when no test at this size can reach
            ``p < 1 - confidence``.
        seed: seed of the resamples or the drawn flips.

    Raises:
        SchemaError: the units, clusters or metrics differ, or a value does not match its outcomes.

    >>> import numpy as np
    >>> from mmjudge.stats import Outcomes, Ratio
    >>> u = lambda hits: KeyOutcomes("acc", Outcomes(("x", "y", "z"), ("x", "y", "z"),
    ...                              {"hit": np.array(hits), "one": np.ones(3)}), Ratio("hit", "one"))
    >>> r = compare_units(u([1.0, 1.0, 1.0]), u([0.0, 1.0, 1.0]), n_resamples=200)
    >>> round(r.difference, 2), r.mcnemar.only_a, r.mcnemar.p_value
    (33.33, 1, 1.0)
    >>> r.note
    'no interval: 3 units (at least 5 needed); no p-value: no test at this size can reach p < 0.05'
    """

    b = _aligned(a, b)
    value_a, value_b = values if values is not None else (a.value(), b.value())
    _check_value(a, value_a)
    _check_value(b, value_b)
    base: dict[str, Any] = {"key": a.key, "a": labels[0], "b": labels[1], "value_a": value_a, "value_b": value_b,
                            "difference": value_a - value_b, "n_units": len(a.outcomes.units),
                            "higher_is_better": higher_is_better, "mcnemar": _mcnemar(a, b)}  # fmt: skip
    spread = paired_jackknife(a.outcomes, b.outcomes, a.metric) if a.outcomes.units else None
    n_clusters = spread.n_clusters if spread is not None else 0
    if spread is None or n_clusters < MIN_CLUSTERS or math.isnan(value_a) or math.isnan(value_b):
        note = _why_none(a.outcomes, n_clusters, value_a, value_b, 1.0 - confidence)
        return KeyComparison(**base, ci_low=math.nan, ci_high=math.nan, p_value=math.nan, n_clusters=n_clusters,
                             n_valid=0, note=note, method="none", p_floor=math.nan)  # fmt: skip
    if n_clusters < RANDOMISATION_BELOW:
        return _few_clusters(a, b, base, spread, n_resamples=n_resamples, confidence=confidence, seed=seed)
    return _bootstrap(a, b, base, n_clusters, n_resamples=n_resamples, confidence=confidence, seed=seed)


def _bootstrap(
    a: KeyOutcomes, b: KeyOutcomes, base: dict[str, Any], n_clusters: int, *, n_resamples: int,
    confidence: float, seed: int,
) -> KeyComparison:  # fmt: skip
    """The paired cluster bootstrap: percentile interval and bootstrap p-value (at 100 clusters or more)."""

    _, replicates, _ = paired_metric_bootstrap(
        a.outcomes, b.outcomes, a.metric, n_resamples=n_resamples, seed=seed
    )
    valid = replicates[~np.isnan(replicates)]
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(valid, [alpha, 1.0 - alpha]) if valid.size else (math.nan, math.nan)
    over = _count(n_clusters, a.outcomes)
    method = f"paired percentile bootstrap over {over}, {n_resamples} resamples (interval and p)"
    floor = min(1.0, 2.0 / (valid.size + 1)) if valid.size else math.nan  # two_sided_p's smallest value
    return KeyComparison(**base, ci_low=float(low), ci_high=float(high), p_value=two_sided_p(valid),
                         n_clusters=n_clusters, n_valid=int(valid.size), method=method, p_floor=floor)  # fmt: skip


def _few_clusters(
    a: KeyOutcomes, b: KeyOutcomes, base: dict[str, Any], spread: Spread, *, n_resamples: int, confidence: float,
    seed: int,
) -> KeyComparison:  # fmt: skip
    """The sign-flip test's p-value and the interval made by inverting the same test (5 to 99 clusters): the
    interval holds 0 exactly when the test does not reject at ``1 - confidence``."""

    flip = sign_flip_test(a.outcomes, b.outcomes, a.metric, n_flips=n_resamples, seed=seed)
    notes = [n for n in [thin_note(spread.n_clusters, _cluster_word(a.outcomes))] if n]
    alpha = 1.0 - confidence
    low = high = math.nan
    if not flip.p_floor < alpha:
        notes.append(f"no test at this size can reach p < {alpha:g}, so no interval from it")
        how = "no interval"
    else:
        low, high = sign_flip_interval(a.outcomes, b.outcomes, a.metric, confidence=confidence,
                                       rejects_zero=bool(flip.p_value < alpha), bounds=DIFFERENCE_RANGE,
                                       n_flips=n_resamples, seed=seed)  # fmt: skip
        how = inversion_method(spread.n_clusters, _cluster_word(a.outcomes), n_resamples)
        if math.isnan(low):
            notes.append("no interval: the difference is undefined")
    method = f"{_flip_method(flip, a.outcomes)}; {how}"
    return KeyComparison(**base, ci_low=low, ci_high=high, p_value=flip.p_value, n_clusters=spread.n_clusters,
                         n_valid=flip.n_flips - flip.n_undefined, note="; ".join(notes), method=method,
                         p_floor=flip.p_floor)  # fmt: skip


def inversion_method(n_clusters: int, cluster: str, n_flips: int) -> str:
    """The recorded name of the interval made by inverting the sign-flip test.

    >>> inversion_method(12, "prompt", 10_000)
    'interval by inverting the sign-flip test (the shifts it does not reject; every flip of 12 prompts)'
    >>> inversion_method(40, "prompt", 10_000)
    'interval by inverting the sign-flip test (the shifts it does not reject; 10000 drawn flips of 40 prompts)'
    """

    over = f"{n_clusters} {cluster}{'' if n_clusters == 1 else 's'}"
    flips = f"every flip of {over}" if n_clusters <= EXACT_MAX_CLUSTERS else f"{n_flips} drawn flips of {over}"
    return f"interval by inverting the sign-flip test (the shifts it does not reject; {flips})"


def _why_none(outcomes: Outcomes, n_clusters: int, value_a: float, value_b: float, alpha: float) -> str:
    """The note of a comparison without interval or p-value."""
    if not outcomes.units:
        return "no unit to pair"
    if n_clusters == 1:
        return "one cluster: nothing to resample"
    if math.isnan(value_a) or math.isnan(value_b) or n_clusters == 0:
        return "the key is undefined for a judge"
    reach = f": no test at this size can reach p < {alpha:g}" if no_test_reaches(n_clusters, alpha) else ""
    return f"{thin_note(n_clusters, _cluster_word(outcomes))}; no p-value{reach}"


def _cluster_word(outcomes: Outcomes) -> str:
    """What a cluster is (the unit when every unit is its own cluster)."""
    return outcomes.unit if outcomes.independent else outcomes.cluster_name


def _count(n: int, outcomes: Outcomes) -> str:
    """``12 prompts``."""
    return f"{n} {_cluster_word(outcomes)}{'' if n == 1 else 's'}"


def _flip_method(flip: SignFlipResult, outcomes: Outcomes) -> str:
    """``sign-flip test over 12 prompts (exact, 4096 flips)`` and its variants."""
    over = f"sign-flip test over {_count(flip.n_clusters, outcomes)}"
    if not flip.exact:
        return f"{over} (Monte Carlo, {flip.n_flips} flips)"
    if flip.n_differing == flip.n_clusters:
        return f"{over} (exact, {flip.n_flips} flips)"
    differ = _count(flip.n_differing, outcomes)
    return f"{over} (exact, {flip.n_flips} flips of the {differ} where the judges differ)"


def adjust(comparisons: Sequence[KeyComparison]) -> list[KeyComparison]:
    """Holm-correct the p-values over all comparisons (bootstrap and sign-flip p-values alike: each is a valid
    p-value of its own comparison, which is all Holm needs), and the McNemar p-values over theirs.

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
