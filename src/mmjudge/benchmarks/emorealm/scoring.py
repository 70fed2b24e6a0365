"""EmoReAlM (AVERE) scoring: per-task accuracy of lettered answers, yes/no accuracies, overall mean.

The official evaluation (``get_accuracy`` in the AVERE release) works as follows, and ``score`` with
``mode="official", matcher="official"`` reproduces it:

1. items without a prediction are skipped. The official inference writes every generation to a file
   and ``get_accuracy`` skips only the items whose file is absent, so here only ``None`` is missing:
   an empty or whitespace-only response is an answer, scored (and wrong under every matcher);
2. each remaining response is correct iff the gold letter occurs in it as a whole word
   (:func:`matches_official`; note that the English article "a" counts as A);
3. ``accuracy/<task>`` = 100 x correct / scored, per task; ``overall`` = unweighted mean over the tasks
   present (a task whose predictions are all missing scores 0 and still counts, as in the official code;
   a warning says so);
4. for the yes/no tasks (``modality_agreement`` and both ``reasoning_stress_*`` tasks, as the official
   code treats them) the gold answer is Yes when the gold choice's text contains "yes", else No when it
   contains "no"; the paper's "precision" is the accuracy on gold-Yes items (``yes_accuracy``), its
   "recall" the accuracy on gold-No items (``no_accuracy``), F1 their harmonic mean (``yes_no_f1``),
   and the Yes rate counts correct answers on gold-Yes and wrong answers on gold-No items as Yes
   (``yes_rate``; missing outputs are never counted as Yes).

``mode="strict"`` counts missing outputs as wrong instead of skipping them. ``matcher`` picks the
official rule, the official ``parse_answer`` (``"official_parse"``, needs ``choices``) or the stricter
:func:`explicit_answer` (``"explicit"``). The result names its ``mode`` and ``matcher``.

Intervals (95% by default, keys ``<key>_ci_low``/``_ci_high``, percent) come from the per-question
outcomes (:func:`outcomes`), whose cluster is the question's clip (``clusters``: EmoReAlM asks several
questions of one clip, across tasks; without them every question is its own clip). An accuracy or rate of
independent questions (one question of the key per clip) gets the Wilson score interval over the
questions, repaired next to 0 and 100 (Brown, Cai and DasGupta); every other score (a rate over clips
holding several of its questions; ``overall`` and ``yes_no_f1`` always) gets the Wilson score interval on
the effective sample size of a bias-reduced (CR2-weighted) delete-one-clip jackknife, stratified by task
when each clip sits in one task, with a t quantile on Bell and McCaffrey's degrees of freedom (the
effective number of clips minus the strata); it never has zero width at 0 or 100. A score carried by
fewer than 5 clips gets no interval (its record says why); under 30 it is marked thin. How each interval
was made is in the result's ``intervals``.
"""

from __future__ import annotations

import re
import string
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from mmjudge._checks import check_labels, check_nonempty, check_same_length, check_unique
from mmjudge.benchmarks._intervals import Scores, check_resampling, outcome_keys
from mmjudge.benchmarks.emorealm.match import (
    explicit_answer,
    matches_official,
    official_parse,
)
from mmjudge.errors import ConfigError, SchemaError, summarize
from mmjudge.estimates import with_its_interval
from mmjudge.stats import HarmonicMean, Metric, Outcomes, Ratio

__all__ = [
    "MATCHERS",
    "MODES",
    "TASKS",
    "YES_NO_TASKS",
    "explicit_answer",
    "is_correct",
    "matches_official",
    "official_parse",
    "score",
]

TASKS: tuple[str, ...] = (
    "reasoning_basic_audio",
    "reasoning_basic_video",
    "reasoning_stress_audio",
    "reasoning_stress_video",
    "modality_agreement",
)
"""The five EmoReAlM task ids."""

YES_NO_TASKS: tuple[str, ...] = ("reasoning_stress_audio", "reasoning_stress_video", "modality_agreement")
"""Tasks the official code scores with the yes/no metrics (``get_metrics_yes_no_qa``)."""

MODES: tuple[str, ...] = ("official", "strict")
"""``official``: missing outputs skipped; ``strict``: missing outputs counted wrong."""

MATCHERS: tuple[str, ...] = ("official", "official_parse", "explicit")
"""How a response is judged: official whole-word rule, official ``parse_answer``, stricter parser."""

_LETTERS = frozenset(string.ascii_letters)
# The official ``rstrip_choice``: drop a leading "(A)", "A:" or "A." (letters A-D only).
_LETTER_PREFIX = re.compile(r"^(?:\([A-D]\)|[A-D][:.])")


def is_correct(
    prediction: str, gold: str, *, matcher: str = "official", choices: Sequence[str] | None = None
) -> bool:
    """Whether one (non-missing) response answers ``gold`` under ``matcher``.

    >>> is_correct("a smile", "A"), is_correct("a smile", "A", matcher="explicit")
    (True, False)
    """
    if matcher == "official":
        return matches_official(prediction, gold)
    if matcher == "official_parse":
        return official_parse(prediction, gold, choices or [])
    if matcher == "explicit":
        return explicit_answer(prediction, choices) == gold.upper()
    raise ConfigError(f"`matcher` must be one of {list(MATCHERS)}, got {matcher!r}")


def score(
    predictions: Sequence[str | None],
    references: Sequence[str],
    tasks: Sequence[str],
    *,
    choices: Sequence[Sequence[str] | None] | None = None,
    gold_is_yes: Sequence[bool | None] | None = None,
    ids: Sequence[Any] | None = None,
    clusters: Sequence[Any] | None = None,
    mode: str = "official",
    matcher: str = "official",
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict[str, float | int | str]:
    """Score raw model responses on EmoReAlM; accuracies are percentages.

    Args:
        predictions: raw responses; ``None`` is a missing output (an empty string is an answer).
        references: gold letters (``"A"``, ``"b"``, ...).
        tasks: task id per item, one of :data:`TASKS`.
        choices: optional lettered choices per item (``["(A) Yes", "(B) No"]``); they tell which gold
            letter means Yes on yes/no tasks and feed the ``official_parse``/``explicit`` matchers.
        gold_is_yes: optional flag per item (``None`` off the yes/no tasks); overrides ``choices`` for
            the Yes/No reading of the gold. Without either, the yes/no keys are left out.
        ids: optional item ids; duplicates raise ``SchemaError``.
        clusters: optional clip of each question (EmoReAlM asks several questions of one clip): the
            jackknife leaves the questions of one clip out together; without it questions are independent.
        mode: ``"official"`` (skip missing outputs) or ``"strict"`` (count them wrong).
        matcher: one of :data:`MATCHERS`.
        n_resamples, confidence, seed: ``confidence`` sets the level of every interval; ``n_resamples``
            and ``seed`` are checked but change no interval (all are closed forms, present with
            ``n_resamples=0`` too).

    Returns:
        Per task present: ``accuracy/<task>``, ``n/<task>`` (items scored), ``n_correct/<task>``,
        ``n_missing/<task>``; per yes/no task with Yes/No gold known: ``yes_accuracy/<task>`` (with
        gold-Yes items), ``no_accuracy/<task>`` (with gold-No items), ``yes_no_f1/<task>`` (with both),
        ``yes_rate/<task>``, ``n_yes/<task>``, ``n_no/<task>``; then ``overall``, ``n_items``,
        ``n_missing``, ``mode``, ``matcher``. Every score has its CI keys (see the module docstring).

    >>> r = score(["(A)", None, "B", "no"], ["A", "B", "A", "B"], ["reasoning_basic_audio"] * 2
    ...           + ["modality_agreement"] * 2, choices=[None, None] + [["(A) Yes", "(B) No"]] * 2)
    >>> r["accuracy/reasoning_basic_audio"], r["accuracy/modality_agreement"], r["overall"], r["mode"]
    (100.0, 0.0, 50.0, 'official')
    >>> "overall_ci_low" in r, r.intervals["overall"]["method"]  # 3 questions scored: no interval
    (False, 'none: no interval: 3 questions (at least 5 needed)')
    >>> score(["B", ""], ["B", "A"], ["reasoning_basic_audio"] * 2)["overall"]  # "" is wrong
    50.0
    >>> r = score(["A", "B", "A", "C", "A", "B"] * 2, ["A", "B", "B", "C", "A", "A"] * 2,
    ...           ["reasoning_basic_audio"] * 6 + ["reasoning_basic_video"] * 6)
    >>> round(r["accuracy/reasoning_basic_audio_ci_low"], 1), round(r["accuracy/reasoning_basic_audio_ci_high"], 1)
    (30.0, 94.1)
    >>> round(r["overall_ci_low"], 1), round(r["overall_ci_high"], 1), r.intervals["overall"]["method"]
    (33.4, 88.8, 'Wilson score interval on the effective sample size (jackknife over questions, stratified; t quantile)')
    """
    _check_config(mode, matcher, choices, n_resamples, confidence)
    table, golds, correct, missing = _questions(
        predictions, references, tasks, choices, gold_is_yes, ids, clusters, mode, matcher
    )
    metrics, proportions = metric_specs(table)
    values, intervals = outcome_keys(
        table, metrics, proportions=proportions, n_resamples=n_resamples, confidence=confidence, seed=seed
    )
    result: dict[str, float | int | str] = {}
    task_array = np.asarray(tasks, dtype=object)
    for task in (t for t in TASKS if t in set(task_array)):
        rows = task_array == task
        scored = rows & ~missing if mode == "official" else rows
        if not scored.any():
            warnings.warn(
                f"EmoReAlM task {task!r}: every prediction is missing; its accuracy is 0 and it still counts "
                "in `overall`, as in the official code",
                stacklevel=2,
            )
        result.update(with_its_interval(values, f"accuracy/{task}"))
        result.update({f"n/{task}": int(scored.sum()), f"n_correct/{task}": int(correct[scored].sum()),
                       f"n_missing/{task}": int((rows & missing).sum())})  # fmt: skip
        if yes_no_known(table, task):
            result[f"n_yes/{task}"] = int(table.column("yes").astype(bool)[rows & scored].sum())
            result[f"n_no/{task}"] = int(table.column("no").astype(bool)[rows & scored].sum())
            for prefix in ("yes_accuracy", "no_accuracy", "yes_no_f1", "yes_rate"):
                result.update(with_its_interval(values, f"{prefix}/{task}"))
    result.update(with_its_interval(values, "overall"))
    result.update(n_items=len(golds), n_missing=int(missing.sum()), mode=mode, matcher=matcher)
    return Scores(result, {k: v for k, v in intervals.items() if k in result})


COLUMNS = ("correct", "scored", "yes", "no", "said_yes", "answered")
"""The outcome columns of a question: correct and scored (scored: counted in its task's accuracy, which in
official mode leaves missing outputs out), gold Yes / gold No among the scored (yes/no tasks), answered
Yes, and answered (an output given)."""


def outcomes(
    correct: np.ndarray,
    missing: np.ndarray,
    yes_gold: Sequence[bool | None],
    tasks: Sequence[str],
    *,
    mode: str = "official",
    ids: Sequence[Any] | None = None,
    clusters: Sequence[Any] | None = None,
) -> Outcomes:
    """Per-question outcomes (:data:`COLUMNS`), stratum = task, cluster = the question's clip (the jackknife
    leaves its questions out together); without ``clusters`` each question is its own.

    >>> o = outcomes(np.array([True, False]), np.array([False, True]), [None, None], ["reasoning_basic_audio"] * 2)
    >>> o.column("correct").tolist(), o.column("scored").tolist()
    ([1.0, 0.0], [1.0, 0.0])
    """
    n = len(correct)
    scored = ~missing if mode == "official" else np.ones(n, dtype=bool)
    known = np.array([v is not None for v in yes_gold], dtype=bool)
    is_yes = np.array([bool(v) for v in yes_gold], dtype=bool)
    said_yes = (correct & is_yes) | (~correct & ~is_yes)
    answered = scored & ~missing
    columns = {
        "correct": (correct & scored).astype(np.float64),
        "scored": scored.astype(np.float64),
        "yes": (scored & known & is_yes).astype(np.float64),
        "no": (scored & known & ~is_yes).astype(np.float64),
        "correct_yes": (correct & scored & known & is_yes).astype(np.float64),
        "correct_no": (correct & scored & known & ~is_yes).astype(np.float64),
        "said_yes": (said_yes & answered & known).astype(np.float64),
        "answered": (answered & known).astype(np.float64),
        "known": known.astype(np.float64),
    }
    units = tuple(str(i) for i in ids) if ids is not None else tuple(str(k) for k in range(n))
    groups = tuple(str(c) for c in clusters) if clusters is not None else units
    return Outcomes(units, groups, columns, tuple(str(t) for t in tasks), unit="question", cluster_name="clip")


def metric_specs(table: Outcomes) -> tuple[dict[str, Metric], set[str]]:
    """Every score key of ``table`` as a metric over it, and the keys that are rates of 0/1 outcomes.

    Per task present: its accuracy (0 when nothing is scored, as the official code has it); per yes/no
    task whose gold Yes/No is known for every question: the gold-Yes and gold-No accuracies, their harmonic
    mean and the share of Yes answers; ``overall``, the mean of the task accuracies.
    """
    present = [t for t in TASKS if t in set(table.strata)]
    strata = np.asarray(table.strata)
    metrics: dict[str, Metric] = {}
    proportions: set[str] = set()
    for task in present:
        rows = strata == task
        metrics[f"accuracy/{task}"] = Ratio("correct", "scored", strata=(task,), empty=0.0, share_first=True)
        proportions.add(f"accuracy/{task}")
        if not yes_no_known(table, task):
            continue
        yes = Ratio("correct_yes", "yes", strata=(task,), share_first=True)
        no = Ratio("correct_no", "no", strata=(task,), share_first=True)
        has_yes, has_no = table.column("yes")[rows].sum() > 0, table.column("no")[rows].sum() > 0
        if has_yes:
            metrics[f"yes_accuracy/{task}"] = yes
        if has_no:
            metrics[f"no_accuracy/{task}"] = no
        if has_yes and has_no:
            metrics[f"yes_no_f1/{task}"] = HarmonicMean(yes, no)
        if table.column("answered")[rows].sum() > 0:
            metrics[f"yes_rate/{task}"] = Ratio("said_yes", "answered", strata=(task,), share_first=True)
        proportions.update({f"yes_accuracy/{task}", f"no_accuracy/{task}", f"yes_rate/{task}"})
    metrics["overall"] = Ratio("correct", "scored", by_stratum=True, strata=tuple(present), empty=0.0, share_first=True)
    return metrics, proportions


def yes_no_known(table: Outcomes, task: str) -> bool:
    """Whether ``task`` is a yes/no task whose every question has a known Yes/No gold answer."""
    return task in YES_NO_TASKS and bool(table.column("known")[np.asarray(table.strata) == task].all())


def _questions(
    predictions: Sequence[str | None],
    references: Sequence[str],
    tasks: Sequence[str],
    choices: Sequence[Sequence[str] | None] | None,
    gold_is_yes: Sequence[bool | None] | None,
    ids: Sequence[Any] | None,
    clusters: Sequence[Any] | None,
    mode: str,
    matcher: str,
) -> tuple[Outcomes, list[str], np.ndarray, np.ndarray]:
    """Validated inputs as outcomes, with the gold letters and the correct and missing flags."""
    golds = _validate(predictions, references, tasks, choices, gold_is_yes, ids)
    item_choices: list[Sequence[str] | None] = list(choices) if choices is not None else [None] * len(golds)
    missing = np.array([p is None for p in predictions], dtype=bool)
    correct = np.array(
        [
            not m and is_correct(str(p), g, matcher=matcher, choices=c)
            for p, g, c, m in zip(predictions, golds, item_choices, missing, strict=True)
        ],
        dtype=bool,
    )
    yes_gold = _gold_yes(golds, tasks, item_choices, gold_is_yes)
    if clusters is not None:
        check_same_length(predictions=predictions, clusters=clusters)
    table = outcomes(correct, missing, yes_gold, tasks, mode=mode, ids=ids, clusters=clusters)
    return table, golds, correct, missing


def score_outcomes(
    predictions: Sequence[str | None], references: Sequence[str], tasks: Sequence[str], **options: Any
) -> tuple[Outcomes, dict[str, Metric]]:
    """The outcomes of :func:`score`'s arguments and the metric of every score key over them."""
    mode, matcher = options.get("mode", "official"), options.get("matcher", "official")
    _check_config(mode, matcher, options.get("choices"), 0, 0.95)
    table, *_ = _questions(
        predictions, references, tasks, options.get("choices"), options.get("gold_is_yes"), options.get("ids"),
        options.get("clusters"), mode, matcher,
    )  # fmt: skip
    return table, metric_specs(table)[0]


def _check_config(mode: str, matcher: str, choices: Any, n_resamples: int, confidence: float) -> None:
    if mode not in MODES:
        raise ConfigError(f"`mode` must be one of {list(MODES)}, got {mode!r}")
    if matcher not in MATCHERS:
        raise ConfigError(f"`matcher` must be one of {list(MATCHERS)}, got {matcher!r}")
    if matcher == "official_parse" and choices is None:
        raise ConfigError("matcher='official_parse' reads the choices: pass `choices` (lettered, per item)")
    check_resampling(n_resamples, confidence, ConfigError)


def _validate(
    predictions: Sequence[str | None],
    references: Sequence[str],
    tasks: Sequence[str],
    choices: Sequence[Sequence[str] | None] | None,
    gold_is_yes: Sequence[bool | None] | None,
    ids: Sequence[Any] | None,
) -> list[str]:
    """Check every input; return the gold letters in upper case."""
    fields: dict[str, Any] = {"predictions": predictions, "references": references, "tasks": tasks}
    optional = {"choices": choices, "gold_is_yes": gold_is_yes, "ids": ids}
    fields.update({name: value for name, value in optional.items() if value is not None})
    check_same_length(**fields)
    check_nonempty("predictions", predictions)
    check_labels("tasks", tasks, TASKS)
    if ids is not None:
        check_unique("ids", ids)
    bad = [p for p in predictions if p is not None and not isinstance(p, str)]
    if bad:
        raise SchemaError(
            f"`predictions` must be strings (None for a missing output); {len(bad)} are not: {summarize(bad)}"
        )
    bad = [r for r in references if not (isinstance(r, str) and len(r) == 1 and r in _LETTERS)]
    if bad:
        raise SchemaError(f"`references` must be single letters A-Z; {len(bad)} are not: {summarize(bad)}")
    if gold_is_yes is not None:
        check_labels("gold_is_yes", gold_is_yes, {True, False, None})
    golds = [r.upper() for r in references]
    if choices is not None:
        _check_gold_in_choices(golds, choices, ids)
    return golds


def _check_gold_in_choices(
    golds: Sequence[str], choices: Sequence[Sequence[str] | None], ids: Sequence[Any] | None
) -> None:
    """Refuse a gold letter past the item's lettered choices (an item without choices is not checked).

    >>> _check_gold_in_choices(["A", "E"], [["(A) x", "(B) y"], ["(A) x", "(B) y"]], ["q1", "q2"])
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: `references` has 1 gold letters outside their item's choices: ["position 1 (id 'q2'): gold letter 'E' has no choice among ['(A) x', '(B) y']"]; fix the reference rows
    """
    bad = []
    for index, (gold, item_choices) in enumerate(zip(golds, choices, strict=True)):
        if item_choices is not None and not 0 <= ord(gold) - ord("A") < len(item_choices):
            where = f"position {index}" + (f" (id {ids[index]!r})" if ids is not None else "")
            bad.append(f"{where}: gold letter {gold!r} has no choice among {summarize(item_choices, 4)}")
    if bad:
        raise SchemaError(
            f"`references` has {len(bad)} gold letters outside their item's choices: {summarize(bad)}; "
            "fix the reference rows"
        )


def _gold_yes(
    golds: list[str],
    tasks: Sequence[str],
    choices: list[Sequence[str] | None],
    gold_is_yes: Sequence[bool | None] | None,
) -> list[bool | None]:
    """Whether each yes/no item's gold answer reads Yes (None when unknown or off the yes/no tasks)."""
    out: list[bool | None] = []
    for i, (gold, task, item_choices) in enumerate(zip(golds, tasks, choices, strict=True)):
        if task not in YES_NO_TASKS:
            out.append(None)
        elif gold_is_yes is not None and gold_is_yes[i] is not None:
            out.append(bool(gold_is_yes[i]))
        elif item_choices is not None:
            out.append(_yes_from_choices(i, gold, item_choices))
        else:
            out.append(None)
    return out


def _yes_from_choices(index: int, gold: str, item_choices: Sequence[str]) -> bool:
    """The official reading: the gold choice's text (by position) contains "yes", else "no"."""
    position = ord(gold) - ord("A")
    if not 0 <= position < len(item_choices):
        raise SchemaError(f"item {index}: gold letter {gold!r} has no choice among {summarize(item_choices)}")
    body = _LETTER_PREFIX.sub("", item_choices[position].strip(), count=1).strip().lower()
    if "yes" in body:
        return True
    if "no" in body:
        return False
    raise SchemaError(
        f"item {index}: the gold choice {item_choices[position]!r} reads neither Yes nor No; "
        "pass `gold_is_yes` for this item"
    )
