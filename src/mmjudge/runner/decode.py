"""Decoding for the runner: each query's media decoded once for every frame setting, in a prefetching pool.

:func:`decode_query` reads the union of the frame indices several :class:`MediaRequest` s ask for in one
sparse read (a ``--frames 4,8,16,32,48`` sweep decodes each clip once) and slices one
:class:`JudgeInput` per request. :class:`Prefetcher` runs it in single-thread worker processes ahead of
the judge, yielding results in input order.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import dataclasses
import glob
import logging
import math
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from mmjudge.judges import JudgeInput, MediaRequest
from mmjudge.media.audio import load_audio
from mmjudge.media.image import load_image
from mmjudge.media.resize import resize_max_pixels
from mmjudge.media.video import read_frames, sample_indices, video_info
from mmjudge.queries import ClipPairQuery, Query

logger = logging.getLogger(__name__)

ModelInputs = Callable[[JudgeInput], Any]
"""A judge's :meth:`~mmjudge.judges.Judge.model_inputs`: one decoded query -> its model inputs (or ``None``)."""
_PR_SET_PDEATHSIG = 1
_SHM = "/dev/shm"
_PREFIX = "mmjudge-frames-"


@dataclass
class Decoded:
    """One query decoded for every request of a run; frames are stored once and sliced per request."""

    query: Query
    """The query."""
    inputs: list[JudgeInput] | None
    """One judge input per request, in request order, without frames (see :meth:`input`); ``None``
    when decoding failed."""
    error: str | None
    """``"<ErrorType>: <message>"`` when decoding failed."""
    seconds: float
    """Time spent decoding."""
    frames: list[np.ndarray] = field(default_factory=list)
    """Decoded frame stacks, one per distinct resize (emptied by :meth:`share`)."""
    slices: list[tuple[int, np.ndarray] | None] = field(default_factory=list)
    """Per request: (index into ``frames``, positions of its frames in that stack), or ``None``."""
    shared: _SharedFrames | None = None
    """Each request's frames, contiguous, in a shared-memory file (set by :meth:`share`)."""
    model_inputs: list[Any] = field(default_factory=list)
    """Per request: the judge's model inputs made in the worker (empty, or ``None`` entries: none made)."""
    other: Decoded | None = None
    """A two-clip query's second clip (:class:`~mmjudge.queries.ClipPairQuery`), decoded with the same requests."""

    def input(self, position: int) -> JudgeInput:
        """The judge input of request ``position``, with its frames."""
        if self.inputs is None:
            raise RuntimeError(f"{self.query.item_id}: decoding failed ({self.error})")
        judge_input = self.inputs[position]
        if self.model_inputs and self.model_inputs[position] is not None:
            judge_input = dataclasses.replace(judge_input, model_inputs=self.model_inputs[position])
        if self.other is not None:
            judge_input = dataclasses.replace(judge_input, other=self.other.input(position))
        if self.shared is not None:
            frames = self.shared.view(position)
            return judge_input if frames is None else dataclasses.replace(judge_input, frames=frames)
        spec = self.slices[position] if self.slices else None
        if spec is None:
            return judge_input
        return dataclasses.replace(judge_input, frames=_take(self.frames[spec[0]], spec[1]))

    def share(self) -> Decoded:
        """Write every request's frames, contiguous, to one shared-memory file (in a worker).

        The runner then maps the file and hands out views: no pickling of frames through the pool's
        pipe and no copy in the judging process. Each frame goes from the decoded stack straight into
        the file (one copy; no per-request array in between). Without room in shared memory, nothing
        changes. A two-clip query's second clip gets its own file.
        """
        if self.other is not None:
            self.other.share()
        shapes = [
            None if spec is None else (len(spec[1]), *self.frames[spec[0]].shape[1:]) for spec in self.slices
        ]
        total = sum(math.prod(shape) for shape in shapes if shape is not None)
        folder = _SHM if os.path.isdir(_SHM) else tempfile.gettempdir()
        if total == 0 or shutil.disk_usage(folder).free < 2 * total:
            return self
        path = os.path.join(folder, f"{_PREFIX}{os.getppid()}-{uuid.uuid4().hex}.u8")
        layout: list[tuple[int, tuple[int, ...]] | None] = []
        try:
            with open(path, "wb", buffering=0) as handle:
                for spec, shape in zip(self.slices, shapes, strict=True):
                    layout.append(None if spec is None or shape is None else (handle.tell(), shape))
                    if spec is not None:
                        _write_frames(handle, self.frames[spec[0]], spec[1])
        except OSError as exc:  # e.g. the folder filled up meanwhile: the frames go through the pipe
            with contextlib.suppress(OSError):
                os.unlink(path)
            logger.info(
                "could not write %d bytes of frames to %s (%s); sending them through the pipe",
                total,
                path,
                exc,
            )
            return self
        self.shared, self.frames, self.slices = _SharedFrames(path, layout), [], []
        return self


def _write_frames(handle: BinaryIO, stack: np.ndarray, positions: np.ndarray) -> None:
    """Write ``stack[positions]`` frame by frame (each frame is contiguous: no gathered copy)."""
    for position in positions:
        view = np.ascontiguousarray(stack[position]).reshape(-1).data
        while view:
            written = handle.write(view)
            if not written:
                raise OSError(f"wrote nothing to {handle.name}")
            view = view[written:]


def _take(stack: np.ndarray, positions: np.ndarray) -> np.ndarray:
    if len(positions) == len(stack) and bool(np.all(positions == np.arange(len(stack)))):
        return stack
    return np.asarray(stack[positions])


@dataclass
class _SharedFrames:
    """Frames in a shared-memory file: mapped copy-on-write and unlinked on first use."""

    path: str
    layout: list[tuple[int, tuple[int, ...]] | None]
    _map: np.ndarray | None = None

    def view(self, position: int) -> np.ndarray | None:
        if self._map is None:
            self._map = np.memmap(self.path, dtype=np.uint8, mode="c")
            os.unlink(self.path)  # the mapping stays valid; the memory goes with the last reference
        spec = self.layout[position]
        if spec is None:
            return None
        offset, shape = spec
        return np.asarray(self._map[offset : offset + int(np.prod(shape))]).reshape(shape)


def decode_query(
    query: Query,
    requests: Sequence[MediaRequest],
    *,
    backend: str | None = None,
    threads: int = 1,
    share: bool = False,
    model_inputs: Sequence[ModelInputs | None] | None = None,
) -> Decoded:
    """Decode what ``requests`` ask of ``query``, reading each file once.

    Failures (a missing or damaged file, an index out of range, a processor that refuses the media) come
    back as ``error``, never raised. ``share`` puts the frames in shared memory (for a worker process).
    ``model_inputs`` (one per request): the judges' processor calls, made here on the decoded media.
    """
    started = time.perf_counter()
    decoded = Decoded(query, [JudgeInput(query=query) for _ in requests], None, 0.0)
    try:
        _decode(decoded, requests, backend, threads)
        if isinstance(query, ClipPairQuery):  # the second clip, read the same way, with the pair's query
            decoded.other = Decoded(query, [JudgeInput(query=query) for _ in requests], None, 0.0)
            _decode(decoded.other, requests, backend, threads, video=query.video_b)
        if model_inputs:
            decoded.model_inputs = [None if make is None else make(decoded.input(i))
                                    for i, make in enumerate(model_inputs)]  # fmt: skip
        if share:
            decoded.share()
    except Exception as exc:  # a per-query failure is recorded, the run goes on
        decoded = Decoded(query, None, f"{type(exc).__name__}: {exc}", 0.0)
    decoded.seconds = time.perf_counter() - started
    return decoded


def _decode(decoded: Decoded, requests: Sequence[MediaRequest], backend: str | None, threads: int, *,
            video: Path | None = None) -> None:  # fmt: skip
    """Fill ``decoded`` with what ``requests`` ask of its query's media (``video``: this clip instead of the
    query's own, for a two-clip query's second clip)."""
    query, inputs = decoded.query, decoded.inputs or []
    video = video or query.video
    wants_video = [i for i, r in enumerate(requests) if r.num_frames is not None or r.target_fps is not None]
    decoded.slices = [None] * len(requests)
    if wants_video and video is not None:
        _add_frames(decoded, video, requests, wants_video, backend, threads)
    audio_cache: dict[tuple[int, str], np.ndarray] = {}
    image_cache: list[Any] = []
    for request, judge_input in zip(requests, inputs, strict=True):
        rate = request.audio_sample_rate
        source = query.audio or (video if query.audio_from_video else None)
        if rate is not None and source is not None:
            key = (rate, request.audio_resampler)
            if key not in audio_cache:
                audio_cache[key] = load_audio(source, rate, resampler=request.audio_resampler)
            judge_input.audio = audio_cache[key]
        image = query.image
        if request.image and image is not None:
            if not image_cache:
                image_cache.append(load_image(image))
            judge_input.image = image_cache[0]


def frame_indices(total: int, fps: float, request: MediaRequest) -> list[int]:
    """The frame indices ``request`` asks of a clip of ``total`` frames at ``fps``.

    With a profile, its frame-count rule (e.g. qwen-vl-utils' or VideoAlign's); else the plain rule.

    >>> frame_indices(81, 16.0, MediaRequest(num_frames=4))
    [0, 27, 53, 80]
    """
    num = request.num_frames if request.target_fps is None else None
    if request.profile is not None:
        return request.profile.frame_indices(
            total,
            fps,
            num=num,
            target_fps=request.target_fps,
            min_frames=request.min_frames,
            max_frames=request.max_frames,
        )
    return sample_indices(
        total,
        fps,
        num=num,
        target_fps=request.target_fps,
        policy=request.policy,
        min_frames=request.min_frames or 1,
        max_frames=request.max_frames,
        multiple_of=request.multiple_of or 1,
    )


def _resized(frames: np.ndarray, request: MediaRequest) -> np.ndarray:
    """``frames`` resized as ``request`` asks: to its ``max_pixels``, or not at all (a profile's frames come at
    full size; the judge resizes them for its model)."""
    if request.profile is not None or request.max_pixels is None:
        return frames
    return resize_max_pixels(frames, request.max_pixels)


def _resize_key(request: MediaRequest) -> tuple[object, ...]:
    return (None,) if request.profile is not None else (request.max_pixels,)


def _add_frames(
    decoded: Decoded,
    video: Path,
    requests: Sequence[MediaRequest],
    wanted: Sequence[int],
    backend: str | None,
    threads: int,
) -> None:
    """Read the union of the requested indices once; one stack per distinct resize of the same frames."""
    info = video_info(video, backend=backend)
    indices = {i: frame_indices(info.num_frames, info.fps, requests[i]) for i in wanted}
    union = np.unique(np.concatenate([np.asarray(v, dtype=np.int64) for v in indices.values()]))
    frames = read_frames(video, union, backend=backend, threads=threads)
    stacks: dict[tuple[object, ...], int] = {}
    for i, chosen in indices.items():
        request, positions = requests[i], np.searchsorted(union, chosen)
        key = _resize_key(request)
        if key not in stacks:
            stacks[key] = len(decoded.frames)
            decoded.frames.append(_resized(frames, request))
        decoded.slices[i] = (stacks[key], positions)
        judge_input = (decoded.inputs or [])[i]
        judge_input.frame_indices = tuple(chosen)
        judge_input.fps = info.fps
        judge_input.total_frames = info.num_frames
        judge_input.frame_size = (info.height, info.width)


_WORKER_MODEL_INPUTS: Sequence[ModelInputs | None] | None = None
"""The judges' model-input functions in a decode worker (inherited through fork, never pickled)."""


def _decode_in_worker(query: Query, requests: Sequence[MediaRequest], backend: str | None) -> Decoded:
    return decode_query(query, requests, backend=backend, share=True, model_inputs=_WORKER_MODEL_INPUTS)


def _start_worker(parent: int, model_inputs: Sequence[ModelInputs | None] | None) -> None:
    global _WORKER_MODEL_INPUTS
    _WORKER_MODEL_INPUTS = model_inputs
    _die_with_parent(parent)


def _die_with_parent(parent: int) -> None:
    """Make a decode worker exit when the runner dies (a killed run must not leave workers behind)."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    os.environ["OMP_NUM_THREADS"] = "1"  # a worker decodes and resizes on one core (torch read it at import)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


class Prefetcher:
    """Decode queries ahead of the judge in ``workers`` single-thread processes (0: in the caller, lazily).

    Args:
        workers: decode processes; 0 decodes in the calling process when a result is asked for.
        depth: queries decoded ahead per worker.
        backend: video backend (see :func:`mmjudge.media.video.resolve_backend`).
        model_inputs: per request, the judge's :meth:`~mmjudge.judges.Judge.model_inputs`: with workers
            started by fork, each worker also runs the judge's processor on what it decoded, so the judging
            process only moves tensors (the loaded judge is inherited, never pickled). Without workers, or
            where processes are spawned, the judge makes its inputs itself.
    """

    def __init__(
        self,
        workers: int = 0,
        *,
        depth: int = 2,
        backend: str | None = None,
        model_inputs: Sequence[ModelInputs | None] | None = None,
    ) -> None:
        self.workers = workers
        self.depth = max(1, depth)
        self.backend = backend
        self._pool: ProcessPoolExecutor | None = None
        if workers > 0:
            # fork, as torch's DataLoader workers: no re-import of the caller's __main__ (spawn would run
            # an unguarded launcher script again), no start-up cost, and the loaded judge is inherited.
            forks = "fork" in multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if forks else "spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=workers, mp_context=context, initializer=_start_worker,
                initargs=(os.getpid(), model_inputs if forks else None),
            )  # fmt: skip

    def map(self, jobs: Iterable[tuple[Query, Sequence[MediaRequest]]]) -> Iterator[Decoded]:
        """Decoded queries in the order of ``jobs``."""
        if self._pool is None:
            for query, requests in jobs:
                yield decode_query(query, requests, backend=self.backend, threads=1)
            return
        pending: collections.deque[Future[Decoded]] = collections.deque()
        iterator = iter(jobs)
        limit = self.workers * self.depth
        for query, requests in iterator:
            pending.append(self._pool.submit(_decode_in_worker, query, list(requests), self.backend))
            if len(pending) >= limit:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    def close(self) -> None:
        """Stop the worker processes and remove frames they shared that were never attached."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            for folder in {_SHM, tempfile.gettempdir()}:
                for path in glob.glob(os.path.join(folder, f"{_PREFIX}{os.getpid()}-*.u8")):
                    with contextlib.suppress(OSError):
                        os.unlink(path)

    def __enter__(self) -> Prefetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["Decoded", "Prefetcher", "decode_query", "frame_indices"]
