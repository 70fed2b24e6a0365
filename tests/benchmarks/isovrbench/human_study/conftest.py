"""Fixtures of the human-study tests: a small raw IsoVRBench pair table with tiny clips, and a made study."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from mmjudge.benchmarks.isovrbench import INTERVENTIONS

PAIRS_PER_INTERVENTION = 4


def write_pair_table(root: Path, pairs: int = PAIRS_PER_INTERVENTION) -> Path:
    """``root/test.csv`` with ``pairs`` pairs per intervention; every clip a distinct 4-frame 16x16 mp4."""
    from mmjudge.media.encode import write_video

    rows = []
    for p in range(pairs):
        anchor = f"clips/p{p}/anchor.mp4"
        write_video(root / anchor, np.full((4, 16, 16, 3), 10 * p, np.uint8), 16)
        for k, iv in enumerate(INTERVENTIONS):
            rel = f"clips/p{p}/{iv}.mp4"
            write_video(root / rel, np.full((4, 16, 16, 3), 100 + 10 * p + k, np.uint8), 16)
            rows.append({"pair_id": f"p{p}_{iv}", "prompt": f"prompt {p}", "intervention": iv,
                         "video_chosen": anchor, "video_rejected": rel})  # fmt: skip
    with (root / "test.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return root


@pytest.fixture(scope="session")
def pair_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("av")
    return write_pair_table(tmp_path_factory.mktemp("pairs"))


@pytest.fixture
def small_study(pair_table: Path, tmp_path: Path):
    """A fresh study of 1 pair and 1 control per intervention (16 items)."""
    from mmjudge.benchmarks.isovrbench.human_study import make_study

    return make_study(
        pair_table, tmp_path / "study", pairs_per_intervention=1, controls_per_intervention=1, seed=2
    )
