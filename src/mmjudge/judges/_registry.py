"""The judge registry: built-in backends plus any package's ``mmjudge.judges`` entry points."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from mmjudge.registry import JUDGE_ENTRY_POINT_GROUP, Registry

if TYPE_CHECKING:
    from mmjudge.judges._base import Judge

__all__ = ["JUDGES", "get_judge", "register_judge"]

T = TypeVar("T")

JUDGES: Registry[type[Judge]] = Registry(
    "judge",
    builtin_modules={
        "audio_language": "mmjudge.judges.audio_language",
        "audio_visual": "mmjudge.judges.audio_visual",
        "clip_score": "mmjudge.judges.clip_score",
        "constant": "mmjudge.judges.constant",
        "frame_smoothness": "mmjudge.judges.frame_smoothness",
        "label_choice": "mmjudge.judges.label_choice",
        "openai_compatible": "mmjudge.judges.openai_compatible",
        "pairwise_describe": "mmjudge.judges.pairwise_describe",
        "random": "mmjudge.judges.random_judge",
        "sharpness": "mmjudge.judges.sharpness",
        "unified_reward": "mmjudge.judges.unified_reward",
        "unified_reward_flex": "mmjudge.judges.unified_reward_flex",
        "unified_reward_pair": "mmjudge.judges.unified_reward_pair",
        "video_reward": "mmjudge.judges.video_reward",
        "video_score": "mmjudge.judges.video_score",
        "videoscore2": "mmjudge.judges.videoscore2",
        "vlm_digit": "mmjudge.judges.vlm_digit",
    },
    entry_point_group=JUDGE_ENTRY_POINT_GROUP,
)
"""Every judge backend: built-ins (modules that register themselves on import) and entry points."""


def register_judge(name: str) -> Callable[[T], T]:
    """Register a judge class or factory under ``name``."""
    return JUDGES.register(name)


def get_judge(name: str) -> type[Judge]:
    """Look up a judge by name, including judges registered by other packages' entry points."""
    return JUDGES.get(name)
