"""Command-line mistakes end in one line on stderr saying what was expected and what to do, never a
traceback (issue 11 item 10)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest


def _run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mmjudge", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _one_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1, proc.stderr
    return errors[0]


def test_score_of_a_missing_file(tmp_path: Path) -> None:
    line = _one_line(_run("score", "missing.jsonl", "--data", str(tmp_path), cwd=tmp_path))
    assert "mmjudge score: error: prediction file missing.jsonl does not exist" in line
    assert "predictions.jsonl that `mmjudge eval` wrote" in line


def test_eval_with_a_missing_data_folder_is_not_looked_up_on_the_hub(tmp_path: Path) -> None:
    started = time.monotonic()
    proc = _run("eval", "--benchmark", "emorealm", "--judge", "random", "--data", "missing_dir", "--out",
                str(tmp_path / "out"), cwd=tmp_path)  # fmt: skip
    line = _one_line(proc)
    assert "missing_dir is not an existing folder: expected a built benchmark folder" in line
    assert "mmjudge sample-data" in line and "could not be fetched" not in proc.stderr  # never looked up
    assert time.monotonic() - started < 60  # no Hub retries


@pytest.mark.parametrize("benchmark", ["emoprefer"])
def test_score_with_a_missing_data_folder(benchmark: str, tmp_path: Path) -> None:
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(
        f'{{"record": "header", "schema_version": 1, "benchmark": "{benchmark}", "judge": "j"}}\n',
        encoding="utf-8",
    )
    line = _one_line(_run("score", str(predictions), "--data", "nowhere", cwd=tmp_path))
    assert "nowhere is not an existing folder" in line
