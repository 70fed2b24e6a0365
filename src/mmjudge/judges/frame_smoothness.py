"""``frame_smoothness``: a weight-free IsoVRBench floor scoring temporal continuity from frame differences.

The judge looks at densely sampled frames of one clip and asks two questions of each step between
consecutive sampled frames: did the picture stop (a *hold*), or did it jump much further than the
clip usually moves (a *spike*)? The score is one minus the mean per-step penalty.

The formula, for frames ``x_0 .. x_{T-1}`` (``uint8``, RGB) and ``n = T - 1`` steps:

1. ``d_t = mean |x_{t+1} - x_t|`` over pixels and channels, in 8-bit levels (as
   :func:`mmjudge.benchmarks.isovrbench.interventions.motion_score`). Steps between two equal frame indices (not distinct
   sample positions) are dropped.
2. Hold threshold ``tau = max(hold_floor, hold_ratio * q(d))`` with ``q`` the ``peak_quantile``
   quantile of the ``d_t`` (numpy's linear interpolation); hold penalty
   ``h_t = clip(1 - d_t / tau, 0, 1)``: 1 for an exact repeat, 0 from ``tau`` up.
3. Moving steps ``M = {t : d_t > tau}``; ``m = median(d_M)``,
   ``s = max(1.4826 * median(|d_M - m|), scale_floor * m)`` (a MAD scale with a floor relative to the
   clip's own motion, so a perfectly even pan does not turn codec noise into spikes);
   ``z_t = (d_t - m) / s``; spike penalty ``p_t = clip(z_t / spike_z - 1, 0, 1)`` for ``t`` in ``M``
   (0 up to ``z = spike_z``, 1 from ``z = 2 * spike_z``), 0 elsewhere.
4. ``score = 1 - mean_t (h_t + p_t)`` in ``[0, 1]`` (a step is never both held and spiking, since
   ``m >= tau`` gives held steps ``z_t < 0``).

Defaults: ``hold_floor = 0.5``, ``hold_ratio = 0.1``, ``peak_quantile = 0.95``, ``spike_z = 3.5``,
``scale_floor = 0.25``. A temporal shuffle shows up as a few spikes at the cuts; a frame hold as long
runs of holds. A clip with no hold and no spike scores exactly 1, so two defect-free clips tie (the
IsoVRBench scorer counts a tie as wrong): this judge sees temporal continuity only. A static clip
scores low. Fewer than three frames (two steps) give ``Verdict.failed``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from typing import ClassVar, NamedTuple

import numpy as np

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError, MediaError
from mmjudge.judges._base import Judge
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.queries import Diagnostics, Query, ScoreQuery, Verdict

__all__ = ["FrameSmoothnessJudge", "SmoothnessOptions", "SmoothnessResult", "frame_differences", "smoothness"]

MIN_FRAMES = 3
"""Fewest frames a clip must give (two steps); fewer give ``Verdict.failed``."""


@config_dataclass
class SmoothnessOptions:
    """``options`` of a ``frame_smoothness`` config (see the module docstring for the formula)."""

    hold_floor: float = 0.5
    """Smallest hold threshold ``tau``, in 8-bit levels (codec noise of a repeated frame stays below ~1.5)."""
    hold_ratio: float = 0.1
    """``tau`` is at least this fraction of the clip's ``peak_quantile`` step difference."""
    peak_quantile: float = 0.95
    """Quantile of the step differences that sets the clip's motion level for ``tau``."""
    spike_z: float = 3.5
    """Robust z-score where the spike penalty starts (it is full at twice this)."""
    scale_floor: float = 0.25
    """The robust scale is at least this fraction of the median moving step."""

    def __post_init__(self) -> None:
        checks = {
            "hold_floor": self.hold_floor >= 0,
            "hold_ratio": self.hold_ratio >= 0,
            "peak_quantile": 0 <= self.peak_quantile <= 1,
            "spike_z": self.spike_z > 0,
            "scale_floor": self.scale_floor > 0,
        }
        bad = [name for name, ok in checks.items() if not ok]
        if bad:
            raise ConfigError(
                f"frame_smoothness options out of range: {', '.join(f'{b}={getattr(self, b)!r}' for b in bad)}; "
                "expected hold_floor >= 0, hold_ratio >= 0, 0 <= peak_quantile <= 1, spike_z > 0, scale_floor > 0"
            )


class SmoothnessResult(NamedTuple):
    """The score of one clip and what it was made of."""

    score: float
    """``1 - mean(hold penalty + spike penalty)``, in ``[0, 1]``."""
    steps: int
    """Steps scored (pairs of consecutive, distinct sample positions)."""
    hold_penalty: float
    """Sum of the hold penalties ``h_t``."""
    spike_penalty: float
    """Sum of the spike penalties ``p_t``."""
    hold_threshold: float
    """``tau`` in 8-bit levels."""
    median_motion: float
    """Median step difference of the moving steps (0 when none moves)."""


def frame_differences(frames: np.ndarray) -> np.ndarray:
    """``d_t``: mean absolute difference between consecutive frames, in 8-bit levels (float64, length T-1).

    >>> clip = np.zeros((3, 2, 2, 3), dtype=np.uint8)
    >>> clip[1:] = 10
    >>> frame_differences(clip).tolist()
    [10.0, 0.0]
    """
    frames = np.asarray(frames)
    if frames.dtype != np.uint8 or frames.ndim != 4:
        raise MediaError(f"expected uint8 frames of shape (T, H, W, C), got {frames.dtype} {frames.shape}")
    # One step at a time (bounded memory on full-size clips); |a - b| = max - min stays in uint8 and the
    # sum is exact in uint64, three times faster than widening to int16.
    size = frames[0].size if len(frames) else 1
    steps = [
        int((np.maximum(a, b) - np.minimum(a, b)).sum(dtype=np.uint64)) / size
        for a, b in itertools.pairwise(frames)
    ]
    return np.asarray(steps, dtype=np.float64)


def smoothness(
    frames: np.ndarray,
    frame_indices: Sequence[int] | None = None,
    options: SmoothnessOptions | None = None,
) -> SmoothnessResult:
    """Temporal-continuity score of a clip (formula in the module docstring).

    Args:
        frames: ``uint8 (T, H, W, 3)`` sampled frames, in time order.
        frame_indices: their indices in the clip; steps between equal indices are dropped.
        options: thresholds (default :class:`SmoothnessOptions`).

    Raises:
        MediaError: fewer than :data:`MIN_FRAMES` frames (after dropping repeated indices) or bad frames.

    >>> ramp = np.stack([np.full((4, 4, 3), 10 * t, dtype=np.uint8) for t in range(12)])
    >>> smoothness(ramp).score
    1.0
    >>> held = ramp[[0, 1, 2, 3, 3, 3, 3, 3, 8, 9, 10, 11]]  # four repeats, then a jump of five steps
    >>> r = smoothness(held)
    >>> round(r.score, 4), r.hold_penalty, r.spike_penalty
    (0.5455, 4.0, 1.0)
    """
    opts = options or SmoothnessOptions()
    d = frame_differences(frames)
    if frame_indices is not None and len(frame_indices) == len(frames):
        d = d[np.diff(np.asarray(frame_indices, dtype=np.int64)) != 0]
    if len(d) < MIN_FRAMES - 1:
        raise MediaError(
            f"frame_smoothness needs at least {MIN_FRAMES} frames at distinct positions, got {len(d) + 1}; "
            "request more frames (config `frames`/`fps`) or check the clip"
        )
    tau = max(opts.hold_floor, opts.hold_ratio * float(np.quantile(d, opts.peak_quantile)))
    hold = np.clip(1.0 - d / tau, 0.0, 1.0) if tau > 0 else (d == 0).astype(np.float64)
    moving = d[d > tau]
    spike = np.zeros(0)
    median = 0.0
    if moving.size:
        median = float(np.median(moving))
        scale = max(1.4826 * float(np.median(np.abs(moving - median))), opts.scale_floor * median)
        spike = np.clip((moving - median) / scale / opts.spike_z - 1.0, 0.0, 1.0)
    total = float(hold.sum()) + float(spike.sum())
    return SmoothnessResult(
        score=1.0 - total / len(d),
        steps=len(d),
        hold_penalty=float(hold.sum()),
        spike_penalty=float(spike.sum()),
        hold_threshold=tau,
        median_motion=median,
    )


@register_judge("frame_smoothness")
class FrameSmoothnessJudge(Judge):
    """IsoVRBench clip score from frame differences: holds and spikes lower it (weight-free floor)."""

    answers: ClassVar[frozenset[type]] = frozenset({ScoreQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video"})
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = SmoothnessOptions
    default_frames: ClassVar[int | None] = 256
    """Dense by default: every frame of a clip of up to 256 frames (IsoVRBench clips have 81)."""

    def media_request(self, query: Query) -> MediaRequest:
        """Dense frames: ``config.fps`` if set, else ``config.frames`` or 256, spread by ``linspace``.

        >>> from pathlib import Path
        >>> from mmjudge.judges import JudgeConfig
        >>> FrameSmoothnessJudge(JudgeConfig(judge="frame_smoothness")).media_request(
        ...     ScoreQuery("c", Path("c.mp4"), "p")).num_frames
        256
        """
        return super().media_request(query)

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """One verdict per clip: the score, or ``Verdict.failed`` for missing or too few frames."""
        return [self._judge_one(x) for x in inputs]

    def _judge_one(self, x: JudgeInput) -> Verdict:
        item_id = x.query.item_id
        if x.frames is None:
            return Verdict.failed(item_id, "MediaError: no frames were decoded for this clip")
        started = time.perf_counter()
        try:
            result = smoothness(x.frames, x.frame_indices or None, self.options)
        except MediaError as exc:
            return Verdict.failed(item_id, f"MediaError: {exc}")
        extra = {k: v for k, v in result._asdict().items() if k != "score"}
        latency = time.perf_counter() - started
        return Verdict(item_id, result.score, diagnostics=Diagnostics(latency_s=latency, extra=extra))
