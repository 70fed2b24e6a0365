"""MIST outside mmjudge: the dataset's ``eval.yaml`` tasks and one lmms-eval task per image condition."""

from __future__ import annotations

from mmjudge.benchmarks._exports import EvalTask, ExportSpec, LmmsTask

__all__ = ["EXPORTS"]

EXPORTS = ExportSpec(
    description=(
        "MIST (Misleading-Image Stress Test): a judge labels an idiom in a sentence (FF/WF/FL/LL) with no "
        "image, an aligned image or a misleading one; the image should not change the label. Change "
        "rates, direction and agreement with the human trio majority, in percent."
    ),
    eval_tasks=(
        EvalTask("change_rate_misleading", "items", "change_rate/none_to_misleading/explicit", main=True),
        EvalTask("change_rate_aligned", "items", "change_rate/none_to_aligned/explicit"),
        EvalTask("direction", "items", "direction/explicit"),
        EvalTask("agreement", "items", "agreement/none"),
    ),
    lmms_tasks=(
        LmmsTask(
            "mist_none",
            "items",
            ("agreement/none",),
            select={"image_condition": "none"},
            score_options={"mode": "official"},
            description="text only: 4 prompt strategies per item",
        ),
        *(
            LmmsTask(
                f"mist_{condition}",
                "items",
                (f"agreement/{condition}/explicit", f"agreement/{condition}/silent"),
                select={"image_condition": condition},
                score_options={"mode": "official"},
                description=f"{condition} image: 4 prompt strategies x 2 arms per item",
            )
            for condition in ("aligned", "misleading")
        ),
    ),
    lmms_note=(
        "MIST runs as one task per image condition, each reporting agreement with the trio majority. "
        "Change rates and direction compare the labels of one item across conditions, which lmms-eval "
        "cannot do across tasks: score the full grid with `mmjudge eval` / `mmjudge score`."
    ),
)
"""MIST's export spec."""
