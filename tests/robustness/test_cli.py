"""``mmjudge robustness``: the command writes the three files, reports costs, and refuses bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mmjudge.cli import main


def _argv(data: Path, out: Path, *extra: str) -> list[str]:
    return [
        "robustness", "--benchmark", "emoprefer", "--judge", "constant", "--data", str(data / "emoprefer"),
        "--media-root", str(data / "raw" / "emoprefer" / "MER2025"), "--out", str(out), "--no-progress",
        "--decode-workers", "0", *extra,
    ]  # fmt: skip


def test_the_command_writes_report_markdown_and_summary(
    sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_argv(sample_data, tmp_path, "--repeats", "2")) == 0
    printed = capsys.readouterr().out
    assert "benchmark items: 6 judged, 0 cached" in printed
    assert "swap: 6 judged, 6 cached" in printed  # the reversed pairs are new, the forward ones cached
    assert "repeat: 6 judged, 0 cached" in printed  # one reseeded run of the 6 forward pairs
    assert (tmp_path / "robustness.md").is_file()
    summary = json.loads((tmp_path / "robustness_summary.json").read_text(encoding="utf-8"))
    assert summary["summary"]["swap/swap_consistency"] == 0.0  # constant a1: always first
    assert summary["summary"]["repeat/exact_agreement"] == 100.0


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--repeats", "1"), "--repeats 1 compares nothing"),
        (("--repeats", "-2"), "--repeats must be a positive integer, got -2"),
        (("--probe", "frames"), "emoprefer has no probe ['frames']; its probes: ['swap', 'longer_description', 'repeat']"),
    ],
)
def test_bad_options_are_refused_with_the_fix(
    sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], message: str
) -> None:
    assert main(_argv(sample_data, tmp_path / "out", *extra)) != 0
    assert message in capsys.readouterr().err


def test_items_that_fail_with_an_error_exit_3_unless_the_share_allows_them(
    sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    data = tmp_path / "data" / "isovrbench"
    shutil.copytree(sample_data / "isovrbench", data)
    for clip in data.rglob("*.mp4"):
        clip.write_bytes(b"\x00\x00\x00 not an mp4 at all")
    argv = ["robustness", "--benchmark", "isovrbench", "--judge", "sharpness", "--data", str(data), "--out",
            str(tmp_path / "out"), "--probe", "repeat", "--limit", "2", "--decode-workers", "0", "--no-progress"]  # fmt: skip
    assert main(argv) == 3
    err = capsys.readouterr().err
    assert "error: benchmark items: " in err and "items failed with an error; first errors: " in err
    assert "MediaError: " in err and str(tmp_path / "out" / "cache") in err
    assert (tmp_path / "out" / "robustness.json").is_file()
    assert main([*argv, "--max-failed-share", "1"]) == 0
    assert "warning: benchmark items: " in capsys.readouterr().err
