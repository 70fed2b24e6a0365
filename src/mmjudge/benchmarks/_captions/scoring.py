"""Caption ranking scored: one caption chosen per question by the judge's scores, question and per-video accuracy.

A question shows one video and two or more captions, one of them right. A judge that rates a clip against a
text (a reward model) scores every caption; the question is answered by the caption with the **unique** highest
score, and an exact tie for the highest counts as wrong (the IsoVRBench paper's reward-model protocol for
TemporalBench and TempCompass, Appendix M). :func:`choose` is that rule.

The counts follow the benchmarks' official scripts:

- ``accuracy``: percent of questions answered right (TemporalBench's "Binary Accuracy", ``get_qa_acc.py``;
  TempCompass' caption-matching ``avg``, ``print_result``: every question of every dimension pooled);
- ``accuracy/<category>``: the same within each category (TemporalBench's category, TempCompass' dimension);
- with ``videos_all_right`` (TemporalBench): ``multiple_binary_accuracy``, percent of videos whose every question
  is right ("Multiple Binary Accuracy"), and ``multiple_binary_accuracy/<category>`` over each video's questions
  of that category, as the official script keys its per-category table.

Missing answers (``None``: the judge failed on a caption). ``mode="strict"`` counts them wrong. ``mode="official"``
leaves them out, as TemporalBench's ``get_qa_acc.py`` does with an item its prediction file lacks: the question
is not counted, and a video is judged on the questions it has (a video with none is not counted). TempCompass'
script counts a missing prediction wrong, so its only mode is strict.

Intervals (95% by default, ``<key>_ci_low``/``_ci_high``): the questions of one video are one cluster.
``accuracy`` and ``accuracy/<category>`` get the Wilson score interval on the effective sample size of the
delete-one-video jackknife (t quantile); ``multiple_binary_accuracy`` is a rate over independent videos and gets
the Wilson score interval over them; under 5 videos no interval (the record says why).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from mmjudge._checks import check_nonempty, check_same_length, check_unique
from mmjudge.benchmarks._base import ResultKey
from mmjudge.benchmarks._intervals import Scores, check_resampling, outcome_keys
from mmjudge.errors import ConfigError, SchemaError
from mmjudge.estimates import with_its_interval
from mmjudge.stats import Metric, Outcomes, Ratio

__all__ = ["COUNT_KEYS", "MODES", "category_key", "choose", "outcomes", "score", "score_outcomes"]

MODES = ("strict", "official")
"""``strict``: a missing answer is wrong; ``official``: it is left out (TemporalBench's script)."""
COUNT_KEYS = (
    ResultKey("n_questions", True, "questions scored (count)"),
    ResultKey("n_counted", True, "questions counted in the accuracies (count)"),
    ResultKey("n_correct", True, "questions answered right (count)"),
    ResultKey("n_missing", False, "questions without scores (count)"),
    ResultKey("n_ties", False, "questions whose highest score is tied (count)"),
    ResultKey("n_videos", True, "videos (count)"),
)
"""The counts every caption-ranking result holds."""


def category_key(category: str) -> str:
    """The result-key segment of a category: lower case, runs of other characters as one ``_``.

    >>> category_key("Motion Direction/Orientation"), category_key("attribute_change")
    ('motion_direction_orientation', 'attribute_change')
    """
    return re.sub(r"[^a-z0-9]+", "_", category.lower()).strip("_")


def choose(scores: Sequence[float] | None) -> int | None:
    """The index of the unique highest score; ``None`` on an exact tie for the highest, or without scores.

    >>> choose([0.2, 0.7]), choose([0.7, 0.7]), choose([3.0, 1.0, 3.0]), choose(None)
    (1, None, None, None)
    """
    if scores is None or len(scores) == 0:
        return None
    best = max(scores)
    winners = [k for k, s in enumerate(scores) if s == best]
    return winners[0] if len(winners) == 1 else None


def _validate(scores: Sequence[Sequence[float] | None], answers: Sequence[int],
              num_captions: Sequence[int] | None) -> list[list[float] | None]:  # fmt: skip
    checked: list[list[float] | None] = []
    for k, (row, answer) in enumerate(zip(scores, answers, strict=True)):
        if isinstance(answer, bool) or not isinstance(answer, (int, np.integer)) or answer < 0:
            raise SchemaError(f"question {k}: the answer must be a caption index (0, 1, ...), got {answer!r}")
        if row is None:
            checked.append(None)
            continue
        if isinstance(row, (str, bytes)) or not all(
            isinstance(s, (int, float, np.number)) and not isinstance(s, bool) and math.isfinite(float(s)) for s in row
        ):
            raise SchemaError(f"question {k}: expected a list of finite numbers (one score per caption) or None, "
                              f"got {row!r:.80}")  # fmt: skip
        expected = num_captions[k] if num_captions is not None else None
        if len(row) < 2 or (expected is not None and len(row) != expected) or answer >= len(row):
            want = f"{expected}" if expected is not None else "at least 2, one per caption"
            raise SchemaError(f"question {k}: expected {want} scores with the answer's index {answer} among them, "
                              f"got {len(row)}")  # fmt: skip
        checked.append([float(s) for s in row])
    return checked


def outcomes(
    correct: Sequence[bool] | np.ndarray, missing: Sequence[bool] | np.ndarray, videos: Sequence[Any], categories: Sequence[str],
    *, mode: str = "strict", ids: Sequence[Any] | None = None,
) -> Outcomes:  # fmt: skip
    """Per-question outcomes, stratum = category, cluster = video.

    Columns: ``correct`` and ``counted`` (a question counted: always in strict mode, answered in official mode);
    ``video_right`` / ``video_first``: on the first counted question of each video, whether all its counted
    questions are right / 1 (a rate over videos, each once); ``category_right`` / ``category_first``: the same
    per video and category.

    >>> o = outcomes([True, False, True], [False, False, False], ["v1", "v1", "v2"], ["a", "a", "b"])
    >>> o.column("video_right").tolist(), o.column("video_first").tolist()
    ([0.0, 0.0, 1.0], [1.0, 0.0, 1.0])
    """
    right = np.asarray(correct, dtype=bool)
    gone = np.asarray(missing, dtype=bool)
    counted = ~gone if mode == "official" else np.ones(len(right), dtype=bool)
    columns = {"correct": (right & counted).astype(np.float64), "counted": counted.astype(np.float64)}
    for prefix, keys in (("video", [str(v) for v in videos]),
                         ("category", [f"{v}\x00{c}" for v, c in zip(videos, categories, strict=True)])):  # fmt: skip
        first = np.zeros(len(right))
        all_right = np.zeros(len(right))
        seen: dict[str, int] = {}
        for k, key in enumerate(keys):
            if not counted[k]:
                continue
            if key not in seen:
                seen[key] = k
                first[k], all_right[k] = 1.0, 1.0
            if not right[k]:
                all_right[seen[key]] = 0.0
        columns[f"{prefix}_first"], columns[f"{prefix}_right"] = first, all_right
    units = tuple(str(i) for i in ids) if ids is not None else tuple(str(k) for k in range(len(right)))
    return Outcomes(units, tuple(str(v) for v in videos), columns, tuple(str(c) for c in categories),
                    unit="question", cluster_name="video")  # fmt: skip


def metric_specs(table: Outcomes, *, videos_all_right: bool) -> dict[str, Metric]:
    """Every score key over ``table`` (every one a rate of 0/1 outcomes)."""
    metrics: dict[str, Metric] = {"accuracy": Ratio("correct", "counted", empty=0.0)}
    categories = list(dict.fromkeys(table.strata))
    for category in categories:
        metrics[f"accuracy/{category_key(category)}"] = Ratio("correct", "counted", strata=(category,), empty=0.0)
    if videos_all_right:
        metrics["multiple_binary_accuracy"] = Ratio("video_right", "video_first", empty=0.0)
        for category in categories:
            metrics[f"multiple_binary_accuracy/{category_key(category)}"] = Ratio(
                "category_right", "category_first", strata=(category,), empty=0.0)  # fmt: skip
    return metrics


def _questions(scores: Sequence[Sequence[float] | None], answers: Sequence[int], videos: Sequence[Any],
               categories: Sequence[str] | None, num_captions: Sequence[int] | None, ids: Sequence[Any] | None,
               mode: str) -> tuple[Outcomes, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    if mode not in MODES:
        raise ConfigError(f"`mode` must be one of {list(MODES)}, got {mode!r}")
    check_nonempty("scores", scores)
    check_same_length(scores=scores, answers=answers, videos=videos)
    if categories is not None:
        check_same_length(scores=scores, categories=categories)
    if num_captions is not None:
        check_same_length(scores=scores, num_captions=num_captions)
    if ids is not None:
        check_same_length(scores=scores, ids=ids)
        check_unique("ids", ids)
    checked = _validate(scores, answers, num_captions)
    chosen = [choose(row) for row in checked]
    missing = np.array([row is None for row in checked], dtype=bool)
    ties = np.array([row is not None and c is None for row, c in zip(checked, chosen, strict=True)], dtype=bool)
    correct = np.array([c is not None and c == int(a) for c, a in zip(chosen, answers, strict=True)], dtype=bool)
    cats = [str(c) for c in categories] if categories is not None else ["all"] * len(checked)
    keys = {category_key(c) for c in cats}
    if "" in keys or len(keys) != len(set(cats)):
        raise SchemaError(f"categories {sorted(set(cats))}: each must give a distinct, non-empty key "
                          "(letters or digits; others become `_`)")  # fmt: skip
    if mode == "official" and missing.all():
        raise SchemaError(f"all {len(missing)} questions are without scores: the official count (missing questions "
                          "left out) has nothing to count; fix the run, or score with mode='strict'")  # fmt: skip
    table = outcomes(correct, missing, videos, cats, mode=mode, ids=ids)
    return table, correct, missing, ties


def score(
    scores: Sequence[Sequence[float] | None],
    answers: Sequence[int],
    videos: Sequence[Any],
    categories: Sequence[str] | None = None,
    *,
    num_captions: Sequence[int] | None = None,
    ids: Sequence[Any] | None = None,
    videos_all_right: bool = False,
    mode: str = "strict",
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Scores:
    """Score the judges' caption scores (see the module docstring).

    Args:
        scores: per question, one score per caption (the judge's text-alignment score), or ``None`` when the
            judge gave none (missing).
        answers: per question, the index of the right caption.
        videos: per question, its video (questions of one video are one cluster; the per-video accuracy groups
            by it).
        categories: per question, its category (default: one category, ``all``).
        num_captions: per question, the number of captions (checked against the scores when given).
        ids: question ids (unique).
        videos_all_right: also the per-video accuracy (TemporalBench's Multiple Binary Accuracy).
        mode: ``strict`` (a missing answer is wrong) or ``official`` (left out).
        n_resamples, seed: checked; no interval depends on them (closed forms). confidence: every interval's level.

    >>> r = score([[0.9, 0.1], [0.2, 0.2], [0.1, 0.3], None], [0, 0, 1, 1], ["v1", "v1", "v2", "v2"],
    ...           videos_all_right=True, n_resamples=0)
    >>> r["accuracy"], r["multiple_binary_accuracy"], r["n_ties"], r["n_missing"]
    (50.0, 0.0, 1, 1)
    >>> r = score([[0.9, 0.1], [0.2, 0.2], [0.1, 0.3], None], [0, 0, 1, 1], ["v1", "v1", "v2", "v2"],
    ...           videos_all_right=True, mode="official", n_resamples=0)
    >>> round(r["accuracy"], 2), r["multiple_binary_accuracy"], r["n_counted"]
    (66.67, 50.0, 3)
    """
    check_resampling(n_resamples, confidence)
    table, correct, missing, ties = _questions(scores, answers, videos, categories, num_captions, ids, mode)
    metrics = metric_specs(table, videos_all_right=videos_all_right)
    values, intervals = outcome_keys(table, metrics, proportions=set(metrics), n_resamples=n_resamples,
                                     confidence=confidence, seed=seed)  # fmt: skip
    for key, record in intervals.items():  # a per-video rate counts one question per video: its units are videos
        if key.startswith("multiple_binary_accuracy") and record.get("unit") == "question":
            record.update(unit="video", cluster="video", method=record["method"].replace("questions", "videos"))
    result: dict[str, Any] = {}
    for key in metrics:
        result.update(with_its_interval(values, key))
    counted = table.column("counted").astype(bool)
    result.update(
        n_questions=len(correct), n_counted=int(counted.sum()), n_correct=int(correct[counted].sum()),
        n_missing=int(missing.sum()), n_ties=int(ties.sum()), n_videos=table.n_clusters, mode=mode,
    )  # fmt: skip
    return Scores(result, {k: v for k, v in intervals.items() if k in result})


def score_outcomes(scores: Sequence[Sequence[float] | None], answers: Sequence[int], videos: Sequence[Any],
                   categories: Sequence[str] | None = None, **options: Any) -> tuple[Outcomes, dict[str, Metric]]:  # fmt: skip
    """The outcomes of :func:`score`'s arguments and the metric of every score key over them."""
    table, *_ = _questions(scores, answers, videos, categories, options.get("num_captions"), options.get("ids"),
                           options.get("mode", "strict"))  # fmt: skip
    return table, metric_specs(table, videos_all_right=bool(options.get("videos_all_right", False)))
