"""The documented result keys of :func:`mmjudge.benchmarks.emorealm.score`, with directions."""

from __future__ import annotations

from collections.abc import Sequence

from mmjudge.benchmarks._base import ResultKey

RATE = (
    "Wilson score interval over the questions where they are independent (one question of the key per clip), "
    "else Wilson score interval on the effective sample size of the jackknife over clips"
)
MEAN = (
    "Wilson score interval on the effective sample size of the jackknife over questions (over clips for "
    "questions given their clips), stratified by task when the clips nest in it"
)


def _with_ci(name: str, higher: bool, text: str, how: str) -> list[ResultKey]:
    return [
        ResultKey(name, higher, text),
        *ResultKey.interval_ends(name, higher, f" (0-100): {how}; none under 5 clips"),
    ]


def result_keys(tasks: Sequence[str], yes_no_tasks: Sequence[str]) -> tuple[ResultKey, ...]:
    """Every key ``score`` can return, in a stable order.

    >>> [k.name for k in result_keys(["modality_agreement"], ["modality_agreement"])][:4]
    ['accuracy/modality_agreement', 'accuracy/modality_agreement_ci_low', 'accuracy/modality_agreement_ci_high', 'n/modality_agreement']
    """
    keys: list[ResultKey] = []
    for t in tasks:
        keys += _with_ci(
            f"accuracy/{t}", True, f"{t}: percent of scored items answered correctly (0-100)", RATE
        )
        keys += [
            ResultKey(f"n/{t}", True, f"{t}: items scored (count)"),
            ResultKey(f"n_correct/{t}", True, f"{t}: items answered correctly (count)"),
            ResultKey(f"n_missing/{t}", False, f"{t}: items without an output, i.e. None (count)"),
        ]
        if t not in yes_no_tasks:
            continue
        keys += _with_ci(
            f"yes_accuracy/{t}",
            True,
            f"{t}: accuracy on gold-Yes items; the paper's 'precision' (0-100)",
            RATE,
        )
        keys += _with_ci(
            f"no_accuracy/{t}",
            True,
            f"{t}: accuracy on gold-No items; the paper's 'recall' (0-100)",
            RATE,
        )
        keys += _with_ci(
            f"yes_no_f1/{t}",
            True,
            f"{t}: harmonic mean of yes_accuracy and no_accuracy (0-100)",
            MEAN,
        )
        keys += _with_ci(
            f"yes_rate/{t}",
            False,
            f"{t}: percent of answered items read as Yes; neither direction is better (0-100)",
            RATE,
        )
        keys += [
            ResultKey(f"n_yes/{t}", True, f"{t}: gold-Yes items scored (count)"),
            ResultKey(f"n_no/{t}", True, f"{t}: gold-No items scored (count)"),
        ]  # fmt: skip
    keys += _with_ci(
        "overall",
        True,
        "unweighted mean of the per-task accuracies present (0-100)",
        MEAN,
    )
    keys += [
        ResultKey("n_items", True, "items given (count)"),
        ResultKey("n_missing", False, "items without an output, i.e. None (count)"),
        ResultKey("mode", True, "'official' (missing skipped) or 'strict' (missing wrong); not a score"),
        ResultKey("matcher", True, "'official', 'official_parse' or 'explicit'; not a score"),
    ]  # fmt: skip
    return tuple(keys)
