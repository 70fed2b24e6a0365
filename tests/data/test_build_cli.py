"""`mmjudge build-dataset` and the dataset_scripts shells call the same build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from data_helpers import leftovers, write_csv

from mmjudge.cli import main

REPO = Path(__file__).resolve().parents[2]
ROWS = [{"name": "s1", "a1": "x", "a2": "y", "preference": "a1"}]


def test_cli_builds_with_options(tmp_path, capsys, load_offline):
    write_csv(
        tmp_path / "raw" / "test.csv",
        [
            {
                "pair_id": "p1",
                "prompt": "a",
                "intervention": "frame_hold",
                "video_chosen": "a.mp4",
                "video_rejected": "b.mp4",
            }
        ],
    )
    code = main(
        [
            "build-dataset",
            "isovrbench",
            "--source",
            str(tmp_path / "raw"),
            "--out",
            str(tmp_path / "out"),
            "--option",
            "media=metadata",
        ]
    )
    assert code == 0 and "built isovrbench" in capsys.readouterr().out
    assert load_offline(tmp_path / "out", "frame_hold")["test"]["pair_id"] == ["p1"]


def test_cli_reports_bad_input_and_leaves_nothing(tmp_path, capsys):
    write_csv(tmp_path / "raw" / "e.csv", [{**ROWS[0], "preference": "maybe"}])
    code = main(
        ["build-dataset", "emoprefer", "--source", str(tmp_path / "raw"), "--out", str(tmp_path / "out")]
    )
    err = capsys.readouterr().err
    assert code == 1 and "column 'preference'" in err and "'maybe'" in err
    assert leftovers(tmp_path, "out") == []


def test_missing_media_flag(tmp_path, capsys):
    write_csv(tmp_path / "raw" / "e.csv", ROWS)
    args = [
        "build-dataset",
        "emoprefer",
        "--source",
        str(tmp_path / "raw"),
        "--media-root",
        str(tmp_path),
        "--out",
    ]
    assert main([*args, str(tmp_path / "a")]) == 1
    assert "--allow-missing-media" in capsys.readouterr().err
    with pytest.warns(UserWarning, match="1 of 1 media files"):
        assert main([*args, str(tmp_path / "b"), "--allow-missing-media"]) == 0


def test_dataset_script_is_the_same_command(tmp_path):
    write_csv(tmp_path / "raw" / "e.csv", ROWS)
    script = REPO / "dataset_scripts" / "emoprefer" / "build.py"
    result = subprocess.run(
        [sys.executable, str(script), "--source", str(tmp_path / "raw"), "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "data" / "pairs" / "test-00000-of-00001.parquet").is_file()
    assert "# EmoPrefer-Data" in (tmp_path / "out" / "README.md").read_text()
