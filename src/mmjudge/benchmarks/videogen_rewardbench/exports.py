"""VideoGen-RewardBench outside mmjudge: the dataset's ``eval.yaml`` tasks."""

from __future__ import annotations

from mmjudge.benchmarks._exports import EvalTask, ExportSpec
from mmjudge.benchmarks.videogen_rewardbench.scoring import ASPECTS

__all__ = ["EXPORTS"]

EXPORTS = ExportSpec(
    description=(
        "VideoGen-RewardBench: which of two generated clips of a prompt people prefer, on visual quality (VQ), "
        "motion quality (MQ), text alignment (TA) and overall. A judge scores each clip; accuracy without ties "
        "(VideoAlign's rule: a zero difference wrong) and with ties (Ties-Matter). Percentages."
    ),
    eval_tasks=(
        EvalTask("accuracy_without_ties", "pairs", "accuracy_without_ties/overall", main=True),
        *(EvalTask(f"accuracy_without_ties_{a.slug}", "pairs", f"accuracy_without_ties/{a.slug}") for a in ASPECTS[:3]),
        EvalTask("accuracy_with_ties", "pairs", "accuracy_with_ties/overall"),
    ),
)
"""VideoGen-RewardBench's export spec."""
