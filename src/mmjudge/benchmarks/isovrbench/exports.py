"""IsoVRBench outside mmjudge: the dataset's ``eval.yaml`` tasks and the lmms-eval task."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._exports import EvalTask, ExportSpec, LmmsTask
from mmjudge.benchmarks.isovrbench.scoring import INTERVENTIONS

__all__ = ["EXPORTS", "clip_sides"]


def clip_sides(rows: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Clip id -> the ``pair_id:chosen`` / ``pair_id:rejected`` places it takes in the pairs ``rows``.

    >>> clip_sides([{"pair_id": "p1", "clip_id_chosen": "a", "clip_id_rejected": "b"}])
    {'a': ['p1:chosen'], 'b': ['p1:rejected']}
    """
    sides: dict[str, list[str]] = {}
    for row in rows:
        for side in ("chosen", "rejected"):
            sides.setdefault(str(row[f"clip_id_{side}"]), []).append(f"{row['pair_id']}:{side}")
    return sides


EXPORTS = ExportSpec(
    description=(
        "IsoVRBench: video reward pairs built by controlled interventions (8 interventions). A judge "
        "scores each clip; a pair is right when the anchor scores strictly higher (ties and missing "
        "judgments count as wrong). Accuracy in percent; average = mean over the interventions."
    ),
    eval_tasks=(
        EvalTask("average", "all", "average", main=True),
        *(EvalTask(name, name, f"accuracy/{name}") for name in INTERVENTIONS),
    ),
    lmms_tasks=(
        LmmsTask(
            "isovrbench_clips",
            "clips",
            ("average", *(f"accuracy/{name}" for name in INTERVENTIONS)),
            reference_config="all",
            doc_links=clip_sides,
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
