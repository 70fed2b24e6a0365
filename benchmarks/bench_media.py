"""Media decoding benchmark: ms per clip and ratios to the in-process decoder ceiling.

Run on demand (never in ``make test``)::

    .venv/bin/python benchmarks/bench_media.py                # default: 7 repeats, single-thread decoders
    .venv/bin/python benchmarks/bench_media.py --repeats 3 --no-append

Clips: generated with :func:`mmjudge.media.synthetic.moving_texture_clip` (81 frames, 16 fps, real
texture and motion), encoded with libx264 yuv420p CRF 20, preset medium, x264's default GOP (one
keyframe per clip) and B-frames, at 704x1280 and 480x832; cached under ``benchmarks/.cache/``.

Rows per clip, per backend: decode-all (RGB), sample-8 (``linspace`` 8 frames), 2 fps sampling as
VideoAlign does followed by its one resize to at most 200,704 pixels (the ``video_reward`` decode step:
:data:`mmjudge.judges.profiles.VIDEOALIGN`, torchvision's bicubic antialiased kernel on one thread), and the motion
score (every third frame decoded, :func:`mmjudge.benchmarks.isovrbench.interventions.motion_score`). References: the decoder
ceiling (PyAV decoding every frame in-process without RGB conversion, same thread settings) and
``ffmpeg -threads 1 -i clip -f null -`` (whole process; skipped when ffmpeg is absent). With PyAV also
sample-8 without skipping non-reference frames, sample-8 as a whole process (interpreter start
included) and the two frame interventions end to end (decode, reorder, re-encode with libx264).

All cases of one clip run round-robin in each repeat, so the ratios compare numbers measured side by
side under the same machine load; the table gives medians over repeats.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

from mmjudge.judges.profiles import VIDEOALIGN
from mmjudge.media.encode import write_video
from mmjudge.media.synthetic import moving_texture_clip
from mmjudge.media.video import read_all, read_frames, sample_indices, video_info

sys.path.insert(0, str(Path(__file__).parent))
from _results import write_results

CACHE = Path(__file__).with_name(".cache")
CLIPS: dict[str, tuple[int, int, dict[str, str]]] = {
    "704x1280": (704, 1280, {}),
    "480x832": (480, 832, {}),
    # x264 picks mostly P-frames on this content; with b-adapt=0 every group is P + 3 B (one B is a
    # reference under b-pyramid), which shows what skipping non-reference frames can save
    "704x1280 b-adapt=0": (704, 1280, {"b-adapt": "0"}),
}
NUM_FRAMES, FPS, CRF, MAX_PIXELS = 81, 16, 20, 200_704


def clip_path(name: str) -> Path:
    """The cached benchmark clip ``name`` (generated on first use)."""
    height, width, params = CLIPS[name]
    suffix = "".join(f"_{k}{v}" for k, v in params.items())
    path = CACHE / f"clip_{height}x{width}_{NUM_FRAMES}f_{FPS}fps_crf{CRF}_medium{suffix}.mp4"
    if not path.exists():
        frames = moving_texture_clip(NUM_FRAMES, height, width, seed=11)
        unfinished = path.with_suffix(".partial.mp4")  # an interrupted run leaves no broken clip
        write_video(unfinished, frames, FPS, crf=CRF, preset="medium", x264_params=params)
        unfinished.replace(path)
    return path


def decode_only(path: Path, threads: int) -> int:
    """The ceiling: decode every frame in-process with PyAV, no RGB conversion."""
    import av

    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        _threads(stream.codec_context, threads)
        return sum(1 for _ in container.decode(stream))


def _threads(codec: object, threads: int) -> None:
    if threads == 1:
        codec.thread_type, codec.thread_count = "NONE", 1  # type: ignore[attr-defined]
    else:
        codec.thread_type, codec.thread_count = "AUTO", threads  # type: ignore[attr-defined]


def cases(
    path: Path, backends: list[str], threads: int, interventions: bool
) -> dict[str, Callable[[], object]]:
    """Name -> zero-argument callable timed once per repeat."""
    info = video_info(path)
    eight = sample_indices(info.num_frames, info.fps, num=8)
    two_fps = VIDEOALIGN.frame_indices(info.num_frames, info.fps, target_fps=2.0)
    every_third = list(range(0, info.num_frames, 3))
    out: dict[str, Callable[[], object]] = {
        "ceiling|decode-only (no RGB)": lambda: decode_only(path, threads)
    }
    if shutil.which("ffmpeg"):
        command = ["ffmpeg", "-v", "error", "-threads", "1", "-i", str(path), "-f", "null", "-"]
        out["ffmpeg|-threads 1 -f null (process)"] = lambda: subprocess.run(command, check=True)
    motion = _motion_score()
    for b in backends:
        out[f"{b}|decode-all"] = partial(read_all, path, backend=b, threads=threads)
        out[f"{b}|sample-8"] = partial(read_frames, path, eight, backend=b, threads=threads)
        out[f"{b}|2fps + resize"] = partial(_sample_and_resize, path, two_fps, b, threads)
        if motion is not None:
            out[f"{b}|motion score"] = partial(_motion, motion, path, every_third, b, threads)
    if "pyav" in backends:
        from mmjudge.media import _pyav

        wanted = np.asarray(eight, dtype=np.int64)
        out["pyav|sample-8, no NONREF skip"] = lambda: _pyav.read(
            path, wanted, threads=threads, skip_nonref=False
        )
        code = (
            "from mmjudge.media.video import read_frames; "
            f"read_frames({str(path)!r}, {eight}, threads={threads})"
        )
        out["pyav|sample-8 (process)"] = lambda: subprocess.run([sys.executable, "-c", code], check=True)
        if interventions:
            out.update(_intervention_cases(path))
    return out


def _sample_and_resize(path: Path, indices: list[int], backend: str, threads: int) -> np.ndarray:
    frames = read_frames(path, indices, backend=backend, threads=threads)
    return VIDEOALIGN.fit_video(frames, 28, max_pixels=MAX_PIXELS)


def _motion(score: Callable[..., float], path: Path, indices: list[int], backend: str, threads: int) -> float:
    return score(read_frames(path, indices, backend=backend, threads=threads), step=1)


def _motion_score() -> Callable[..., float] | None:
    try:
        from mmjudge.benchmarks.isovrbench.interventions import motion_score
    except ImportError:
        return None
    return motion_score


def _intervention_cases(path: Path) -> dict[str, Callable[[], object]]:
    try:
        from mmjudge.benchmarks.isovrbench.interventions import write_counterpart
    except ImportError:
        return {}
    work = Path(tempfile.mkdtemp(prefix="bench_media_"))

    def run(name: str) -> object:
        return write_counterpart(path, work / f"{name}.mp4", name, rng=np.random.default_rng(0))

    return {f"pyav|{name} end to end": partial(run, name) for name in ("temporal_shuffle", "frame_hold")}


def check_exact(path: Path, backends: list[str]) -> None:
    """Sanity check before timing: sparse reads equal the same frames of a full decode."""
    info = video_info(path)
    indices = sample_indices(info.num_frames, info.fps, num=8)
    for backend in backends:
        full = read_all(path, backend=backend)
        if not np.array_equal(read_frames(path, indices, backend=backend), full[indices]):
            raise SystemExit(f"{backend}: sparse read differs from the full decode on {path}")


def _cpu_seconds() -> float:
    """CPU time of this process (all threads) plus that of finished child processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def measure(
    named: dict[str, Callable[[], object]], repeats: int, slow_repeats: int
) -> dict[str, list[tuple[float, float]]]:
    """Round-robin (wall ms, CPU ms) per call; 'end to end' cases run only ``slow_repeats`` times."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in named}
    for name, fn in named.items():  # warm-up: imports, page cache
        if not name.endswith("end to end"):
            fn()
    for repeat in range(repeats):
        for name, fn in named.items():
            if name.endswith("end to end") and repeat >= slow_repeats:
                continue
            start, cpu = time.perf_counter(), _cpu_seconds()
            fn()
            times[name].append(((time.perf_counter() - start) * 1000, (_cpu_seconds() - cpu) * 1000))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--intervention-repeats", type=int, default=2)
    parser.add_argument("--backends", default="pyav,decord")
    parser.add_argument(
        "--threads", type=int, default=1, help="decoder threads (1 = single-threaded workers)"
    )
    parser.add_argument("--clips", default=",".join(CLIPS), help="comma-separated names from CLIPS")
    parser.add_argument("--no-interventions", action="store_true")
    parser.add_argument("--no-append", action="store_true", help="print the table, do not write docs/performance.md")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))  # the resize kernel's torch, as in the decode workers
    backends = args.backends.split(",")
    rows = []
    for size in args.clips.split(","):
        path = clip_path(size)
        check_exact(path, backends)
        named = cases(path, backends, args.threads, not args.no_interventions)
        times = measure(named, args.repeats, args.intervention_repeats)
        base = times["ceiling|decode-only (no RGB)"]
        wall_ceiling = statistics.median(w for w, _ in base)
        cpu_ceiling = statistics.median(c for _, c in base)
        for name, values in times.items():
            backend, task = name.split("|")
            wall, cpu = statistics.median(w for w, _ in values), statistics.median(c for _, c in values)
            rows.append(
                {"clip": size, "backend": backend, "task": task, "wall ms (median)": round(wall, 1),
                 "wall min": round(min(w for w, _ in values), 1), "cpu ms (median)": round(cpu, 1),
                 "runs": len(values), "x ceiling (wall)": round(wall / wall_ceiling, 3),
                 "x ceiling (cpu)": round(cpu / cpu_ceiling, 3)}
            )  # fmt: skip
    notes = _notes(args, rows)
    from _results import markdown_table

    print(markdown_table(rows) + "\n" + notes)
    if not args.no_append:
        write_results("Media decoding (bench_media.py)", rows, notes)
    return 0


_PICT = {1: "I", 2: "P", 3: "B"}


def _frame_types(args: argparse.Namespace) -> dict[str, str]:
    """Counts of I/P/B frames and of non-reference frames (dropped by skip_frame=NONREF) per clip."""
    import av

    out = {}
    for name in args.clips.split(","):
        with av.open(str(clip_path(name))) as container:
            types = [_PICT.get(int(f.pict_type), "?") for f in container.decode(video=0)]
        with av.open(str(clip_path(name))) as container:
            container.streams.video[0].codec_context.skip_frame = "NONREF"
            kept = sum(1 for _ in container.decode(video=0))
        counts = ", ".join(f"{t} {types.count(t)}" for t in sorted(set(types)))
        out[name] = f"{counts}, non-reference {len(types) - kept}"
    return out


def _notes(args: argparse.Namespace, rows: list[dict[str, object]]) -> str:
    load = os.getloadavg()
    lines = [
        f"- clips: {NUM_FRAMES} frames, {FPS} fps, libx264 yuv420p CRF {CRF} preset medium, default GOP and "
        "B-frame settings unless the clip name says otherwise (one keyframe per clip), synthetic moving "
        "texture (seed 11); frame types per clip: "
        + "; ".join(f"{k}: {v}" for k, v in _frame_types(args).items())
        + ".",
        f"- decoder threads: {args.threads} (ceiling and backends alike); repeats: {args.repeats} "
        f"(interventions: {args.intervention_repeats}); 1-min load average at the end: {load[0]:.2f}.",
        "- ceiling = PyAV decoding every frame in-process without RGB conversion; 'x ceiling' divides by "
        "the ceiling measured on the same clip in the same round-robin run. CPU time (this process's "
        "threads plus finished child processes, from getrusage) is less sensitive than wall time to "
        "other processes competing for the cores; 'process' rows include interpreter start-up.",
    ]
    if not shutil.which("ffmpeg"):
        lines.append("- ffmpeg row skipped: no `ffmpeg` on PATH.")
    if _motion_score() is None:
        lines.append("- motion score rows skipped: mmjudge.benchmarks.isovrbench.interventions.motion_score is not available.")
    for row in rows:
        if row["backend"] == "pyav" and row["task"] == "sample-8":
            for kind in ("wall", "cpu"):
                ratio = float(row[f"x ceiling ({kind})"])  # type: ignore[arg-type]
                verdict = "met" if ratio <= 1.05 else "missed"
                stretch = "met" if ratio <= 0.7 else "missed"
                lines.append(
                    f"- goal sample-8 <= 1.05x ceiling on {row['clip']} ({kind} time): {verdict} "
                    f"({ratio:.3f}x); stretch <= 0.7x: {stretch}."
                )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
