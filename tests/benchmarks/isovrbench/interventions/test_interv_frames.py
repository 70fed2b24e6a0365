"""Invariants of temporal_shuffle and frame_hold, written out from the paper's rules."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mmjudge.benchmarks.isovrbench.interventions import (
    frame_hold,
    hold_index_map,
    segment_bounds,
    shuffle_index_map,
    temporal_shuffle,
)
from mmjudge.errors import ConfigError, MediaError


def _clip(num_frames: int, seed: int = 0) -> np.ndarray:
    """Frames that differ from each other, so equality of frames identifies frame indices."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, size=(num_frames, 4, 6, 3), dtype=np.uint8)


def _segments_of(index_map: np.ndarray, num_frames: int, segments: int) -> list[int]:
    """Which anchor segment (np.array_split of the frame range) sits at each output position."""
    pieces = [p.tolist() for p in np.array_split(np.arange(num_frames), segments)]
    out, position = [], 0
    for _ in range(segments):
        head = int(index_map[position])
        segment = next(i for i, p in enumerate(pieces) if p and p[0] == head)
        length = len(pieces[segment])
        assert index_map[position : position + length].tolist() == pieces[segment], "segment not contiguous"
        out.append(segment)
        position += length
    assert position == num_frames
    return out


def test_shuffle_of_81_frames_keeps_every_frame_and_moves_every_segment():
    clip = _clip(81)
    result = temporal_shuffle(clip, rng=np.random.default_rng(3))
    assert result.frames.shape == clip.shape
    assert sorted(result.index_map.tolist()) == list(range(81))
    assert not np.array_equal(result.index_map, np.arange(81))
    order = _segments_of(result.index_map, 81, 6)
    assert sorted(order) == list(range(6))
    assert all(segment != position for position, segment in enumerate(order))
    np.testing.assert_array_equal(clip[result.index_map], result.frames)


@settings(max_examples=200, deadline=None)
@given(
    segments=st.integers(2, 12),
    extra=st.integers(0, 150),
    seed=st.integers(0, 2**32 - 1),
)
def test_shuffle_is_a_segment_derangement(segments, extra, seed):
    num_frames = segments + extra
    index_map = shuffle_index_map(num_frames, segments, np.random.default_rng(seed))
    assert index_map.dtype == np.int64
    assert sorted(index_map.tolist()) == list(range(num_frames))
    order = _segments_of(index_map, num_frames, segments)
    assert all(segment != position for position, segment in enumerate(order))
    starts = segment_bounds(num_frames, segments)[:-1]
    position = 0
    for segment in order:
        assert position != starts[segment], "a segment starts at its old frame"
        position += len(np.array_split(np.arange(num_frames), segments)[segment])


def test_shuffle_draws_every_derangement_of_six_segments():
    rng = np.random.default_rng(0)
    seen = {tuple(_segments_of(shuffle_index_map(81, 6, rng), 81, 6)) for _ in range(6000)}
    derangements = {p for p in itertools.permutations(range(6)) if all(a != b for a, b in enumerate(p))}
    assert seen == derangements  # 265 orders, each expected ~23 times


def test_shuffle_is_deterministic_per_seed():
    a = shuffle_index_map(81, 6, np.random.default_rng(7))
    b = shuffle_index_map(81, 6, np.random.default_rng(7))
    np.testing.assert_array_equal(a, b)


def test_segment_bounds_follow_array_split():
    for num_frames, segments in [(81, 6), (12, 6), (7, 6), (100, 7)]:
        lengths = [len(p) for p in np.array_split(np.arange(num_frames), segments)]
        assert np.diff(segment_bounds(num_frames, segments)).tolist() == lengths


@pytest.mark.parametrize(("num_frames", "segments"), [(10, 1), (5, 6), (0, 2)])
def test_shuffle_rejects_impossible_segmentations(num_frames, segments):
    with pytest.raises(ConfigError):
        shuffle_index_map(num_frames, segments, np.random.default_rng(0))


def test_interventions_reject_non_frame_arrays():
    with pytest.raises(MediaError, match="uint8"):
        temporal_shuffle(np.zeros((12, 4, 4, 3), dtype=np.float32), rng=np.random.default_rng(0))
    with pytest.raises(MediaError, match="shape"):
        frame_hold(np.zeros((12, 4, 4), dtype=np.uint8), rng=np.random.default_rng(0))


def test_frame_hold_of_81_frames():
    clip = _clip(81)
    result = frame_hold(clip, rng=np.random.default_rng(1))
    assert result.frames.shape == clip.shape
    held = np.unique(result.index_map)
    assert 8 <= held.size <= 12
    assert result.index_map[0] == 0
    np.testing.assert_array_equal(clip[result.index_map], result.frames)
    distinct_frames = {f.tobytes() for f in result.frames}
    assert len(distinct_frames) == held.size


@settings(max_examples=200, deadline=None)
@given(
    low=st.integers(1, 12),
    width=st.integers(0, 4),
    extra=st.integers(0, 100),
    seed=st.integers(0, 2**32 - 1),
)
def test_frame_hold_repeats_each_kept_frame_until_the_next(low, width, extra, seed):
    high = low + width
    num_frames = high + extra
    index_map = hold_index_map(num_frames, (low, high), np.random.default_rng(seed))
    assert index_map.shape == (num_frames,)
    kept = np.unique(index_map)
    assert low <= kept.size <= high
    assert kept[0] == 0
    # Rule written out: output frame i shows the latest kept anchor frame at or before i.
    for i in range(num_frames):
        assert index_map[i] == kept[kept <= i].max()


def test_frame_hold_draws_every_count_in_range():
    rng = np.random.default_rng(0)
    counts = {np.unique(hold_index_map(81, (8, 12), rng)).size for _ in range(300)}
    assert counts == set(range(8, 13))


@pytest.mark.parametrize("kept", [(0, 3), (5, 4), (8, 100)])
def test_frame_hold_rejects_bad_ranges(kept):
    with pytest.raises(ConfigError):
        hold_index_map(81, kept, np.random.default_rng(0))
