"""``mmjudge robustness`` on two processes (torchrun, gloo on CPU) writes the report one process writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TORCHRUN = str(Path(sys.executable).with_name("torchrun"))


def _args(data: Path, out: Path) -> list[str]:
    return ["robustness", "--benchmark", "isovrbench", "--judge", "random", "--data", str(data / "isovrbench"),
            "--out", str(out), "--repeats", "2", "--decode-workers", "0", "--no-progress"]  # fmt: skip


@pytest.mark.slow
def test_two_ranks_give_the_report_of_one(sample_data: Path, tmp_path: Path) -> None:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    one = subprocess.run([sys.executable, "-m", "mmjudge", *_args(sample_data, tmp_path / "one")],
                         capture_output=True, text=True, env=env, timeout=600, check=False)  # fmt: skip
    assert one.returncode == 0, one.stderr[-3000:]
    two = subprocess.run([TORCHRUN, "--nproc_per_node", "2", "--standalone", "--module", "mmjudge",
                          *_args(sample_data, tmp_path / "two")],
                         capture_output=True, text=True, env=env, timeout=600, check=False)  # fmt: skip
    assert two.returncode == 0, two.stderr[-3000:]
    first, second = (json.loads((tmp_path / d / "robustness.json").read_text()) for d in ("one", "two"))
    assert first["summary"] == second["summary"]
    assert [p["effects"] for p in first["probes"]] == [p["effects"] for p in second["probes"]]
    assert [p["cost"] for p in first["probes"]] == [p["cost"] for p in second["probes"]]
