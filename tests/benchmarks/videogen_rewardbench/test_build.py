"""VideoGen-RewardBench's release reader, its records and a sample run through the shared pairwise layer."""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

import pytest

from mmjudge.benchmarks import videogen_rewardbench as vgrb
from mmjudge.benchmarks.videogen_rewardbench import build, records
from mmjudge.data.build import write_folder
from mmjudge.errors import MediaError, SchemaError
from mmjudge.queries import Verdict

HEADER = ["path_A", "path_B", "A_model", "B_model", "prompt", "fps_A", "VQ", "MQ", "TA", "Overall"]


def _release(folder: Path, rows: list[list[str]], clips: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "videogen-rewardbench.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    if clips:
        for row in rows:
            for rel in row[:2]:
                (folder / rel).parent.mkdir(parents=True, exist_ok=True)
                (folder / rel).write_bytes(b"clip")
    return path


ROWS = [
    ["v/1a.mp4", "v/1b.mp4", "m1", "m2", "a cat", "8", "A", "B", "same", "A"],
    ["v/2a.mp4", "v/2b.mp4", "m2", "m1", "a dog", "8", "same", "same", "B", "B"],
]


def test_the_release_builds_pairs_and_clips_in_the_release_order(tmp_path):
    built = build.build_tables(_release(tmp_path / "raw", ROWS))
    write_folder(built, tmp_path / "out")
    pairs = built.configs[0].splits["test"].to_pylist()
    assert [p["pref_overall"] for p in pairs] == ["A", "B"] and [p["video_a"] for p in pairs] == ["media/v/1a.mp4",
                                                                                                  "media/v/2a.mp4"]
    assert pairs[0]["pair_id"] == "vgrb-" + __import__("hashlib").sha256(b"v/1a.mp4\0v/1b.mp4\0a cat").hexdigest()[:16]
    assert pairs[0]["fps_A"] == "8"  # extra columns kept as text
    assert built.configs[1].splits["test"].num_rows == 4


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (["v/a.mp4", "v/b.mp4", "m", "m", "p", "8", "A", "B", "tie", "A"], "TA"),
        (["../a.mp4", "v/b.mp4", "m", "m", "p", "8", "A", "B", "A", "A"], "path_A"),
        (["v/a.mp4", "v/b.mp4", "m", "m", "", "8", "A", "B", "A", "A"], "prompt"),
    ],
)
def test_a_bad_row_is_refused_naming_its_column(tmp_path, row, message):
    with pytest.raises(SchemaError, match=message):
        build.read_pairs(_release(tmp_path, [row], clips=False))


def test_every_label_is_kept_as_released_same_included_with_its_generators_and_a_stable_id(tmp_path):
    rows = [*ROWS, ["v/3a.mp4", "v/3b.mp4", "m2", "m3", "a bird", "8", "same", "A", "B", "same"]]
    pairs = build.build_tables(_release(tmp_path, rows)).configs[0].splits["test"].to_pylist()
    for pair, row in zip(pairs, rows, strict=True):
        assert [pair[f"pref_{a}"] for a in ("VQ", "MQ", "TA", "overall")] == row[6:]
        assert (pair["model_a"], pair["model_b"]) == (row[2], row[3])
        assert pair["pair_id"] == "vgrb-" + hashlib.sha256("\0".join([row[0], row[1], row[4]]).encode()).hexdigest()[:16]
    assert len({p["pair_id"] for p in pairs}) == 3


def test_a_label_outside_a_b_same_names_the_file_row_and_column(tmp_path):
    rows = [ROWS[0], [*ROWS[1][:9], "tie"]]
    with pytest.raises(SchemaError, match=r"videogen-rewardbench\.csv, row 2, column 'Overall': expected one of "
                                          r"\['A', 'B', 'same'\], got 'tie'"):  # fmt: skip
        build.read_pairs(_release(tmp_path, rows, clips=False))


def test_a_repeated_pair_is_refused_naming_the_file_and_both_rows(tmp_path):
    with pytest.raises(SchemaError, match=r"videogen-rewardbench\.csv, row 2 \(pair_id 'vgrb-[0-9a-f]{16}'\): "
                                          r"expected each pair once, got the pair of row 1 again\. Drop the duplicate"):  # fmt: skip
        build.build_tables(_release(tmp_path, [ROWS[0], ROWS[0]]))


def test_a_clip_linked_out_of_the_media_root_names_the_file_row_and_column(tmp_path):
    path = _release(tmp_path / "raw", ROWS)
    (tmp_path / "secret.mp4").write_bytes(b"not a clip of the release")
    (tmp_path / "raw" / "v/2b.mp4").unlink()
    (tmp_path / "raw" / "v/2b.mp4").symlink_to(tmp_path / "secret.mp4")
    with pytest.raises(SchemaError, match=r"videogen-rewardbench\.csv, row 2 \(pair_id 'vgrb-[0-9a-f]{16}'\), column "
                                          r"'path_B': expected a clip inside the media root, got 'v/2b\.mp4' "
                                          r"\(media path 'v/2b\.mp4' resolves to .*outside its root"):  # fmt: skip
        build.build_tables(path, media="reference")


def test_missing_clips_fail_the_build_unless_allowed_then_the_pair_has_no_judgment(tmp_path):
    path = _release(tmp_path, ROWS)
    (tmp_path / "v/2b.mp4").unlink()
    with pytest.raises(MediaError, match="1 of 4 clips are missing"):
        build.build_tables(path)
    with pytest.warns(UserWarning, match="media_missing=True"):
        built = build.build_tables(path, allow_missing_media=True)
    pairs = built.configs[0].splits["test"].to_pylist()
    assert [p["media_missing"] for p in pairs] == [False, True] and pairs[1]["clip_id_b"] is None
    verdicts = [Verdict(p["clip_id_a"], 1.0) for p in pairs] + [Verdict(pairs[0]["clip_id_b"], 0.0)]
    out = vgrb.queries.records_from_verdicts([], verdicts, pairs)
    assert out[1]["no_judgment"] and "missing" in out[1]["error"]


def test_each_aspect_reads_its_head_and_a_single_score_stands_for_all():
    rows = [{"pair_id": "p", "prompt": "x", "pref_VQ": "A", "pref_MQ": "B", "pref_TA": "same", "pref_overall": "A"}]
    heads = {"VQ": 1.0, "MQ": 0.0, "TA": 5.0, "overall": 6.0}
    inputs = records.score_inputs([{"id": "p", "score_a": heads, "score_b": 2.0}], rows)
    assert inputs["score_a"] == [1.0, 0.0, 5.0, 6.0] and inputs["score_b"] == [2.0] * 4
    assert inputs["aspect"] == ["VQ", "MQ", "TA", "Overall"] and inputs["preference"] == ["A", "B", "same", "A"]
    assert vgrb.score(**inputs)["accuracy_without_ties/MQ"] == 100.0
