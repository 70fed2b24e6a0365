"""EmoPrefer-Data outside mmjudge: the dataset's ``eval.yaml`` tasks and the lmms-eval tasks."""

from __future__ import annotations

from mmjudge.benchmarks._exports import EvalTask, ExportSpec, LmmsTask

__all__ = ["EXPORTS"]

_FORWARD = ("waf_2class", "acc_2class", "waf_3class", "acc_3class")

EXPORTS = ExportSpec(
    description=(
        "EmoPrefer-Data: which of two emotion descriptions of a clip is better (a1, a2 or same). "
        "2-class weighted F1 drops gold `same` and maps a predicted `same` to a1 (the official rule); "
        "swap consistency asks every pair again with the descriptions swapped. Percentages."
    ),
    eval_tasks=(
        EvalTask("waf_2class", "pairs", "waf_2class", main=True),
        EvalTask("acc_3class", "pairs", "acc_3class"),
        EvalTask("swap_consistency", "pairs_reversed", "swap_consistency"),
    ),
    lmms_tasks=(
        LmmsTask("emoprefer_forward", "pairs", _FORWARD, description="every pair in the release's order"),
        LmmsTask(
            "emoprefer_reversed",
            "pairs_reversed",
            (*_FORWARD, "swap_consistency"),
            reference_config="pairs",
            swap=True,
            description="every pair in both orders (forward, then a1/a2 swapped): adds swap consistency",
        ),
    ),
)
"""EmoPrefer's export spec."""
