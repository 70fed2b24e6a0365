"""motion_regen's keyframes: the gap rule (Wan renders 4k + 1 frames per call) and the splice."""

from __future__ import annotations

import numpy as np
import pytest

from mmjudge.benchmarks.isovrbench.generate import check_keyframe_count, keyframe_positions, splice_intervals
from mmjudge.errors import ConfigError, MediaError


@pytest.mark.parametrize("count", [8, 12])
@pytest.mark.parametrize("seed", range(20))
def test_paper_keyframes_have_gaps_that_are_multiples_of_four(count: int, seed: int) -> None:
    keys = keyframe_positions(81, count, rng=np.random.default_rng(seed))
    gaps = np.diff(keys)
    assert len(keys) == count and keys[0] == 0 and keys[-1] == 80
    assert (gaps % 4 == 0).all() and (gaps >= 4).all()
    assert gaps.max() - gaps.min() <= 4  # as even as the count allows: 8 -> gaps of 8/12, 12 -> 4/8
    assert set(gaps.tolist()) <= ({8, 12} if count == 8 else {4, 8})


def test_every_regenerated_interval_is_a_valid_wan_call_length() -> None:
    for frames in (9, 17, 33, 81, 121):
        for count in range(2, (frames - 1) // 4 + 2):
            keys = keyframe_positions(frames, count, rng=np.random.default_rng(frames + count))
            assert ((np.diff(keys) + 1) % 4 == 1).all(), (frames, count, keys)


def test_impossible_keyframe_plans_are_refused() -> None:
    with pytest.raises(ConfigError, match="4k \\+ 1 frames"):
        check_keyframe_count(80, 8)
    with pytest.raises(ConfigError, match="22 keyframes need 21 gaps"):
        check_keyframe_count(81, 22)
    with pytest.raises(ConfigError, match="at least 2 keyframes"):
        check_keyframe_count(81, 1)


def test_splice_keeps_the_length_and_puts_the_exact_anchor_keyframes_back() -> None:
    rng = np.random.default_rng(0)
    anchor = rng.integers(0, 256, size=(17, 8, 8, 3), dtype=np.uint8)
    keys = [0, 8, 16]
    intervals = [rng.integers(0, 256, size=(9, 8, 8, 3), dtype=np.uint8) for _ in range(2)]
    out = splice_intervals(anchor, keys, intervals)
    assert out.shape == anchor.shape and out.dtype == np.uint8
    assert out[keys].tobytes() == anchor[keys].tobytes()  # byte-identical keyframes
    assert (out[1:8] == intervals[0][1:8]).all() and (out[9:16] == intervals[1][1:8]).all()


def test_splice_refuses_an_interval_of_the_wrong_length() -> None:
    anchor = np.zeros((9, 4, 4, 3), dtype=np.uint8)
    with pytest.raises(MediaError, match=r"interval 0\.\.4 needs 5 frames"):
        splice_intervals(
            anchor, [0, 4, 8], [np.zeros((4, 4, 4, 3), np.uint8), np.zeros((5, 4, 4, 3), np.uint8)]
        )
