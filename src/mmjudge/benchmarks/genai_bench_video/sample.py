"""Sample GenAI-Bench (video generation) release: ``video_generation/test-00000-of-00001.parquet`` and tiny clips.

Written in the release's layout (``prompt, left_model, right_model, left_video, right_video, vote_type`` plus a
``tstamp`` column kept as text); the clips under ``videos/``, named by relative paths. Every pair is synthetic
(:mod:`mmjudge.benchmarks._pairwise.sample`): the vote follows the drawn quality gap, a small gap a ``tievote``
(every other tied pair a ``bothbad_vote``); the generator names are stand-ins.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from mmjudge.benchmarks._pairwise.sample import sample_pairs
from mmjudge.data.raw import RawSource

__all__ = ["write_raw"]

_MODELS = ("sample-t2v-a", "sample-t2v-b", "sample-t2v-c")


def write_raw(raw_dir: str | Path, *, size: str = "small", seed: int = 0) -> RawSource:
    """Write the sample release into ``raw_dir``; returns the parquet file to build."""
    raw_dir = Path(raw_dir)
    pairs = sample_pairs(raw_dir, size=size, seed=seed, models=_MODELS)
    votes, ties = [], 0
    for p in pairs:
        side = p.side()
        if side == 0:
            votes.append("tievote" if ties % 2 == 0 else "bothbad_vote")
            ties += 1
        else:
            votes.append("leftvote" if side > 0 else "rightvote")
    table = pa.table(
        {
            "tstamp": [f"{1717000000 + 60 * k}" for k in range(len(pairs))],
            "prompt": [p.prompt for p in pairs],
            "left_model": [p.model_a for p in pairs],
            "right_model": [p.model_b for p in pairs],
            "left_video": [p.video_a for p in pairs],
            "right_video": [p.video_b for p in pairs],
            "vote_type": votes,
        }
    )
    path = raw_dir / "video_generation" / "test-00000-of-00001.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)
    return RawSource(path, raw_dir, {})
