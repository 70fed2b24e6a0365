"""Sample MJ-Bench-Video release: ``test.json`` and tiny generated clips under ``videos/test/``.

Written in the release's JSON layout (``caption, video_0_path, video_1_path, category_preference,
overall_preference, discard``); paths like the release's ``test/<k>_0.mp4``, relative to ``videos/``. Every pair
is synthetic (:mod:`mmjudge.benchmarks._pairwise.sample`): each label follows the drawn quality gap, shifted a
little per aspect, a small gap ``Same``; the last pair's overall label is ``Hard to judge``.
"""

from __future__ import annotations

import json
from pathlib import Path

from mmjudge.benchmarks._pairwise.sample import sample_pairs
from mmjudge.benchmarks.mj_bench_video.scoring import ASPECTS
from mmjudge.data.raw import RawSource

__all__ = ["write_raw"]

_SHIFTS = (0.1, -0.1, 0.05, -0.05, 0.15)
_LABEL = {1: "Video 1 better", -1: "Video 2 better", 0: "Same"}


def write_raw(raw_dir: str | Path, *, size: str = "small", seed: int = 0) -> RawSource:
    """Write the sample release into ``raw_dir``; returns ``test.json`` and the ``videos/`` media root."""
    raw_dir = Path(raw_dir)
    pairs = sample_pairs(raw_dir / "videos", size=size, seed=seed, models=("sample",), folder="test")
    items = []
    for k, p in enumerate(pairs):
        items.append(
            {
                "caption": p.prompt,
                "video_0_path": p.video_a,
                "video_1_path": p.video_b,
                "category_preference": {a.name: _LABEL[p.side(s)] for a, s in zip(ASPECTS[1:], _SHIFTS, strict=True)},
                "overall_preference": "Hard to judge" if k == len(pairs) - 1 else _LABEL[p.side()],
                "discard": False,
            }
        )
    path = raw_dir / "test.json"
    path.write_text(json.dumps(items, indent=2) + "\n", encoding="utf-8")
    return RawSource(path, raw_dir / "videos", {})
