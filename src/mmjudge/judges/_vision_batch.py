"""Frames into a Qwen-VL-style processor batch, resized once by the judge's preprocessing profile.

The processors of Qwen2-VL, Qwen2.5-VL, Qwen3-VL and Qwen2.5-Omni can resize frames themselves. mmjudge
resizes every frame once, with the rules and the kernel of the judge's reference code
(:mod:`mmjudge.judges.profiles`: qwen-vl-utils for the Qwen-VL judges and qwen-omni-utils for
Qwen2.5-Omni, at the model's factor ``patch_size * merge_size``, :func:`model_factor`), and calls the
processor with ``do_resize=False``. For Qwen3-VL that is the reference call itself (its model card passes
``do_resize=False`` after qwen-vl-utils); for Qwen2/2.5-VL and Qwen2.5-Omni the reference lets the
processor resize again, which leaves a qwen-vl-utils size unchanged whenever it lies within the
processor's own pixel limits (3,136 to 12,845,056 in the official Qwen2-VL, Qwen2.5-VL and Qwen2.5-Omni
preprocessor configs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mmjudge.errors import ConfigError

__all__ = ["model_factor", "processor_batch", "video_metadata"]


def model_factor(processor: Any, *, video: bool) -> int:
    """The model's resize factor, ``patch_size * merge_size`` of its video (or image) processor.

    >>> from types import SimpleNamespace
    >>> model_factor(SimpleNamespace(video_processor=SimpleNamespace(patch_size=16, merge_size=2)), video=True)
    32
    """
    name = "video_processor" if video else "image_processor"
    sub = getattr(processor, name, None)
    if sub is None:
        raise ConfigError(f"{type(processor).__name__} has no {name}; a Qwen-VL-style processor is expected")
    return int(getattr(sub, "patch_size", 14)) * int(getattr(sub, "merge_size", 2))


def video_metadata(
    frame_indices: Sequence[int], fps: float | None, num_frames: int, total_frames: int | None = None
) -> dict[str, Any]:
    """``video_metadata`` for a processor given already sampled frames (Qwen3-VL timestamps need it).

    The fields qwen-vl-utils' ``fetch_video(..., return_video_metadata=True)`` gives: the clip's fps, the
    sampled indices and the clip's frame count (``total_frames``; unknown: the last index + 1).

    >>> video_metadata([0, 40, 80], 16.0, 3, 81)
    {'total_num_frames': 81, 'fps': 16.0, 'frames_indices': [0, 40, 80]}
    """
    indices = list(frame_indices) or list(range(num_frames))
    return {
        "total_num_frames": int(total_frames) if total_frames else int(max(indices)) + 1,
        "fps": float(fps) if fps else 1.0,
        "frames_indices": [int(i) for i in indices],
    }


def processor_batch(
    processor: Any,
    texts: Sequence[str],
    *,
    images: Sequence[Any] | None = None,
    videos: Sequence[np.ndarray] | None = None,
    metadata: Sequence[dict[str, Any]] | None = None,
    padding_side: str = "left",
    **kwargs: Any,
) -> Any:
    """Call the processor on already resized media (``do_resize=False``), padded on ``padding_side``."""
    if padding_side not in ("left", "right"):
        raise ConfigError(f"expected padding_side 'left' or 'right', got {padding_side!r}")
    processor.tokenizer.padding_side = padding_side
    call: dict[str, Any] = {"text": list(texts), "padding": True, "return_tensors": "pt", "do_resize": False}
    if images:
        call["images"] = list(images)
    if videos:
        call["videos"] = list(videos)
        if metadata is not None:
            call["video_metadata"] = list(metadata)
            call["do_sample_frames"] = False
        if hasattr(getattr(processor, "video_processor", None), "cap_pixels_per_frame"):
            call["cap_pixels_per_frame"] = False  # only affects the processor's resize, which is off
    return processor(**call, **kwargs)
