"""MJ-Bench-Video's release reader: the JSON list, per-aspect labels, bad items refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mmjudge.benchmarks.mj_bench_video import build, records
from mmjudge.errors import SchemaError

ITEM = {
    "caption": "a fox",
    "video_0_path": "test/0_0.mp4",
    "video_1_path": "test/0_1.mp4",
    "category_preference": {"Alignment": "Same", "Fineness": "Video 1 better"},
    "overall_preference": "Video 2 better",
    "discard": False,
}


def _release(folder: Path, items: list[dict]) -> Path:
    path = folder / "test.json"
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(items), encoding="utf-8")
    for item in items:
        for key in ("video_0_path", "video_1_path"):
            clip = folder / "videos" / item[key]
            clip.parent.mkdir(parents=True, exist_ok=True)
            clip.write_bytes(b"clip")
    return path


def test_the_release_builds_with_per_aspect_labels_and_the_missing_ones_null(tmp_path):
    built = build.build_tables(_release(tmp_path, [ITEM]))
    pair = built.configs[0].splits["test"].to_pylist()[0]
    assert (pair["pref_overall"], pair["pref_alignment"], pair["pref_fineness"], pair["pref_safety"]) == (
        "Video 2 better", "Same", "Video 1 better", None)  # fmt: skip
    assert pair["discard"] == "false" and pair["video_a"] == "media/test/0_0.mp4"
    inputs = records.score_inputs([{"id": pair["pair_id"], "score_a": 1.0, "score_b": 2.0}], [pair])
    assert inputs["aspect"] == ["Overall", "Alignment", "Fineness"]  # an aspect without a label is not scored


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"overall_preference": "Video 3 better"}, "overall_preference"),
        ({"category_preference": {"Safety": "same"}}, "category_preference.Safety"),
        ({"caption": ""}, "caption"),
        ({"video_1_path": "/abs.mp4"}, "video_1_path"),
    ],
)
def test_a_bad_item_is_refused_naming_its_field(tmp_path, change, message):
    item = {**ITEM, **change}
    path = tmp_path / "test.json"
    path.write_text(json.dumps([item]), encoding="utf-8")
    with pytest.raises(SchemaError, match=message):
        build.read_pairs(path)
