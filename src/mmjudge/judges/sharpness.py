"""``sharpness``: a weight-free IsoVRBench floor for visual quality, the variance of the Laplacian.

For sampled frames ``x_1 .. x_K`` (``uint8`` RGB):

1. Grey image ``g_k = 0.299 R + 0.587 G + 0.114 B`` in float64, 8-bit levels (ITU-R BT.601 luma).
2. ``L_k = scipy.ndimage.laplace(g_k)`` (the 3x3 kernel ``[[0, 1, 0], [1, -4, 1], [0, 1, 0]]``,
   borders mirrored: ``mode="reflect"``).
3. ``score = mean_k var(L_k)`` (population variance over all pixels of the frame).

Blur lowers the score; so does a smaller frame size for the same content, and noise *raises* it, so
the judge prefers a noisy clip to a clean one of the same sharpness: it is a classic focus measure,
not a quality model. Frames follow the config (default: 8 by ``linspace``, full resolution, or
``max_pixels`` when set). No frames gives ``Verdict.failed``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from mmjudge.errors import MediaError
from mmjudge.judges._base import Judge
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput
from mmjudge.queries import Diagnostics, ScoreQuery, Verdict

__all__ = ["LUMA_WEIGHTS", "SharpnessJudge", "laplacian_variance"]

LUMA_WEIGHTS: tuple[float, float, float] = (0.299, 0.587, 0.114)
"""R, G, B weights of the grey image (ITU-R BT.601)."""


def laplacian_variance(frames: np.ndarray) -> np.ndarray:
    """Variance of the Laplacian of each frame's grey image (float64, one value per frame).

    >>> flat = np.full((1, 8, 8, 3), 128, dtype=np.uint8)
    >>> laplacian_variance(flat).tolist()
    [0.0]
    >>> edge = flat.copy()
    >>> edge[:, :, 4:] = 0
    >>> bool(laplacian_variance(edge)[0] > 0)
    True
    """
    from scipy import ndimage

    frames = np.asarray(frames)
    if frames.dtype != np.uint8 or frames.ndim != 4 or frames.shape[-1] != 3 or len(frames) == 0:
        raise MediaError(f"expected uint8 frames of shape (T>=1, H, W, 3), got {frames.dtype} {frames.shape}")
    weights = np.asarray(LUMA_WEIGHTS, dtype=np.float64)
    values = [
        float(ndimage.laplace(frame.astype(np.float64) @ weights, mode="reflect").var()) for frame in frames
    ]
    return np.asarray(values, dtype=np.float64)


@register_judge("sharpness")
class SharpnessJudge(Judge):
    """IsoVRBench clip score: mean variance of the Laplacian over sampled frames (weight-free floor)."""

    answers: ClassVar[frozenset[type]] = frozenset({ScoreQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video"})
    version: ClassVar[str] = "1"
    default_frames: ClassVar[int | None] = 8

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """One verdict per clip: the mean Laplacian variance, or ``Verdict.failed`` without frames."""
        return [self._judge_one(x) for x in inputs]

    def _judge_one(self, x: JudgeInput) -> Verdict:
        item_id = x.query.item_id
        if x.frames is None or len(x.frames) == 0:
            return Verdict.failed(item_id, "MediaError: no frames were decoded for this clip")
        started = time.perf_counter()
        try:
            per_frame = laplacian_variance(x.frames)
        except MediaError as exc:
            return Verdict.failed(item_id, f"MediaError: {exc}")
        extra = {"frames": len(per_frame), "min": float(per_frame.min()), "max": float(per_frame.max())}
        latency = time.perf_counter() - started
        return Verdict(
            item_id, float(per_frame.mean()), diagnostics=Diagnostics(latency_s=latency, extra=extra)
        )
