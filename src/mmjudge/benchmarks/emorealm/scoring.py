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

Intervals (95% by default, keys ``<key>_ci_low``/``_ci_high``, percent): every accuracy and rate is a
proportion and gets a Wilson interval; ``overall`` (a mean over tasks) gets a bootstrap stratified by
task, and ``yes_no_f1`` one stratified by the gold answer (Yes / No items resampled on their own).
"""

from __future__ import annotations

import re
import string
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from mmjudge._checks import check_labels, check_nonempty, check_same_length, check_unique
from mmjudge.benchmarks._intervals import check_resampling, percentile_keys, wilson_keys
from mmjudge.benchmarks.emorealm.match import (
    explicit_answer,
    matches_official,
    official_parse,
)
from mmjudge.errors import ConfigError, SchemaError, summarize

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
        mode: ``"official"`` (skip missing outputs) or ``"strict"`` (count them wrong).
        matcher: one of :data:`MATCHERS`.
        n_resamples, confidence, seed: the bootstrap of ``overall`` and ``yes_no_f1``
            (``n_resamples=0``: none); ``confidence`` also sets the Wilson intervals.

    Returns:
        Per task present: ``accuracy/<task>``, ``n/<task>`` (items scored), ``n_correct/<task>``,
        ``n_missing/<task>``; per yes/no task with Yes/No gold known: ``yes_accuracy/<task>`` (with
        gold-Yes items), ``no_accuracy/<task>`` (with gold-No items), ``yes_no_f1/<task>`` (with both),
        ``yes_rate/<task>``, ``n_yes/<task>``, ``n_no/<task>``; then ``overall``, ``n_items``,
        ``n_missing``, ``mode``, ``matcher``. Every score has its CI keys (see the module docstring).

    >>> r = score(["(A)", None, "B", "no"], ["A", "B", "A", "B"], ["reasoning_basic_audio"] * 2
    ...           + ["modality_agreement"] * 2, choices=[None, None] + [["(A) Yes", "(B) No"]] * 2, n_resamples=0)
    >>> r["accuracy/reasoning_basic_audio"], r["accuracy/modality_agreement"], r["overall"], r["mode"]
    (100.0, 0.0, 50.0, 'official')
    >>> score(["B", ""], ["B", "A"], ["reasoning_basic_audio"] * 2, n_resamples=0)["overall"]  # "" is wrong
    50.0
    """
    _check_config(mode, matcher, choices, n_resamples, confidence)
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
    task_array = np.asarray(tasks, dtype=object)
    result: dict[str, float | int | str] = {}
    rng = np.random.default_rng(seed)
    draws = []
    for task in (t for t in TASKS if t in set(task_array)):
        rows = task_array == task
        scored = rows & ~missing if mode == "official" else rows
        result.update(_task_scores(task, correct[scored], int((rows & missing).sum()), confidence))
        draws.append(_accuracy_draws(correct[scored], n_resamples, rng))
        if task in YES_NO_TASKS and not any(yes_gold[i] is None for i in np.flatnonzero(rows)):
            answered = scored & ~missing
            result.update(_yes_no(task, correct, yes_gold, scored, answered, confidence))
            result.update(_f1_ci(task, correct, yes_gold, scored, n_resamples, confidence, rng))
    accuracies = [float(result[f"accuracy/{t}"]) for t in TASKS if f"accuracy/{t}" in result]
    result["overall"] = float(np.mean(accuracies))
    if n_resamples > 0:
        result.update(percentile_keys("overall", np.mean(draws, axis=0), confidence))
    result.update(n_items=len(golds), n_missing=int(missing.sum()), mode=mode, matcher=matcher)
    return result


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


def _task_scores(
    task: str, correct: np.ndarray, n_missing: int, confidence: float
) -> dict[str, float | int | str]:
    if correct.size == 0:
        warnings.warn(
            f"EmoReAlM task {task!r}: every prediction is missing; its accuracy is 0 and it still counts "
            "in `overall`, as in the official code",
            stacklevel=3,
        )
    accuracy = 100.0 * float(correct.mean()) if correct.size else 0.0
    out: dict[str, float | int | str] = {f"accuracy/{task}": accuracy}
    out.update(wilson_keys(f"accuracy/{task}", int(correct.sum()), int(correct.size), confidence))
    out.update({f"n/{task}": int(correct.size), f"n_correct/{task}": int(correct.sum())})
    out[f"n_missing/{task}"] = n_missing
    return out


def _accuracy_draws(correct: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Bootstrap replicates of one task's accuracy (percent): resampling its scored items is a binomial
    draw of the correct count. A task with nothing scored stays at 0, as its accuracy does."""
    if correct.size == 0:
        return np.zeros(n_resamples)
    return 100.0 * rng.binomial(correct.size, correct.mean(), size=n_resamples) / correct.size


def _yes_no(
    task: str,
    correct: np.ndarray,
    yes_gold: list[bool | None],
    scored: np.ndarray,
    answered: np.ndarray,
    confidence: float,
) -> dict[str, float | int | str]:
    is_yes = np.array([bool(v) for v in yes_gold], dtype=bool)
    yes_items, no_items = scored & is_yes, scored & ~is_yes
    out: dict[str, float | int | str] = {
        f"n_yes/{task}": int(yes_items.sum()),
        f"n_no/{task}": int(no_items.sum()),
    }
    for name, items in (("yes_accuracy", yes_items), ("no_accuracy", no_items)):
        if items.any():
            out[f"{name}/{task}"] = 100.0 * float(correct[items].mean())
            out.update(wilson_keys(f"{name}/{task}", int(correct[items].sum()), int(items.sum()), confidence))
    if yes_items.any() and no_items.any():
        out[f"yes_no_f1/{task}"] = _f1(float(out[f"yes_accuracy/{task}"]), float(out[f"no_accuracy/{task}"]))
    if answered.any():
        said_yes = (correct & is_yes) | (~correct & ~is_yes)
        out[f"yes_rate/{task}"] = 100.0 * float(said_yes[answered].mean())
        out.update(
            wilson_keys(f"yes_rate/{task}", int(said_yes[answered].sum()), int(answered.sum()), confidence)
        )
    return out


def _f1(p: Any, r: Any) -> Any:
    """Harmonic mean of the two accuracies, 0 where both are 0 (the official code divides by zero)."""
    total = np.asarray(p + r, dtype=np.float64)
    value = np.divide(2.0 * p * r, total, out=np.zeros_like(total), where=total > 0)
    return float(value) if value.ndim == 0 else value


def _f1_ci(
    task: str,
    correct: np.ndarray,
    yes_gold: list[bool | None],
    scored: np.ndarray,
    n_resamples: int,
    confidence: float,
    rng: np.random.Generator,
) -> dict[str, float]:
    """Bootstrap of ``yes_no_f1`` with gold-Yes and gold-No items resampled on their own."""
    is_yes = np.array([bool(v) for v in yes_gold], dtype=bool)
    yes_items, no_items = scored & is_yes, scored & ~is_yes
    if n_resamples <= 0 or not (yes_items.any() and no_items.any()):
        return {}
    p = _accuracy_draws(correct[yes_items], n_resamples, rng)
    r = _accuracy_draws(correct[no_items], n_resamples, rng)
    return percentile_keys(f"yes_no_f1/{task}", _f1(p, r), confidence)
