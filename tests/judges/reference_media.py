"""Clips for running the reference preprocessing code (qwen-vl-utils, qwen-omni-utils) beside mmjudge's.

A helper module, not a test module. qwen-vl-utils reads a video through a backend (torchcodec, decord or
torchvision's removed ``read_video``); :func:`reference_reader` installs a stand-in ``decord`` module whose
``VideoReader`` serves frames the test controls, so everything qwen-vl-utils does after reading (its
``smart_nframes``, ``torch.linspace`` indices, ``smart_resize`` limits, torchvision resize, metadata) runs
unchanged on the same frames mmjudge gets. Two kinds of clip:

- ``synthetic://H,W,T,FPS``: frames made on request by :func:`synthetic_frame` (a moving texture,
  deterministic per index), so 90-second 1080p clips cost only the frames sampled;
- a real file path: frames from a full sequential PyAV decode (:func:`mmjudge.media.video.read_all`),
  which the decoder tests check against decord frame by frame.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

SCHEME = "synthetic://"


def synthetic_path(height: int, width: int, frames: int, fps: float) -> str:
    """The name of a synthetic clip (a string qwen-vl-utils passes through to the reader).

    >>> synthetic_path(32, 48, 9, 8.0)
    'synthetic://32,48,9,8.0'
    """
    return f"{SCHEME}{height},{width},{frames},{float(fps)}"


def parse(path: str) -> tuple[int, int, int, float]:
    """``(height, width, frames, fps)`` of a synthetic clip name."""
    h, w, t, fps = path[len(SCHEME) :].split(",")
    return int(h), int(w), int(t), float(fps)


@lru_cache(maxsize=8)
def _texture(height: int, width: int) -> np.ndarray:
    rng = np.random.default_rng(height * 7919 + width)
    small = rng.integers(0, 256, (max(2, height // 8), max(2, width // 8), 3), dtype=np.uint8)
    big = np.kron(small, np.ones((8, 8, 1), dtype=np.uint8))[:height, :width]
    noise = rng.integers(0, 48, (height, width, 3), dtype=np.uint8)
    return np.ascontiguousarray(
        np.pad(big, ((0, height - big.shape[0]), (0, width - big.shape[1]), (0, 0))) + noise
    )


def synthetic_frame(height: int, width: int, index: int) -> np.ndarray:
    """Frame ``index`` of a synthetic clip: the texture shifted by the index, brightness varying with it."""
    frame = np.roll(_texture(height, width), (index * 3, index * 5), axis=(0, 1))
    return (frame.astype(np.int16) + (index * 7) % 40).clip(0, 255).astype(np.uint8)


def frames_at(path: str, indices: Sequence[int]) -> np.ndarray:
    """``uint8 (T, H, W, 3)`` frames of a clip (synthetic or a real file) at ``indices``."""
    if path.startswith(SCHEME):
        height, width, _, _ = parse(path)
        return np.stack([synthetic_frame(height, width, int(i)) for i in indices])
    return _decoded(path)[list(indices)]


@lru_cache(maxsize=4)
def _decoded(path: str) -> np.ndarray:
    from mmjudge.media.video import read_all

    return read_all(path)


def clip_info(path: str) -> tuple[int, float, int, int]:
    """``(frames, fps, height, width)`` of a clip."""
    if path.startswith(SCHEME):
        height, width, frames, fps = parse(path)
        return frames, fps, height, width
    from mmjudge.media.video import video_info

    info = video_info(path)
    return info.num_frames, info.fps, info.height, info.width


class _Batch:
    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def asnumpy(self) -> np.ndarray:
        return self.array


class VideoReader:
    """decord's ``VideoReader`` interface (``len``, ``get_avg_fps``, ``get_batch``) over :func:`frames_at`."""

    def __init__(self, path: str, *args: Any, **kwargs: Any) -> None:
        self.path = path
        self.frames, self.fps, _, _ = clip_info(path)

    def __len__(self) -> int:
        return self.frames

    def get_avg_fps(self) -> float:
        return self.fps

    def get_batch(self, indices: Sequence[int]) -> _Batch:
        return _Batch(frames_at(self.path, indices))


@contextlib.contextmanager
def reference_reader() -> Iterator[None]:
    """Run qwen-vl-utils / qwen-omni-utils with :class:`VideoReader` as their decord backend."""
    import qwen_omni_utils.v2_5.vision_process as omni
    import qwen_vl_utils.vision_process as vl

    fake = types.ModuleType("decord")
    fake.VideoReader = VideoReader  # type: ignore[attr-defined]
    saved = sys.modules.get("decord")
    backends = [(module, module.get_video_reader_backend) for module in (vl, omni)]
    sys.modules["decord"] = fake
    for module, _ in backends:
        module.get_video_reader_backend = lambda: "decord"  # type: ignore[assignment]
    try:
        yield
    finally:
        for module, original in backends:
            module.get_video_reader_backend = original  # type: ignore[assignment]
        if saved is None:
            sys.modules.pop("decord", None)
        else:
            sys.modules["decord"] = saved
