"""Frame-level interventions on decoded clips: temporal shuffle and frame hold.

Both interventions only re-index the anchor's frames, so each is fully described by an index map:
``counterpart[i] == anchor[index_map[i]]`` for every output frame ``i``. The map is returned with the
frames and stored in the pair row so a pair can be audited later.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mmjudge.errors import ConfigError, MediaError

__all__ = [
    "InterventionResult",
    "frame_hold",
    "hold_index_map",
    "segment_bounds",
    "shuffle_index_map",
    "temporal_shuffle",
]

_MAX_DRAWS = 10_000


class InterventionResult(NamedTuple):
    """Frames of a counterpart clip and the frame-index map that produced them."""

    frames: np.ndarray
    """``uint8 (T, H, W, 3)``, the counterpart clip (same length as the anchor)."""
    index_map: np.ndarray
    """``int64 (T,)``: counterpart frame ``i`` is anchor frame ``index_map[i]``."""


def segment_bounds(num_frames: int, segments: int) -> np.ndarray:
    """Start indices of ``segments`` contiguous segments, plus ``num_frames`` at the end.

    Segment lengths follow :func:`numpy.array_split`: when ``num_frames`` is not a multiple of
    ``segments``, the first ``num_frames % segments`` segments are one frame longer (81 frames in six
    segments: 14, 14, 14, 13, 13, 13).

    >>> segment_bounds(81, 6).tolist()
    [0, 14, 28, 42, 55, 68, 81]
    """
    if segments < 2:
        raise ConfigError(f"temporal_shuffle needs at least 2 segments to move any of them, got {segments}")
    if num_frames < segments:
        raise ConfigError(
            f"cannot cut {num_frames} frames into {segments} non-empty segments; "
            "use fewer segments or a longer clip"
        )
    base, extra = divmod(num_frames, segments)
    lengths = np.full(segments, base, dtype=np.int64)
    lengths[:extra] += 1
    return np.concatenate([[0], np.cumsum(lengths)])


def shuffle_index_map(num_frames: int, segments: int, rng: np.random.Generator) -> np.ndarray:
    """Index map of a temporal shuffle: segments in a random order where no segment stays in place.

    "In place" is excluded in both senses: the permutation of segments has no fixed point (a
    derangement), and no segment starts at the frame where it started in the anchor (with unequal
    segment lengths a moved segment could otherwise land on its old frames). Permutations are drawn
    uniformly and redrawn until both hold; the rotation by one segment always qualifies, so a valid
    order exists for every ``segments >= 2``.

    >>> shuffle_index_map(6, 3, np.random.default_rng(0)).tolist()
    [4, 5, 0, 1, 2, 3]
    """
    bounds = segment_bounds(num_frames, segments)
    starts, lengths = bounds[:-1], np.diff(bounds)
    for _ in range(_MAX_DRAWS):
        order = rng.permutation(segments)
        new_starts = np.empty(segments, dtype=np.int64)
        new_starts[order] = np.concatenate([[0], np.cumsum(lengths[order])[:-1]])
        if not (order == np.arange(segments)).any() and not (new_starts == starts).any():
            break
    else:  # pragma: no cover - probability below 1e-100 for any segment count
        order = np.roll(np.arange(segments), -1)
    return np.concatenate([np.arange(starts[s], bounds[s + 1]) for s in order]).astype(np.int64)


def hold_index_map(num_frames: int, kept: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Index map of a frame hold: ``k`` anchor frames (frame 0 included), each repeated until the next.

    ``k`` is drawn uniformly from ``kept[0]..kept[1]`` (inclusive); the other ``k - 1`` held frames are
    drawn uniformly without replacement from frames ``1..num_frames-1``.

    >>> m = hold_index_map(20, (3, 3), np.random.default_rng(0))
    >>> len(m), int(m[0]), len(set(m.tolist()))
    (20, 0, 3)
    """
    low, high = kept
    if not 1 <= low <= high:
        raise ConfigError(f"kept must be a range (low, high) with 1 <= low <= high, got {kept}")
    if num_frames < high:
        raise ConfigError(f"frame_hold keeps up to {high} distinct frames but the clip has {num_frames}")
    k = int(rng.integers(low, high + 1))
    others = rng.choice(np.arange(1, num_frames), size=k - 1, replace=False)
    anchors = np.sort(np.concatenate([[0], others])).astype(np.int64)
    return anchors[np.searchsorted(anchors, np.arange(num_frames), side="right") - 1]


def temporal_shuffle(
    frames: np.ndarray, segments: int = 6, *, rng: np.random.Generator
) -> InterventionResult:
    """Cut the clip into contiguous segments and reorder them so that no segment stays in place.

    Every anchor frame appears exactly once; only the order changes. See :func:`shuffle_index_map`
    for how the order is drawn and :func:`segment_bounds` for segment lengths.

    Args:
        frames: ``uint8 (T, H, W, 3)`` anchor clip.
        segments: number of contiguous segments (the benchmark uses six).
        rng: random generator; the same state gives the same shuffle.

    >>> clip = np.arange(12, dtype=np.uint8).reshape(12, 1, 1, 1).repeat(3, axis=3)
    >>> out = temporal_shuffle(clip, rng=np.random.default_rng(0))
    >>> bool((clip[out.index_map] == out.frames).all()), sorted(out.index_map.tolist()) == list(range(12))
    (True, True)
    """
    frames = _check_frames(frames)
    index_map = shuffle_index_map(frames.shape[0], segments, rng)
    return InterventionResult(frames[index_map], index_map)


def frame_hold(
    frames: np.ndarray, kept: tuple[int, int] = (8, 12), *, rng: np.random.Generator
) -> InterventionResult:
    """Keep ``k`` anchor frames (``kept[0] <= k <= kept[1]``, frame 0 included); repeat each until the next.

    The clip keeps its length; it shows ``k`` distinct anchor frames, each held for a random run.

    Args:
        frames: ``uint8 (T, H, W, 3)`` anchor clip.
        kept: inclusive range of the number of distinct held frames (the benchmark uses 8 to 12).
        rng: random generator; the same state gives the same hold.

    >>> clip = np.arange(81, dtype=np.uint8).reshape(81, 1, 1, 1).repeat(3, axis=3)
    >>> out = frame_hold(clip, rng=np.random.default_rng(0))
    >>> out.frames.shape[0], 8 <= len(np.unique(out.index_map)) <= 12
    (81, True)
    """
    frames = _check_frames(frames)
    index_map = hold_index_map(frames.shape[0], kept, rng)
    return InterventionResult(frames[index_map], index_map)


def _check_frames(frames: np.ndarray) -> np.ndarray:
    frames = np.asarray(frames)
    if frames.dtype != np.uint8 or frames.ndim != 4 or frames.shape[-1] != 3:
        raise MediaError(
            f"expected uint8 frames of shape (T, H, W, 3), got dtype {frames.dtype} and shape {frames.shape}; "
            "decode clips with mmjudge.media.video.read_all"
        )
    return frames
