"""Frame-level interventions and motion scores used to build IsoVRBench pairs.

``temporal_shuffle`` and ``frame_hold`` re-index the anchor's frames and return the index map they
applied (``counterpart[i] == anchor[index_map[i]]``); ``motion_score`` and
``select_anchors_by_motion`` pick high-motion anchors; ``write_counterpart`` decodes an anchor clip,
applies an intervention and encodes the counterpart with the anchor's frame rate and codec settings.
"""

from __future__ import annotations

from mmjudge.benchmarks.isovrbench.interventions._frames import (
    InterventionResult,
    frame_hold,
    hold_index_map,
    segment_bounds,
    shuffle_index_map,
    temporal_shuffle,
)
from mmjudge.benchmarks.isovrbench.interventions._motion import motion_score, select_anchors_by_motion
from mmjudge.benchmarks.isovrbench.interventions._write import (
    FRAME_INTERVENTIONS,
    EncodeSettings,
    WrittenCounterpart,
    read_x264_settings,
    write_counterpart,
)

__all__ = [
    "FRAME_INTERVENTIONS",
    "EncodeSettings",
    "InterventionResult",
    "WrittenCounterpart",
    "frame_hold",
    "hold_index_map",
    "motion_score",
    "read_x264_settings",
    "segment_bounds",
    "select_anchors_by_motion",
    "shuffle_index_map",
    "temporal_shuffle",
    "write_counterpart",
]
