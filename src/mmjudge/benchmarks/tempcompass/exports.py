"""TempCompass outside mmjudge: the dataset's ``eval.yaml`` tasks (no lmms-eval task: the protocol rates captions
with a reward model's score, which lmms-eval's generation tasks do not ask)."""

from __future__ import annotations

from mmjudge.benchmarks._exports import EvalTask, ExportSpec
from mmjudge.benchmarks.tempcompass.release import DIMENSIONS

__all__ = ["EXPORTS"]

EXPORTS = ExportSpec(
    description=(
        "TempCompass caption matching, scored as reward models are (IsoVRBench paper, Appendix M): each caption rated "
        "by the judge's text-alignment score, the unique highest chosen (ties wrong). Accuracy in percent over every "
        "question, and per temporal dimension."
    ),
    eval_tasks=(
        EvalTask("caption_matching", "all", "accuracy", main=True),
        *(EvalTask(d, d, f"accuracy/{d}") for d in DIMENSIONS),
    ),
)
"""TempCompass's export spec."""
