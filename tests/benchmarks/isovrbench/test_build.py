"""IsoVRBench builder: pair tables (CSV / parquet / JSONL, splits), clips, bad inputs; A/B tables refused."""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from data_helpers import leftovers, write_csv

import mmjudge
from mmjudge import cli
from mmjudge.benchmarks import build_dataset
from mmjudge.errors import ConfigError, MediaError, SchemaError

INTERVENTIONS = ("temporal_shuffle", "frame_hold", "reduced_steps")


def _pairs(prefix: str = "p", anchors: int = 2) -> list[dict]:
    rows = []
    for a in range(anchors):
        for name in INTERVENTIONS:
            rows.append(
                {
                    "pair_id": f"{prefix}{a}_{name}",
                    "prompt": f"prompt {prefix}{a}, with a comma",
                    "intervention": name,
                    "video_chosen": f"clips/{prefix}{a}/anchor.mp4",
                    "video_rejected": f"clips/{prefix}{a}/{name}.mp4",
                    "generator_chosen": "Wan2.2-T2V-A14B",
                    "generator_rejected": "Wan2.2-T2V-A14B",
                    "seed": str(a),
                    "num_frames": "4",
                    "fps": "16",
                    "index_map": json.dumps([2, 3, 0, 1]) if name == "temporal_shuffle" else "",
                    "synthetic": "stand-in" if name == "reduced_steps" else "",
                    "motion_score": "21.5",
                }
            )
    return rows


def _clips(root: Path, rows: list[dict]) -> None:
    for row in rows:
        for side in ("video_chosen", "video_rejected"):
            path = root / row[side]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(f"bytes of {row[side]}".encode())


def _raw(tmp_path: Path, rows: list[dict] | None = None, name: str = "test.csv") -> Path:
    rows = rows if rows is not None else _pairs()
    raw = tmp_path / "raw"
    _clips(raw, rows)
    write_csv(raw / name, rows)
    return raw


def test_round_trip_configs_features_and_media_copy(tmp_path, load_offline):
    out = build_dataset("isovrbench", _raw(tmp_path), tmp_path / "out")
    rows = load_offline(out, "all")["test"]
    assert rows.num_rows == 6
    features = rows.features
    assert features["seed"].dtype == "int64" and features["fps"].dtype == "float64"
    assert features["index_map"].feature.dtype == "int64"
    assert features["motion_score"].dtype == "string"  # extra column kept
    first = rows[0]
    assert first["dimension"] == "motion" and first["index_map"] == [2, 3, 0, 1] and first["seed"] == 0
    assert first["media_missing"] is False
    assert not {"label", "is_tie", "chosen_is_a", "VQ"} & set(features)  # no A/B-table columns
    assert rows[1]["index_map"] is None
    for row in rows:
        for side in ("chosen", "rejected"):
            path = out / row[f"video_{side}"]
            assert row[f"video_{side}"].startswith("media/clips/") and path.is_file()
            assert row[f"clip_id_{side}"] == hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    for name in INTERVENTIONS:
        assert load_offline(out, name)["test"]["intervention"] == [name, name]
    assert not (out / "data" / "motion_regen").exists()
    clips = load_offline(out, "clips")["test"]
    assert list(clips.features) == ["clip_id", "video_path", "prompt", "generator", "num_frames", "fps"]
    # 2 anchors shared by 3 pairs each + 6 counterparts: each scored once
    assert clips.num_rows == 8 and len(set(clips["clip_id"])) == 8
    pair_ids = set(rows["clip_id_chosen"]) | set(rows["clip_id_rejected"])
    assert set(clips["clip_id"]) == pair_ids


def test_identical_clip_files_share_one_clip_id(tmp_path, load_offline):
    rows = _pairs(anchors=1)
    raw = _raw(tmp_path, rows)
    (raw / rows[1]["video_rejected"]).write_bytes((raw / rows[0]["video_rejected"]).read_bytes())
    out = build_dataset("isovrbench", raw, tmp_path / "out")
    assert load_offline(out, "clips")["test"].num_rows == 3


def test_splits_from_a_folder_in_three_formats(tmp_path, load_offline):
    raw = tmp_path / "raw"
    test, train, val = _pairs("t"), _pairs("r"), _pairs("v", anchors=1)
    for rows in (test, train, val):
        _clips(raw, rows)
    write_csv(raw / "test.csv", test)
    pq.write_table(pa.Table.from_pylist(train), raw / "train.parquet")
    (raw / "validation.jsonl").write_text("\n".join(json.dumps(r) for r in val) + "\n")
    out = build_dataset("isovrbench", raw, tmp_path / "out")
    ds = load_offline(out, "all")
    assert {k: v.num_rows for k, v in ds.items()} == {"test": 6, "train": 6, "validation": 3}
    assert ds["train"]["index_map"][0] == [2, 3, 0, 1]
    assert set(load_offline(out, "frame_hold")) == {"test", "train", "validation"}


def test_parquet_extra_columns_keep_their_type(tmp_path, load_offline):
    rows = [{**r, "motion_score": 21.5, "num_frames": 4, "seed": 1} for r in _pairs(anchors=1)]
    raw = tmp_path / "raw"
    _clips(raw, rows)
    pq.write_table(pa.Table.from_pylist(rows), raw / "pairs.parquet")
    out = build_dataset("isovrbench", raw / "pairs.parquet", tmp_path / "out", split="validation")
    ds = load_offline(out, "all")
    assert list(ds) == ["validation"] and ds["validation"].features["motion_score"].dtype == "float64"


def test_reference_and_metadata_modes(tmp_path, load_offline):
    raw = _raw(tmp_path)
    ref = build_dataset("isovrbench", raw, tmp_path / "ref", media="reference")
    assert not (ref / "media").exists()
    row = load_offline(ref, "all")["test"][0]
    assert row["video_chosen"] == "clips/p0/anchor.mp4"
    meta_raw = tmp_path / "meta"
    write_csv(meta_raw / "test.csv", _pairs())  # no clip files at all
    out = build_dataset("isovrbench", meta_raw, tmp_path / "metaout", media="metadata")
    rows = load_offline(out, "all")["test"]
    assert "media_missing" not in rows.features
    assert rows[0]["clip_id_chosen"] == hashlib.sha256(b"clips/p0/anchor.mp4").hexdigest()[:16]
    with pytest.raises(ConfigError, match="media="):
        build_dataset("isovrbench", raw, tmp_path / "x", media="link")


def test_missing_clips_fail_unless_allowed(tmp_path, load_offline):
    rows = _pairs()
    raw = _raw(tmp_path, rows)
    (raw / rows[0]["video_rejected"]).unlink()
    with pytest.raises(MediaError, match=r"1 of 8 clips are missing.*temporal_shuffle\.mp4"):
        build_dataset("isovrbench", raw, tmp_path / "out")
    assert leftovers(tmp_path, "out") == []
    with pytest.warns(UserWarning, match="1 of 8 clips"):
        out = build_dataset("isovrbench", raw, tmp_path / "out", allow_missing_media=True)
    all_rows = load_offline(out, "all")["test"]
    assert all_rows["media_missing"] == [True] + [False] * 5 and all_rows["clip_id_rejected"][0] is None
    assert load_offline(out, "clips")["test"].num_rows == 7


AB_TABLE = [
    {"path_A": "v/a1.mp4", "path_B": "v/b1.mp4", "A_model": "m1", "B_model": "m2", "prompt": "p1",
     "VQ": "A", "MQ": "B", "TA": "same", "Overall": "A"},
    {"path_A": "v/a2.mp4", "path_B": "v/b2.mp4", "A_model": "m1", "B_model": "m3", "prompt": "p2",
     "VQ": "B", "MQ": "B", "TA": "B", "Overall": "same"},
]  # fmt: skip


def _ab_release(raw: Path) -> Path:
    _clips(raw, [{"video_chosen": r["path_A"], "video_rejected": r["path_B"]} for r in AB_TABLE])
    write_csv(raw / "vgrb.csv", AB_TABLE)
    return raw / "vgrb.csv"


def _command_in(message: str) -> list[str]:
    """The CLI command the refusal gives, with ``DIR`` standing for the output folder."""
    command = re.search(r"`(mmjudge build-dataset [^`]+)`", message)
    assert command, message
    return shlex.split(command.group(1))


def test_an_ab_table_is_refused_with_the_command_that_builds_it_as_videogen_rewardbench(tmp_path, load_offline):
    source = _ab_release(tmp_path / "raw")
    with pytest.raises(SchemaError) as info:
        build_dataset("isovrbench", source, tmp_path / "out")
    message = str(info.value)
    assert message.startswith(f"{source}: expected an IsoVRBench pair table (columns ['pair_id', 'prompt', ")
    assert "got an A/B table (columns ['path_A', 'path_B', 'A_model', 'B_model', 'prompt', ...] (9 in all))" in message
    assert "IsoVRBench does not read A/B tables; build this one as the videogen_rewardbench benchmark" in message
    assert leftovers(tmp_path, "out") == []
    command = _command_in(message)
    assert command[:3] == ["mmjudge", "build-dataset", "videogen_rewardbench"]
    out = tmp_path / "vgrb"
    assert cli.main([out.as_posix() if word == "DIR" else word for word in command[1:]]) == 0
    assert load_offline(out, "pairs")["test"]["pref_overall"] == ["A", "same"]
    python = re.search(r"`(mmjudge\.benchmarks\.build_dataset\([^`]+\))`", message)
    assert python, message
    built = eval(python.group(1).replace("'DIR'", repr(str(tmp_path / "vgrb-py"))), {"mmjudge": mmjudge})
    assert load_offline(built, "pairs")["test"]["pref_overall"] == ["A", "same"]


def test_the_refusal_carries_the_build_options_and_asks_for_the_csv_videogen_rewardbench_reads(tmp_path):
    raw = tmp_path / "raw"
    _clips(raw, [{"video_chosen": r["path_A"], "video_rejected": r["path_B"]} for r in AB_TABLE])
    pq.write_table(pa.Table.from_pylist(AB_TABLE), raw / "test.parquet")
    with pytest.raises(SchemaError) as info:
        build_dataset("isovrbench", raw, tmp_path / "out", media_root=raw, allow_missing_media=True, media="reference")
    message = str(info.value)
    assert message.startswith(f"{raw / 'test.parquet'}: expected an IsoVRBench pair table")
    assert message.endswith("It reads the release's CSV: write this table as test.csv first.")
    assert _command_in(message)[3:] == ["--source", str(raw / "test.csv"), "--out", "DIR", "--media-root", str(raw),
                                        "--allow-missing-media", "--option", "media=reference"]  # fmt: skip
    assert f"media_root={str(raw)!r}, allow_missing_media=True, media='reference')" in message


def test_a_pair_table_with_columns_named_path_a_and_path_b_is_read_as_a_pair_table(tmp_path, load_offline):
    rows = [{**r, "path_A": "x", "path_B": "y"} for r in _pairs(anchors=1)]
    out = build_dataset("isovrbench", _raw(tmp_path, rows), tmp_path / "out")
    assert load_offline(out, "all")["test"]["path_A"] == ["x"] * 3  # kept as extra columns


def _bad_pairs(**changes: object) -> list[dict]:
    rows = _pairs(anchors=1)
    rows[1] = {**rows[1], **changes}
    return rows


@pytest.mark.parametrize(
    ("rows", "pattern"),
    [
        (
            _bad_pairs(intervention="shuffle"),
            r"row 2 \(pair_id 'p0_frame_hold'\), column 'intervention': expected one of .*got 'shuffle'",
        ),
        (
            _bad_pairs(pair_id="p0_temporal_shuffle"),
            r"row 2 \(pair_id 'p0_temporal_shuffle'\), column 'pair_id': expected unique pair ids.*first in test\.csv, row 1",
        ),
        (_bad_pairs(video_rejected="../../etc/x.mp4"), r"row 2 .*column 'video_rejected'.*escapes"),
        (_bad_pairs(video_chosen="/abs/x.mp4"), r"column 'video_chosen'.*absolute"),
        (_bad_pairs(seed="1.5"), r"column 'seed': expected a whole number, got '1.5'"),
        (_bad_pairs(fps="fast"), r"column 'fps': expected a number \(float\), got 'fast'"),
        (_bad_pairs(index_map="[1, 2"), r"column 'index_map': expected a JSON list of frame indices"),
        (
            _bad_pairs(index_map="[0, 1]"),
            r"column 'index_map': expected 4 entries \(num_frames\), got '2 entries'",
        ),
        (_bad_pairs(prompt=""), r"row 2 .*column 'prompt': expected a non-empty value"),
    ],
)
def test_bad_pair_rows_name_file_row_and_column(tmp_path, rows, pattern):
    raw = tmp_path / "raw"
    _clips(
        raw, [r for r in rows if ".." not in r["video_rejected"] and not r["video_chosen"].startswith("/")]
    )
    write_csv(raw / "test.csv", rows)
    with pytest.raises(SchemaError, match=pattern) as info:
        build_dataset("isovrbench", raw, tmp_path / "out")
    assert "test.csv" in str(info.value)
    assert leftovers(tmp_path, "out") == []


def test_duplicate_pair_ids_across_splits(tmp_path):
    raw = tmp_path / "raw"
    write_csv(raw / "test.csv", _pairs(anchors=1))
    write_csv(raw / "train.csv", _pairs(anchors=1))
    with pytest.raises(SchemaError, match=r"train\.csv, row 1 .*first in test\.csv, row 1"):
        build_dataset("isovrbench", raw, tmp_path / "out", media="metadata")


@pytest.mark.parametrize(
    ("name", "data", "pattern"),
    [
        ("test.csv", b"", r"test\.csv: expected a non-empty file, got 0 bytes"),
        (
            "test.csv",
            b"pair_id,prompt,intervention,video_chosen\n",
            r"column 'video_rejected': expected columns",
        ),
        (
            "test.csv",
            b"pair_id,prompt,intervention,video_chosen,video_rejected\n",
            r"expected at least one row",
        ),
        (
            "test.csv",
            b"pair_id,prompt,intervention,video_chosen,video_rejected\np1,caf\xe9,frame_hold,a.mp4,b.mp4\n",
            r"row 1: expected UTF-8 text",
        ),
        (
            "test.jsonl",
            b'{"pair_id": "p1", "prompt": "x", "intervention": "frame_hold", "video_chosen": "a", "video_rejected": "b"}\n[1, 2]\n',
            r"test\.jsonl, row 2: expected a JSON object, got list",
        ),
        ("test.jsonl", b"\n", r"expected at least one JSON object line"),
        ("test.parquet", b"not parquet", r"test\.parquet: expected a parquet file"),
    ],
)
def test_bad_files(tmp_path, name, data, pattern):
    (tmp_path / name).write_bytes(data)
    with pytest.raises(SchemaError, match=pattern):
        build_dataset("isovrbench", tmp_path / name, tmp_path / "out", media="metadata")


def test_splits_must_share_columns(tmp_path):
    raw = tmp_path / "raw"
    write_csv(raw / "test.csv", _pairs(anchors=1))
    write_csv(
        raw / "train.csv", [{k: v for k, v in r.items() if k != "motion_score"} for r in _pairs("r", 1)]
    )
    with pytest.raises(SchemaError, match=r"train\.csv: expected the same columns in every split"):
        build_dataset("isovrbench", raw, tmp_path / "out", media="metadata")


def test_source_folder_without_split_files(tmp_path):
    (tmp_path / "pairs.txt").write_text("x")
    with pytest.raises(ConfigError, match="test,train,validation"):
        build_dataset("isovrbench", tmp_path, tmp_path / "out")


def test_extra_interventions_option(tmp_path, load_offline):
    rows = _bad_pairs(intervention="reduced_steps_16")
    write_csv(tmp_path / "raw" / "test.csv", rows)
    out = build_dataset(
        "isovrbench",
        tmp_path / "raw",
        tmp_path / "out",
        media="metadata",
        extra_interventions={"reduced_steps_16": "visual"},
    )
    assert load_offline(out, "reduced_steps_16")["test"]["dimension"] == ["visual"]
