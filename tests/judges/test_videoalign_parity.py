"""``video_reward`` equals VideoAlign's own inference (``benchmarks/parity_videoalign.py``), in a second environment.

Marked ``parity``: it needs a VideoAlign checkout and a Python with VideoAlign's pinned requirements
(transformers 4.45.2, peft 0.10.0, trl 0.8.6, ...), named by two environment variables, and is skipped
with that reason when they are absent. How to set them up: the README's "Judge parity" section.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHECKOUT = os.environ.get("MMJUDGE_VIDEOALIGN")
PYTHON = os.environ.get("MMJUDGE_VIDEOALIGN_PYTHON")


@pytest.mark.parity
@pytest.mark.skipif(
    not (CHECKOUT and PYTHON),
    reason="needs MMJUDGE_VIDEOALIGN (a VideoAlign checkout) and MMJUDGE_VIDEOALIGN_PYTHON (a Python with its "
    "pinned requirements); see the README's 'Judge parity' section",
)
def test_rewards_equal_videoaligns_inference_within_1e_4(tmp_path: Path) -> None:
    script = REPO / "benchmarks" / "parity_videoalign.py"
    command = [sys.executable, str(script), "--videoalign", str(CHECKOUT), "--python", str(PYTHON)]
    done = subprocess.run([*command, "--work", str(tmp_path), "--no-record"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows = [line for line in done.stdout.splitlines() if "'positions': 'sequential'" in line]
    assert len(rows) == 4 and all("'within 1e-4': 'yes'" in row for row in rows), rows
