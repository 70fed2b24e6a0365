"""Frames into a Qwen-VL-style processor batch, resized once by :mod:`mmjudge.media.resize`.

The processors of Qwen2-VL, Qwen2.5-VL, Qwen3-VL and Qwen2.5-Omni resize frames themselves with their own
arithmetic and interpolation. mmjudge resizes every frame with its one implementation
(:func:`mmjudge.media.resize.resize_max_pixels`, smart resize with the model's factor
``patch_size * merge_size``) and calls the processor with ``do_resize=False``, so the pixels a model sees
do not depend on which processor or decoder backend ran. :func:`frame_budget` reads the processor's own
pixel limits when the config sets none: per frame for Qwen2/2.5-VL, **per video** for Qwen3-VL video
processors (their ``size["longest_edge"]`` bounds ``frames x height x width``: the per-frame budget is
that divided by the number of frames).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mmjudge.errors import ConfigError
from mmjudge.media.resize import resize_max_pixels

__all__ = ["PixelBudget", "fit_frames", "frame_budget", "processor_batch", "video_metadata"]


class PixelBudget(NamedTuple):
    """How a clip's frames are resized for a model."""

    factor: int
    """Both output sides are multiples of this (``patch_size * merge_size``)."""
    min_pixels: int
    """Lower bound on the area of one frame."""
    max_pixels: int
    """Upper bound on the area of one frame."""


def _sub_processor(processor: Any, video: bool) -> Any:
    sub = getattr(processor, "video_processor" if video else "image_processor", None)
    if sub is None:
        raise ConfigError(f"{type(processor).__name__} has no {'video' if video else 'image'} processor")
    return sub


def _size_limits(sub: Any) -> tuple[int | None, int | None]:
    size = getattr(sub, "size", None) or {}
    get = size.get if isinstance(size, dict) else lambda key: getattr(size, key, None)
    low = get("shortest_edge") or getattr(sub, "min_pixels", None)
    high = get("longest_edge") or getattr(sub, "max_pixels", None)
    return (int(low) if low else None), (int(high) if high else None)


def budget_is_per_video(processor: Any) -> bool:
    """Whether the processor's video pixel limits bound the whole clip (Qwen3-VL) rather than one frame."""
    sub = getattr(processor, "video_processor", None)
    return sub is not None and type(sub).__name__.startswith("Qwen3VL")


def frame_budget(
    processor: Any,
    *,
    video: bool,
    num_frames: int,
    max_pixels: int | None = None,
    min_pixels: int | None = None,
    video_max_pixels: int | None = None,
) -> PixelBudget:
    """The per-frame resize budget for ``num_frames`` frames fed as a video (or as images).

    Args:
        processor: the model's processor.
        video: frames go in as one video (else as separate images).
        num_frames: frames in the clip.
        max_pixels: per-frame cap from the config (``None``: the processor's own limit).
        min_pixels: per-frame floor (``None``: the processor's own, at most ``max_pixels``).
        video_max_pixels: a pixel budget for the whole clip, divided evenly between its frames.

    >>> from types import SimpleNamespace
    >>> sub = SimpleNamespace(patch_size=14, merge_size=2, size={"shortest_edge": 3136, "longest_edge": 200_704})
    >>> frame_budget(SimpleNamespace(video_processor=sub), video=True, num_frames=8)
    PixelBudget(factor=28, min_pixels=3136, max_pixels=200704)
    >>> frame_budget(SimpleNamespace(video_processor=sub), video=True, num_frames=8, video_max_pixels=800_000)
    PixelBudget(factor=28, min_pixels=3136, max_pixels=100000)
    """
    sub = _sub_processor(processor, video)
    factor = int(getattr(sub, "patch_size", 14)) * int(getattr(sub, "merge_size", 2))
    low, high = _size_limits(sub)
    per_video = video and budget_is_per_video(processor)
    frames = max(1, num_frames)
    if per_video:
        low = low // frames if low else None
        high = high // frames if high else None
    cap = max_pixels or high or 16384 * factor * factor
    if video_max_pixels is not None:
        cap = min(cap, video_max_pixels // frames)
    cap = max(cap, factor * factor)
    floor = min(min_pixels if min_pixels is not None else (low or 4 * factor * factor), cap)
    return PixelBudget(factor, max(floor, factor * factor), cap)


def fit_frames(frames: np.ndarray, budget: PixelBudget) -> np.ndarray:
    """``frames`` smart-resized to ``budget`` (the input itself when it already fits).

    >>> fit_frames(np.zeros((2, 480, 832, 3), dtype=np.uint8), PixelBudget(28, 100_352, 200_704)).shape
    (2, 336, 588, 3)
    """
    return resize_max_pixels(frames, budget.max_pixels, budget.factor, min_pixels=budget.min_pixels)


def video_metadata(frame_indices: Sequence[int], fps: float | None, num_frames: int) -> dict[str, Any]:
    """``video_metadata`` for a processor given already sampled frames (Qwen3-VL timestamps need it).

    >>> video_metadata([0, 40, 80], 16.0, 3)["frames_indices"]
    [0, 40, 80]
    """
    indices = list(frame_indices) or list(range(num_frames))
    return {
        "total_num_frames": int(max(indices)) + 1,
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
