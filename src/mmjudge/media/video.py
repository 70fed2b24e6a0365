"""One video decoder interface over two backends: PyAV (default) and decord (optional, guarded).

Frames are ``uint8`` arrays ``(T, H, W, 3)`` in RGB. A frame index is the frame's position in a full
sequential decode of the file, counted from 0; every backend returns, for a sparse read, exactly the
frames a full sequential decode gives at those indices (tested bit-exact per backend, open-GOP clips
included). The backends' colour conversions are their own, so PyAV and decord frames may differ by a
few levels; resizing is done by :mod:`mmjudge.media.resize` for every backend.

The backend is chosen by the ``backend`` argument, else the ``MMJUDGE_VIDEO_BACKEND`` environment
variable, else ``"pyav"``. ``threads`` (argument, else ``MMJUDGE_VIDEO_THREADS``, else 0) sets the
decoder threads: 0 lets FFmpeg choose, 1 decodes in the calling thread only, which is what worker
processes (one per core) should use.

>>> import tempfile, os
>>> from mmjudge.media.encode import write_video
>>> from mmjudge.media.synthetic import moving_texture_clip
>>> path = write_video(os.path.join(tempfile.mkdtemp(), "c.mp4"), moving_texture_clip(21, 32, 48), fps=16)
>>> video_info(path)
VideoInfo(num_frames=21, fps=16.0, width=48, height=32, duration=1.3125)
>>> read_frames(path, [20, 0, 0]).shape
(3, 32, 48, 3)
>>> read_all(path).shape
(21, 32, 48, 3)
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import numpy as np

from mmjudge.errors import ConfigError, SchemaError, UnknownNameError, summarize
from mmjudge.media._common import VideoInfo, check_file
from mmjudge.media._sampling import (
    FRAME_RULES,
    POLICIES,
    float_arange_indices,
    frame_count,
    int_scaled_indices,
    linspace_floor_indices,
    linspace_indices,
    processor_indices,
    sample_indices,
)

__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "FRAME_RULES",
    "POLICIES",
    "VideoInfo",
    "float_arange_indices",
    "frame_count",
    "int_scaled_indices",
    "linspace_floor_indices",
    "linspace_indices",
    "processor_indices",
    "read_all",
    "read_frames",
    "resolve_backend",
    "sample_indices",
    "video_info",
]

BACKENDS: dict[str, str] = {"pyav": "mmjudge.media._pyav", "decord": "mmjudge.media._decord"}
"""Backend name -> module implementing ``info(path)`` and ``read(path, sorted_indices_or_None, threads=)``."""
DEFAULT_BACKEND = "pyav"
BACKEND_ENV = "MMJUDGE_VIDEO_BACKEND"
THREADS_ENV = "MMJUDGE_VIDEO_THREADS"


def resolve_backend(backend: str | None = None) -> str:
    """The backend name to use: ``backend``, else ``$MMJUDGE_VIDEO_BACKEND``, else ``"pyav"``.

    >>> resolve_backend("decord")
    'decord'
    >>> resolve_backend("opencv")
    Traceback (most recent call last):
    ...
    mmjudge.errors.UnknownNameError: unknown video backend 'opencv'; known backends: ['decord', 'pyav']. Pass backend=... or set MMJUDGE_VIDEO_BACKEND to one of them
    """
    name = backend or os.environ.get(BACKEND_ENV) or DEFAULT_BACKEND
    if name not in BACKENDS:
        raise UnknownNameError(
            f"unknown video backend {name!r}; known backends: {sorted(BACKENDS)}. "
            f"Pass backend=... or set {BACKEND_ENV} to one of them"
        )
    return name


def _module(backend: str | None) -> ModuleType:
    return importlib.import_module(BACKENDS[resolve_backend(backend)])


def _threads(threads: int | None) -> int:
    if threads is None:
        raw = os.environ.get(THREADS_ENV, "0")
        try:
            threads = int(raw)
        except ValueError:
            raise ConfigError(f"{THREADS_ENV} must be an integer >= 0, got {raw!r}") from None
    if threads < 0:
        raise ConfigError(f"threads must be >= 0 (0 = automatic, 1 = single-threaded), got {threads}")
    return threads


def video_info(path: str | Path, *, backend: str | None = None) -> VideoInfo:
    """Frame count, fps, size and duration of a video file.

    ``num_frames`` is the number of frames a full decode returns (PyAV counts the demuxed packets;
    decord reports its own frame count); ``duration`` is ``num_frames / fps``.

    Raises:
        MediaError: the file is missing, empty, not a video, truncated or has zero frames.
    """
    return _module(backend).info(check_file(path))


def read_frames(
    path: str | Path,
    indices: Sequence[int] | np.ndarray,
    *,
    backend: str | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """Frames at ``indices`` as ``uint8 (len(indices), H, W, 3)``, in the order asked.

    Indices may repeat and come in any order; each distinct frame is decoded once.

    Args:
        path: the video file.
        indices: frame indices in ``[0, num_frames)``.
        backend: ``"pyav"`` or ``"decord"``; see :func:`resolve_backend`.
        threads: decoder threads (0 automatic, 1 single-threaded); default ``$MMJUDGE_VIDEO_THREADS`` or 0.

    Raises:
        MediaError: a bad file (see :func:`video_info`) or an index out of range.
        SchemaError: ``indices`` are not integers.
    """
    wanted = np.asarray(indices)
    if wanted.ndim != 1 or not (wanted.size == 0 or np.issubdtype(wanted.dtype, np.integer)):
        raise SchemaError(
            f"expected a 1-D sequence of integer frame indices, got {summarize(np.ravel(wanted))}"
        )
    unique, inverse = np.unique(wanted.astype(np.int64), return_inverse=True)
    frames = _module(backend).read(check_file(path), unique, threads=_threads(threads))
    if len(unique) == len(wanted) and np.array_equal(unique, wanted):
        return frames
    return frames[inverse.reshape(-1)]


def read_all(path: str | Path, *, backend: str | None = None, threads: int | None = None) -> np.ndarray:
    """Every frame of the file as ``uint8 (num_frames, H, W, 3)``."""
    return _module(backend).read(check_file(path), None, threads=_threads(threads))
