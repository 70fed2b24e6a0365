"""Synthetic pairs for the samples of the pairwise video preference benchmarks: tiny generated clips.

Each pair is two short procedural clips (:func:`~mmjudge.media.synthetic.moving_texture_clip`) of one prompt; one
side is degraded (blurred, flickering) by a drawn amount, and the human label follows the quality gap: the cleaner
clip is preferred, and a gap under a threshold is a tie. The release writers turn these into their own file
formats. The clips are small (64 x 96, 12 frames at 8 fps) so the demo stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from mmjudge.errors import ConfigError
from mmjudge.media.encode import write_video
from mmjudge.media.synthetic import moving_texture_clip

__all__ = ["SIZES", "SamplePair", "sample_pairs"]

SIZES: dict[str, int] = {"small": 12, "medium": 40}
"""Pairs per sample size."""
_FRAMES, _HEIGHT, _WIDTH, _FPS = 12, 64, 96, 8
_TIE_GAP = 0.15
_SUBJECTS = ("a red kite over a beach", "a cat on a windowsill", "a train crossing a bridge", "waves on rocks",
             "a dancer in a studio", "leaves in the wind", "a car on a mountain road")  # fmt: skip


class SamplePair(NamedTuple):
    """One synthetic pair."""

    prompt: str
    """The prompt of both clips."""
    video_a: str
    """Clip A, relative to the raw folder."""
    video_b: str
    """Clip B, relative to the raw folder."""
    model_a: str
    """Stand-in generator name of A."""
    model_b: str
    """Stand-in generator name of B."""
    gap: float
    """Quality of A minus quality of B (positive: A is cleaner)."""

    def side(self, offset: float = 0.0) -> int:
        """The label this pair's quality gap gives (+1 A, -1 B, 0 a tie), the gap shifted by ``offset``."""
        gap = self.gap + offset
        return 0 if abs(gap) < _TIE_GAP else (1 if gap > 0 else -1)


def sample_pairs(raw_dir: Path, *, size: str, seed: int, models: tuple[str, ...], folder: str = "videos") -> list[SamplePair]:
    """Write the clips of ``SIZES[size]`` pairs under ``raw_dir/folder`` and return the pairs.

    >>> import tempfile
    >>> pairs = sample_pairs(Path(tempfile.mkdtemp()), size="small", seed=0, models=("m1", "m2"))
    >>> len(pairs), sorted({p.side() for p in pairs})
    (12, [-1, 0, 1])
    """
    if size not in SIZES:
        raise ConfigError(f"unknown sample size {size!r}; expected one of {tuple(SIZES)}")
    rng = np.random.default_rng(seed)
    pairs = []
    for k in range(SIZES[size]):
        quality = rng.uniform(0.0, 1.0, size=2)
        if k % 4 == 3:  # every fourth pair near a tie
            quality[1] = quality[0] + rng.uniform(-0.05, 0.05)
        paths = []
        for side, q in zip(("a", "b"), quality, strict=True):
            rel = f"{folder}/{k:03d}_{side}.mp4"
            _write_clip(raw_dir / rel, seed=seed * 1000 + 2 * k, quality=float(q), rng=rng)
            paths.append(rel)
        model_a, model_b = rng.choice(len(models), size=2, replace=len(models) < 2)
        pairs.append(SamplePair(f"{_SUBJECTS[k % len(_SUBJECTS)]}, take {k}", paths[0], paths[1],
                                models[model_a], models[model_b], float(quality[0] - quality[1])))  # fmt: skip
    return pairs


def _write_clip(path: Path, *, seed: int, quality: float, rng: np.random.Generator) -> None:
    """A clip of ``seed`` degraded by ``1 - quality``: a horizontal box blur (less sharp) and a per-frame brightness
    flicker (less smooth), so the weight-free baselines both lean towards the cleaner clip."""
    frames = moving_texture_clip(_FRAMES, _HEIGHT, _WIDTH, seed=seed, num_objects=2).astype(np.float64)
    amount = 1.0 - quality
    width = 1 + int(round(6 * amount))
    if width > 1:
        kernel = np.ones(width) / width
        frames = np.apply_along_axis(lambda v: np.convolve(v, kernel, mode="same"), 2, frames)
    frames += rng.normal(0.0, 30.0 * amount, (frames.shape[0], 1, 1, 1))
    # mbtree off: x264 then encodes the same frames to the same bytes in every run (as IsoVRBench's sample does)
    clip = np.clip(frames, 0, 255).astype(np.uint8)
    write_video(path, clip, _FPS, crf=30, preset="veryfast", x264_params={"mbtree": "0"})
