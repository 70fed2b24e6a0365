"""Pieces shared by the video backends: the info record, file checks, index checks."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from mmjudge.errors import MediaError, summarize


class VideoInfo(NamedTuple):
    """What a video file holds, as the decoder sees it."""

    num_frames: int
    """Number of frames a full sequential decode returns."""
    fps: float
    """Average frame rate in frames per second."""
    width: int
    """Frame width in pixels."""
    height: int
    """Frame height in pixels."""
    duration: float
    """``num_frames / fps`` in seconds."""


def check_file(path: str | Path) -> Path:
    """Return ``path`` as a Path after checking that it is a non-empty regular file."""
    path = Path(path)
    if not path.exists():
        raise MediaError(f"{path}: no such file; check the path and the media root")
    if not path.is_file():
        raise MediaError(f"{path}: expected a regular file, got a directory or special file")
    if path.stat().st_size == 0:
        raise MediaError(f"{path}: the file is empty (0 bytes); re-download or re-encode it")
    return path


def check_range(path: Path, indices: np.ndarray, total: int) -> None:
    """Raise MediaError when any of the sorted ``indices`` is outside ``[0, total)``."""
    if indices.size and (indices[0] < 0 or indices[-1] >= total):
        bad = [int(i) for i in indices if i < 0 or i >= total]
        raise MediaError(
            f"{path}: frame indices {summarize(bad)} are out of range for a clip of {total} frames "
            f"(valid: 0..{total - 1})"
        )


def no_frames(path: Path) -> MediaError:
    """The error for a file whose video stream decodes to zero frames."""
    return MediaError(f"{path}: the video stream has zero frames; the file is empty or damaged")
