"""The documented result keys of :func:`mmjudge.benchmarks.isovrbench.score`, with directions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mmjudge.benchmarks._base import ResultKey

_PER_INTERVENTION: tuple[tuple[str, bool, str], ...] = (
    ("accuracy", True, "percent of pairs where the anchor scores higher; ties and no-judgment wrong (0-100)"),
    ("accuracy/{}_ci_low", True, "lower end of the bootstrap CI of accuracy (0-100)"),
    ("accuracy/{}_ci_high", True, "upper end of the bootstrap CI of accuracy (0-100)"),
    ("decided_accuracy", True, "percent correct among decided pairs (no tie, judgment given) (0-100)"),
    ("tie_rate", False, "percent of pairs judged a tie (0-100)"),
    ("no_judgment_rate", False, "percent of pairs without a judgment (0-100)"),
    ("vgrb_accuracy", True, "VideoGen-RewardBench accuracy w/o ties: correct / judged pairs (0-100)"),
    ("n", True, "number of pairs (count)"),
    ("n_correct", True, "pairs where the anchor scores higher (count)"),
    ("n_tie", False, "pairs judged a tie (count)"),
    ("n_no_judgment", False, "pairs without a judgment (count)"),
)

_POOLED: tuple[tuple[str, bool, str], ...] = (
    ("average", True, "mean of the per-intervention accuracies present (0-100)"),
    ("average_ci_low", True, "lower end of the bootstrap CI of average (0-100)"),
    ("average_ci_high", True, "upper end of the bootstrap CI of average (0-100)"),
    ("decided_accuracy", True, "percent correct among all decided pairs, pooled (0-100)"),
    ("tie_rate", False, "percent of all pairs judged a tie, pooled (0-100)"),
    ("no_judgment_rate", False, "percent of all pairs without a judgment, pooled (0-100)"),
    ("vgrb_accuracy", True, "VideoGen-RewardBench accuracy w/o ties over all judged pairs, pooled (0-100)"),
    ("n_pairs", True, "number of pairs scored (count)"),
    ("tie_tolerance", False, "the tie tolerance used (echo of the argument)"),
)


def result_keys(interventions: Iterable[str], dimensions: Mapping[str, object]) -> tuple[ResultKey, ...]:
    """Every key ``score`` can return, in a stable order.

    >>> keys = result_keys(["frame_hold"], {"motion": ()})
    >>> [k.name for k in keys][:2], len(keys)
    (['accuracy/frame_hold', 'accuracy/frame_hold_ci_low'], 23)
    """
    keys: list[ResultKey] = []
    for iv in interventions:
        for name, higher, description in _PER_INTERVENTION:
            full = name.format(iv) if "{}" in name else f"{name}/{iv}"
            keys.append(ResultKey(full, higher, f"{iv}: {description}"))
    for dim in dimensions:
        for suffix, what in (("", "mean accuracy"), ("_ci_low", "CI low"), ("_ci_high", "CI high")):
            keys.append(
                ResultKey(f"dimension_accuracy/{dim}{suffix}", True, f"{dim} dimension: {what} (0-100)")
            )
    keys.extend(ResultKey(name, higher, description) for name, higher, description in _POOLED)
    return tuple(keys)
