"""The alternative annotator test (alt-test) of Calderon, Reichart and Dror (ACL 2025).

The procedure follows the authors' released code (``alt_test_example.ipynb`` in
github.com/nitaytech/AltTest), vectorised with numpy over each annotator's items:

1. keep instances with at least ``min_humans_per_instance`` human labels and a judge label;
2. for each annotator ``j`` with at least ``min_instances_per_human`` kept instances, and each of
   ``j``'s instances: ``R`` = the other humans' labels, ``S_h = score(label_j, R)``,
   ``S_f = score(judge, R)``; ``W_f = [S_f >= S_h]``, ``W_h = [S_h >= S_f]`` (a tie counts for
   both); ``d = W_h - W_f``; ``p_j`` = one-sided one-sample t-test of ``mean(d) < epsilon``;
3. Benjamini–Yekutieli at ``q`` over the tested annotators; winning rate ``omega`` = share of
   rejected nulls; the judge passes iff ``omega >= 0.5``; advantage probability ``rho`` = mean
   over annotators of ``mean(W_f)``.

When all of an annotator's ``d`` are equal the t statistic is ``±inf`` (zero variance): the
reference's ``scipy.stats.ttest_1samp`` then gives ``p = 0`` if ``d < epsilon`` and ``p = 1``
if ``d > epsilon``; we keep that and also give ``p = 1`` when ``d == epsilon`` exactly (where
scipy returns NaN, which the reference's BY step never rejects either).

Scores are computed with the same floating-point expressions as the reference (``count / n``,
``-sqrt(sum / n)``, ``-(sum / n)``), so with integer codes the indicators are identical to the
reference's; with non-integer numeric labels and 8 or more other annotators per item, numpy may sum
in a different order than the reference's ``np.mean`` and a tie within one ulp could fall either way.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from mmjudge._checks import check_probability
from mmjudge.errors import SchemaError, summarize
from mmjudge.stats._tests import by_rejections

__all__ = ["SCORINGS", "AltTestResult", "alt_test"]

SCORINGS = ("accuracy", "neg_rmse", "neg_mae")
"""Built-in alignment scores: ``accuracy`` = mean(pred == r), ``neg_rmse`` = -sqrt(mean((pred - r)^2)),
``neg_mae`` = -mean(|pred - r|), each over the other humans' labels ``r``."""

NO_JUDGE_LABEL = "no_judge_label"
"""Reason an item was dropped: the judge gave no label for it."""
TOO_FEW_HUMANS = "too_few_humans"
"""Reason an item was dropped: fewer than ``min_humans_per_instance`` human labels."""

Scorer = Callable[[Any, list[Any]], float]


@dataclass(frozen=True)
class AltTestResult:
    """Outcome of the alt-test for one judge against one pool of human annotators."""

    winning_rate: float
    """Share of tested annotators whose null (``mean(d) >= epsilon``) is rejected after BY (omega)."""
    advantage_probability: float
    """Mean over tested annotators of the share of items where the judge scores at least as well (rho)."""
    passed: bool
    """``winning_rate >= 0.5``: the judge may replace the annotators at this ``epsilon``."""
    epsilon: float
    """Cost-benefit margin granted to the judge."""
    q: float
    """False discovery rate of the Benjamini–Yekutieli step."""
    scoring: str
    """Name of the alignment score (the callable's ``__name__`` for a custom one)."""
    p_values: dict[Hashable, float] = field(default_factory=dict)
    """Per tested annotator: one-sided t-test p-value of ``mean(d) < epsilon``."""
    rejected: dict[Hashable, bool] = field(default_factory=dict)
    """Per tested annotator: whether BY rejects the null (the judge wins against them)."""
    annotator_advantage: dict[Hashable, float] = field(default_factory=dict)
    """Per tested annotator: advantage probability ``mean(W_f)`` (rho_j)."""
    n_items: dict[Hashable, int] = field(default_factory=dict)
    """Per annotator (tested or not): instances kept after the item filter."""
    dropped_annotators: dict[Hashable, str] = field(default_factory=dict)
    """Annotators not tested, with the reason."""
    dropped_items: dict[Hashable, tuple[str, ...]] = field(default_factory=dict)
    """Items left out, with the reasons (:data:`NO_JUDGE_LABEL`, :data:`TOO_FEW_HUMANS`)."""

    @property
    def annotators(self) -> tuple[Hashable, ...]:
        """Tested annotators, in input order."""
        return tuple(self.p_values)

    def as_dict(self) -> dict[str, Any]:
        """Flat dict of numbers and strings (per-annotator values under ``<key>/<annotator>``).

        Rates are percentages (0-100), the unit of every mmjudge result: ``winning_rate``,
        ``advantage_probability`` and the per-annotator advantage probabilities (the attributes keep the
        reference implementation's shares). p-values stay probabilities.

        >>> res = AltTestResult(0.5, 0.9, True, 0.2, 0.05, "accuracy", {"h1": 0.01}, {"h1": True}, {"h1": 0.9}, {"h1": 40})
        >>> flat = res.as_dict()
        >>> flat["winning_rate"], flat["advantage_probability/h1"], flat["p_value/h1"], flat["n_annotators_tested"]
        (50.0, 90.0, 0.01, 1)
        """
        flat: dict[str, Any] = {
            "winning_rate": 100.0 * self.winning_rate,
            "advantage_probability": 100.0 * self.advantage_probability,
            "passed": self.passed,
            "epsilon": self.epsilon,
            "q": self.q,
            "scoring": self.scoring,
            "n_annotators_tested": len(self.p_values),
            "n_annotators_dropped": len(self.dropped_annotators),
            "n_items_dropped": len(self.dropped_items),
        }
        advantage = {annotator: 100.0 * value for annotator, value in self.annotator_advantage.items()}
        for key, values in (
            ("p_value", self.p_values),
            ("rejected", self.rejected),
            ("advantage_probability", advantage),
            ("n_items", self.n_items),
        ):
            flat.update({f"{key}/{annotator}": value for annotator, value in values.items()})
        return flat


Item = TypeVar("Item", bound=Hashable)
Annotator = TypeVar("Annotator", bound=Hashable)


def alt_test(
    judge: Mapping[Item, Any],
    humans: Mapping[Annotator, Mapping[Item, Any]],
    *,
    scoring: str | Scorer = "accuracy",
    epsilon: float = 0.2,
    q: float = 0.05,
    min_humans_per_instance: int = 2,
    min_instances_per_human: int = 30,
) -> AltTestResult:
    """Run the alt-test: can the judge replace the human annotators?

    Args:
        judge: ``{item_id: label}`` from the judge.
        humans: ``{annotator_id: {item_id: label}}`` (the layout of the authors' released files).
        scoring: ``"accuracy"`` (exact match, any hashable labels), ``"neg_rmse"`` or ``"neg_mae"``
            (numeric labels such as ordinal codes), or a callable ``score(pred, others) -> float``
            with ``others`` the list of the other humans' labels (higher is better).
        epsilon: cost-benefit margin (the authors suggest 0.2 for experts, 0.15 for skilled
            annotators, 0.1 for crowd workers).
        q: false discovery rate for Benjamini–Yekutieli.
        min_humans_per_instance: items with fewer human labels are dropped (at least 2).
        min_instances_per_human: annotators with fewer kept items are not tested (at least 2).

    Returns:
        An :class:`AltTestResult`.

    Raises:
        SchemaError: empty or malformed input, missing labels, non-numeric labels for a numeric
            score, or no annotator left to test.

    >>> humans = {"h1": {i: i % 2 for i in range(40)}, "h2": {i: i % 2 for i in range(40)},
    ...           "h3": {i: (i % 2 if i % 5 else 1 - i % 2) for i in range(40)}}
    >>> res = alt_test({i: i % 2 for i in range(40)}, humans)
    >>> res.winning_rate, round(res.advantage_probability, 3), res.passed
    (1.0, 1.0, True)
    """
    _check_params(epsilon, min_humans_per_instance, min_instances_per_human)
    q = check_probability("q", q)
    scorer, name = _resolve_scoring(scoring)
    table = _LabelTable.build(judge, humans, numeric=scorer is None and name != "accuracy")
    enough = table.mask.sum(axis=0) >= min_humans_per_instance
    keep = enough & table.has_judge
    dropped_items = {
        table.items[col]: _item_reasons(bool(table.has_judge[col]), bool(enough[col]))
        for col in np.flatnonzero(~keep).tolist()
    }
    p_values: dict[Hashable, float] = {}
    advantage: dict[Hashable, float] = {}
    n_items: dict[Hashable, int] = {}
    dropped: dict[Hashable, str] = {}
    for row, annotator in enumerate(table.annotators):
        cols = np.flatnonzero(table.mask[row] & keep)
        n_items[annotator] = int(cols.size)
        if cols.size < min_instances_per_human:
            dropped[annotator] = f"{cols.size} instances < min_instances_per_human={min_instances_per_human}"
            continue
        judge_wins, human_wins = _indicators(table, row, cols, name, scorer)
        p_values[annotator] = _one_sided_p(human_wins.astype(np.int64) - judge_wins, epsilon)
        advantage[annotator] = float(np.mean(judge_wins))
    if not p_values:
        raise SchemaError(
            f"no annotator has at least min_instances_per_human={min_instances_per_human} instances with "
            f">= {min_humans_per_instance} human labels and a judge label: counts {summarize(n_items.items())}"
        )
    rejected = by_rejections(np.array(list(p_values.values())), q)
    winning_rate = float(np.mean(rejected))
    return AltTestResult(
        winning_rate=winning_rate,
        advantage_probability=float(np.mean(list(advantage.values()))),
        passed=winning_rate >= 0.5,
        epsilon=float(epsilon),
        q=q,
        scoring=name,
        p_values=p_values,
        rejected=dict(zip(p_values, rejected.tolist(), strict=True)),
        annotator_advantage=advantage,
        n_items=n_items,
        dropped_annotators=dropped,
        dropped_items=dropped_items,
    )


@dataclass
class _LabelTable:
    """Labels as an ``(n_annotators, n_items)`` array with a mask, plus the judge's labels."""

    annotators: list[Hashable]
    items: list[Hashable]
    labels: np.ndarray
    mask: np.ndarray
    judge: np.ndarray
    has_judge: np.ndarray
    humans: Mapping[Any, Mapping[Any, Any]]  # the caller's mappings, keyed by any hashable ids
    judge_labels: Mapping[Any, Any]

    @classmethod
    def build(
        cls, judge: Mapping[Any, Any], humans: Mapping[Any, Mapping[Any, Any]], numeric: bool
    ) -> _LabelTable:
        _check_mappings(judge, humans)
        items: dict[Hashable, int] = {}
        columns = [[items.setdefault(item, len(items)) for item in per_item] for per_item in humans.values()]
        encode = _Encoder(numeric)
        labels = np.zeros((len(humans), len(items)), dtype=encode.dtype)
        mask = np.zeros((len(humans), len(items)), dtype=bool)
        for row, (annotator, per_item) in enumerate(humans.items()):
            labels[row, columns[row]] = encode(
                list(per_item.values()), f"humans[{annotator!r}]", list(per_item)
            )
            mask[row, columns[row]] = True
        has_judge = np.array([item in judge for item in items], dtype=bool)
        judged = [item for item in items if item in judge]
        judge_codes = np.zeros(len(items), dtype=encode.dtype)
        judge_codes[has_judge] = encode([judge[item] for item in judged], "judge", judged)
        return cls(list(humans), list(items), labels, mask, judge_codes, has_judge, humans, judge)


class _Encoder:
    """Turns labels into numbers: category codes for ``accuracy``, floats for numeric scores."""

    def __init__(self, numeric: bool) -> None:
        self.numeric = numeric
        self.dtype = np.float64 if numeric else np.int64
        self.codes: dict[Any, int] = {}

    def __call__(self, values: list[Any], where: str, keys: list[Hashable]) -> list[Any]:
        missing = [k for k, v in zip(keys, values, strict=True) if v is None or v != v]
        if missing:
            raise SchemaError(
                f"{where} has {len(missing)} missing labels (None or NaN) for items {summarize(missing)}: "
                "drop the label instead of leaving it empty"
            )
        if not self.numeric:
            codes = self.codes
            return [codes.setdefault(v, len(codes)) for v in values]
        bad = [v for v in values if not isinstance(v, numbers.Real) or isinstance(v, bool)]
        if bad:
            raise SchemaError(
                f"numeric scoring (neg_rmse, neg_mae) needs numeric labels such as ordinal codes; {where} has "
                f'{summarize(bad)}; map labels to codes first or use scoring="accuracy"'
            )
        return values


def _indicators(
    table: _LabelTable, row: int, cols: np.ndarray, name: str, scorer: Scorer | None
) -> tuple[np.ndarray, np.ndarray]:
    """``(W_f, W_h)`` for annotator ``row`` on items ``cols``."""
    others = table.mask[:, cols].copy()
    others[row] = False
    if scorer is not None:
        human_score, judge_score = _custom_scores(table, row, cols, others, scorer)
    else:
        labels = table.labels[:, cols]
        human_score = _builtin_score(name, labels[row], labels, others)
        judge_score = _builtin_score(name, table.judge[cols], labels, others)
    return judge_score >= human_score, human_score >= judge_score


def _builtin_score(name: str, pred: np.ndarray, labels: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The reference's scores, column by column, computed in the same floating-point order."""
    count = others.sum(axis=0)
    if name == "accuracy":
        return ((labels == pred) & others).sum(axis=0) / count
    if name == "neg_rmse":
        return -np.sqrt(np.where(others, (pred - labels) ** 2, 0.0).sum(axis=0) / count)
    return -(np.where(others, np.abs(pred - labels), 0.0).sum(axis=0) / count)


def _custom_scores(
    table: _LabelTable, row: int, cols: np.ndarray, others: np.ndarray, scorer: Scorer
) -> tuple[np.ndarray, np.ndarray]:
    human, judge = np.empty(cols.size), np.empty(cols.size)
    for k, col in enumerate(cols.tolist()):
        item = table.items[col]
        rest = [table.humans[table.annotators[r]][item] for r in np.flatnonzero(others[:, k]).tolist()]
        human[k] = _finite_score(scorer(table.humans[table.annotators[row]][item], rest), scorer)
        judge[k] = _finite_score(scorer(table.judge_labels[item], rest), scorer)
    return human, judge


def _one_sided_p(d: np.ndarray, epsilon: float) -> float:
    """p-value of ``scipy.stats.ttest_1samp(d, epsilon, alternative="less")``, zero variance handled."""
    if np.all(d == d[0]):
        return 0.0 if d[0] < epsilon else 1.0
    from scipy import special

    n = d.size
    mean = d.mean()
    var = np.mean((d - mean) ** 2) * (n / (n - 1.0))
    t = (mean - epsilon) / np.sqrt(var / n)
    return float(special.stdtr(n - 1, t))


def _item_reasons(has_judge: bool, enough_humans: bool) -> tuple[str, ...]:
    return tuple(
        r for r, bad in ((NO_JUDGE_LABEL, not has_judge), (TOO_FEW_HUMANS, not enough_humans)) if bad
    )


def _resolve_scoring(scoring: str | Scorer) -> tuple[Scorer | None, str]:
    if isinstance(scoring, str):
        if scoring not in SCORINGS:
            raise SchemaError(f"`scoring` must be one of {list(SCORINGS)} or a callable, got {scoring!r}")
        return None, scoring
    if callable(scoring):
        return scoring, getattr(scoring, "__name__", "custom")
    raise SchemaError(f"`scoring` must be one of {list(SCORINGS)} or a callable, got {scoring!r}")


def _check_params(epsilon: float, min_humans: int, min_instances: int) -> None:
    if not np.isfinite(epsilon):
        raise SchemaError(f"`epsilon` must be a finite number, got {epsilon!r}")
    for name, value in (("min_humans_per_instance", min_humans), ("min_instances_per_human", min_instances)):
        if isinstance(value, bool) or int(value) != value or value < 2:
            raise SchemaError(f"`{name}` must be an integer >= 2, got {value!r}")


def _check_mappings(judge: Any, humans: Any) -> None:
    if not isinstance(judge, Mapping) or not judge:
        raise SchemaError(f"`judge` must be a non-empty dict {{item_id: label}}, got {summarize([judge])}")
    if not isinstance(humans, Mapping) or not humans:
        raise SchemaError(
            f"`humans` must be a non-empty dict {{annotator_id: {{item_id: label}}}}, got {summarize([humans])}"
        )
    bad = [a for a, v in humans.items() if not isinstance(v, Mapping)]
    if bad:
        raise SchemaError(
            f"`humans` values must be dicts {{item_id: label}}; {len(bad)} are not: {summarize(bad)}"
        )


def _finite_score(value: Any, scorer: Scorer) -> float:
    score = float(value)
    if not np.isfinite(score):
        raise SchemaError(f"scoring function {scorer!r} returned a non-finite score {value!r}")
    return score
