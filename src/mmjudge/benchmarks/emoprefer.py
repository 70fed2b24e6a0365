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

Every number is multiplied by 100, as the paper reports it. Rounds, votes, the reported-strategy rule
and the Bradley-Terry ranking of description models live in :mod:`mmjudge.benchmarks._emoprefer_extra`
and are re-exported here.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mmjudge.benchmarks._base import BenchmarkSpec, ResultKey
from mmjudge.benchmarks._validate import check_labels, check_nonempty, check_same_length, check_unique
from mmjudge.errors import SchemaError, summarize
from mmjudge.registry import register_benchmark

__all__ = [
    "LABELS",
    "RESULT_KEYS",
    "DescriptionRanking",
    "WafAcc",
    "best_strategy",
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


def parse_response(response: str) -> str:
    """Map one judge response to a1, a2 or same with the official parser.

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
    """
    if not isinstance(response, str):
        raise SchemaError(f"expected a response string, got {type(response).__name__} {response!r}")
    text = response.lower()
    for label in LABELS:
        if text.startswith(label):
            return label
    found = [(text.find(label), label) for label in LABELS if label in text]
    return min(found)[1] if found else "same"


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
    from mmjudge.stats import classification_summary

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
        warnings.warn(
            "every gold label is 'same', so the 2-class subset is empty; waf_2class and acc_2class are NaN",
            UserWarning,
            stacklevel=2,
        )
        return WafAcc(math.nan, math.nan, 0)
    refs, preds = zip(*kept, strict=True)
    return _waf_acc(refs, preds)


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
) -> dict[str, float]:
    """Score one run of a judge on EmoPrefer-Data, as the paper reports it (percent).

    Args:
        predictions: raw responses or labels on the forward pairs, parsed with :func:`parse_response`.
        references: gold labels in {a1, a2, same} (the forward file's ``preference``).
        swapped_predictions: responses on the same items from the ``_reverse`` file, in that file's
            label space. Optional; ``swap_consistency`` is present only when given.
        ids: optional item names, checked for duplicates; scores do not depend on them.

    Returns:
        ``waf_2class``, ``acc_2class``, ``waf_3class``, ``acc_3class`` (0-100, NaN for the 2-class pair
        when no gold label is a1/a2), ``swap_consistency`` (0-100, only with ``swapped_predictions``),
        ``n_items`` and ``n_2class``.

    >>> r = score(["a1", "A2 is better", "same", "a2"], ["a1", "a2", "same", "a1"], ["a2", "a1", "a2", "a1"])
    >>> r["acc_3class"], r["acc_2class"], r["swap_consistency"]
    (75.0, 66.66666666666666, 75.0)
    """
    preds, refs, back = _checked(predictions, references, swapped_predictions, ids)
    three = three_class(refs, preds)
    two = two_class(refs, preds)
    result: dict[str, float] = {
        "waf_2class": two.waf,
        "acc_2class": two.accuracy,
        "waf_3class": three.waf,
        "acc_3class": three.accuracy,
    }
    if back is not None:
        result["swap_consistency"] = swap_consistency(preds, back)
    result["n_items"] = three.n
    result["n_2class"] = two.n
    return result


RESULT_KEYS: tuple[ResultKey, ...] = (
    ResultKey(
        "waf_2class", True, "2-class weighted F1 x100 (gold same dropped, predicted same -> a1); 0-100"
    ),
    ResultKey("acc_2class", True, "2-class accuracy x100 under the same rules; 0-100"),
    ResultKey("waf_3class", True, "3-class weighted F1 x100 over {a1, a2, same}; 0-100"),
    ResultKey("acc_3class", True, "3-class accuracy x100; 0-100"),
    ResultKey(
        "swap_consistency", True, "share x100 of items judged the same way on the reversed pair; 0-100"
    ),
    ResultKey("n_items", True, "items scored (a count, not a quality score)"),
    ResultKey("n_2class", True, "items in the 2-class subset (a count)"),
)

from mmjudge.benchmarks._emoprefer_extra import (  # noqa: E402  (re-export after the core it builds on)
    DescriptionRanking,
    best_strategy,
    majority_vote,
    mean_std_over_rounds,
    rank_description_models,
    top_k_vote,
    vote_normal_swapped,
)

register_benchmark("emoprefer")(
    BenchmarkSpec(id="emoprefer", title="EmoPrefer-Data", score=score, result_keys=RESULT_KEYS)
)
