"""EmoReAlM outside mmjudge: the dataset's ``eval.yaml`` tasks and the lmms-eval task."""

from __future__ import annotations

from mmjudge.benchmarks._exports import EvalTask, ExportSpec, LmmsTask
from mmjudge.benchmarks.emorealm.scoring import TASKS

__all__ = ["EXPORTS"]

EXPORTS = ExportSpec(
    description=(
        "EmoReAlM (AVERE): audio-visual emotion reasoning questions in five tasks. A response is right "
        "when the gold letter occurs in it as a whole word (the official matcher). Accuracy in percent; "
        "overall = unweighted mean over the tasks."
    ),
    eval_tasks=(
        EvalTask("overall", "all", "overall", main=True),
        *(EvalTask(name, name, f"accuracy/{name}") for name in TASKS),
    ),
    lmms_tasks=(
        LmmsTask(
            "emorealm_questions",
            "all",
            ("overall", *(f"accuracy/{name}" for name in TASKS)),
            score_options={"mode": "official"},
            description="every question, answered in free text and scored with the official matcher",
        ),
    ),
    lmms_note=(
        "EmoReAlM docs give the clip's video path; its audio is the `.wav` at the same relative path "
        "under the media root (an audio-visual model reads the audio track of the video or that file)."
    ),
)
"""EmoReAlM's export spec."""
