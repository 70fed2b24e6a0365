"""EmoPrefer-Data scoring: which of two emotion descriptions of a video is better (a1, a2 or same).

The rules follow the paper's official code as REFERENCE.md states them:

* :func:`parse_response` lowercases a response; if it starts with ``a1``, ``a2`` or ``same`` that is the
  label, else the label whose substring occurs earliest, else ``same``.
* 3-class: weighted F1 (WAF, scikit-learn ``f1_score(average="weighted")``) and accuracy over
  {a1, a2, same}.
* 2-class: drop the items whose gold label is ``same``, map predicted ``same`` to ``a1``, then WAF
  and accuracy. When every gold label is ``same`` the 2-class set is empty: the 2-class keys are NaN
  and a :class:`UserWarning` says so (never a silent zero).
* Swap consistency: the predictions on the reversed pairs (``a1``/``a2`` swapped, the reversed file's
  label space) are mapped back ``a1``<->``a2`` (``same`` stays) and compared with the forward
  predictions; the share that agree.

Every number is multiplied by 100, as the paper reports it, and carries a 95% CI computed here (keys
``<key>_ci_low``/``<key>_ci_high``) from the per-item outcomes (:func:`outcomes`): the accuracies and swap
consistency of independent items are proportions and get the Wilson score interval over the items; the
weighted F1 scores (and every score when clips hold several items) get the Wilson score interval on the
effective sample size of a bias-reduced delete-one-cluster jackknife, with a t quantile (see :func:`score`).
Rounds (mean ± std), votes, the reported-strategy rule and the Bradley-Terry ranking of description
models live in :mod:`mmjudge.benchmarks.emoprefer.extra` and are re-exported here.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mmjudge._checks import check_labels, check_nonempty, check_same_length, check_unique
from mmjudge.benchmarks._base import ResultKey
from mmjudge.benchmarks._intervals import Scores, check_resampling, outcome_keys
from mmjudge.errors import SchemaError, summarize
from mmjudge.stats import Metric, Outcomes, Ratio, WeightedF1, classification_summary

__all__ = [
    "LABELS",
    "RESULT_KEYS",
    "DescriptionRanking",
    "WafAcc",
    "best_strategy",
    "confusion_counts",
    "flip_labels",
    "majority_vote",
    "mean_std_over_rounds",
    "parse_response",
    "parse_responses",
    "rank_description_models",
    "score",
    "swap_consistency",
    "three_class",
    "top_k_vote",
    "two_class",
    "vote_normal_swapped",
]

LABELS: tuple[str, ...] = ("a1", "a2", "same")
"""The label set of EmoPrefer-Data, in the official code's order."""

_FLIP = {"a1": "a2", "a2": "a1", "same": "same"}


class WafAcc(NamedTuple):
    """Weighted F1 and accuracy of one label set, in percent."""

    waf: float
    """Weighted F1 x 100 (support-weighted mean of per-class F1, scikit-learn's definition)."""
    accuracy: float
    """Share of exact matches x 100."""
    n: int
    """Items scored (after the 2-class drop, where it applies)."""


NOT_FOUND = 10_000
"""The official parser's position for a label that does not occur (``func_postprocess_preference``)."""


def parse_response(response: str) -> str:
    """Map one judge response to a1, a2 or same with the official parser, exactly.

    The official ``func_postprocess_preference`` (EmoPrefer ``utils/common.py``): lowercase; a leading
    ``a1``/``a2``/``same`` wins; else each label's first position, with :data:`NOT_FOUND` (10,000) for a
    label that does not occur, and the first label (in ``a1, a2, same`` order) at the smallest position
    (``np.argmin``); else ``same``. The sentinel is kept: in a reply whose first label sits at position
    10,000 or later, a label that does not occur ties or wins (``"x" * 10001 + "a2"`` gives ``a1``).

    Args:
        response: raw text or a bare label; case does not matter.

    Returns:
        ``"a1"``, ``"a2"`` or ``"same"``. Text naming none of them counts as ``"same"``.

    >>> parse_response("A2. The second one is better")
    'a2'
    >>> parse_response("I think a1 beats a2")
    'a1'
    >>> parse_response("No preference")
    'same'
    >>> parse_response("x" * 10_001 + "a2")
    'a1'
    """
    if not isinstance(response, str):
        raise SchemaError(f"expected a response string, got {type(response).__name__} {response!r}")
    text = response.lower()
    for label in LABELS:
        if text.startswith(label):
            return label
    positions = [text.find(label) for label in LABELS]
    if all(p == -1 for p in positions):
        return "same"
    positions = [NOT_FOUND if p == -1 else p for p in positions]
    return LABELS[positions.index(min(positions))]


def parse_responses(name: str, responses: Sequence[Any]) -> list[str]:
    """Parse a column of responses; missing entries (``None``, NaN, non-strings) raise SchemaError.

    >>> parse_responses("predictions", ["a1", "Same", "answer: a2"])
    ['a1', 'same', 'a2']
    """
    bad = [i for i, r in enumerate(responses) if not isinstance(r, str)]
    if bad:
        raise SchemaError(
            f"`{name}` has {len(bad)} missing or non-string responses at positions {summarize(bad)}: "
            f"expected text (an empty string parses as 'same'); fill or drop those items"
        )
    return [parse_response(r) for r in responses]


def flip_labels(labels: Sequence[str]) -> list[str]:
    """Swap a1 and a2 (``same`` stays): the map between a file and its ``_reverse`` twin.

    >>> flip_labels(["a1", "a2", "same"])
    ['a2', 'a1', 'same']
    """
    return [_FLIP[label] for label in labels]


def _waf_acc(references: Sequence[str], predictions: Sequence[str]) -> WafAcc:

    with warnings.catch_warnings():
        # a class that is never predicted has undefined precision; its F1 is 0, as in the official code
        warnings.simplefilter("ignore", category=UserWarning)
        summary = classification_summary(list(references), list(predictions))
    return WafAcc(100.0 * float(summary.weighted_f1), 100.0 * float(summary.accuracy), len(references))


def three_class(references: Sequence[str], predictions: Sequence[str]) -> WafAcc:
    """3-class WAF and accuracy over {a1, a2, same}, in percent.

    >>> three_class(["a1", "a2", "same", "a1"], ["a1", "a2", "a1", "a1"]).accuracy
    75.0
    """
    return _waf_acc(references, predictions)


def two_class(references: Sequence[str], predictions: Sequence[str]) -> WafAcc:
    """2-class WAF and accuracy: drop gold ``same``, map predicted ``same`` to ``a1``.

    Returns NaN scores (``n == 0``) with a warning when no gold label is a1 or a2.

    >>> two_class(["a1", "a2", "same"], ["same", "a2", "a2"])
    WafAcc(waf=100.0, accuracy=100.0, n=2)
    """
    kept = [
        (r, "a1" if p == "same" else p) for r, p in zip(references, predictions, strict=True) if r != "same"
    ]
    if not kept:
        _warn_empty_two_class(stacklevel=3)
        return WafAcc(math.nan, math.nan, 0)
    refs, preds = zip(*kept, strict=True)
    return _waf_acc(refs, preds)


def _warn_empty_two_class(stacklevel: int) -> None:
    warnings.warn(
        "every gold label is 'same', so the 2-class subset is empty; waf_2class and acc_2class are NaN",
        UserWarning,
        stacklevel=stacklevel,
    )


def swap_consistency(predictions: Sequence[str], swapped_predictions: Sequence[str]) -> float:
    """Share (x100) of items whose reversed-pair prediction, mapped back a1<->a2, equals the forward one.

    >>> swap_consistency(["a1", "a2", "same", "a1"], ["a2", "a2", "same", "same"])
    50.0
    """
    back = flip_labels(swapped_predictions)
    return 100.0 * float(np.mean([f == b for f, b in zip(predictions, back, strict=True)]))


def _checked(
    predictions: Sequence[Any],
    references: Sequence[Any],
    swapped: Sequence[Any] | None,
    ids: Sequence[Any] | None,
) -> tuple[list[str], list[str], list[str] | None]:
    fields: dict[str, Sequence[Any]] = {"predictions": predictions, "references": references}
    if swapped is not None:
        fields["swapped_predictions"] = swapped
    if ids is not None:
        fields["ids"] = ids
    check_same_length(**fields)
    check_nonempty("references", references)
    check_labels("references", references, LABELS)
    if ids is not None:
        check_unique("ids", ids)
    preds = parse_responses("predictions", predictions)
    back = parse_responses("swapped_predictions", swapped) if swapped is not None else None
    return preds, list(references), back


def score(
    predictions: Sequence[str],
    references: Sequence[str],
    swapped_predictions: Sequence[str] | None = None,
    *,
    ids: Sequence[Any] | None = None,
    clusters: Sequence[Any] | None = None,
    strategy: str | None = None,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict[str, float | int | str]:
    """Score one run of a judge on EmoPrefer-Data, as the paper reports it (percent).

    Args:
        predictions: raw responses or labels on the forward pairs, parsed with :func:`parse_response`.
        references: gold labels in {a1, a2, same} (the forward file's ``preference``).
        swapped_predictions: responses on the same items from the ``_reverse`` file, in that file's
            label space. Optional; ``swap_consistency`` is present only when given.
        ids: optional item names, checked for duplicates; scores do not depend on them.
        clusters: optional clip of each item; the jackknife leaves the items of one clip out together
            (each item is its own clip in the release, so the intervals are those of independent items
            either way).
        strategy: the prompting strategy of the run (``"S1"`` ... ``"S4"``), echoed as ``strategy``.
        n_resamples, confidence, seed: ``confidence`` sets the level of every interval; ``n_resamples``
            and ``seed`` are checked but change no interval (all are closed forms, present with
            ``n_resamples=0`` too).

    Returns:
        ``waf_2class``, ``acc_2class``, ``waf_3class``, ``acc_3class`` (0-100, NaN for the 2-class pair
        when no gold label is a1/a2), ``swap_consistency`` (0-100, only with ``swapped_predictions``),
        each with ``_ci_low``/``_ci_high``; ``n_items``, ``n_2class``, the nine counts
        ``confusion/<gold>/<predicted>`` of the 3 x 3 confusion table and, when given, ``strategy``.

    Intervals: a proportion (``acc_2class``, ``acc_3class``, ``swap_consistency``) of independent items
    (every item its own clip, or one item of the key per clip) gets the Wilson score interval over the
    items, repaired next to 0 and 100 (Brown, Cai and DasGupta); the weighted F1 scores, and the
    proportions when clips hold several items, get the Wilson score interval on the effective sample size
    of a bias-reduced (CR2-weighted) delete-one-cluster jackknife, with a t quantile on Bell and
    McCaffrey's degrees of freedom; it never has zero width at 0 or 100. A score carried by fewer than 5
    clips gets no interval (its record in the result's ``intervals`` says why); under 30 it is marked thin.

    >>> r = score(["a1", "A2 is better", "same", "a2"], ["a1", "a2", "same", "a1"], ["a2", "a1", "a2", "a1"])
    >>> r["acc_3class"], r["acc_2class"], r["swap_consistency"]
    (75.0, 66.66666666666666, 75.0)
    >>> "acc_3class_ci_low" in r, r.intervals["acc_3class"]["method"]  # 4 items: no interval
    (False, 'none: no interval: 4 items (at least 5 needed)')
    >>> r = score(["a1", "a2", "same", "a1"] * 3, ["a1", "a2", "a2", "a1"] * 3)
    >>> r["acc_3class"], round(r["acc_3class_ci_low"], 1), round(r["acc_3class_ci_high"], 1)
    (75.0, 46.8, 91.1)
    >>> round(r["waf_3class_ci_low"], 1), round(r["waf_3class_ci_high"], 1), r.intervals["waf_3class"]["method"]
    (51.6, 97.0, 'Wilson score interval on the effective sample size (jackknife over items; t quantile)')
    """
    check_resampling(n_resamples, confidence)
    preds, refs, back = _checked(predictions, references, swapped_predictions, ids)
    n_2class = sum(r != "same" for r in refs)
    if n_2class == 0:
        _warn_empty_two_class(stacklevel=2)  # at this line, as the two_class call here used to warn
    if clusters is not None:
        check_same_length(references=references, clusters=clusters)
    table = outcomes(refs, preds, back, ids=ids, clusters=clusters)
    values, intervals = outcome_keys(
        table,
        metric_specs(table),
        proportions=("acc_2class", "acc_3class", "swap_consistency"),
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
    )
    result: dict[str, float | int | str] = dict(values)
    result.update(_confusion_keys(refs, preds))
    result["n_items"] = len(refs)
    result["n_2class"] = n_2class
    if strategy is not None:
        result["strategy"] = str(strategy)
    return Scores(result, intervals)


def outcomes(
    references: Sequence[str],
    predictions: Sequence[str],
    back: Sequence[str] | None = None,
    *,
    ids: Sequence[Any] | None = None,
    clusters: Sequence[Any] | None = None,
) -> Outcomes:
    """Per-item outcomes of parsed labels: gold and predicted codes (3-class; 2-class with gold ``same``
    left out as code -1 and predicted ``same`` read as ``a1``), exact matches, and agreement with the
    reversed pair mapped back (``back``: the parsed reversed predictions, when given). Each item (one clip)
    is its own cluster unless ``clusters`` says otherwise.

    >>> o = outcomes(["a1", "same"], ["same", "same"])
    >>> o.column("gold2").tolist(), o.column("pred2").tolist(), o.column("hit3").tolist()
    ([0.0, -1.0], [0.0, -1.0], [0.0, 1.0])
    """
    code = {label: k for k, label in enumerate(LABELS)}
    two = [r != "same" for r in references]
    pred2 = ["a1" if p == "same" else p for p in predictions]
    columns = {
        "gold3": np.array([code[r] for r in references], dtype=np.float64),
        "pred3": np.array([code[p] for p in predictions], dtype=np.float64),
        "gold2": np.array([code[r] if t else -1 for r, t in zip(references, two, strict=True)], dtype=np.float64),
        "pred2": np.array([code[p] if t else -1 for p, t in zip(pred2, two, strict=True)], dtype=np.float64),
        "hit3": np.array([r == p for r, p in zip(references, predictions, strict=True)], dtype=np.float64),
        "hit2": np.array([t and r == p for r, p, t in zip(references, pred2, two, strict=True)], dtype=np.float64),
        "in2": np.array(two, dtype=np.float64),
        "one": np.ones(len(references)),
    }
    if back is not None:
        flipped = flip_labels(back)
        columns["swap_same"] = np.array([f == b for f, b in zip(predictions, flipped, strict=True)], dtype=np.float64)
    units = tuple(str(i) for i in ids) if ids is not None else tuple(str(k) for k in range(len(references)))
    groups = tuple(str(c) for c in clusters) if clusters is not None else units
    return Outcomes(units, groups, columns, unit="item", cluster_name="clip")


def score_outcomes(
    predictions: Sequence[str],
    references: Sequence[str],
    swapped_predictions: Sequence[str] | None = None,
    **options: Any,
) -> tuple[Outcomes, dict[str, Metric]]:
    """The outcomes of :func:`score`'s arguments and the metric of each headline key over them."""
    preds, refs, back = _checked(predictions, references, swapped_predictions, options.get("ids"))
    table = outcomes(refs, preds, back, ids=options.get("ids"), clusters=options.get("clusters"))
    return table, metric_specs(table)


def metric_specs(table: Outcomes) -> dict[str, Metric]:
    """The headline scores as metrics over :func:`outcomes` (accuracies as ``x / n`` shares x100)."""
    metrics: dict[str, Metric] = {
        "waf_2class": WeightedF1("gold2", "pred2", 2),
        "acc_2class": Ratio("hit2", "in2", share_first=True),
        "waf_3class": WeightedF1("gold3", "pred3", 3),
        "acc_3class": Ratio("hit3", "one", share_first=True),
    }
    if "swap_same" in table.columns:
        metrics["swap_consistency"] = Ratio("swap_same", "one", share_first=True)
    return metrics


def _confusion_keys(references: Sequence[str], predictions: Sequence[str]) -> dict[str, int]:
    """``confusion/<gold>/<predicted>`` counts of the forward predictions (the report's matrix reads them)."""
    table = confusion_counts(references, predictions)
    return {
        f"confusion/{g}/{p}": int(table[i, j]) for i, g in enumerate(LABELS) for j, p in enumerate(LABELS)
    }


def confusion_counts(references: Sequence[str], predictions: Sequence[str]) -> np.ndarray:
    """The 3 x 3 table of (gold, predicted) counts over a1, a2, same (rows: gold).

    >>> confusion_counts(["a1", "same"], ["a2", "same"]).tolist()
    [[0, 1, 0], [0, 0, 0], [0, 0, 1]]
    """
    index = {label: k for k, label in enumerate(LABELS)}
    table = np.zeros((3, 3), dtype=np.int64)
    np.add.at(table, ([index[r] for r in references], [index[p] for p in predictions]), 1)
    return table


_RATE = (
    "Wilson score interval over the items where they are independent (one item of the key per clip), else "
    "Wilson score interval on the effective sample size of the jackknife over clips"
)
_WAF = (
    "Wilson score interval on the effective sample size of the jackknife over items, or over clips (items "
    "given their clips)"
)


def _result_keys() -> tuple[ResultKey, ...]:
    scores = (
        (
            "waf_2class",
            "2-class weighted F1 x100 (gold same dropped, predicted same -> a1); 0-100",
            _WAF,
        ),
        ("acc_2class", "2-class accuracy x100 under the same rules; 0-100", _RATE),
        ("waf_3class", "3-class weighted F1 x100 over {a1, a2, same}; 0-100", _WAF),
        ("acc_3class", "3-class accuracy x100; 0-100", _RATE),
        ("swap_consistency", "share x100 of items judged the same way on the reversed pair; 0-100", _RATE),
    )
    keys: list[ResultKey] = []
    for name, text, how in scores:
        keys += [
            ResultKey(name, True, text),
            *ResultKey.interval_ends(name, True, f" (0-100): {how}; none under 5 clips"),
            ResultKey(
                f"{name}_std",
                False,
                f"std over rounds (numpy ddof=0) of {name}, when the result is a mean over rounds",
            ),
        ]
    keys += [
        ResultKey("n_items", True, "items scored (a count, not a quality score)"),
        ResultKey("n_2class", True, "items in the 2-class subset (a count)"),
        *(
            ResultKey(f"confusion/{g}/{p}", True, f"forward items with gold {g} parsed as {p} (a count)")
            for g in LABELS
            for p in LABELS
        ),
        ResultKey("n_rounds", True, "rounds averaged, when the result is a mean over rounds (a count)"),
        ResultKey("strategy", True, "prompting strategy S1-S4 of the run, when known (a label, not a score)"),
    ]  # fmt: skip
    return tuple(keys)


RESULT_KEYS: tuple[ResultKey, ...] = _result_keys()
"""Documented result keys of :func:`score` and of :func:`mean_std_over_rounds`."""

from mmjudge.benchmarks.emoprefer.extra import (  # noqa: E402  (re-export after the core it builds on)
    DescriptionRanking,
    best_strategy,
    majority_vote,
    mean_std_over_rounds,
    rank_description_models,
    top_k_vote,
    vote_normal_swapped,
)
