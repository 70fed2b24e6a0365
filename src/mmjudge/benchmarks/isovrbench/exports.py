"""IsoVRBench outside mmjudge: the dataset's ``eval.yaml`` tasks and the lmms-eval task."""

from __future__ import annotations

from mmjudge.benchmarks._exports import EvalTask, ExportSpec, LmmsTask
from mmjudge.benchmarks.isovrbench.scoring import INTERVENTIONS

__all__ = ["EXPORTS"]

EXPORTS = ExportSpec(
    description=(
        "IsoVRBench: video reward pairs built by controlled interventions (8 interventions). A judge "
        "scores each clip; a pair is right when the anchor scores strictly higher (ties and missing "
        "judgments count as wrong). Accuracy in percent; average = mean over the interventions."
    ),
    eval_tasks=(
        EvalTask("average", "all", "average", headline=True),
        *(EvalTask(name, name, f"accuracy/{name}") for name in INTERVENTIONS),
    ),
    lmms_tasks=(
        LmmsTask(
            "isovrbench",
            "clips",
            ("average", *(f"accuracy/{name}" for name in INTERVENTIONS)),
            description="every unique clip once, rated 0-9; the aggregation rebuilds the pairs",
        ),
    ),
    lmms_note=(
        "IsoVRBench runs pointwise: each clip is rated with one generated digit 0-9 (rescaled to 0-100), "
        "so pairs tie far more often than with the paper's expected digit under the next-token "
        "distribution, which needs logits; reward-head judges (VideoReward) need their heads. Run those "
        "through `mmjudge eval`."
    ),
)
"""IsoVRBench's export spec."""
