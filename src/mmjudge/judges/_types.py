"""Typed boundaries of the judge protocol: what a judge asks to be decoded, and the decoded inputs.

The queries themselves and the verdicts are :mod:`mmjudge.queries` (a lower layer, so that benchmarks can
build them). The runner builds a benchmark's queries (``Benchmark.records.build_queries``), decodes what
the judge's :class:`MediaRequest` asks for, and hands :class:`JudgeInput` batches to
:meth:`mmjudge.judges.Judge.judge_batch`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from mmjudge.queries import Query

if TYPE_CHECKING:
    from mmjudge.judges.profiles import VisionProfile

__all__ = ["JudgeInput", "MediaRequest"]


@dataclass(frozen=True)
class MediaRequest:
    """What a judge needs decoded for a query; the runner decodes it (once per clip per run)."""

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
    """Round the sampled count to a multiple of this (the references' frame factor, 2)."""
    max_pixels: int | None = None
    """Per-frame pixel cap without ``profile``: frames are resized to at most this (smart resize, factor
    28, Pillow bicubic) while decoding."""
    profile: VisionProfile | None = None
    """Preprocessing profile (:mod:`mmjudge.judges.profiles`): its frame-count rule picks the frames, which
    come at full size (the judge resizes them once, to the profile's size for its model's factor);
    ``None``: mmjudge's plain rule (weight-free judges)."""
    audio_sample_rate: int | None = None
    """Decode the audio track at this rate (``None``: no audio)."""
    audio_resampler: str = "ffmpeg"
    """How the rate is changed (:data:`mmjudge.media.audio.RESAMPLERS`; ``soxr_hq``: as librosa does)."""
    image: bool = False
    """Load the query's image."""


@dataclass
class JudgeInput:
    """One query with its decoded media."""

    query: Query
    """The query."""
    frames: np.ndarray | None = None
    """``uint8 (T, H, W, 3)`` frames, or ``None``."""
    frame_indices: tuple[int, ...] = ()
    """Indices of ``frames`` in the clip."""
    fps: float | None = None
    """Frame rate of the clip."""
    audio: np.ndarray | None = None
    """Mono float32 audio at the requested rate."""
    image: Any = None
    """PIL image of the query's image, or ``None``."""
    total_frames: int | None = None
    """Number of frames in the whole clip (the references' ``total_num_frames``)."""
    frame_size: tuple[int, int] | None = None
    """The clip's own ``(height, width)``, before any resize (``None``: the size of ``frames``)."""
    other: JudgeInput | None = None
    """The second clip of a two-clip query (:class:`mmjudge.queries.ClipPairQuery`), decoded with the same
    request (its ``query`` is the pair's); ``None`` for every other query."""
    model_inputs: Any = None
    """The judge's model inputs for this query (its processor's output), made ahead in a decode worker by
    :meth:`mmjudge.judges.Judge.model_inputs`; ``None``: the judge makes them itself."""
