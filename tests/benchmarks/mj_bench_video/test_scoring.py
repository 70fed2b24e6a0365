"""MJ-Bench-Video's scorer against the one public rule, VideoScore2's ``get_pairwise_acc.py`` (its MJ-Bench-Video
branch), restated here as it runs: a video without a score skips the pair; without ties a pair labelled ``Same``
is skipped; ``compare(s1, s2)`` gives ``Video 1 better`` / ``Video 2 better`` / ``Same`` by
``judge_equal_for_diverse``; a pair is right when that equals the label. No official MJ-Bench-Video accuracy code
exists (MJ-Bench scores images; MJ-Video's scripts drop ``Same`` and ``Hard to judge`` and compute none)."""

from __future__ import annotations

import numpy as np
import pytest

from mmjudge.benchmarks import mj_bench_video as mjv
from mmjudge.errors import SchemaError

LABELS = ["Video 1 better", "Video 2 better", "Same"]


def compare(t, s1, s2, with_ties):
    d = s1 - s2
    if not with_ties:
        verdict = 1 if s1 > s2 else (-1 if s1 < s2 else 0)
    else:
        verdict = 1 if d > t else (-1 if d < -t else 0)
    return {1: "Video 1 better", -1: "Video 2 better", 0: "Same"}[verdict]


def videoscore2_accuracy(labels, s0, s1, t, with_ties):
    correct = total = 0
    for label, a, b in zip(labels, s0, s1, strict=True):
        if a is None or b is None:
            continue
        if not with_ties and label == "Same":
            continue
        total += 1
        correct += compare(t, a, b, with_ties) == label
    return correct / total


def ours(labels, s0, s1, t=0.0, aspect="Overall"):
    missing = [a is None or b is None for a, b in zip(s0, s1, strict=True)]
    return mjv.score(labels, s0, s1, aspect=[aspect] * len(labels), no_judgment=missing, tie_threshold=t)


def test_same_is_dropped_without_ties_and_a_zero_difference_is_wrong():
    labels, s0, s1 = ["Video 1 better", "Video 2 better", "Same"], [1.0, 2.0, 0.0], [1.0, 1.0, 0.0]
    result = ours(labels, s0, s1)
    assert result["accuracy_without_ties/overall"] == 100 * videoscore2_accuracy(labels, s0, s1, 0, False) == 0.0
    assert result["accuracy_with_ties/overall"] == pytest.approx(100 * videoscore2_accuracy(labels, s0, s1, 0, True))


def test_the_threshold_is_inclusive_and_a_missing_video_skips_the_pair():
    labels, s0, s1 = ["Same", "Video 1 better", "Video 2 better"], [1.25, 1.0, None], [1.0, 0.0, 1.0]
    result = ours(labels, s0, s1, t=0.25)  # video_reward's threshold: 0.25 exactly is Same
    assert result["accuracy_with_ties/overall"] == 100 * videoscore2_accuracy(labels, s0, s1, 0.25, True) == 100.0
    assert result["strict_accuracy_with_ties/overall"] == pytest.approx(200 / 3)
    assert result["n_no_judgment/overall"] == 1


def test_hard_to_judge_is_left_out_where_videoscore2_would_count_it_wrong():
    labels, s0, s1 = ["Video 1 better", "Hard to judge", "Video 2 better"], [2.0, 1.0, 0.0], [1.0, 0.0, 1.0]
    result = ours(labels, s0, s1)
    assert result["accuracy_without_ties/overall"] == 100.0 and result["n_hard_to_judge/overall"] == 1
    assert 100 * videoscore2_accuracy(labels, s0, s1, 0, False) == pytest.approx(200 / 3)  # the recorded difference


@pytest.mark.parametrize("seed", range(40))
def test_random_pairs_with_repeated_scores_equal_videoscore2(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 30))
    labels = rng.choice(LABELS, size=n).tolist()
    s0 = (rng.integers(0, 6, size=n) / 5).tolist()
    s1 = (rng.integers(0, 6, size=n) / 5).tolist()
    for k in rng.choice(n, size=int(rng.integers(0, 3)), replace=False):
        s0[k] = None
    t = float(rng.choice([0.0, 0.2, 0.25, 0.5]))
    aspect = str(rng.choice([a.name for a in mjv.ASPECTS]))
    slug = next(a.slug for a in mjv.ASPECTS if a.name == aspect)
    result = ours(labels, s0, s1, t, aspect)
    kept = [(lab, a) for lab, a in zip(labels, s0, strict=True) if a is not None]
    if any(lab != "Same" for lab, _ in kept):
        assert result[f"accuracy_without_ties/{slug}"] == pytest.approx(100 * videoscore2_accuracy(labels, s0, s1, t, False))
    if kept:
        assert result[f"accuracy_with_ties/{slug}"] == pytest.approx(100 * videoscore2_accuracy(labels, s0, s1, t, True))


def test_bad_input_is_refused():
    with pytest.raises(SchemaError, match="aspect"):
        mjv.score(["Same"], [1.0], [1.0], aspect=["Motion"])
