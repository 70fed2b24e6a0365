"""Caption ranking (TemporalBench, TempCompass) against the official counting scripts, written here as the
reference: TemporalBench's ``get_qa_acc.py`` (Binary and Multiple Binary Accuracy, per category; items missing from
the prediction file skipped) and TempCompass' ``print_result`` (``avg`` pooled over dimensions, per dimension; a
missing prediction rated 0), fed the reward-model answer of the IsoVRBench paper's Appendix M (the unique highest
caption score; an exact tie is no answer, so wrong)."""

from __future__ import annotations

import numpy as np
import pytest

from mmjudge.benchmarks import tempcompass, temporalbench
from mmjudge.benchmarks._base import QuerySource
from mmjudge.benchmarks._captions.queries import build_queries, caption_item, records_from_verdicts
from mmjudge.benchmarks._captions.scoring import category_key, choose
from mmjudge.errors import ConfigError, SchemaError
from mmjudge.queries import ScoreQuery, Verdict

LETTERS = "ABCD"


def reward_response(scores):
    """The reward model's answer as a response string: the letter of the unique highest score, else nothing."""
    if scores is None:
        return None
    best = max(scores)
    winners = [k for k, s in enumerate(scores) if s == best]
    return LETTERS[winners[0]] if len(winners) == 1 else "tie"


def official_get_qa_acc(questions, predictions):
    """``get_qa_acc.py`` as its source states it: ``questions`` are the release items (idx, video_name, GT,
    category), ``predictions`` the prediction file's lines (idx, response) -- an item without a line is skipped."""
    by_idx = {q["idx"]: q for q in questions}
    correct_count = 0
    mba, mba_category, binary_category = {}, {}, {}
    for pred in predictions:
        q = by_idx[pred["idx"]]
        ok = q["GT"].lower() == pred["response"][0].lower()
        correct_count += ok
        mba.setdefault(q["video_name"], True)
        if not ok:
            mba[q["video_name"]] = False
        binary_category.setdefault(q["category"], []).append(ok)
        per = mba_category.setdefault(q["category"], {})
        per.setdefault(q["video_name"], True)
        if not ok:
            per[q["video_name"]] = False
    out = {"accuracy": correct_count / len(predictions) * 100,
           "multiple_binary_accuracy": sum(mba.values()) / len(mba) * 100}  # fmt: skip
    for category, values in binary_category.items():
        out[f"accuracy/{category_key(category)}"] = sum(values) / len(values) * 100
        out[f"multiple_binary_accuracy/{category_key(category)}"] = (
            sum(mba_category[category].values()) / len(mba_category[category]) * 100)  # fmt: skip
    return out


def official_print_result(questions, responses):
    """TempCompass' caption-matching ``print_result``: rating 1 when the response names the right option, 0 for a
    wrong or missing one; ``avg`` pools every question, then each dimension its own."""
    rating, count = {}, {}
    for q, response in zip(questions, responses, strict=True):
        r = 0 if response is None or response == "tie" else int(LETTERS.index(response) == q["answer"])
        rating[q["dimension"]] = rating.get(q["dimension"], 0) + r
        count[q["dimension"]] = count.get(q["dimension"], 0) + 1
    out = {"accuracy": sum(rating.values()) * 100 / sum(count.values())}
    out.update({f"accuracy/{d}": rating[d] * 100 / count[d] for d in rating})
    return out


def _random_design(rng, n_videos, *, ties, missing, categories):
    questions, scores = [], []
    for v in range(n_videos):
        for k in range(int(rng.integers(1, 5))):
            n_captions = 2 if rng.random() < 0.8 else 3
            gt = int(rng.integers(n_captions))
            questions.append({"idx": f"v{v}_{k}", "video_name": f"v{v}.mp4", "GT": LETTERS[gt], "answer": gt,
                              "category": categories[int(rng.integers(len(categories)))]})  # fmt: skip
            row = list(np.round(rng.normal(size=n_captions), 1))  # rounded: ties happen
            if rng.random() < ties:
                row[int(rng.integers(n_captions))] = max(row)
            scores.append(None if rng.random() < missing else row)
    return questions, scores


@pytest.mark.parametrize("seed", range(12))
def test_temporalbench_equals_get_qa_acc_in_both_modes(seed):
    rng = np.random.default_rng(seed)
    categories = ["Action Order", "Motion Direction/Orientation", "Others"][: 1 + seed % 3]
    questions, scores = _random_design(rng, 6 + seed, ties=0.2, missing=0.15 if seed % 4 else 0.0, categories=categories)
    args = ([s for s in scores], [q["answer"] for q in questions], [q["video_name"] for q in questions],
            [q["category"] for q in questions])  # fmt: skip
    present = [{"idx": q["idx"], "response": reward_response(s)} for q, s in zip(questions, scores, strict=True)
               if s is not None]  # fmt: skip
    got = temporalbench.score(*args, mode="official", n_resamples=0)
    want = official_get_qa_acc(questions, present)
    assert {k: got[k] for k in want} == pytest.approx(want, abs=1e-9)
    # strict: a question without scores is a wrong line in the prediction file
    every = [{"idx": q["idx"], "response": reward_response(s) or "-"} for q, s in zip(questions, scores, strict=True)]
    got = temporalbench.score(*args, mode="strict", n_resamples=0)
    want = official_get_qa_acc(questions, every)
    assert {k: got[k] for k in want} == pytest.approx(want, abs=1e-9)
    assert got["n_ties"] == sum(reward_response(s) == "tie" for s in scores)
    assert got["n_missing"] == sum(s is None for s in scores)


@pytest.mark.parametrize("seed", range(8))
def test_tempcompass_equals_print_result(seed):
    rng = np.random.default_rng(100 + seed)
    questions, scores = _random_design(rng, 7 + seed, ties=0.25, missing=0.1,
                                       categories=["action", "direction", "speed", "order", "attribute_change"])  # fmt: skip
    for q in questions:
        q["dimension"] = q["category"]
    got = tempcompass.score(scores, [q["answer"] for q in questions], [q["video_name"] for q in questions],
                            [q["dimension"] for q in questions], n_resamples=0)  # fmt: skip
    want = official_print_result(questions, [reward_response(s) for s in scores])
    assert {k: got[k] for k in want} == pytest.approx(want, abs=1e-9)
    assert "multiple_binary_accuracy" not in got
    with pytest.raises(ConfigError, match="one mode, strict"):
        tempcompass.score(scores, [q["answer"] for q in questions], [q["video_name"] for q in questions], mode="official")


@pytest.mark.parametrize(("scores", "want"), [
    ([0.2, 0.7], 1), ([0.7, 0.7], None), ([3.0, 1.0, 3.0], None), ([3.0, 1.0, 2.0], 0), ([-1.0, -2.0], 0),
    ([0.1 + 0.2, 0.3], 0),  # 0.30000000000000004 > 0.3: floats are compared as they are, as the official answer is
    ([5.0, 5.0, 4.0], None), (None, None), ([], None),
])  # fmt: skip
def test_the_unique_maximum_is_chosen_and_a_tie_for_it_is_no_answer(scores, want):
    assert choose(scores) == want
    if scores:  # the reference's answer: the same letter, or none
        assert reward_response(scores) == ("tie" if want is None else LETTERS[want])


def test_edge_cases_single_category_all_ties_all_missing_and_bad_input():
    one = temporalbench.score([[0.5, 0.5]] * 5, [0] * 5, list("abcde"), n_resamples=0)
    assert one["accuracy"] == 0.0 and one["multiple_binary_accuracy"] == 0.0 and one["n_ties"] == 5
    assert one["accuracy_ci_high"] > 0.0  # never a zero-width interval at 0
    with pytest.raises(SchemaError, match="nothing to count"):
        temporalbench.score([None, None], [0, 1], ["a", "b"], mode="official")
    assert temporalbench.score([None, None], [0, 1], ["a", "b"], n_resamples=0)["accuracy"] == 0.0
    with pytest.raises(SchemaError, match="empty"):
        temporalbench.score([], [], [])
    with pytest.raises(SchemaError, match="finite numbers"):
        temporalbench.score([[0.1, float("nan")]], [0], ["a"])
    with pytest.raises(SchemaError, match="answer's index 2"):
        temporalbench.score([[0.1, 0.2]], [2], ["a"])
    with pytest.raises(SchemaError, match="caption index"):
        temporalbench.score([[0.1, 0.2]], [True], ["a"])
    with pytest.raises(SchemaError, match="distinct, non-empty key"):
        temporalbench.score([[0.1, 0.2]] * 2, [0, 0], ["a", "b"], ["Action/Order", "action order"])
    with pytest.raises(ConfigError, match="mode"):
        temporalbench.score([[0.1, 0.2]], [0], ["a"], mode="lenient")


def test_intervals_take_videos_as_clusters_and_per_video_rates_as_independent_videos():
    rng = np.random.default_rng(5)
    questions, scores = _random_design(rng, 40, ties=0.1, missing=0.0, categories=["Action Order"])
    got = temporalbench.score(scores, [q["answer"] for q in questions], [q["video_name"] for q in questions],
                              [q["category"] for q in questions], n_resamples=0)  # fmt: skip
    assert got.intervals["accuracy"]["cluster"] == "video" and "jackknife over videos" in got.intervals["accuracy"]["method"]
    mba = got.intervals["multiple_binary_accuracy"]
    assert (mba["unit"], mba["n_units"], mba["method"]) == ("video", 40, "Wilson score interval over independent "
                                                            "videos (repaired next to 0 and 100)")  # fmt: skip
    assert got["multiple_binary_accuracy_ci_low"] < got["multiple_binary_accuracy"] < got["multiple_binary_accuracy_ci_high"]


def _rows():
    return [
        {"id": "q1", "video_path": "v/1.mp4", "captions": ["right one.", "wrong one."], "answer": 0, "category": "x"},
        {"id": "q2", "video_path": "v/1.mp4", "captions": ["other wrong.", "right one."], "answer": 1, "category": "x"},
    ]


def test_each_video_caption_pair_is_asked_once_and_the_text_alignment_head_is_read(tmp_path):
    queries = build_queries(_rows(), QuerySource(tmp_path))
    assert [q.prompt for q in queries] == ["right one.", "wrong one.", "other wrong."]  # the shared caption once
    assert all(isinstance(q, ScoreQuery) and q.video == tmp_path / "v/1.mp4" for q in queries)
    values = {"right one.": {"VQ": 9.0, "TA": 2.0, "overall": 1.0}, "wrong one.": {"VQ": 0.0, "TA": 1.0, "overall": 5.0},
              "other wrong.": 0.5}  # fmt: skip
    verdicts = [Verdict(q.item_id, values[q.prompt]) for q in queries]
    records = records_from_verdicts(queries, verdicts, _rows())
    assert records == [{"id": "q1", "scores": [2.0, 1.0], "no_judgment": False},
                       {"id": "q2", "scores": [0.5, 2.0], "no_judgment": False}]  # fmt: skip
    failed = [Verdict.failed(caption_item("v/1.mp4", "wrong one."), "MediaError: unreadable") if q.prompt == "wrong one."
              else Verdict(q.item_id, 1.0) for q in queries]  # fmt: skip
    records = records_from_verdicts(queries, failed, _rows())
    assert records[0] == {"id": "q1", "scores": None, "no_judgment": True, "error": "MediaError: unreadable"}
    assert records[1]["no_judgment"] is False
