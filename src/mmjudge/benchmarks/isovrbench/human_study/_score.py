"""Scoring a study: agreement with the intervention label, control ties, inter-annotator agreement.

The paper's rule (Table 2, "Human" row): an annotator agrees with a pair when they prefer the anchor on
the dimension the intervention targets (motion, text or visual quality); for the generator substitutions
(the ``overall`` dimension) their preference is the sign of the sum of the three answers (+1 anchor,
-1 counterpart, 0 same). "Same" on the targeted dimension is a tie, and a tie is not agreement.

* **The human row** is one verdict per pair: the most frequent verdict of its annotators (a tie between
  the most frequent ones is a tie), scored by :func:`mmjudge.benchmarks.isovrbench.score` exactly like a
  judge's verdicts, so its keys are the benchmark's result keys (``accuracy/<intervention>`` with Wilson
  intervals, ``average`` with a bootstrap stratified by intervention, tie rates, counts). With one
  annotator per pair it is the paper's protocol (45 rated pairs per intervention).
* **Per annotation**: ``annotation_agreement/<iv>`` is the share of all answers that agree (Wilson CI).
* **Controls** (one clip on both sides): ``control_tie_rate`` is the share of control answers with
  "same" on all three questions; ``control_same_rate/<dimension>`` per question (Wilson CIs).
* **Fleiss' kappa** over the pairs' verdicts (anchor / counterpart / tie), on the items rated by the most
  common number of annotators ``k`` (at least two; items with more keep the first ``k`` annotators by
  id), with an item-bootstrap interval (:func:`mmjudge.stats.fleiss_kappa_ci`).

All rates are percentages, as everywhere in IsoVRBench.
"""

from __future__ import annotations

import logging
import math
import warnings
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mmjudge.benchmarks.isovrbench import INTERVENTIONS
from mmjudge.benchmarks.isovrbench import score as score_pairs
from mmjudge.benchmarks.isovrbench.human_study._answers import Answer, AnswerStore
from mmjudge.benchmarks.isovrbench.human_study._study import QUESTIONS, Study, StudyItem
from mmjudge.errors import SchemaError
from mmjudge.estimates import with_interval
from mmjudge.stats import fleiss_kappa, fleiss_kappa_ci, wilson_interval

__all__ = ["StudyScore", "annotation_verdict", "majority_verdict", "score_study"]

logger = logging.getLogger(__name__)

CHOICE = {1: "chosen", -1: "rejected", 0: "tie"}
"""Verdict (+1 anchor, -1 counterpart, 0 same) -> the benchmark's choice label."""


@dataclass(frozen=True)
class StudyScore:
    """The scores of a study."""

    results: dict[str, float | int]
    """The human row: IsoVRBench result keys from one majority verdict per pair."""
    extra: dict[str, Any]
    """Per-annotation agreement, control tie rates, Fleiss' kappa and counts (see the module doc)."""
    annotators: tuple[str, ...] = ()
    """Annotator ids with at least one answer."""
    unanswered: dict[str, int] = field(default_factory=dict)
    """Items without any answer, by kind (``pair``, ``control``)."""


def annotation_verdict(item: StudyItem, answer: Answer) -> int:
    """+1 (prefers the anchor), -1 (prefers the counterpart) or 0 (same) on the item's target dimension.

    >>> item = StudyItem("q1", "pair", "p", "t2v_5b", "overall", "a cat", "l.mp4", "r.mp4", "left")
    >>> annotation_verdict(item, Answer("a", "q1", visual="left", motion="right", text="left"))
    1
    >>> annotation_verdict(item, Answer("a", "q1", visual="same", motion="right", text="left"))
    0
    """
    if item.anchor_side is None:
        raise SchemaError(f"{item.item_id} is a control: it has no anchor side")

    def value(side: str) -> int:
        return 0 if side == "same" else (1 if side == item.anchor_side else -1)

    if item.dimension == "overall":
        total = sum(value(getattr(answer, dimension)) for dimension in QUESTIONS)
        return (total > 0) - (total < 0)
    return value(getattr(answer, item.dimension))


def majority_verdict(verdicts: Sequence[int]) -> int:
    """The most frequent verdict; a tie between the most frequent ones is 0.

    >>> majority_verdict([1, 1, 0]), majority_verdict([1, -1]), majority_verdict([1, 0, 0, -1])
    (1, 0, 0)
    """
    counts = Counter(verdicts).most_common()
    if len(counts) > 1 and counts[0][1] == counts[1][1]:
        return 0
    return int(counts[0][0])


def score_study(
    study: Study,
    answers: Sequence[Answer] | None = None,
    *,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> StudyScore:
    """Score the answers of ``study`` (default: its ``answers.sqlite``); see the module doc."""
    if answers is None:
        if not study.answers_path.is_file():
            raise SchemaError(f"{study.folder} has no answers yet ({study.answers_path.name} is missing)")
        answers = AnswerStore(study.answers_path).answers()
    items = {item.item_id: item for item in study.items}
    unknown = sorted({a.item_id for a in answers if a.item_id not in items})
    if unknown:
        logger.warning(
            "%d answered item ids are not in this study (first: %s); they are left out",
            len(unknown),
            unknown[:5],
        )
    pairs: dict[str, dict[str, int]] = defaultdict(dict)
    controls: list[Answer] = []
    for answer in answers:
        item = items.get(answer.item_id)
        if item is None:
            continue
        if item.kind == "pair":
            pairs[item.item_id][answer.annotator] = annotation_verdict(item, answer)
        else:
            controls.append(answer)
    if not pairs:
        raise SchemaError(f"{study.folder}: no intervention pair has an answer yet")
    order = [item for item in study.items if item.item_id in pairs]
    results = score_pairs(
        [item.intervention for item in order],
        choice=[CHOICE[majority_verdict(list(pairs[item.item_id].values()))] for item in order],
        pair_id=[item.item_id for item in order],
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
    )
    extra = _annotation_agreement(order, pairs, confidence)
    extra.update(_controls(controls, confidence))
    extra.update(_kappa(pairs, n_resamples, confidence, seed))
    annotators = tuple(sorted({a.annotator for a in answers if a.item_id in items}))
    extra["n_annotators"] = len(annotators)
    answered = set(pairs) | {a.item_id for a in controls}
    unanswered = Counter(item.kind for item in study.items if item.item_id not in answered)
    return StudyScore(
        results, extra, annotators, {"pair": unanswered["pair"], "control": unanswered["control"]}
    )


def _rate(key: str, k: int, n: int, confidence: float) -> dict[str, float]:
    ci = wilson_interval(k, n, confidence=confidence)
    return with_interval(key, 100.0 * k / n, 100.0 * ci.low, 100.0 * ci.high)


def _annotation_agreement(
    order: list[StudyItem], pairs: dict[str, dict[str, int]], confidence: float
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for iv in INTERVENTIONS:
        verdicts = [v for item in order if item.intervention == iv for v in pairs[item.item_id].values()]
        if verdicts:
            out.update(
                _rate(f"annotation_agreement/{iv}", sum(v == 1 for v in verdicts), len(verdicts), confidence)
            )
            out[f"n_annotations/{iv}"] = len(verdicts)
    return out


def _controls(controls: list[Answer], confidence: float) -> dict[str, Any]:
    out: dict[str, Any] = {"n_control_answers": len(controls)}
    if not controls:
        return out
    all_same = sum(all(getattr(a, d) == "same" for d in QUESTIONS) for a in controls)
    out.update(_rate("control_tie_rate", all_same, len(controls), confidence))
    for dimension in QUESTIONS:
        same = sum(getattr(a, dimension) == "same" for a in controls)
        out.update(_rate(f"control_same_rate/{dimension}", same, len(controls), confidence))
    return out


def _kappa(
    pairs: dict[str, dict[str, int]], n_resamples: int, confidence: float, seed: int
) -> dict[str, Any]:
    sizes = Counter(len(raters) for raters in pairs.values() if len(raters) >= 2)
    if not sizes:
        return {"fleiss_kappa": None, "kappa_items": 0, "kappa_raters": 0}
    k = max(sizes.items(), key=lambda kv: (kv[1], kv[0]))[0]
    grid = [
        [CHOICE[raters[name]] for name in sorted(raters)[:k]] for raters in pairs.values() if len(raters) >= k
    ]
    out: dict[str, Any] = {"kappa_items": len(grid), "kappa_raters": k}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # undefined kappa is reported as null
        if n_resamples > 0:
            ci = fleiss_kappa_ci(grid, n_resamples=n_resamples, confidence=confidence, seed=seed)
            out.update(with_interval("fleiss_kappa", ci.estimate, ci.low, ci.high))
        else:
            out["fleiss_kappa"] = fleiss_kappa(grid)
    return {key: (None if isinstance(v, float) and math.isnan(v) else v) for key, v in out.items()}
