"""TemporalBench's QA file and TempCompass' caption-matching file, read from their release formats: the sample
builds, and each malformed item is refused with the file, the item and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mmjudge.benchmarks import get_benchmark
from mmjudge.benchmarks.tempcompass import sample as tc_sample
from mmjudge.benchmarks.tempcompass.release import parse_options
from mmjudge.benchmarks.temporalbench import sample as tb_sample
from mmjudge.benchmarks.temporalbench.release import parse_question
from mmjudge.errors import SchemaError

Q = "Which caption best describes this video?\nA. {a}\nB. {b}\nAnswer with the option's letter from the given choices directly."


def _tb_item(idx="short_video/COIN/a.mp4_0", video="short_video/COIN/a.mp4", a="x turns left.", b="x turns right.",
             gt="B", **extra):  # fmt: skip
    return {"idx": idx, "video_name": video, "question": Q.format(a=a, b=b), "GT": gt, "category": "Action Type",
            "dataset": "COIN", **extra}  # fmt: skip


def _tb_build(tmp_path: Path, items):
    path = tmp_path / "temporalbench_short_qa.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    return get_benchmark("temporalbench").data.build_tables(tmp_path)


def test_temporalbench_items_become_rows_with_the_gt_letter_as_an_index(tmp_path):
    built = _tb_build(tmp_path, [_tb_item(), _tb_item(idx="i2", gt="A", dataset=None, source_dataset="FineGym")])
    rows = built.configs[0].splits["test"].to_pylist()
    assert [(r["captions"], r["answer"], r["source_dataset"]) for r in rows] == [
        (["x turns left.", "x turns right."], 1, "COIN"), (["x turns left.", "x turns right."], 0, "FineGym")]
    assert [c.name for c in built.configs] == ["all"]  # one category: no config per category
    two = _tb_build(tmp_path, [_tb_item(), _tb_item(idx="i2", category="Motion Direction/Orientation")])
    assert [c.name for c in two.configs] == ["all", "action_type", "motion_direction_orientation"]


@pytest.mark.parametrize(("item", "match"), [
    (_tb_item(gt="C"), "column 'GT': expected one of \\['A', 'B'\\]"),
    ({**_tb_item(), "question": "Which caption?\nA. only one"}, "two or more lines"),
    (_tb_item(a="same.", b="same."), "distinct captions"),
    (_tb_item(video="../escape.mp4"), "column 'video'"),
    ({**_tb_item(), "GT": None}, "column 'GT': expected non-empty text"),
])  # fmt: skip
def test_temporalbench_malformed_items_are_refused_naming_the_item(tmp_path, item, match):
    with pytest.raises(SchemaError, match=match):
        _tb_build(tmp_path, [item])


def test_temporalbench_duplicate_idx_and_a_folder_without_the_qa_file(tmp_path):
    with pytest.raises(SchemaError, match="column 'idx': expected unique ids"):
        _tb_build(tmp_path, [_tb_item(), _tb_item()])
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SchemaError, match=r"no temporalbench_short_qa\.json here"):
        get_benchmark("temporalbench").data.build_tables(empty)


def test_question_and_option_parsing_keep_the_whole_caption():
    assert parse_question(Q.format(a="A man: then a dog.", b="B. x")) == (["A", "B"], ["A man: then a dog.", "B. x"])
    assert parse_options("Which?\nOption 1: The clock: fast.\nOption 2: slow.") == [
        ("Option 1: The clock: fast.", "The clock: fast."), ("Option 2: slow.", "slow.")]


def _tc_build(tmp_path: Path, questions, meta=None):
    (tmp_path / "questions").mkdir(exist_ok=True)
    (tmp_path / "questions" / "caption_matching.json").write_text(json.dumps(questions), encoding="utf-8")
    if meta is not None:
        (tmp_path / "meta_info.json").write_text(json.dumps(meta), encoding="utf-8")
    return get_benchmark("tempcompass").data.build_tables(tmp_path)


def _tc(answer_line=2):
    lines = ["Sentence A: The man moves left.", "Sentence B: The man moves right."]
    return {"question": "Which sentence better captures the essence of the video?\n" + "\n".join(lines),
            "answer": lines[answer_line - 1]}  # fmt: skip


def test_tempcompass_answer_line_becomes_an_index_and_the_aspect_comes_from_meta_info(tmp_path):
    meta = {"v1": {"eval_dim": {"direction": {"type": "object motion"}}}}
    built = _tc_build(tmp_path, {"v1": {"direction": [_tc(2), _tc(1)], "order": [_tc(1)]}}, meta)
    rows = built.configs[0].splits["test"].to_pylist()
    assert [(r["id"], r["video"], r["answer"], r["category"], r["aspect"]) for r in rows] == [
        ("v1/direction/0", "videos/v1.mp4", 1, "direction", "object motion"),
        ("v1/direction/1", "videos/v1.mp4", 0, "direction", "object motion"),
        ("v1/order/0", "videos/v1.mp4", 0, "order", "order")]  # fmt: skip


@pytest.mark.parametrize(("questions", "match"), [
    ({"v1": {"direction": [{**_tc(), "answer": "Sentence C: nobody."}]}}, "column 'answer': expected one of the option lines"),
    ({"v1": {"colour": [_tc()]}}, "column 'colour': expected one of"),
    ({"v1": {"direction": [{"question": "Which?"}]}}, "column 'answer': expected non-empty text"),
    ({"v1": {"direction": [{"question": "Which?\nOption 1: same.\nOption 2: same.", "answer": "Option 1: same."}]}},
     "distinct captions"),
    ({"v1": ["not", "an", "object"]}, "expected an object of dimensions"),
])  # fmt: skip
def test_tempcompass_malformed_questions_are_refused_naming_video_and_dimension(tmp_path, questions, match):
    with pytest.raises(SchemaError, match=match):
        _tc_build(tmp_path, questions)


def test_the_samples_build_and_every_answer_points_at_the_right_caption(tmp_path):
    for benchmark in ("temporalbench", "tempcompass"):
        spec = get_benchmark(benchmark)
        raw = spec.data.write_raw(tmp_path / "raw" / benchmark)
        built = spec.data.build_tables(raw.source, media_root=raw.media_root)
        rows = built.configs[0].splits["test"].to_pylist()
        assert len({r["video_path"] for r in rows}) == 6 and not any(r["media_missing"] for r in rows)
        for row in rows:  # the answer points at the caption the sample writer made right
            right = (tb_sample._CHANGES[row["category"]][0] if benchmark == "temporalbench"
                     else tc_sample._CAPTIONS[row["category"]][1])  # fmt: skip
            assert right in row["captions"][row["answer"]]
            assert all(right not in c for k, c in enumerate(row["captions"]) if k != row["answer"])


@pytest.mark.parametrize(("text", "match"), [
    ("[]", "expected a non-empty JSON object \\(video id -> dimensions\\), got list"),
    ("{}", "got an empty object"),
    ("{bad", "expected valid JSON"),
])  # fmt: skip
def test_a_questions_file_that_is_not_a_json_object_is_refused(tmp_path, text, match):
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions" / "caption_matching.json").write_text(text, encoding="utf-8")
    with pytest.raises(SchemaError, match=match):
        get_benchmark("tempcompass").data.build_tables(tmp_path)
