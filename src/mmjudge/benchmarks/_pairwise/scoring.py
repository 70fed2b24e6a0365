"""The scoring core every pairwise video preference benchmark shares: human labels, score differences, outcomes.

A unit is one (pair, aspect): a prompt, two clips A and B, a human preference on one aspect (A, B or a tie), and
the judge's score of each clip at the head that aspect reads. Its human label is ``h`` (+1 prefers A, -1 prefers
B, 0 a tie) and the judge's difference ``m = score_a - score_b`` (NaN: no judgment). The per-unit outcome columns
(:func:`base_columns`, :func:`tie_columns`) are what each benchmark's official rules and mmjudge's own rules reduce:

* ``win``: the judge strictly agrees with a decided human label, ``h * m > 0`` (a zero difference is wrong, as
  VideoAlign's ``calc_accuracy_without_ties`` and VideoScore2's ``judge_equal_for_diverse`` count it);
* ``decided``: the human label is not a tie; ``judged``: the judge gave both scores;
* ``tie_right``: the judge is right once differences inside a tie threshold read as ties (``|m| <= t``, or
  ``|m| < t`` under VideoScore v1's strict rule), so a tie is right on a tied human label only.

Accuracies are ratios of those columns per aspect (``Ratio`` over the aspect's stratum): *official* ratios put only
judged units in the denominator (the official scripts drop a pair whose video has no score), mmjudge's own count a
unit without a judgment as wrong.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from mmjudge._checks import check_labels, check_nonempty, check_same_length, check_unique
from mmjudge.benchmarks._base import ResultKey
from mmjudge.benchmarks._intervals import Scores, outcome_keys
from mmjudge.errors import SchemaError
from mmjudge.estimates import with_its_interval
from mmjudge.stats import Metric, Outcomes, Ratio

__all__ = [
    "Aspect",
    "PairTable",
    "assemble",
    "base_columns",
    "pair_table",
    "rate_keys",
    "ratio",
    "tie_columns",
]


@dataclass(frozen=True)
class Aspect:
    """One preference aspect of a benchmark: the release's label column and the judge head it is scored with."""

    name: str
    """The aspect as the release names it (``"Overall"``, ``"Coherence & Consistency"``)."""
    slug: str
    """Its result-key segment (``"Overall"``, ``"coherence_consistency"``)."""
    head: str
    """The judge head a clip is scored at for this aspect (``"overall"``, ``"VQ"``; a single-score judge's one score
    stands for every head)."""


class PairTable(NamedTuple):
    """Checked inputs of one scoring, one entry per unit (pair x aspect)."""

    human: np.ndarray
    """``h``: +1 (A preferred), -1 (B preferred), 0 (a tie)."""
    diff: np.ndarray
    """``m = score_a - score_b``; NaN where the judge gave no judgment."""
    units: tuple[str, ...]
    """Unit ids: the pair id, ``<pair_id>/<aspect>`` when there are several aspects."""
    clusters: tuple[str, ...]
    """The cluster of each unit (its prompt; the pair without one)."""
    strata: tuple[str, ...]
    """The aspect slug of each unit."""
    labels: tuple[str, ...]
    """The human label of each unit as given."""


def pair_table(
    preference: Sequence[str],
    score_a: Sequence[float | None] | np.ndarray,
    score_b: Sequence[float | None] | np.ndarray,
    *,
    labels: Mapping[str, int],
    aspects: Sequence[Aspect],
    aspect: Sequence[str] | None = None,
    no_judgment: Sequence[bool] | None = None,
    pair_id: Sequence[Any] | None = None,
    cluster: Sequence[Any] | None = None,
) -> PairTable:
    """Check the long-format inputs (one entry per pair and aspect) and turn them into ``h`` and ``m``.

    Args:
        preference: the human label per unit, one of ``labels``.
        score_a, score_b: the judge's score of clip A and clip B at the aspect's head (``None``/NaN only where
            ``no_judgment``).
        labels: label -> +1 (A), -1 (B), 0 (tie).
        aspects: the benchmark's aspects; ``aspect`` names one per unit by its release name (default: the first).
        no_judgment: flags of units the judge did not score.
        pair_id: pair ids (default: positions); ``(pair_id, aspect)`` must be unique.
        cluster: each unit's cluster (its prompt); default: the pair.

    >>> t = pair_table(["A", "same"], [2.0, None], [1.0, None], labels={"A": 1, "B": -1, "same": 0},
    ...                aspects=[Aspect("Overall", "Overall", "overall")], no_judgment=[False, True])
    >>> t.human.tolist(), t.diff.tolist()[0], math.isnan(t.diff[1])
    ([1, 0], 1.0, True)
    """
    n = check_same_length(preference=preference, score_a=score_a, score_b=score_b)
    check_nonempty("preference", preference)
    check_labels("preference", preference, tuple(labels))
    names = {a.name: a.slug for a in aspects}
    if aspect is not None:
        check_same_length(preference=preference, aspect=aspect)
        check_labels("aspect", aspect, tuple(names))
    strata = tuple(names[a] for a in aspect) if aspect is not None else (aspects[0].slug,) * n
    missing = np.zeros(n, dtype=bool) if no_judgment is None else _flags(no_judgment, n)
    diff = np.full(n, np.nan)
    for k in map(int, np.flatnonzero(~missing)):
        a, b = _finite("score_a", score_a[k], k), _finite("score_b", score_b[k], k)
        diff[k] = a - b
    pairs = [str(p) for p in pair_id] if pair_id is not None else [str(k) for k in range(n)]
    if pair_id is not None:
        check_same_length(preference=preference, pair_id=pair_id)
    units = tuple(f"{p}/{s}" for p, s in zip(pairs, strata, strict=True)) if len(aspects) > 1 else tuple(pairs)
    check_unique("(pair_id, aspect)" if len(aspects) > 1 else "pair_id", units)
    if cluster is not None:
        check_same_length(preference=preference, cluster=cluster)
    clusters = tuple(str(c) for c in cluster) if cluster is not None else tuple(pairs)
    human = np.fromiter((labels[p] for p in preference), dtype=np.int64, count=n)
    return PairTable(human, diff, units, clusters, strata, tuple(str(p) for p in preference))


def base_columns(table: PairTable) -> dict[str, np.ndarray]:
    """``one``, ``judged``, ``decided`` (human label not a tie), ``decided_judged`` and ``win`` (``h * m > 0``).

    >>> t = PairTable(np.array([1, -1, 1, 0]), np.array([0.5, 0.0, np.nan, 1.0]), ("a", "b", "c", "d"),
    ...               ("a", "b", "c", "d"), ("x",) * 4, ("A", "B", "A", "tie"))
    >>> {k: v.tolist() for k, v in base_columns(t).items() if k in ("win", "decided_judged")}
    {'decided_judged': [1.0, 1.0, 0.0, 0.0], 'win': [1.0, 0.0, 0.0, 0.0]}
    """
    judged = ~np.isnan(table.diff)
    decided = table.human != 0
    with np.errstate(invalid="ignore"):
        win = judged & decided & (table.human * np.nan_to_num(table.diff) > 0)
    return {
        "one": np.ones(len(table.units)),
        "judged": judged.astype(np.float64),
        "decided": decided.astype(np.float64),
        "decided_judged": (decided & judged).astype(np.float64),
        "win": win.astype(np.float64),
    }


def tie_columns(table: PairTable, threshold: float | np.ndarray, *, strict: bool = False, name: str = "tie_right") -> dict[str, np.ndarray]:
    """``{name}``: right once ``|m| <= threshold`` (``< threshold`` when ``strict``) reads as a tie; ``{name}_tie``:
    the judge's tie. ``threshold`` is one number or one per unit (a cross-fitted one); no judgment is never right.

    >>> t = PairTable(np.array([1, 0, 0, -1]), np.array([0.4, 0.5, 0.6, -0.7]), tuple("abcd"), tuple("abcd"),
    ...               ("x",) * 4, ("A", "tie", "tie", "B"))
    >>> tie_columns(t, 0.5)["tie_right"].tolist(), tie_columns(t, 0.5, strict=True)["tie_right"].tolist()
    ([0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0])
    """
    judged = ~np.isnan(table.diff)
    size = np.abs(np.nan_to_num(table.diff))
    limit = np.broadcast_to(np.asarray(threshold, dtype=np.float64), size.shape)
    tie = judged & ((size < limit) if strict else (size <= limit))
    predicted = np.where(tie, 0, np.sign(np.nan_to_num(table.diff))).astype(np.int64)
    right = judged & (predicted == table.human)
    return {name: right.astype(np.float64), f"{name}_tie": tie.astype(np.float64)}


def ratio(num: str, den: str, slug: str) -> Ratio:
    """The per-aspect rate ``100 * sum(num) / sum(den)`` over the units of aspect ``slug``."""
    return Ratio(num, den, strata=(slug,))


def outcomes_of(table: PairTable, columns: Mapping[str, np.ndarray]) -> Outcomes:
    """The per-unit outcomes: unit = (pair, aspect), cluster = prompt, stratum = aspect."""
    return Outcomes(table.units, table.clusters, dict(columns), table.strata, unit="pair", cluster_name="prompt")


def assemble(
    outcomes: Outcomes,
    metrics: Mapping[str, Metric],
    *,
    order: Iterable[str],
    counts: Mapping[str, Any],
    confidence: float,
) -> Scores:
    """Values and intervals of ``metrics`` (every key a rate of 0/1 outcomes), in ``order``, then ``counts``."""
    result, intervals = outcome_keys(
        outcomes, metrics, proportions=set(metrics), n_resamples=0, confidence=confidence, seed=0
    )
    ordered: dict[str, Any] = {}
    for key in order:
        if key in metrics and not math.isnan(result[key]):
            ordered.update(with_its_interval(result, key))
    ordered.update(counts)
    return Scores(ordered, {k: v for k, v in intervals.items() if k in ordered})


def rate_keys(name: str, text: str, *, higher: bool = True) -> tuple[ResultKey, ...]:
    """A rate key (0-100) and its two CI keys.

    >>> [k.name for k in rate_keys("accuracy/<aspect>", "accuracy")]
    ['accuracy/<aspect>', 'accuracy/<aspect>_ci_low', 'accuracy/<aspect>_ci_high']
    """
    how = (
        "Wilson score interval over independent pairs, else on the effective sample size of the jackknife over "
        "prompts; none under 5 clusters"
    )
    return (
        ResultKey(name, higher, f"{text} (0-100)"),
        *ResultKey.interval_ends(name, higher, f" (0-100): {how}"),
    )


def _flags(values: Sequence[bool], n: int) -> np.ndarray:
    if len(values) != n:
        raise SchemaError(f"`no_judgment`: expected {n} flags, got {len(values)}")
    check_labels("no_judgment", values, {True, False})
    return np.asarray(values, dtype=bool)


def _finite(name: str, value: Any, k: int) -> float:
    if value is None or isinstance(value, bool):
        raise SchemaError(f"`{name}` at position {k}: expected a finite number (or no_judgment=True), got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise SchemaError(f"`{name}` at position {k}: expected a finite number, got {value!r}") from None
    if not math.isfinite(number):
        raise SchemaError(
            f"`{name}` at position {k}: expected a finite number, got {value!r}; mark a pair the judge did not "
            "score with no_judgment=True"
        )
    return number
