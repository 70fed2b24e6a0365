"""Writing clips and audio: H.264 mp4 (optionally with an AAC audio track) and PCM wav files.

Frames are ``uint8`` arrays ``(T, H, W, 3)``. Each frame is encoded as a fresh picture (new pts, no
forced picture type), so libx264 decides the frame types itself from ``gop`` and ``bframes``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from mmjudge._deps import require
from mmjudge.errors import MediaError


def write_video(
    path: str | Path,
    frames: np.ndarray,
    fps: float,
    *,
    crf: int = 20,
    preset: str = "medium",
    gop: int | None = None,
    bframes: int | None = None,
    open_gop: bool = False,
    x264_params: Mapping[str, str] | None = None,
    audio: np.ndarray | None = None,
    sample_rate: int = 16_000,
) -> Path:
    """Encode ``frames`` to an H.264 yuv420p mp4 with libx264 (PyAV's bundled FFmpeg).

    Args:
        path: output file; parent folders are created.
        frames: ``uint8`` array ``(T, H, W, 3)``; ``H`` and ``W`` must be even (yuv420p).
        fps: frame rate; stored as an exact rational when it is a whole number.
        crf: x264 constant rate factor (lower is better quality).
        preset: x264 preset.
        gop: keyframe interval (``keyint``); ``None`` keeps x264's default.
        bframes: number of consecutive B-frames; ``None`` keeps x264's default.
        open_gop: emit open GOPs (B-frames before a keyframe reference the previous GOP).
        x264_params: extra ``x264-params`` entries.
        audio: optional mono float32 samples in [-1, 1] stored as an AAC track.
        sample_rate: sample rate of ``audio``.

    Returns:
        The path written.

    >>> import tempfile, os
    >>> clip = np.zeros((4, 32, 48, 3), dtype=np.uint8)
    >>> out = write_video(os.path.join(tempfile.mkdtemp(), "c.mp4"), clip, fps=16)
    >>> out.stat().st_size > 0
    True
    """
    av = require("av", "video", purpose="writing video")
    frames = _check_frames(frames)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    params = dict(x264_params or {})
    if gop is not None:
        params.update({"keyint": str(gop), "min-keyint": str(gop), "scenecut": "0"})
    if bframes is not None:
        params["bframes"] = str(bframes)
    if open_gop:
        params["open-gop"] = "1"
    options = {"crf": str(crf), "preset": preset}
    if params:
        options["x264-params"] = ":".join(f"{k}={v}" for k, v in params.items())
    from fractions import Fraction

    rate = Fraction(fps).limit_denominator(1001)
    with av.open(str(path), mode="w") as container:
        stream = container.add_stream("libx264", rate=rate, options=options)
        stream.width, stream.height = frames.shape[2], frames.shape[1]
        stream.pix_fmt = "yuv420p"
        audio_stream = None
        if audio is not None:
            audio_stream = container.add_stream("aac", rate=sample_rate, layout="mono")
        for index, array in enumerate(frames):
            frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(array), format="rgb24")
            frame.pts = index
            frame.time_base = 1 / rate
            container.mux(stream.encode(frame))
        container.mux(stream.encode(None))
        if audio_stream is not None and audio is not None:
            _mux_audio(av, container, audio_stream, audio, sample_rate)
    return path


def _mux_audio(av: object, container: object, stream: object, audio: np.ndarray, sample_rate: int) -> None:
    samples = np.asarray(audio, dtype=np.float32).reshape(1, -1)
    frame_size = 1024
    for start in range(0, samples.shape[1], frame_size):
        chunk = np.ascontiguousarray(samples[:, start : start + frame_size])
        frame = av.AudioFrame.from_ndarray(chunk, format="flt", layout="mono")  # type: ignore[attr-defined]
        frame.sample_rate = sample_rate
        frame.pts = start
        container.mux(stream.encode(frame))  # type: ignore[attr-defined]
    container.mux(stream.encode(None))  # type: ignore[attr-defined]


def write_wav(path: str | Path, samples: np.ndarray, sample_rate: int = 16_000) -> Path:
    """Write mono float samples in [-1, 1] as a 16-bit PCM wav file.

    >>> import tempfile, os
    >>> p = write_wav(os.path.join(tempfile.mkdtemp(), "a.wav"), np.zeros(160, dtype=np.float32))
    >>> p.read_bytes()[:4]
    b'RIFF'
    """
    import wave

    samples = np.asarray(samples, dtype=np.float32)
    if samples.ndim != 1:
        raise MediaError(f"write_wav expects mono samples of shape (n,), got shape {samples.shape}")
    pcm = (np.clip(samples, -1.0, 1.0) * 32767.0).round().astype("<i2")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(sample_rate)
        handle.writeframes(pcm.tobytes())
    return path


def _check_frames(frames: np.ndarray) -> np.ndarray:
    frames = np.asarray(frames)
    if frames.dtype != np.uint8 or frames.ndim != 4 or frames.shape[-1] != 3:
        raise MediaError(
            f"expected uint8 frames of shape (T, H, W, 3), got dtype {frames.dtype} and shape {frames.shape}"
        )
    if frames.shape[0] == 0:
        raise MediaError("expected at least one frame to encode, got 0")
    if frames.shape[1] % 2 or frames.shape[2] % 2:
        raise MediaError(f"yuv420p needs even width and height, got {frames.shape[2]}x{frames.shape[1]}")
    return frames
