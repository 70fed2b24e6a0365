"""MJ-Bench-Video outside mmjudge: the dataset's ``eval.yaml`` tasks."""

from __future__ import annotations

from mmjudge.benchmarks._exports import EvalTask, ExportSpec
from mmjudge.benchmarks.mj_bench_video.scoring import ASPECTS

__all__ = ["EXPORTS"]

EXPORTS = ExportSpec(
    description=(
        "MJ-Bench-Video: which of two generated clips of a caption people prefer, overall and on alignment, safety, "
        "fineness, coherence & consistency and bias. A judge scores each clip; accuracy without ties (pairs labelled "
        "Same dropped) as VideoScore2's script computes it. Percentages."
    ),
    eval_tasks=(
        EvalTask("accuracy_without_ties", "pairs", "accuracy_without_ties/overall", main=True),
        *(EvalTask(f"accuracy_without_ties_{a.slug}", "pairs", f"accuracy_without_ties/{a.slug}") for a in ASPECTS[1:]),
    ),
)
"""MJ-Bench-Video's export spec."""
