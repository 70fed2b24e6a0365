"""Preprocessing profiles: each judge's frames, sizes, kernels and positions as its reference code has them.

A profile names the code a judge's checkpoints were trained and published with and states its rules:

- **frame count** at a rate or for a fixed count (:func:`mmjudge.media.video.frame_count`:
  qwen-vl-utils floors a rate-derived count to the frame factor, VideoAlign rounds it and caps at the
  clip length), indices ``torch.linspace(0, total - 1, n).round()``;
- **video frame size**: ``min_pixels = 128 * factor**2``, ``max_pixels = max(min(768 * factor**2,
  total_pixels / n * 2), int(min_pixels * 1.05))``, then a configured ``max_pixels`` *caps* that
  (qwen-vl-utils 0.0.14) or *replaces* it (VideoAlign's copy), then :func:`~mmjudge.media.resize.smart_resize`;
- **image size**: ``[4, 16384] * factor**2`` (qwen-vl-utils ``fetch_image``);
- **kernels**: torchvision bicubic with antialias for videos, Pillow bicubic for images;
- **positions**: ``"mrope"`` (transformers computes Qwen-VL's 3-D rotary positions) or
  ``"sequential"`` (``0 .. L-1`` on all three axes: what a model called with ``position_ids=None`` got
  under transformers 4.45, where VideoAlign's reward models were trained).

The pixel rules take the model's ``factor`` (``patch_size * merge_size``: 28 for Qwen2/2.5-VL and
Qwen2.5-Omni, 32 for Qwen3-VL). A profile is applied once: either the runner's decode workers resize
to it (when the request carries the factor, as ``video_reward`` and ``audio_visual`` do) or the judge
does after loading its processor (``vlm_digit``); a frame stack already at its target size is passed on
untouched, so nothing is resized twice.

>>> QWEN_VL_UTILS.video_size(480, 832, num_frames=10, factor=28)
(476, 840)
>>> VIDEOALIGN.video_size(480, 832, num_frames=10, factor=28, max_pixels=200_704)
(336, 588)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from mmjudge.errors import ConfigError
from mmjudge.media.resize import resize_frames, smart_resize
from mmjudge.media.video import sample_indices

__all__ = ["PROFILES", "QWEN_OMNI_UTILS", "QWEN_VL_UTILS", "VIDEOALIGN", "VisionProfile"]


@dataclass(frozen=True)
class VisionProfile:
    """The preprocessing rules of one reference implementation (see the module docstring)."""

    name: str
    """Short name, shown in judge cards and ``results.json``."""
    reference: str
    """The code this profile equals (package and version, or repository, commit and file)."""
    frame_rule: str
    """Frame-count rule of :func:`mmjudge.media.video.frame_count` (``qwen_vl_utils`` or ``videoalign``)."""
    frame_factor: int = 2
    """Frame counts are multiples of this (the references' ``FRAME_FACTOR``)."""
    fps: float = 2.0
    """Default sampling rate."""
    min_frames: int = 4
    """Fewest frames at a rate (``FPS_MIN_FRAMES``)."""
    video_min_tokens: int = 128
    """Video frame floor in ``factor**2`` cells (``VIDEO_MIN_PIXELS = 128 * 28 * 28``)."""
    video_max_tokens: int = 768
    """Video frame cap in ``factor**2`` cells before the clip budget (``VIDEO_MAX_PIXELS``)."""
    video_total_tokens: float = 128_000 * 0.9
    """Whole-clip budget in ``factor**2`` cells (qwen-vl-utils: ``MODEL_SEQ_LEN * 0.9``; VideoAlign 24,576)."""
    max_pixels_given: str = "caps"
    """What a configured ``max_pixels`` does to the computed cap: ``caps`` (only lowers it) or ``replaces``."""
    image_min_tokens: int = 4
    """Image floor in ``factor**2`` cells."""
    image_max_tokens: int = 16384
    """Image cap in ``factor**2`` cells."""
    video_kernel: str = "torchvision_bicubic_antialias"
    """Resize kernel for video frames (:data:`mmjudge.media.resize.KERNELS`)."""
    image_kernel: str = "pil_bicubic"
    """Resize kernel for images."""
    positions: str = "mrope"
    """Rotary position ids the model is run with: ``mrope`` or ``sequential``."""

    def frame_indices(
        self,
        total: int,
        fps: float,
        *,
        num: int | None = None,
        target_fps: float | None = None,
        min_frames: int | None = None,
        max_frames: int | None = None,
    ) -> list[int]:
        """The frames the reference samples from a clip of ``total`` frames at ``fps``.

        >>> QWEN_VL_UTILS.frame_indices(81, 16.0, target_fps=2.0)
        [0, 9, 18, 27, 36, 44, 53, 62, 71, 80]
        >>> QWEN_VL_UTILS.frame_indices(81, 16.0, num=5)
        [0, 27, 53, 80]
        """
        return sample_indices(
            total,
            fps,
            num=num,
            target_fps=target_fps,
            min_frames=self.min_frames if min_frames is None else min_frames,
            max_frames=max_frames,
            multiple_of=self.frame_factor,
            rule=self.frame_rule,
        )

    def video_limits(
        self,
        num_frames: int,
        factor: int,
        *,
        min_pixels: int | None = None,
        max_pixels: int | None = None,
        total_pixels: float | None = None,
    ) -> tuple[float, float]:
        """``(min_pixels, max_pixels)`` per frame of a clip of ``num_frames`` sampled frames.

        >>> QWEN_VL_UTILS.video_limits(10, 28)
        (100352, 602112)
        """
        cell = factor * factor
        low = self.video_min_tokens * cell if min_pixels is None else min_pixels
        budget = self.video_total_tokens * cell if total_pixels is None else total_pixels
        computed = max(
            min(self.video_max_tokens * cell, budget / max(1, num_frames) * self.frame_factor),
            int(low * 1.05),
        )
        if max_pixels is None:
            high = computed
        else:
            high = min(max_pixels, computed) if self.max_pixels_given == "caps" else max_pixels
        if self.max_pixels_given == "caps" and high < low:
            raise ConfigError(
                f"{self.name}: the frame cap {high:g} is below the frame floor {low:g} pixels; "
                f"{self.reference} refuses that: raise max_pixels or lower min_pixels in the config"
            )
        return low, high

    def video_size(
        self,
        height: int,
        width: int,
        num_frames: int,
        factor: int,
        *,
        min_pixels: int | None = None,
        max_pixels: int | None = None,
        total_pixels: float | None = None,
    ) -> tuple[int, int]:
        """Target ``(height, width)`` of each frame of a ``height x width`` clip (limits: :meth:`video_limits`)."""
        low, high = self.video_limits(
            num_frames, factor, min_pixels=min_pixels, max_pixels=max_pixels, total_pixels=total_pixels
        )
        return smart_resize(height, width, factor, low, high)

    def image_size(
        self,
        height: int,
        width: int,
        factor: int,
        *,
        min_pixels: int | None = None,
        max_pixels: int | None = None,
    ) -> tuple[int, int]:
        """Target ``(height, width)`` of an image (qwen-vl-utils ``fetch_image``).

        >>> QWEN_VL_UTILS.image_size(480, 832, 28)
        (476, 840)
        """
        cell = factor * factor
        low = self.image_min_tokens * cell if min_pixels is None else min_pixels
        high = self.image_max_tokens * cell if max_pixels is None else max_pixels
        if high < low:
            raise ConfigError(
                f"{self.name}: the image cap {high} is below the image floor {low} pixels; "
                "raise max_pixels or lower min_pixels in the config"
            )
        return smart_resize(height, width, factor, low, high)

    def fit_video(
        self,
        frames: np.ndarray,
        factor: int,
        *,
        source_size: tuple[int, int] | None = None,
        min_pixels: int | None = None,
        max_pixels: int | None = None,
        total_pixels: float | None = None,
    ) -> np.ndarray:
        """``uint8 (T, H, W, 3)`` frames at :meth:`video_size` of the clip, resized at most once.

        ``source_size`` is the clip's ``(height, width)``; frames that already have the target size of that
        source (resized by the runner's decode workers) come back untouched, so a size rule that is not
        idempotent is still applied once. ``None``: the frames are the source.
        """
        source_height, source_width = source_size or (frames.shape[1], frames.shape[2])
        height, width = self.video_size(
            source_height,
            source_width,
            len(frames),
            factor,
            min_pixels=min_pixels,
            max_pixels=max_pixels,
            total_pixels=total_pixels,
        )
        return resize_frames(frames, height, width, self.video_kernel)

    def fit_image(
        self, image: np.ndarray, factor: int, *, min_pixels: int | None = None, max_pixels: int | None = None
    ) -> np.ndarray:
        """One ``uint8 (H, W, 3)`` image resized to :meth:`image_size` (the input when already there)."""
        height, width = self.image_size(
            image.shape[0], image.shape[1], factor, min_pixels=min_pixels, max_pixels=max_pixels
        )
        return resize_frames(image, height, width, self.image_kernel)


QWEN_VL_UTILS = VisionProfile(
    name="qwen_vl_utils",
    reference="qwen-vl-utils 0.0.14 (PyPI): process_vision_info / fetch_video / fetch_image / smart_nframes",
    frame_rule="qwen_vl_utils",
)
"""Qwen2-VL, Qwen2.5-VL and Qwen3-VL judges (``vlm_digit``, ``label_choice``, ``pairwise_describe``)."""

QWEN_OMNI_UTILS = dataclasses.replace(
    QWEN_VL_UTILS,
    name="qwen_omni_utils",
    reference="qwen-omni-utils 0.0.9 (PyPI): process_mm_info (its vision_process equals qwen-vl-utils 0.0.14's)",
)
"""Qwen2.5-Omni (``audio_visual``): the same vision rules; audio as ``librosa.load(sr=16000)``."""

VIDEOALIGN = VisionProfile(
    name="videoalign",
    reference="KwaiVGI/VideoAlign@219ab9d vision_process.py + trainer.py (transformers 4.45.2)",
    frame_rule="videoalign",
    video_total_tokens=24_576,
    max_pixels_given="replaces",
    positions="sequential",
)
"""VideoReward / VideoAlign reward models (``video_reward``)."""

PROFILES = {p.name: p for p in (QWEN_VL_UTILS, QWEN_OMNI_UTILS, VIDEOALIGN)}
"""Profile name -> profile."""
