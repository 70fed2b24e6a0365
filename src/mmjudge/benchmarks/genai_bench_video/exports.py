"""GenAI-Bench (video) outside mmjudge: the dataset's ``eval.yaml`` tasks."""

from __future__ import annotations

from mmjudge.benchmarks._exports import EvalTask, ExportSpec

__all__ = ["EXPORTS"]

EXPORTS = ExportSpec(
    description=(
        "GenAI-Bench (video generation): arena votes between two generated clips of a prompt (left, right, tie, "
        "both bad). A judge scores each clip; pairwise accuracy without and with ties as VideoScore2's script "
        "computes it (pairs without a score skipped). Percentages."
    ),
    eval_tasks=(
        EvalTask("accuracy_without_ties", "pairs", "accuracy_without_ties", main=True),
        EvalTask("accuracy_with_ties", "pairs", "accuracy_with_ties"),
    ),
)
"""GenAI-Bench (video)'s export spec."""
