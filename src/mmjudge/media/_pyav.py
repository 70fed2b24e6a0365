"""PyAV decoder backend: exact frame indices, RGB conversion only for wanted frames.

Every read demuxes the whole file first (cheap: no decoding), which gives the exact frame count,
detects truncated files (fewer packets than the header promises, or packets flagged corrupt) and
maps each packet's presentation timestamp to its frame index (its rank among all timestamps).
Decoding then runs sequentially from the first packet, converts only wanted frames to RGB straight
into one preallocated array, and stops as soon as the last wanted frame is out. Frames that are
not references for any other frame (H.264 non-reference B-frames) and are not wanted are dropped
by the decoder without being decoded (FFmpeg ``skip_frame="NONREF"``), switched back to
``"DEFAULT"`` for the packet of each wanted frame. Because no other frame depends on a
non-reference frame, the frames returned are bit-identical to those of a full decode (tested).
There is no seeking, so open-GOP files are handled exactly like any other.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from mmjudge._deps import require
from mmjudge.errors import MediaError, summarize
from mmjudge.media._common import VideoInfo, check_range, no_frames

NAME = "pyav"


def info(path: Path) -> VideoInfo:
    """Frame count (from the demuxed packets), fps and size of the first video stream."""
    with _open(path) as container:
        stream = container.streams.video[0]
        packets = _demux(path, container, stream)
        fps = _fps(path, stream)
        return VideoInfo(len(packets), fps, stream.width, stream.height, len(packets) / fps)


def read(path: Path, indices: np.ndarray | None, *, threads: int = 0, skip_nonref: bool = True) -> np.ndarray:
    """Frames at the sorted, distinct ``indices`` (``None``: all) as ``uint8 (len(indices), H, W, 3)``."""
    av = require("av", "video", purpose="decoding video with PyAV")
    with _open(path) as container:
        stream = container.streams.video[0]
        _configure_threads(stream, threads)
        packets = _demux(path, container, stream)
        if indices is None:
            indices = np.arange(len(packets), dtype=np.int64)
        check_range(path, indices, len(packets))
        out = np.empty((len(indices), stream.height, stream.width, 3), dtype=np.uint8)
        if not len(indices):
            return out
        slot_of = _slots_by_pts(path, packets, indices)
        codec = stream.codec_context
        wanted_pts = set(slot_of)
        done = np.zeros(len(indices), dtype=bool)
        try:
            for packet in [*packets, None]:
                if skip_nonref and packet is not None:
                    codec.skip_frame = "DEFAULT" if packet.pts in wanted_pts else "NONREF"
                for frame in codec.decode(packet):
                    slot = slot_of.get(frame.pts)
                    if slot is not None:
                        _to_rgb(path, frame, out[slot])
                        done[slot] = True
                if done.all():
                    return out
        except av.FFmpegError as exc:
            raise MediaError(f"{path}: the decoder failed ({exc}); the file is damaged") from exc
        missing = [int(i) for i in indices[~done]]
        raise MediaError(
            f"{path}: the decoder returned no picture for frames {summarize(missing)} although the "
            f"file has {len(packets)} packets; the file is damaged"
        )


@contextmanager
def _open(path: Path) -> Iterator[Any]:
    av = require("av", "video", purpose="decoding video with PyAV")
    try:
        container = av.open(str(path), mode="r")
    except av.FFmpegError as exc:
        raise MediaError(f"{path}: not a readable video file ({exc})") from exc
    try:
        if not container.streams.video:
            raise MediaError(f"{path}: the file has no video stream (streams: {list(container.streams)})")
        yield container
    finally:
        container.close()


def _demux(path: Path, container: Any, stream: Any) -> list[Any]:
    """All packets of ``stream`` in decode order; checks against truncation and corruption."""
    av = require("av", "video")
    try:
        packets = [p for p in container.demux(stream) if p.size]
    except av.FFmpegError as exc:
        raise MediaError(f"{path}: reading the file failed ({exc}); it is truncated or damaged") from exc
    if not packets:
        raise no_frames(path)
    if stream.frames and len(packets) != stream.frames:
        raise MediaError(
            f"{path}: the header promises {stream.frames} frames but the file holds {len(packets)}; "
            "it is truncated or damaged"
        )
    corrupt = sum(1 for p in packets if p.is_corrupt)
    if corrupt:
        raise MediaError(f"{path}: {corrupt} packets are flagged corrupt; the file is truncated or damaged")
    return packets


def _slots_by_pts(path: Path, packets: list[Any], indices: np.ndarray) -> dict[int, int]:
    """Map the presentation timestamp of each wanted frame to its slot in the output."""
    pts = [p.pts for p in packets]
    if any(t is None for t in pts) or len(set(pts)) != len(pts):
        raise MediaError(
            f"{path}: the video stream has missing or repeated timestamps; frame indices are ambiguous"
        )
    ordered = sorted(pts)
    return {ordered[int(i)]: slot for slot, i in enumerate(indices)}


def _reformat_rgb24(frame: Any) -> Any:
    """``frame`` as RGB24, converted on one thread.

    PyAV 17+ converts on several threads by default. After a process has converted frames that way with
    PyAV 19, a decode worker forked from it waits forever in its first conversion, even a one-thread one
    (seen with PyAV 19.0.2 on Python 3.13; not with 18.1): the runner forks its decode workers after the
    main process may have decoded, so no conversion here starts threads. Decoding is parallel across
    worker processes, and a frame's conversion is short. PyAV before 17 has no ``threads`` argument.
    """
    try:
        return frame.reformat(format="rgb24", threads=1)
    except TypeError:
        return frame.reformat(format="rgb24")


def _fps(path: Path, stream: Any) -> float:
    rate = stream.average_rate or stream.guessed_rate
    if not rate or rate <= 0:
        raise MediaError(f"{path}: the video stream declares no frame rate")
    return float(rate)


def _configure_threads(stream: Any, threads: int) -> None:
    codec = stream.codec_context
    if threads == 1:
        codec.thread_type = "NONE"
        codec.thread_count = 1
    else:
        codec.thread_type = "AUTO"
        codec.thread_count = threads


def _to_rgb(path: Path, frame: Any, dst: np.ndarray) -> None:
    """Convert one decoded frame to packed RGB24 and copy it into ``dst`` (H, W, 3)."""
    height, width = dst.shape[:2]
    if (frame.height, frame.width) != (height, width):
        raise MediaError(
            f"{path}: a frame is {frame.width}x{frame.height} but the stream says {width}x{height}; "
            "clips whose resolution changes are not supported"
        )
    rgb = _reformat_rgb24(frame)
    plane = rgb.planes[0]
    rows = np.frombuffer(plane, dtype=np.uint8).reshape(height, plane.line_size)
    dst[...] = rows[:, : width * 3].reshape(height, width, 3)
