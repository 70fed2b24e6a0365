"""Typed boundaries of the judge protocol: what a judge asks to be decoded, and the decoded inputs.

The items themselves and the verdicts are :mod:`mmjudge.items` (a lower layer, so that benchmarks can
build them). The runner builds a benchmark's items (``Benchmark.records.build_items``), decodes what the
judge's :class:`MediaRequest` asks for, and hands :class:`JudgeInput` batches to
:meth:`mmjudge.judges.Judge.judge_batch`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mmjudge.items import Item

__all__ = ["JudgeInput", "MediaRequest"]


@dataclass(frozen=True)
class MediaRequest:
    """What a judge needs decoded for an item; the runner decodes it (once per clip per run)."""

    num_frames: int | None = None
    """Frames to sample from the clip (``None``: no video frames)."""
    target_fps: float | None = None
    """Sample at this rate instead of a fixed count."""
    policy: str = "linspace"
    """Index policy of :func:`mmjudge.media.video.sample_indices`."""
    min_frames: int | None = None
    """Lower clamp on the sampled count."""
    max_frames: int | None = None
    """Upper clamp on the sampled count."""
    multiple_of: int | None = None
    """Round the sampled count to a multiple of this (VideoAlign: 2)."""
    max_pixels: int | None = None
    """Resize frames to at most this many pixels (smart resize, factor 28)."""
    audio_sample_rate: int | None = None
    """Decode the audio track at this rate (``None``: no audio)."""
    image: bool = False
    """Load the item's image (sentence items)."""


@dataclass
class JudgeInput:
    """One item with its decoded media."""

    item: Item
    """The item."""
    frames: np.ndarray | None = None
    """``uint8 (T, H, W, 3)`` frames, or ``None``."""
    frame_indices: tuple[int, ...] = ()
    """Indices of ``frames`` in the clip."""
    fps: float | None = None
    """Frame rate of the clip."""
    audio: np.ndarray | None = None
    """Mono float32 audio at the requested rate."""
    image: Any = None
    """PIL image (sentence items), or ``None``."""
