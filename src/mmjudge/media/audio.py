"""Audio loading: mono float32 at a requested sample rate, from a wav file or a video's audio track.

Every format goes through PyAV (FFmpeg): the first audio stream is decoded and passed through
``av.AudioResampler(format="fltp", rate=sample_rate)`` (FFmpeg's resampler, for wav and mp4 alike),
keeping the channels, which are then averaged to mono. The mean is used rather than FFmpeg's own
down-mix, which weights stereo channels by 1/sqrt(2) each and can clip. A 16-bit wav already at the
requested rate comes back as ``int16 / 32768`` exactly.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mmjudge._deps import require
from mmjudge.errors import ConfigError, MediaError
from mmjudge.media._common import check_file

__all__ = ["load_audio"]


def load_audio(path: str | Path, sample_rate: int = 16_000) -> np.ndarray:
    """Decode the first audio stream of ``path`` to mono ``float32`` samples at ``sample_rate``.

    Args:
        path: a wav file, or a video/audio container with an audio track (mp4, m4a, mkv, ...).
        sample_rate: output rate in Hz.

    Returns:
        1-D ``float32`` array, nominally in [-1, 1].

    Raises:
        MediaError: the file is missing, empty, unreadable, has no audio stream or no samples.

    >>> import tempfile, os
    >>> from mmjudge.media.encode import write_wav
    >>> path = write_wav(os.path.join(tempfile.mkdtemp(), "a.wav"), np.full(800, 0.5, np.float32), 8000)
    >>> samples = load_audio(path, sample_rate=8000)
    >>> samples.dtype.name, samples.shape, round(float(samples[100]), 3)
    ('float32', (800,), 0.5)
    """
    if sample_rate <= 0:
        raise ConfigError(f"sample_rate must be a positive number of Hz, got {sample_rate}")
    av = require("av", "video", purpose="decoding audio")
    path = check_file(path)
    try:
        container = av.open(str(path), mode="r")
    except av.FFmpegError as exc:
        raise MediaError(f"{path}: not a readable audio or video file ({exc})") from exc
    with container:
        if not container.streams.audio:
            raise MediaError(f"{path}: the file has no audio stream (streams: {list(container.streams)})")
        resampler = av.AudioResampler(format="fltp", rate=sample_rate)
        chunks: list[np.ndarray] = []
        try:
            for frame in container.decode(container.streams.audio[0]):
                chunks.extend(_mono(out) for out in resampler.resample(frame))
            chunks.extend(_mono(out) for out in resampler.resample(None))
        except av.FFmpegError as exc:
            raise MediaError(f"{path}: decoding the audio failed ({exc}); the file is damaged") from exc
    if not chunks or sum(len(c) for c in chunks) == 0:
        raise MediaError(f"{path}: the audio stream has zero samples")
    return np.concatenate(chunks).astype(np.float32, copy=False)


def _mono(frame: object) -> np.ndarray:
    planes = frame.to_ndarray()  # type: ignore[attr-defined]  # (channels, samples) for planar fltp
    return planes[0] if planes.shape[0] == 1 else planes.mean(axis=0, dtype=np.float32)
