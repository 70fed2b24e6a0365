"""Frame-index sampling policies (pure arithmetic, no decoding)."""

from __future__ import annotations

import math

import numpy as np

from mmjudge.errors import ConfigError

POLICIES = ("linspace", "segment_centers")


def sample_indices(
    total: int,
    fps: float,
    *,
    num: int | None = None,
    target_fps: float | None = None,
    policy: str = "linspace",
    min_frames: int = 1,
    max_frames: int | None = None,
    multiple_of: int = 1,
) -> list[int]:
    """Frame indices to sample from a clip of ``total`` frames at ``fps``.

    How many frames (``n``):

    1. ``raw = num`` if ``num`` is given, else ``raw = total / fps * target_fps`` (exactly one of the
       two must be given).
    2. ``raw`` is clamped to ``[lo, hi]`` with ``lo = ceil(min_frames / multiple_of) * multiple_of`` and
       ``hi = floor(min(max_frames or total, total) / multiple_of) * multiple_of``.
    3. ``n = round(raw / multiple_of) * multiple_of`` with Python's ``round`` (half to even).
    4. ``n`` is finally capped at ``total``: a clip shorter than ``min_frames`` gives all of its
       frames (qwen-vl-utils raises instead), and ``n`` is at least 1.

    This is qwen-vl-utils' ``smart_nframes``; VideoAlign / VideoReward use it with ``min_frames=4``,
    ``max_frames=768``, ``multiple_of=2``.

    Which frames:

    - ``"linspace"``: ``round(linspace(0, total - 1, n))`` in float64 with numpy's round-half-to-even,
      as qwen-vl-utils and VideoAlign do (they use ``torch.linspace(...).round()``; float32 there can
      differ on exact halves, which needs ``total - 1`` to be a multiple of ``n - 1`` halved and is
      rare). The first and the last frame are always included; ``n == 1`` gives ``[0]``.
    - ``"segment_centers"``: split ``[0, total)`` into ``n`` equal segments and take the frame at
      each segment's centre, ``floor((k + 0.5) * total / n)`` for ``k = 0 .. n-1`` (TSN-style uniform
      sampling; never includes the last frame unless ``n == total``).

    Args:
        total: number of frames in the clip.
        fps: the clip's frame rate (used with ``target_fps``).
        num: number of frames wanted.
        target_fps: sampling rate in frames per second of video time.
        policy: ``"linspace"`` or ``"segment_centers"``.
        min_frames: lower bound on ``n`` (before the final cap at ``total``).
        max_frames: upper bound on ``n``; ``None`` means ``total``.
        multiple_of: ``n`` is rounded to a multiple of this.

    Returns:
        ``n`` sorted, distinct frame indices in ``[0, total)`` (distinct because ``n <= total``).

    >>> sample_indices(81, 16, target_fps=2)
    [0, 9, 18, 27, 36, 44, 53, 62, 71, 80]
    >>> sample_indices(81, 16, num=8)
    [0, 11, 23, 34, 46, 57, 69, 80]
    >>> sample_indices(81, 16, target_fps=0.5, min_frames=4, max_frames=768, multiple_of=2)
    [0, 27, 53, 80]
    >>> sample_indices(10, 16, num=4, policy="segment_centers")
    [1, 3, 6, 8]
    """
    n = _num_frames(total, fps, num, target_fps, min_frames, max_frames, multiple_of)
    if policy == "linspace":
        return [int(i) for i in np.round(np.linspace(0, total - 1, n))]
    if policy == "segment_centers":
        return [((2 * k + 1) * total) // (2 * n) for k in range(n)]
    raise ConfigError(f"unknown sampling policy {policy!r}; known policies: {list(POLICIES)}")


def _num_frames(
    total: int,
    fps: float,
    num: int | None,
    target_fps: float | None,
    min_frames: int,
    max_frames: int | None,
    multiple_of: int,
) -> int:
    if total < 1:
        raise ConfigError(f"expected a clip with at least one frame, got total={total}")
    if (num is None) == (target_fps is None):
        raise ConfigError(f"give exactly one of num or target_fps, got num={num}, target_fps={target_fps}")
    if multiple_of < 1 or min_frames < 1:
        raise ConfigError(f"expected multiple_of >= 1 and min_frames >= 1, got {multiple_of}, {min_frames}")
    if target_fps is not None:
        if fps <= 0 or target_fps <= 0:
            raise ConfigError(f"expected positive fps and target_fps, got fps={fps}, target_fps={target_fps}")
        raw = total / fps * target_fps
    else:
        raw = float(num)  # type: ignore[arg-type]
    lo = math.ceil(min_frames / multiple_of) * multiple_of
    hi = math.floor(min(max_frames or total, total) / multiple_of) * multiple_of
    raw = min(max(raw, lo), hi) if hi >= lo else raw
    n = round(raw / multiple_of) * multiple_of
    return max(1, min(n, total))
