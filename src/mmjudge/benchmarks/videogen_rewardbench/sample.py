"""Sample VideoGen-RewardBench release: ``videogen-rewardbench.csv`` and tiny generated clips beside it.

Written in the release's own CSV layout (``path_A, path_B, A_model, B_model, prompt, fps_A, num_frames_A, fps_B,
num_frames_B, VQ, MQ, TA, Overall``), the clips under ``videos/``. Every pair is synthetic
(:mod:`mmjudge.benchmarks._pairwise.sample`): the labels follow the drawn quality gap (``Overall``), shifted a
little per aspect so the four columns differ, with ``same`` for a small gap; the generator names are stand-ins.
"""

from __future__ import annotations

import csv
from pathlib import Path

from mmjudge.benchmarks._pairwise.sample import sample_pairs
from mmjudge.data.raw import RawSource

__all__ = ["write_raw"]

_MODELS = ("sample-gen-1", "sample-gen-2", "sample-gen-3")
_SHIFTS = {"VQ": 0.1, "MQ": -0.1, "TA": 0.05, "Overall": 0.0}
_LABEL = {1: "A", -1: "B", 0: "same"}


def write_raw(raw_dir: str | Path, *, size: str = "small", seed: int = 0) -> RawSource:
    """Write the sample release into ``raw_dir``; returns the CSV to build."""
    raw_dir = Path(raw_dir)
    pairs = sample_pairs(raw_dir, size=size, seed=seed, models=_MODELS)
    path = raw_dir / "videogen-rewardbench.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["path_A", "path_B", "A_model", "B_model", "prompt", "fps_A", "num_frames_A", "fps_B",
                         "num_frames_B", *_SHIFTS])  # fmt: skip
        for p in pairs:
            labels = [_LABEL[p.side(shift)] for shift in _SHIFTS.values()]
            writer.writerow([p.video_a, p.video_b, p.model_a, p.model_b, p.prompt, 8, 12, 8, 12, *labels])
    return RawSource(path, None, {})
