"""Motion score of a clip and anchor selection by motion (IsoVRBench picks high-motion anchors)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mmjudge.errors import ConfigError, MediaError, SchemaError, summarize

__all__ = ["motion_score", "select_anchors_by_motion"]

_CHUNK_PIXELS = 1 << 24
"""About this many int16 values per chunk (32 MiB) bound the temporaries of :func:`motion_score`."""


def motion_score(frames: np.ndarray, step: int = 3) -> float:
    """Mean absolute difference between consecutive sampled frames ``frames[::step]``, in 8-bit values.

    The mean runs over every pair of consecutive sampled frames, every pixel and every channel, so a
    static clip scores 0 and the maximum is 255. IsoVRBench samples every third frame (``step=3``);
    its training corpus every fourth. Differences are taken in ``int16`` a few frames at a time, so
    memory stays bounded for full-size clips.

    Args:
        frames: ``uint8 (T, H, W, 3)`` clip.
        step: sampling stride; sampled frames are ``0, step, 2*step, ...``.

    Returns:
        The score as a float in ``[0, 255]``.

    >>> clip = np.zeros((7, 2, 2, 3), dtype=np.uint8)
    >>> clip[3:] = 30
    >>> motion_score(clip, step=3)  # sampled frames 0, 3, 6: differences 30 and 0
    15.0
    """
    frames = np.asarray(frames)
    if frames.dtype != np.uint8 or frames.ndim != 4:
        raise MediaError(f"expected uint8 frames of shape (T, H, W, C), got {frames.dtype} {frames.shape}")
    if step < 1:
        raise ConfigError(f"step must be a positive integer, got {step}")
    sampled = frames[::step]
    pairs = sampled.shape[0] - 1
    if pairs < 1:
        raise MediaError(
            f"motion_score needs at least two sampled frames; {frames.shape[0]} frames with step {step} "
            f"give {sampled.shape[0]}. Use a smaller step or a longer clip"
        )
    per_frame = int(np.prod(sampled.shape[1:]))
    chunk = max(1, _CHUNK_PIXELS // max(per_frame, 1))
    total = 0
    for start in range(0, pairs, chunk):
        block = sampled[start : start + chunk + 1].astype(np.int16)
        total += int(np.abs(np.diff(block, axis=0)).sum(dtype=np.int64))
    return total / (pairs * per_frame)


def select_anchors_by_motion(
    scores: Sequence[float] | np.ndarray, k: int, *, min_score: float | None = None
) -> np.ndarray:
    """Indices of the ``k`` highest motion scores, highest first; ties go to the lower index.

    Args:
        scores: one motion score per candidate clip.
        k: how many anchors to select.
        min_score: when given, candidates scoring at or below it are never selected (the IsoVRBench
            training corpus keeps anchors above 25); fewer than ``k`` eligible candidates is an error.

    Returns:
        ``int64`` array of ``k`` candidate indices.

    >>> select_anchors_by_motion([3.0, 9.0, 9.0, 1.0], 2).tolist()
    [1, 2]
    """
    values = np.asarray(scores, dtype=np.float64)
    if values.ndim != 1 or not np.isfinite(values).all():
        bad = np.flatnonzero(~np.isfinite(values)).tolist() if values.ndim == 1 else []
        raise SchemaError(
            f"expected a 1-D sequence of finite motion scores, got shape {values.shape}"
            + (f" with non-finite values at indices {summarize(bad)}" if bad else "")
        )
    eligible = values.size if min_score is None else int((values > min_score).sum())
    if not 0 <= k <= eligible:
        where = "" if min_score is None else f" scoring above {min_score}"
        raise ConfigError(f"cannot select {k} anchors from {eligible} candidates{where}")
    order = np.argsort(-values, kind="stable")
    return order[:k].astype(np.int64)
