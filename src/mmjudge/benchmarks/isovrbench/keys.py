"""The documented result keys of :func:`mmjudge.benchmarks.isovrbench.score`, with directions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mmjudge.benchmarks._base import ResultKey

RATE = (
    "Wilson score interval over the pairs where they are independent (no cluster, or one pair of the key per "
    "prompt), else Wilson score interval on the effective sample size of the jackknife over prompts"
)
MEAN = (
    "Wilson score interval on the effective sample size of the jackknife over pairs (over prompts for pairs "
    "given a cluster), stratified by intervention when the clusters nest in it"
)


_PER_INTERVENTION: tuple[tuple[str, bool, str, str | None], ...] = (
    ("accuracy", True, "percent of pairs where the anchor scores higher; ties and no-judgment wrong (Table 2) (0-100)", RATE),
    ("decided_accuracy", True, "percent correct among decided pairs: no tie, judgment given (Table 5) (0-100)", RATE),
    ("tie_rate", False, "percent of pairs judged a tie (0-100)", RATE),
    ("no_judgment_rate", False, "percent of pairs without a judgment (0-100)", RATE),
    ("vgrb_accuracy", True, "VideoAlign's calc_accuracy_without_ties: concordant (chosen - rejected > 0) / all pairs (0-100)", RATE),
    ("n", True, "number of pairs (count)", None),
    ("n_correct", True, "pairs where the anchor scores higher (count)", None),
    ("n_tie", False, "pairs judged a tie (count)", None),
    ("n_no_judgment", False, "pairs without a judgment (count)", None),
)  # fmt: skip

_OVERALL: tuple[tuple[str, bool, str, str | None], ...] = (
    ("average", True, "mean of the per-intervention accuracies present; the paper's Table 2 'Avg.' (0-100)", MEAN),
    ("decided_average", True, "mean of the per-intervention decided accuracies; the paper's Table 5 'Avg.' (0-100)", MEAN),
    ("decided_accuracy_pooled", True, "all correct pairs over all decided pairs, pooled over interventions (0-100)", RATE),
    ("tie_rate", False, "percent of all pairs judged a tie, pooled; Table 5 'tie %' (0-100)", RATE),
    ("no_judgment_rate", False, "percent of all pairs without a judgment, pooled (0-100)", RATE),
    ("vgrb_accuracy", True, "VideoAlign's accuracy w/o ties over all pairs, pooled (0-100)", RATE),
    ("n_pairs", True, "number of pairs scored (count)", None),
    ("tie_tolerance", False, "the tie tolerance used (echo of the argument)", None),
)  # fmt: skip


def _keys(name: str, higher: bool, text: str, ci: str | None) -> list[ResultKey]:
    keys = [ResultKey(name, higher, text)]
    if ci is not None:
        keys += ResultKey.interval_ends(name, higher, f" (0-100): {ci}; none under 5 clusters")
    return keys


def result_keys(interventions: Iterable[str], dimensions: Mapping[str, object]) -> tuple[ResultKey, ...]:
    """Every key ``score`` can return, in a stable order.

    >>> keys = result_keys(["frame_hold"], {"motion": ()})
    >>> [k.name for k in keys][:2], len(keys)
    (['accuracy/frame_hold', 'accuracy/frame_hold_ci_low'], 42)
    """
    keys: list[ResultKey] = []
    for iv in interventions:
        for name, higher, text, ci in _PER_INTERVENTION:
            keys += _keys(f"{name}/{iv}", higher, f"{iv}: {text}", ci)
    for dim in dimensions:
        keys += _keys(f"dimension_accuracy/{dim}", True, f"{dim} dimension: mean accuracy (0-100)", MEAN)
    for name, higher, text, ci in _OVERALL:
        keys += _keys(name, higher, text, ci)
    return tuple(keys)
