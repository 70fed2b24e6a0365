"""GenAI-Bench (video)'s release reader: the parquet of votes, URLs read as local clips, bad rows refused."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from mmjudge.benchmarks.genai_bench_video import build
from mmjudge.errors import ConfigError, SchemaError

ROWS = {
    "prompt": ["a cat", "a dog"],
    "left_model": ["LaVie", "OpenSora"],
    "right_model": ["OpenSora", "LaVie"],
    "left_video": ["https://host/videos/1.mp4", "OpenSora/2.mp4"],
    "right_video": ["https://host/videos/3.mp4", "LaVie/4.mp4"],
    "vote_type": ["leftvote", "bothbad_vote"],
    "judge": ["u1", "u2"],
}


def _release(folder: Path, **changes: list[str]) -> Path:
    path = folder / "video_generation" / "test-00000-of-00001.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({**ROWS, **changes}), path)
    for rel in ("LaVie/1.mp4", "OpenSora/3.mp4", "OpenSora/2.mp4", "LaVie/4.mp4"):
        (folder / "clips" / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / "clips" / rel).write_bytes(b"clip")
    return path


def test_urls_are_read_as_model_and_file_name_under_the_media_root(tmp_path):
    _release(tmp_path)
    built = build.build_tables(tmp_path, media_root=tmp_path / "clips")
    pairs = built.configs[0].splits["test"].to_pylist()
    assert [p["video_a"] for p in pairs] == ["media/LaVie/1.mp4", "media/OpenSora/2.mp4"]
    assert [p["pref_overall"] for p in pairs] == ["leftvote", "bothbad_vote"] and pairs[0]["judge"] == "u1"
    assert [p["pair_id"] for p in pairs] == ["genai-00000", "genai-00001"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"vote_type": ["leftvote", "tie"]}, "vote_type"),
        ({"left_video": ["../x.mp4", "a.mp4"]}, "left_video"),
        ({"prompt": ["a cat", ""]}, "prompt"),
    ],
)
def test_a_bad_row_is_refused_naming_its_column(tmp_path, changes, message):
    with pytest.raises(SchemaError, match=message):
        build.read_pairs(_release(tmp_path, **changes))


def test_a_folder_must_hold_one_parquet(tmp_path):
    _release(tmp_path)
    pq.write_table(pa.table(ROWS), tmp_path / "other.parquet")
    with pytest.raises(ConfigError, match=r"exactly one \.parquet"):
        build.build_tables(tmp_path)
