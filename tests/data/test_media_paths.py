"""resolve_media / validate_relpath / check_media: paths never escape the root; the missing-media policy."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

from mmjudge.data import check_media, resolve_media
from mmjudge.data.media_paths import mark_missing_media, validate_relpath
from mmjudge.errors import MediaError, SchemaError


def test_resolve_joins_relative_paths(tmp_path):
    assert resolve_media("video/a.mp4", tmp_path) == tmp_path / "video" / "a.mp4"
    assert resolve_media("./video/b.mp4", tmp_path) == tmp_path / "video" / "b.mp4"


@pytest.mark.parametrize(
    ("relpath", "reason"),
    [
        ("../outside.mp4", "escapes"),
        ("video/../../outside.mp4", "escapes"),
        ("/etc/passwd", "absolute"),
        ("C:\\clips\\a.mp4", "absolute"),
        ("..\\outside.mp4", "escapes"),
        ("", "empty"),
        ("   ", "empty"),
    ],
)
def test_resolve_rejects_paths_that_escape(tmp_path, relpath, reason):
    with pytest.raises(SchemaError, match=reason):
        resolve_media(relpath, tmp_path)


def test_symlink_out_of_root_is_rejected_but_inside_is_fine(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.mp4").write_bytes(b"x")
    (root / "real.mp4").write_bytes(b"y")
    os.symlink(outside / "secret.mp4", root / "link_out.mp4")
    os.symlink(outside, root / "dir_out")
    os.symlink(root / "real.mp4", root / "link_in.mp4")
    with pytest.raises(SchemaError, match="outside its root"):
        resolve_media("link_out.mp4", root)
    with pytest.raises(SchemaError, match="outside its root"):
        resolve_media("dir_out/secret.mp4", root)
    assert resolve_media("link_in.mp4", root) == root / "link_in.mp4"


def test_validate_relpath_normalises_separators():
    assert validate_relpath("clips\\a.mp4") == "clips/a.mp4"


def _files(root: Path, names: list[str]) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(b"x")


def test_check_media_fails_listing_first_missing_and_count(tmp_path):
    _files(tmp_path, ["a.mp4"])
    paths = ["a.mp4"] + [f"m{i}.mp4" for i in range(7)]
    with pytest.raises(MediaError) as info:
        check_media(paths, tmp_path, source="x.csv", column="video_path")
    message = str(info.value)
    assert "7 of 8" in message and "x.csv" in message and "video_path" in message
    assert "m0.mp4" in message and "m4.mp4" in message and "m5.mp4" not in message
    assert "--allow-missing-media" in message


def test_check_media_allow_missing_marks_and_warns(tmp_path):
    _files(tmp_path, ["a.mp4", "c.mp4"])
    with pytest.warns(UserWarning, match="1 of 3 media files"):
        mask = check_media(["a.mp4", "b.mp4", "c.mp4"], tmp_path, allow_missing=True)
    assert mask.tolist() == [False, True, False]


def test_check_media_names_the_row_of_an_escaping_path(tmp_path):
    with pytest.raises(SchemaError, match=r"row 'q7', column 'video'"):
        check_media(["ok.mp4", "../x.mp4"], tmp_path, ids=["q1", "q7"], source="f.json")


def test_mark_missing_media_ors_the_columns_and_names_them_in_messages(tmp_path):
    pa = pytest.importorskip("pyarrow")
    _files(tmp_path, ["a.mp4", "a.wav", "b.mp4", "c.wav"])
    table = pa.table(
        {"id": ["x", "y", "z"], "video": ["a.mp4", "b.mp4", "c.mp4"], "audio": ["a.wav", "b.wav", "c.wav"]}
    )
    columns = [("video", "raw_video"), ("audio", "audio")]
    with pytest.raises(MediaError, match=r"1 of 3 media files in column 'raw_video' of t.json.*\['c.mp4'\]"):
        mark_missing_media(
            table, tmp_path, allow_missing=False, source="t.json", id_column="id", columns=columns
        )
    with pytest.warns(UserWarning) as caught:
        marked, count = mark_missing_media(
            table, tmp_path, allow_missing=True, source="t.json", id_column="id", columns=columns
        )
    assert [str(w.message).split(" of t.json")[0] for w in caught] == [
        "1 of 3 media files in column 'raw_video'",
        "1 of 3 media files in column 'audio'",
    ]
    assert marked.column("media_missing").to_pylist() == [False, True, True] and count == 2
    assert marked.column_names == ["id", "video", "audio", "media_missing"]
    with pytest.raises(SchemaError, match=r"row 'y', column 'raw_video'"):
        mark_missing_media(
            table.set_column(1, "video", pa.array(["a.mp4", "../b.mp4", "c.mp4"])),
            tmp_path,
            allow_missing=True,
            source="t.json",
            id_column="id",
            columns=columns,
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, silent = mark_missing_media(
            table, tmp_path, allow_missing=True, source="t.json", id_column="id", columns=columns, warn=False
        )
    assert silent == 2
