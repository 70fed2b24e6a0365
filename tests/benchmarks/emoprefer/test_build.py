"""EmoPrefer-Data builder: the real CSV trio, round trip through load_dataset, bad inputs."""

from __future__ import annotations

from pathlib import Path

import pytest
from data_helpers import leftovers, write_csv

from mmjudge.benchmarks import build_dataset
from mmjudge.benchmarks.emoprefer.build import find_files, reverse_pairs
from mmjudge.errors import ConfigError, MediaError, SchemaError

ROWS = [
    {
        "name": "sample_00000001",
        "model1": "merrfine",
        "a1": 'Smiles, says "great", happy.',
        "model2": "mercaptionplus",
        "a2": "Frowns; sad.",
        "preference": "a1",
    },
    {
        "name": "sample_00000002",
        "model1": "mercaptionplus",
        "a1": "Calm voice, neutral.",
        "model2": "merrfine",
        "a2": "Neutral, steady gaze.",
        "preference": "same",
    },
    {
        "name": "007",
        "model1": "merrfine",
        "a1": "Shouts, angry.",
        "model2": "mercaptionplus",
        "a2": "Raised voice, furious, angry.",
        "preference": "a2",
    },
]
FLIP = {"a1": "a2", "a2": "a1", "same": "same"}


def _release(folder: Path, *, reverse: bool = True, models: bool = True, base: bool = True) -> Path:
    if base:
        write_csv(folder / "emoprefer.csv", ROWS, ["name", "a1", "a2", "preference"])
    if models:
        write_csv(folder / "emoprefer_with_modelnames.csv", ROWS)
    if reverse:
        swapped = [{**r, "a1": r["a2"], "a2": r["a1"], "preference": FLIP[r["preference"]]} for r in ROWS]
        write_csv(folder / "emoprefer_reverse.csv", swapped, ["name", "a1", "a2", "preference"])
    return folder


def _media(root: Path, names: list[str]) -> Path:
    for name in names:
        for rel in (f"video/{name}.mp4", f"audio/{name}.wav"):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(b"stub")
    return root


def test_round_trip_with_model_names_and_features(tmp_path, load_offline):
    out = build_dataset("emoprefer", _release(tmp_path / "raw"), tmp_path / "out")
    pairs = load_offline(out, "pairs")["test"]
    assert list(pairs.features) == [
        "name",
        "model1",
        "model2",
        "a1",
        "a2",
        "preference",
        "video_path",
        "audio_path",
    ]
    assert all(f.dtype == "string" for f in pairs.features.values())
    assert pairs["name"] == [r["name"] for r in ROWS]  # "007" stays text
    assert pairs["a1"][0] == ROWS[0]["a1"]
    assert pairs["video_path"][2] == "video/007.mp4" and pairs["audio_path"][2] == "audio/007.wav"
    rev = load_offline(out, "pairs_reversed")["test"]
    assert rev["a1"] == pairs["a2"] and rev["a2"] == pairs["a1"]
    assert rev["preference"] == [FLIP[p] for p in pairs["preference"]]
    assert rev["model1"] == pairs["model2"]  # model names carried over from the _with_modelnames file
    assert load_offline(out)["test"]["name"] == pairs["name"]  # pairs is the default config


def test_reverse_file_that_is_not_a_mirror_warns(tmp_path):
    raw = _release(tmp_path / "raw")
    rows = [{**r, "a1": r["a2"], "a2": r["a1"], "preference": FLIP[r["preference"]]} for r in ROWS]
    rows[1]["preference"] = "a1"
    write_csv(
        raw / "emoprefer_reverse.csv",
        [*rows[:2], {**rows[2], "name": "extra"}],
        ["name", "a1", "a2", "preference"],
    )
    with pytest.warns(
        UserWarning, match=r"1 rows are not the forward pair.*'sample_00000002'.*2 names are in only one"
    ):
        build_dataset("emoprefer", raw, tmp_path / "out")


def test_base_file_only_derives_the_reversed_config(tmp_path, load_offline):
    out = build_dataset(
        "emoprefer", _release(tmp_path / "raw", reverse=False, models=False), tmp_path / "out"
    )
    pairs = load_offline(out, "pairs")["test"]
    assert "model1" not in pairs.features
    rev = load_offline(out, "pairs_reversed")["test"]
    assert rev["a1"] == pairs["a2"] and rev["preference"] == ["a2", "same", "a1"]
    assert "derived" in (out / "README.md").read_text()


def test_reverse_pairs_swaps_models_too():
    import pyarrow as pa

    table = pa.table(
        {"name": ["s"], "model1": ["m1"], "a1": ["x"], "model2": ["m2"], "a2": ["y"], "preference": ["a2"]}
    )
    assert reverse_pairs(table).to_pylist() == [
        {"name": "s", "model1": "m2", "a1": "y", "model2": "m1", "a2": "x", "preference": "a1"}
    ]


def test_extra_columns_are_kept(tmp_path, load_offline):
    rows = [
        {**{k: r[k] for k in ("name", "a1", "a2", "preference")}, "annotator_1": "a1", "annotator_2": ""}
        for r in ROWS
    ]
    write_csv(tmp_path / "raw" / "emoprefer_v2.csv", rows)
    out = build_dataset("emoprefer", tmp_path / "raw", tmp_path / "out")
    pairs = load_offline(out, "pairs")["test"]
    assert pairs["annotator_1"] == ["a1"] * 3 and pairs["annotator_2"] == [""] * 3


def test_labels_are_normalised(tmp_path):
    rows = [
        {"name": "s1", "a1": "x", "a2": "y", "preference": " A1 "},
        {"name": "s2", "a1": "x", "a2": "y", "preference": "Same"},
    ]
    write_csv(tmp_path / "raw" / "e.csv", rows)
    out = build_dataset("emoprefer", tmp_path / "raw", tmp_path / "out")
    import pyarrow.parquet as pq

    assert pq.read_table(out / "data/pairs/test-00000-of-00001.parquet")["preference"].to_pylist() == [
        "a1",
        "same",
    ]


def test_media_checked_against_the_root(tmp_path, load_offline):
    raw = _release(tmp_path / "raw")
    root = _media(tmp_path / "MER2025", [r["name"] for r in ROWS])
    out = build_dataset("emoprefer", raw, tmp_path / "out", media_root=root)
    assert load_offline(out, "pairs")["test"]["media_missing"] == [False] * 3
    assert not (out / "media").exists()  # gated media are never copied


def test_missing_media_fails_unless_allowed(tmp_path, load_offline):
    raw = _release(tmp_path / "raw")
    root = _media(tmp_path / "MER2025", [ROWS[0]["name"]])
    with pytest.raises(MediaError, match=r"2 of 3 media files.*sample_00000002"):
        build_dataset("emoprefer", raw, tmp_path / "out", media_root=root)
    assert leftovers(tmp_path, "out") == []
    with pytest.warns(UserWarning, match="2 of 3"):
        out = build_dataset("emoprefer", raw, tmp_path / "out", media_root=root, allow_missing_media=True)
    assert load_offline(out, "pairs")["test"]["media_missing"] == [False, True, True]


def _bad(tmp_path: Path, text: bytes | str, name: str = "emoprefer.csv") -> Path:
    folder = tmp_path / "raw"
    folder.mkdir(exist_ok=True)
    data = text.encode() if isinstance(text, str) else text
    (folder / name).write_bytes(data)
    return folder


@pytest.mark.parametrize(
    ("content", "pattern"),
    [
        ("name,a1,a2\ns1,x,y\n", r"emoprefer\.csv.*column 'preference'.*missing \['preference'\]"),
        (
            "name,a1,a2,preference\ns1,x,y,a1\ns2,x,y,b\n",
            r"row 2 \(id 's2'\), column 'preference': expected one of \['a1', 'a2', 'same'\], got 'b'",
        ),
        (
            "name,a1,a2,preference\ns1,x,y,a1\ns1,x,z,a2\n",
            r"row 2, column 'name': expected unique ids, got 's1' again \(first at row 1\)",
        ),
        (b"name,a1,a2,preference\ns1,x,y,a1\ns2,caf\xe9,y,a1\n", r"row 2: expected UTF-8 text, got bytes"),
        ("", r"expected a non-empty file, got 0 bytes"),
        ("name,a1,a2,preference\n", r"expected at least one data row, got only the header"),
        ("name,a1,a2,preference\n../../etc,x,y,a1\n", r"row 1, column 'name'.*escapes"),
        ("name,a1,a2,preference\n,x,y,a1\n", r"row 1, column 'name': expected a sample name"),
        ("name,a1,a2,preference\ns1,x,y\n", r"expected 4 comma-separated fields"),
    ],
)
def test_bad_input_names_file_row_and_column(tmp_path, content, pattern):
    source = _bad(tmp_path, content)
    with pytest.raises(SchemaError, match=pattern) as info:
        build_dataset("emoprefer", source, tmp_path / "out")
    assert "emoprefer.csv" in str(info.value)
    assert leftovers(tmp_path, "out") == []


def test_model_file_needs_model_columns(tmp_path):
    source = _bad(tmp_path, "name,a1,a2,preference\ns1,x,y,a1\n", "emoprefer_with_modelnames.csv")
    with pytest.raises(SchemaError, match="model1"):
        build_dataset("emoprefer", source, tmp_path / "out")


def test_file_discovery(tmp_path):
    raw = _release(tmp_path / "raw")
    assert find_files(raw / "emoprefer_reverse.csv").base == raw / "emoprefer.csv"
    write_csv(raw / "other.csv", ROWS)
    with pytest.raises(ConfigError, match="stem"):
        find_files(raw)
    assert find_files(raw, "emoprefer").modelnames == raw / "emoprefer_with_modelnames.csv"
    with pytest.raises(ConfigError, match=r"expected missing\.csv or missing_with_modelnames\.csv"):
        find_files(tmp_path / "raw", "missing")
