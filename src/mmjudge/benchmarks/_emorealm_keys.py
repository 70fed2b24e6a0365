"""The documented result keys of :func:`mmjudge.benchmarks.emorealm.score`, with directions."""

from __future__ import annotations

from collections.abc import Sequence

from mmjudge.benchmarks._base import ResultKey


def result_keys(tasks: Sequence[str], yes_no_tasks: Sequence[str]) -> tuple[ResultKey, ...]:
    """Every key ``score`` can return, in a stable order.

    >>> [k.name for k in result_keys(["modality_agreement"], ["modality_agreement"])][:4]
    ['accuracy/modality_agreement', 'accuracy/modality_agreement_ci_low', 'accuracy/modality_agreement_ci_high', 'n/modality_agreement']
    """
    per_task = (
        ("accuracy", True, "percent of scored items answered correctly (0-100)"),
        ("accuracy/{}_ci_low", True, "lower end of the bootstrap CI of accuracy (0-100)"),
        ("accuracy/{}_ci_high", True, "upper end of the bootstrap CI of accuracy (0-100)"),
        ("n", True, "items scored (count)"),
        ("n_correct", True, "items answered correctly (count)"),
        ("n_missing", False, "items without an output (count)"),
    )
    yes_no = (
        ("yes_accuracy", True, "accuracy on gold-Yes items; the paper's 'precision' (0-100)"),
        ("no_accuracy", True, "accuracy on gold-No items; the paper's 'recall' (0-100)"),
        ("yes_no_f1", True, "harmonic mean of yes_accuracy and no_accuracy (0-100)"),
        ("yes_rate", False, "percent of answered items read as Yes; neither direction is better (0-100)"),
        ("n_yes", True, "gold-Yes items scored (count)"),
        ("n_no", True, "gold-No items scored (count)"),
    )
    keys = [
        ResultKey(name.format(t) if "{}" in name else f"{name}/{t}", higher, f"{t}: {text}")
        for t in tasks
        for name, higher, text in per_task + (yes_no if t in yes_no_tasks else ())
    ]
    keys += [
        ResultKey("overall", True, "unweighted mean of the per-task accuracies present (0-100)"),
        ResultKey("n_items", True, "items given (count)"),
        ResultKey("n_missing", False, "items without an output (count)"),
        ResultKey("mode", True, "'official' (missing skipped) or 'strict' (missing wrong); not a score"),
        ResultKey("matcher", True, "'official', 'official_parse' or 'explicit'; not a score"),
    ]
    return tuple(keys)
