"""TemporalBench outside mmjudge: the dataset's ``eval.yaml`` tasks (no lmms-eval task: the protocol rates
captions with a reward model's score, which lmms-eval's generation tasks do not ask)."""

from __future__ import annotations

from mmjudge.benchmarks._captions.scoring import category_key
from mmjudge.benchmarks._exports import EvalTask, ExportSpec
from mmjudge.benchmarks.temporalbench.sample import CATEGORIES

__all__ = ["EXPORTS"]

EXPORTS = ExportSpec(
    description=(
        "TemporalBench binary caption questions, scored as reward models are (IsoVRBench paper, Appendix M): each "
        "caption rated by the judge's text-alignment score, the unique highest chosen (ties wrong). Multiple Binary "
        "Accuracy: percent of videos whose every question is right; Binary Accuracy: percent of questions."
    ),
    eval_tasks=(
        EvalTask("multiple_binary_accuracy", "all", "multiple_binary_accuracy", main=True),
        EvalTask("binary_accuracy", "all", "accuracy"),
        *(EvalTask(category_key(c), category_key(c), "multiple_binary_accuracy") for c in CATEGORIES),
    ),
)
"""TemporalBench's export spec."""
