"""GenAI-Bench (video)'s scorer against VideoScore2's ``get_pairwise_acc.py`` and VideoScore's
``get_genaibench_pairwise_acc.py``, their rules restated here as the scripts run them.

VideoScore2: ``judge_equal_for_diverse(method, s1, s2, with_ties)`` returns 1 / -1 / 0 (without ties: the sign of
``s1 - s2``; with ties: ``s1 - s2 > t`` / ``< -t`` with the method's ``t``); a 0 becomes the vote ``bothbad_vote``
when that was the vote, else ``tievote``; without ties, tie and both-bad votes are skipped; a pair whose video has
no score is skipped before ``total`` counts it. VideoScore v1: equal preferences are right iff ``|l - r| < 0.5``.
"""

from __future__ import annotations

import numpy as np
import pytest

from mmjudge.benchmarks import genai_bench_video as genai
from mmjudge.errors import SchemaError

THRESHOLDS = {"lift": 0.0, "vs2": 0.5, "vs2_float": 0.001, "video_reward": 0.25, "unified_reward": 0.2,
              "vision_reward": 0.05}  # fmt: skip


def judge_equal(t, s1, s2, with_ties):
    if not with_ties:
        return 1 if s1 > s2 else (-1 if s1 < s2 else 0)
    if s1 - s2 > t:
        return 1
    if s1 - s2 < -t:
        return -1
    return 0


def videoscore2_accuracy(votes, left, right, t, with_ties):
    """VideoScore2's GenAI-Bench loop; ``None`` scores are videos missing from its score dict."""
    correct = total = 0
    for vote, s1, s2 in zip(votes, left, right, strict=True):
        if not with_ties and vote in ("bothbad_vote", "tievote"):
            continue
        if s1 is None or s2 is None:
            continue
        total += 1
        verdict = judge_equal(t, s1, s2, with_ties)
        pred = "leftvote" if verdict == 1 else "rightvote" if verdict == -1 else (
            "bothbad_vote" if vote == "bothbad_vote" else "tievote")  # fmt: skip
        correct += pred == vote
    return correct / total


def videoscore_v1_accuracy(votes, left, right):
    """VideoScore's get_pairwise_acc over preferences: a tie or both-bad vote is equal preferences."""
    prefs = {"leftvote": (1, 0), "rightvote": (0, 1), "tievote": (0, 0), "bothbad_vote": (0, 0)}
    kept = [(prefs[v], a, b) for v, a, b in zip(votes, left, right, strict=True) if a is not None and b is not None]
    right_ = 0
    for (lp, rp), ls, rs in kept:
        right_ += (ls > rs) if lp > rp else (ls < rs) if lp < rp else abs(ls - rs) < 0.5
    return right_ / len(kept)


def ours(votes, left, right, t=0.0):
    missing = [a is None or b is None for a, b in zip(left, right, strict=True)]
    return genai.score(votes, left, right, no_judgment=missing, tie_threshold=t)


def test_a_zero_difference_is_wrong_without_ties():
    votes, left, right = ["leftvote", "rightvote", "leftvote"], [1.0, 2.0, 3.0], [1.0, 2.0, 1.0]
    result = ours(votes, left, right)
    assert result["accuracy_without_ties"] == pytest.approx(100 * videoscore2_accuracy(votes, left, right, 0, False))
    assert result["accuracy_without_ties"] == pytest.approx(100 / 3)


def test_a_predicted_tie_is_right_on_a_tie_vote_and_on_a_both_bad_vote():
    votes, left, right = ["tievote", "bothbad_vote", "leftvote"], [1.0, 1.1, 1.2], [1.2, 1.0, 1.0]
    result = ours(votes, left, right, t=0.2)  # unified_reward's threshold: |m| <= 0.2 is a tie, 0.2 included
    assert result["accuracy_with_ties"] == pytest.approx(100 * videoscore2_accuracy(votes, left, right, 0.2, True))
    assert result["accuracy_with_ties"] == pytest.approx(200 / 3)  # the third pair's 0.2 is a tie: wrong on leftvote


def test_pairs_with_a_missing_video_are_skipped_officially_and_counted_wrong_by_mmjudge():
    votes = ["leftvote", "rightvote", "tievote", "leftvote"]
    left, right = [2.0, None, 1.0, 1.0], [1.0, 1.0, 1.0, None]
    result = ours(votes, left, right, t=0.25)
    assert result["accuracy_without_ties"] == 100 * videoscore2_accuracy(votes, left, right, 0.25, False) == 100.0
    assert result["accuracy_with_ties"] == 100 * videoscore2_accuracy(votes, left, right, 0.25, True) == 100.0
    assert result["strict_accuracy_without_ties"] == pytest.approx(100 / 3)
    assert result["strict_accuracy_with_ties"] == 50.0 and result["n_no_judgment"] == 2


def test_videoscore_v1_ties_are_strictly_under_half():
    votes, left, right = ["tievote", "bothbad_vote", "tievote"], [1.0, 1.5, 0.0], [1.5, 1.0, 0.49]
    result = ours(votes, left, right)
    assert result["videoscore_accuracy_with_ties"] == pytest.approx(100 * videoscore_v1_accuracy(votes, left, right))
    assert result["videoscore_accuracy_with_ties"] == pytest.approx(100 / 3)


@pytest.mark.parametrize("method", sorted(THRESHOLDS))
@pytest.mark.parametrize("seed", range(12))
def test_random_votes_with_repeated_scores_equal_the_official_scripts(method, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 40))
    votes = rng.choice(genai.VOTES, size=n).tolist()
    left = (rng.integers(0, 5, size=n) / 4).tolist()  # quarters: differences land on the thresholds
    right = (rng.integers(0, 5, size=n) / 4).tolist()
    for k in rng.choice(n, size=int(rng.integers(0, 3)), replace=False):
        (left if k % 2 else right)[k] = None
    t = THRESHOLDS[method]
    assert genai.official_tie_threshold(method) == t
    result = ours(votes, left, right, t)
    kept = [(v, a, b) for v, a, b in zip(votes, left, right, strict=True) if a is not None and b is not None]
    if any(v in ("leftvote", "rightvote") for v, _, _ in kept):
        assert result["accuracy_without_ties"] == pytest.approx(100 * videoscore2_accuracy(votes, left, right, t, False))
    if kept:
        assert result["accuracy_with_ties"] == pytest.approx(100 * videoscore2_accuracy(votes, left, right, t, True))
        assert result["videoscore_accuracy_with_ties"] == pytest.approx(100 * videoscore_v1_accuracy(votes, left, right))


def test_a_judge_the_script_does_not_list_has_no_threshold():
    assert genai.official_tie_threshold("pick_score") is None


def test_bad_input_is_refused_with_what_to_do():
    with pytest.raises(SchemaError, match="`preference` has 1 values outside"):
        genai.score(["left"], [1.0], [0.0])
    with pytest.raises(SchemaError, match="per-judge values"):
        genai.score(["leftvote"], [1.0], [0.0], tie_threshold=-1)
