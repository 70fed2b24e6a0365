"""EmoReAlM builder: the real JSON list, per-task configs, derived columns, bad inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from data_helpers import leftovers

from mmjudge.benchmarks import build_dataset
from mmjudge.benchmarks.emorealm.scoring import TASKS
from mmjudge.errors import MediaError, SchemaError


def _items() -> list[dict]:
    mcq = ["(A) happiness", "(B) sadness", "(C) anger", "(D) fear"]
    yes_no = ["(A) Yes", "(B) No"]
    return [
        {
            "id": 1,
            "video": "clips/00001.mp4",
            "task": TASKS[0],
            "question": "Which cue?",
            "choices": mcq,
            "answer": "A",
        },
        {
            "id": 2,
            "video": "clips/00001.mp4",
            "task": TASKS[1],
            "question": "Which face?",
            "choices": mcq,
            "answer": "(c)",
        },
        {
            "id": "3",
            "video": "clips/00002.mp4",
            "task": TASKS[2],
            "question": "Calm voice?",
            "choices": mcq,
            "answer": "D",
            "source": {"split": 1},
        },
        {
            "id": 4,
            "video": "clips/00002.mp4",
            "task": TASKS[3],
            "question": "Hidden face?",
            "choices": mcq[:3],
            "answer": "B",
        },
        {
            "id": 5,
            "video": "clips/00003.mp4",
            "task": TASKS[4],
            "question": "Do they agree?",
            "choices": yes_no,
            "answer": "B",
        },
    ]


def _write(tmp_path: Path, items: object) -> Path:
    path = tmp_path / "raw" / "emorealm_v1.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(items), encoding="utf-8")
    return path


def test_round_trip_configs_and_derived_columns(tmp_path, load_offline):
    out = build_dataset("emorealm", _write(tmp_path, _items()), tmp_path / "out")
    all_rows = load_offline(out, "all")["test"]
    assert list(all_rows.features) == [
        "id",
        "video",
        "task",
        "question",
        "choices",
        "answer",
        "is_yes_no",
        "num_choices",
        "video_path",
        "audio_path",
        "source",
    ]
    assert all_rows.features["choices"].feature.dtype == "string"
    assert (
        all_rows.features["is_yes_no"].dtype == "bool" and all_rows.features["num_choices"].dtype == "int32"
    )
    assert all_rows["id"] == ["1", "2", "3", "4", "5"]
    assert all_rows["answer"] == ["A", "C", "D", "B", "B"]
    assert all_rows["is_yes_no"] == [False, False, False, False, True]
    assert all_rows["num_choices"] == [4, 4, 4, 3, 2]
    assert all_rows["audio_path"][0] == "clips/00001.wav"
    assert all_rows["source"] == [None, None, '{"split": 1}', None, None]
    for task in TASKS:
        rows = load_offline(out, task)["test"]
        assert rows["task"] == [task]
    assert load_offline(out)["test"].num_rows == 5  # `all` is the default


def test_absent_tasks_get_no_config(tmp_path):
    out = build_dataset("emorealm", _write(tmp_path, _items()[:2]), tmp_path / "out")
    assert sorted(p.name for p in (out / "data").iterdir()) == ["all", TASKS[0], TASKS[1]]


def test_folder_source_and_media_root(tmp_path, load_offline):
    source = _write(tmp_path, _items())
    root = tmp_path / "DFEW"
    for n in ("00001", "00002", "00003"):
        (root / "clips").mkdir(parents=True, exist_ok=True)
        (root / "clips" / f"{n}.mp4").write_bytes(b"v")
        (root / "clips" / f"{n}.wav").write_bytes(b"a")
    out = build_dataset("emorealm", source.parent, tmp_path / "out", media_root=root)
    assert load_offline(out, "all")["test"]["media_missing"] == [False] * 5
    assert not (out / "media").exists()


def test_missing_audio_track_counts_as_missing(tmp_path, load_offline):
    source = _write(tmp_path, _items())
    root = tmp_path / "DFEW" / "clips"
    root.mkdir(parents=True)
    for n in ("00001", "00002", "00003"):
        (root / f"{n}.mp4").write_bytes(b"v")
    with pytest.raises(MediaError, match="audio_path"):
        build_dataset("emorealm", source, tmp_path / "out", media_root=root.parent)
    with pytest.warns(UserWarning):
        out = build_dataset(
            "emorealm", source, tmp_path / "out", media_root=root.parent, allow_missing_media=True
        )
    assert load_offline(out, "all")["test"]["media_missing"] == [True] * 5


def test_missing_video_message_names_the_raw_column(tmp_path):
    source = _write(tmp_path, _items())
    (tmp_path / "DFEW").mkdir()
    with pytest.raises(MediaError, match=r"5 of 5 media files in column 'video' of"):
        build_dataset("emorealm", source, tmp_path / "out", media_root=tmp_path / "DFEW")


def _with(**changes: object) -> list[dict]:
    items = _items()
    items[2] = {**items[2], **changes}
    return items


@pytest.mark.parametrize(
    ("items", "pattern"),
    [
        ({"id": 1}, r"expected a JSON list of objects at the top level, got dict"),
        ([], r"expected at least one item, got an empty list"),
        ([_items()[0], "x"], r"row 2: expected a JSON object, got str"),
        (
            [{k: v for k, v in _items()[0].items() if k != "answer"}],
            r"row 1 \(id 1\), column 'answer': expected a value",
        ),
        (
            _with(task="reasoning_basic"),
            r"row 3 \(id '3'\), column 'task': expected one of .*got 'reasoning_basic'",
        ),
        (_with(id=1), r"row 3, column 'id': expected unique ids, got '1' again \(first at row 1\)"),
        (
            _with(answer="E"),
            r"row 3 \(id '3'\), column 'answer': expected one letter of \['A', 'B', 'C', 'D'\]",
        ),
        (_with(answer="AB"), r"column 'answer'.*got 'AB'"),
        (_with(choices="(A) x (B) y"), r"column 'choices': expected a list of at least two strings"),
        (_with(video="../other/00002.mp4"), r"row 3 \(id '3'\), column 'video'.*escapes"),
        (_with(video="/data/DFEW/00002.mp4"), r"column 'video'.*absolute"),
        (_with(question=""), r"column 'question': expected non-empty text"),
    ],
)
def test_bad_input_names_file_row_and_column(tmp_path, items, pattern):
    with pytest.raises(SchemaError, match=pattern) as info:
        build_dataset("emorealm", _write(tmp_path, items), tmp_path / "out")
    assert "emorealm_v1.json" in str(info.value)
    assert leftovers(tmp_path, "out") == []


@pytest.mark.parametrize(
    ("data", "pattern"),
    [
        (b"", r"expected a non-empty file"),
        (b'[{"id": 1, "question": "caf\xe9"}]', r"expected UTF-8 text"),
        (b'[{"id": 1,]', r"expected valid JSON, got .* at line 1"),
    ],
)
def test_bad_bytes(tmp_path, data, pattern):
    path = tmp_path / "emorealm_v1.json"
    path.write_bytes(data)
    with pytest.raises(SchemaError, match=pattern):
        build_dataset("emorealm", path, tmp_path / "out")
