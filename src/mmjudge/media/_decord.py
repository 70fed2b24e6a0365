"""decord decoder backend, guarded: it reads sequentially and never seeks.

decord 0.6 (and its forks decord2, eva-decord) return wrong frames when they seek in open-GOP files:
asking for frame 16 of an x264 ``keyint=16:open_gop=1`` clip returns frame 18, with only an FFmpeg
log line (``mmco: unref short failure``) as a sign; ``skip_frames`` seeks too. This backend therefore
never calls ``get_batch``, ``skip_frames`` or ``seek``: it opens a fresh reader and calls ``next()``
from frame 0 up to the last wanted frame, keeping the wanted ones. That is exact on every layout but
converts every frame up to the last wanted one to RGB, so it is slower than the PyAV backend for
sparse reads.

Before decord touches a file, PyAV demuxes it (no decoding) to reject missing, empty, non-video,
truncated and zero-frame files with a clear :class:`MediaError` (decord's own errors are C++ check
failures such as ``Check failed: st_nb >= 0`` or ``av_read_frame failed with 1094995529``); a
decord frame count that disagrees with PyAV's packet count is refused
too, since decord's indices would then not be the file's frames.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from mmjudge._deps import require
from mmjudge.errors import MediaError
from mmjudge.media import _pyav
from mmjudge.media._common import VideoInfo, check_range, no_frames

NAME = "decord"


def info(path: Path) -> VideoInfo:
    """Frame count, fps and size as decord reports them (after PyAV's sanity check)."""
    reader, total = _open(path, threads=1)
    first = _next(path, reader, 0)
    fps = float(reader.get_avg_fps())
    if fps <= 0:
        raise MediaError(f"{path}: decord reports no frame rate")
    return VideoInfo(total, fps, first.shape[1], first.shape[0], total / fps)


def read(path: Path, indices: np.ndarray | None, *, threads: int = 0) -> np.ndarray:
    """Frames at the sorted, distinct ``indices`` (``None``: all), decoded sequentially from frame 0."""
    reader, total = _open(path, threads=threads)
    if indices is None:
        indices = np.arange(total, dtype=np.int64)
    check_range(path, indices, total)
    out: np.ndarray | None = None
    position = 0
    for slot, index in enumerate(indices.tolist()):
        while position < index:
            _next(path, reader, position)
            position += 1
        frame = _next(path, reader, position)
        position += 1
        if out is None:
            out = np.empty((len(indices), *frame.shape), dtype=np.uint8)
        out[slot] = frame
    if out is None:
        first = _next(path, reader, 0)
        out = np.empty((0, *first.shape), dtype=np.uint8)
    return out


def _open(path: Path, *, threads: int) -> tuple[Any, int]:
    expected = _pyav.info(path).num_frames
    decord = require("decord", "video", purpose="decoding video with decord")
    try:
        reader = decord.VideoReader(str(path), ctx=decord.cpu(0), num_threads=threads)
    except (decord.DECORDError, RuntimeError) as exc:
        raise MediaError(f"{path}: decord cannot open the file ({_first_line(exc)})") from exc
    total = len(reader)
    if total == 0:
        raise no_frames(path)
    if total != expected:
        raise MediaError(
            f"{path}: decord counts {total} frames but the file holds {expected}; decord's frame "
            "indices would be wrong, use backend='pyav'"
        )
    return reader, total


def _next(path: Path, reader: Any, position: int) -> np.ndarray:
    decord = require("decord", "video")
    try:
        return reader.next().asnumpy()
    except StopIteration:
        raise MediaError(
            f"{path}: decord ran out of frames at frame {position}; the file is damaged"
        ) from None
    except (decord.DECORDError, RuntimeError) as exc:
        raise MediaError(f"{path}: decord failed at frame {position} ({_first_line(exc)})") from exc


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
