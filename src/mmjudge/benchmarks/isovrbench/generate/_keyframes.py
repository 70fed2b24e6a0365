"""Keyframes of ``motion_regen``: where they sit (the gap rule) and how the regenerated intervals are spliced.

Wan renders ``4k + 1`` frames per call, so an interval regenerated in first-last-frame mode between two
keyframes ``a < b`` spans ``b - a + 1`` frames with ``b - a`` a multiple of 4. With the first and last
frame of the clip always keyframes, an 81-frame clip has 80 / 4 = 20 units of 4 frames to share among
the intervals: 8 keyframes give 7 intervals of 8 or 12 frames, 12 keyframes 11 intervals of 4 or 8.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from mmjudge.errors import ConfigError, MediaError

__all__ = ["check_keyframe_count", "keyframe_positions", "splice_intervals"]


def check_keyframe_count(num_frames: int, count: int, *, step: int = 4, where: str = "motion_regen") -> None:
    """Refuse a keyframe count the gap rule cannot place in ``num_frames`` frames.

    >>> check_keyframe_count(81, 12)
    >>> check_keyframe_count(81, 22)
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: motion_regen: 22 keyframes need 21 gaps of at least 4 frames, but 81 frames give 80 (20 gaps of 4 at most)
    """
    if step < 1 or (num_frames - 1) % step:
        raise ConfigError(
            f"{where}: keyframe gaps are multiples of {step} frames, so the clip needs {step}k + 1 frames; "
            f"got {num_frames}"
        )
    if count < 2:
        raise ConfigError(
            f"{where}: at least 2 keyframes are needed (the first and the last frame), got {count}"
        )
    units = (num_frames - 1) // step
    if count - 1 > units:
        raise ConfigError(
            f"{where}: {count} keyframes need {count - 1} gaps of at least {step} frames, but {num_frames} "
            f"frames give {num_frames - 1} ({units} gaps of {step} at most)"
        )


def keyframe_positions(num_frames: int, count: int, *, step: int = 4, rng: np.random.Generator) -> np.ndarray:
    """``count`` keyframe indices from 0 to ``num_frames - 1`` whose gaps are multiples of ``step``.

    The ``(num_frames - 1) / step`` units of ``step`` frames are shared as evenly as the count allows;
    the intervals that get one unit more are drawn at random.

    >>> keyframe_positions(81, 8, rng=np.random.default_rng(0)).tolist()
    [0, 12, 24, 36, 48, 60, 72, 80]
    >>> np.diff(keyframe_positions(81, 12, rng=np.random.default_rng(1))).tolist()
    [8, 8, 8, 8, 4, 8, 4, 8, 8, 8, 8]
    """
    check_keyframe_count(num_frames, count, step=step)
    intervals = count - 1
    base, extra = divmod((num_frames - 1) // step, intervals)
    units = np.full(intervals, base, dtype=np.int64)
    units[rng.choice(intervals, size=extra, replace=False)] += 1
    return np.concatenate([[0], np.cumsum(units * step)]).astype(np.int64)


def splice_intervals(
    anchor: np.ndarray, positions: Sequence[int], intervals: Sequence[np.ndarray]
) -> np.ndarray:
    """The clip made of the regenerated ``intervals`` with the anchor's exact keyframes put back.

    ``intervals[i]`` runs from keyframe ``positions[i]`` to ``positions[i + 1]`` inclusive (its first and
    last frames are the generator's renderings of the two keyframes); consecutive intervals share their
    end frame. After splicing, every keyframe is replaced by the anchor's own frame, byte for byte.

    >>> anchor = np.arange(9, dtype=np.uint8).reshape(9, 1, 1, 1).repeat(3, axis=3)
    >>> parts = [np.full((5, 1, 1, 3), 100, np.uint8), np.full((5, 1, 1, 3), 200, np.uint8)]
    >>> splice_intervals(anchor, [0, 4, 8], parts)[:, 0, 0, 0].tolist()
    [0, 100, 100, 100, 4, 200, 200, 200, 8]
    """
    anchor = np.asarray(anchor)
    keys = [int(p) for p in positions]
    if keys[0] != 0 or keys[-1] != len(anchor) - 1 or len(intervals) != len(keys) - 1:
        raise MediaError(
            f"expected keyframes from 0 to {len(anchor) - 1} and one interval per gap, got keyframes "
            f"{keys} and {len(intervals)} intervals"
        )
    out = np.empty_like(anchor)
    for (start, end), frames in zip(itertools.pairwise(keys), intervals, strict=True):
        frames = np.asarray(frames)
        if frames.shape != (end - start + 1, *anchor.shape[1:]) or frames.dtype != anchor.dtype:
            raise MediaError(
                f"interval {start}..{end} needs {end - start + 1} frames of shape {anchor.shape[1:]} "
                f"({anchor.dtype}), got {frames.shape} ({frames.dtype})"
            )
        out[start : end + 1] = frames
    out[keys] = anchor[keys]
    return out
