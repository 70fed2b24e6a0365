"""Decoding for the runner: each item's media decoded once for every frame setting, in a prefetching pool.

:func:`decode_item` reads the union of the frame indices several :class:`MediaRequest` s ask for in one
sparse read (a ``--frames 4,8,16,32,48`` sweep decodes each clip once) and slices one
:class:`JudgeInput` per request. :class:`Prefetcher` runs it in single-thread worker processes ahead of
the judge, yielding results in input order.
"""

from __future__ import annotations

import collections
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mmjudge.judges._types import Item, JudgeInput, MediaRequest
from mmjudge.media.audio import load_audio
from mmjudge.media.image import load_image
from mmjudge.media.resize import resize_max_pixels
from mmjudge.media.video import read_frames, sample_indices, video_info

logger = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1


@dataclass
class Decoded:
    """One item decoded for every request of a run."""

    item: Item
    """The item."""
    inputs: list[JudgeInput] | None
    """One judge input per request, in request order; ``None`` when decoding failed."""
    error: str | None
    """``"<ErrorType>: <message>"`` when decoding failed."""
    seconds: float
    """Time spent decoding."""


def decode_item(
    item: Item, requests: Sequence[MediaRequest], *, backend: str | None = None, threads: int = 1
) -> Decoded:
    """Decode what ``requests`` ask of ``item``, reading each file once.

    Failures (a missing or damaged file, an index out of range) come back as ``error``, never raised.
    """
    started = time.perf_counter()
    try:
        inputs = _decode(item, requests, backend, threads)
    except Exception as exc:  # a per-item failure is recorded, the run goes on
        return Decoded(item, None, f"{type(exc).__name__}: {exc}", time.perf_counter() - started)
    return Decoded(item, inputs, None, time.perf_counter() - started)


def _decode(
    item: Item, requests: Sequence[MediaRequest], backend: str | None, threads: int
) -> list[JudgeInput]:
    inputs = [JudgeInput(item=item) for _ in requests]
    video: Path | None = getattr(item, "video", None)
    wants_video = [i for i, r in enumerate(requests) if r.num_frames is not None or r.target_fps is not None]
    if wants_video and video is not None:
        _add_frames(
            video, [requests[i] for i in wants_video], [inputs[i] for i in wants_video], backend, threads
        )
    audio_cache: dict[int, np.ndarray] = {}
    image_cache: list[Any] = []
    for request, judge_input in zip(requests, inputs, strict=True):
        rate = request.audio_sample_rate
        source = getattr(item, "audio", None) or video
        if rate is not None and source is not None:
            if rate not in audio_cache:
                audio_cache[rate] = load_audio(source, rate)
            judge_input.audio = audio_cache[rate]
        image = getattr(item, "image", None)
        if request.image and image is not None:
            if not image_cache:
                image_cache.append(load_image(image))
            judge_input.image = image_cache[0]
    return inputs


def frame_indices(total: int, fps: float, request: MediaRequest) -> list[int]:
    """The frame indices ``request`` asks of a clip of ``total`` frames at ``fps``.

    >>> frame_indices(81, 16.0, MediaRequest(num_frames=4))
    [0, 27, 53, 80]
    """
    return sample_indices(
        total,
        fps,
        num=request.num_frames if request.target_fps is None else None,
        target_fps=request.target_fps,
        policy=request.policy,
        min_frames=request.min_frames or 1,
        max_frames=request.max_frames,
        multiple_of=request.multiple_of or 1,
    )


def _add_frames(
    video: Path,
    requests: Sequence[MediaRequest],
    inputs: Sequence[JudgeInput],
    backend: str | None,
    threads: int,
) -> None:
    info = video_info(video, backend=backend)
    wanted = [frame_indices(info.num_frames, info.fps, r) for r in requests]
    union = np.unique(np.concatenate([np.asarray(w, dtype=np.int64) for w in wanted]))
    frames = read_frames(video, union, backend=backend, threads=threads)
    for request, indices, judge_input in zip(requests, wanted, inputs, strict=True):
        chosen = frames[np.searchsorted(union, indices)]
        if request.max_pixels is not None:
            chosen = resize_max_pixels(chosen, request.max_pixels)
        judge_input.frames = chosen
        judge_input.frame_indices = tuple(indices)
        judge_input.fps = info.fps


def _die_with_parent(parent: int) -> None:
    """Make a decode worker exit when the runner dies (a killed run must not leave workers behind)."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


class Prefetcher:
    """Decode items ahead of the judge in ``workers`` single-thread processes (0: in the caller, lazily).

    Args:
        workers: decode processes; 0 decodes in the calling process when a result is asked for.
        depth: items decoded ahead per worker.
        backend: video backend (see :func:`mmjudge.media.video.resolve_backend`).
    """

    def __init__(self, workers: int = 0, *, depth: int = 2, backend: str | None = None) -> None:
        self.workers = workers
        self.depth = max(1, depth)
        self.backend = backend
        self._pool: ProcessPoolExecutor | None = None
        if workers > 0:
            # fork, as torch's DataLoader workers: no re-import of the caller's __main__ (spawn would run
            # an unguarded launcher script again) and no start-up cost; the workers only decode.
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=workers, mp_context=context, initializer=_die_with_parent, initargs=(os.getpid(),)
            )

    def map(self, jobs: Iterable[tuple[Item, Sequence[MediaRequest]]]) -> Iterator[Decoded]:
        """Decoded items in the order of ``jobs``."""
        if self._pool is None:
            for item, requests in jobs:
                yield decode_item(item, requests, backend=self.backend, threads=1)
            return
        pending: collections.deque[Future[Decoded]] = collections.deque()
        iterator = iter(jobs)
        limit = self.workers * self.depth
        for item, requests in iterator:
            pending.append(self._pool.submit(decode_item, item, list(requests), backend=self.backend))
            if len(pending) >= limit:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> Prefetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["Decoded", "Prefetcher", "decode_item", "frame_indices"]
