"""motion_score against a float64 reference written from the paper's definition; anchor selection."""

from __future__ import annotations

import numpy as np
import pytest

from mmjudge.benchmarks.isovrbench.interventions import _motion, motion_score, select_anchors_by_motion
from mmjudge.errors import ConfigError, MediaError, SchemaError
from mmjudge.media.synthetic import moving_texture_clip


def _reference(frames: np.ndarray, step: int) -> float:
    """Mean over sampled-frame pairs, pixels and channels of |difference| in 8-bit values."""
    sampled = frames[::step].astype(np.float64)
    diffs = [np.abs(sampled[t + 1] - sampled[t]).mean() for t in range(len(sampled) - 1)]
    return float(np.mean(diffs))


@pytest.mark.parametrize("step", [1, 3, 4])
def test_motion_score_matches_reference(step):
    clip = np.random.default_rng(step).integers(0, 256, size=(20, 9, 11, 3), dtype=np.uint8)
    assert motion_score(clip, step=step) == pytest.approx(_reference(clip, step), rel=1e-12)


def test_motion_score_is_the_same_when_processed_in_chunks(monkeypatch):
    clip = moving_texture_clip(25, 32, 48, seed=2)
    whole = motion_score(clip)
    monkeypatch.setattr(_motion, "_CHUNK_PIXELS", 1)  # one frame pair per chunk
    assert motion_score(clip) == whole == pytest.approx(_reference(clip, 3))


def test_motion_score_extremes_and_moving_clip():
    static = np.full((10, 4, 4, 3), 77, dtype=np.uint8)
    assert motion_score(static) == 0.0
    flicker = np.zeros((4, 2, 2, 3), dtype=np.uint8)
    flicker[1::2] = 255
    assert motion_score(flicker, step=1) == 255.0
    assert motion_score(moving_texture_clip(16, 32, 48, seed=0, pan=(0.0, 3.0))) > 1.0


def test_motion_score_rejects_bad_input():
    with pytest.raises(MediaError, match="two sampled frames"):
        motion_score(np.zeros((3, 2, 2, 3), dtype=np.uint8), step=3)
    with pytest.raises(MediaError):
        motion_score(np.zeros((3, 2, 2, 3), dtype=np.float32))
    with pytest.raises(ConfigError):
        motion_score(np.zeros((3, 2, 2, 3), dtype=np.uint8), step=0)


def test_select_anchors_matches_a_sort_with_index_tie_break():
    rng = np.random.default_rng(0)
    scores = rng.integers(0, 5, size=50).astype(float)  # many ties
    expected = sorted(range(50), key=lambda i: (-scores[i], i))[:10]
    assert select_anchors_by_motion(scores, 10).tolist() == expected


def test_select_anchors_with_threshold():
    assert select_anchors_by_motion([30.0, 10.0, 26.0, 25.0], 2, min_score=25).tolist() == [0, 2]
    with pytest.raises(ConfigError, match="above 25"):
        select_anchors_by_motion([30.0, 10.0, 26.0, 25.0], 3, min_score=25)


def test_select_anchors_rejects_non_finite_scores():
    with pytest.raises(SchemaError, match=r"\[1\]"):
        select_anchors_by_motion([1.0, float("nan")], 1)
