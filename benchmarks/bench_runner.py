"""Runner throughput: does the decode pool keep the judge busy, and does a frame sweep cost one decode?

Run on demand (never in ``make test``)::

    .venv/bin/python benchmarks/bench_runner.py               # 24 items, 2 decode workers
    .venv/bin/python benchmarks/bench_runner.py --items 12 --no-append

Clips: four 704x1280 clips of 81 frames at 16 fps from
:func:`mmjudge.media.synthetic.moving_texture_clip` (seeds 0-3), libx264 CRF 20 preset medium, cached
under ``benchmarks/.cache/runner/``; the items cycle through them (distinct item ids, so each is
decoded and judged). The full runner runs (:func:`mmjudge.runner.run_judge`: cache, hashing,
prefetching pool, batching), with the item list patched in instead of a built folder. The stub judge
sleeps a fixed time per item, the way a GPU-bound judge leaves the CPU to the decoders.

Measured:

- the single-core decode ceiling: ``decode_query`` in-process with ``threads=1`` (8 frames; and the
  union of the 4,8,16,32,48 sweep), median over the clips, as clips/s;
- judge busy = time inside ``judge_batch`` / time of the decode-and-judge loop, without and with
  decode workers, for a per-item cost equal to the single-core decode time of 8 frames (so one decoder
  alone could keep the judge at most ~50% busy);
- the sweep over 5 frame counts against a single count, with a zero-cost judge (decode-bound: the
  judge cost of a sweep is 5 judge calls per clip by definition, the decode cost is what is shared);
- a real model judge: ``vlm_digit`` on a tiny random Qwen2-VL (``tests/judges/tiny_models.py``: one layer,
  so the processor, not the model, dominates, as on a GPU rank) with its processor call made in the
  judging process (``model_inputs`` switched off) and in the decode workers (the runner's default).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _results import write_results

from mmjudge.judges import Judge, JudgeConfig, MediaRequest, ScoreQuery, Verdict
from mmjudge.judges.vlm_digit import VlmDigitJudge
from mmjudge.media.encode import write_video
from mmjudge.media.synthetic import moving_texture_clip
from mmjudge.runner.decode import decode_query

CACHE = Path(__file__).with_name(".cache") / "runner"
HEIGHT, WIDTH, NUM_FRAMES, FPS = 704, 1280, 81, 16
SWEEP = (4, 8, 16, 32, 48)


def clip(seed: int) -> Path:
    """The cached benchmark clip of ``seed`` (generated on first use)."""
    path = CACHE / f"clip_{HEIGHT}x{WIDTH}_{NUM_FRAMES}f_seed{seed}.mp4"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial.mp4")
        write_video(
            partial, moving_texture_clip(NUM_FRAMES, HEIGHT, WIDTH, seed=seed), FPS, crf=20, preset="medium"
        )
        partial.replace(path)
    return path


class SleepJudge(Judge):
    """Sleeps ``COST`` seconds per item and returns the mean pixel of the first frame."""

    answers = frozenset({ScoreQuery})
    reads = frozenset({"video"})
    COST = 0.0

    def judge_batch(self, inputs: Any) -> list[Verdict]:
        time.sleep(self.COST * len(inputs))
        return [Verdict(i.query.item_id, float(i.frames[0].mean())) for i in inputs]


def ceiling(paths: list[Path], frames: tuple[int, ...]) -> float:
    """Median seconds to decode one clip for ``frames`` in-process, single thread."""
    requests = [MediaRequest(num_frames=n) for n in frames]
    times = []
    for path in paths * 2:
        decoded = decode_query(ScoreQuery("c", path, "p"), requests, threads=1)
        assert decoded.error is None, decoded.error
        times.append(decoded.seconds)
    return statistics.median(times[len(paths) :])


def run(
    items: list[ScoreQuery], frames: tuple[int, ...], workers: int, cost: float, max_pixels: int | None = None
) -> dict[str, float]:
    import mmjudge.runner.runner as runner

    SleepJudge.COST = cost
    runner.load_queries = lambda *args, **kwargs: (items, [])  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as out:
        options = runner.RunOptions(frames=frames, decode_workers=workers, progress=False)
        config = JudgeConfig(judge="bench_sleep", max_pixels=max_pixels)
        result = runner.run_judge("isovrbench", config, out, out, options)
    stats = result.stats
    assert all(not v.no_judgment for per in result.verdicts.values() for v in per)
    return {
        "loop_s": stats.loop_s,
        "judge_s": stats.judge_s,
        "busy": stats.judge_s / stats.loop_s,
        "clips_per_s": len(items) / stats.loop_s,
        "decode_ms": 1000 * stats.decode_s / len(items),
    }


class JudgeSideVlmDigit(VlmDigitJudge):
    """``vlm_digit`` with its processor call made in the judging process (the runner before this change)."""

    def model_inputs(self, x: Any) -> Any:
        return None


def run_vlm(
    items: list[ScoreQuery], model: Path, workers: int, in_workers: bool, max_pixels: int | None = None
) -> dict[str, float]:
    """The full runner with ``vlm_digit`` (8 frames as images) on the tiny model."""
    import mmjudge.runner.runner as runner

    runner.load_queries = lambda *args, **kwargs: (items, [])  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as out:
        options = runner.RunOptions(decode_workers=workers, progress=False, batch_size=4)
        name = "vlm_digit" if in_workers else "bench_vlm_digit_judge_side"
        config = JudgeConfig(judge=name, model=str(model), local_files_only=True, dtype="float32", frames=8,
                             max_pixels=max_pixels)  # fmt: skip
        result = runner.run_judge("isovrbench", config, out, out, options)
    stats = result.stats
    assert stats.errored == 0, stats.first_errors
    return {"loop_s": stats.loop_s, "judge_s": stats.judge_s, "busy": stats.judge_s / stats.loop_s,
            "clips_per_s": len(items) / stats.loop_s, "decode_ms": 1000 * stats.decode_s / len(items)}  # fmt: skip


def tiny_qwen2_vl() -> Path:
    """A tiny random Qwen2-VL under the benchmark cache (built by the test helper on first use)."""
    folder = CACHE / "tiny-qwen2-vl"
    if not (folder / "config.json").exists():
        sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "judges"))
        from tiny_models import build_qwen2_vl

        build_qwen2_vl(folder)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--items", type=int, default=24)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-append", action="store_true")
    args = parser.parse_args()
    from mmjudge.judges import JUDGES

    JUDGES.register("bench_sleep")(SleepJudge)
    paths = [clip(seed) for seed in range(4)]
    items = [ScoreQuery(f"item{i:03d}", paths[i % len(paths)], "a prompt") for i in range(args.items)]
    single_s, most_s, sweep_s = ceiling(paths, (8,)), ceiling(paths, (48,)), ceiling(paths, SWEEP)
    cost = single_s
    cases = [
        ("8 frames, judge cost = 1 decode, no workers", (8,), 0, cost),
        (f"8 frames, judge cost = 1 decode, {args.workers} workers", (8,), args.workers, cost),
        (f"8 frames, zero-cost judge, {args.workers} workers", (8,), args.workers, 0.0),
        (
            f"sweep {','.join(map(str, SWEEP))}, zero-cost judge, {args.workers} workers",
            SWEEP,
            args.workers,
            0.0,
        ),
        (f"48 frames, zero-cost judge, {args.workers} workers", (48,), args.workers, 0.0),
        ("8 frames, zero-cost judge, no workers", (8,), 0, 0.0),
        (f"sweep {','.join(map(str, SWEEP))}, zero-cost judge, no workers", SWEEP, 0, 0.0),
    ]
    rows: list[dict[str, Any]] = []
    resized = [
        (
            f"8 frames, max_pixels 200704, zero-cost judge, {args.workers} workers",
            (8,),
            args.workers,
            0.0,
            200_704,
        ),
        (
            f"sweep, max_pixels 200704, zero-cost judge, {args.workers} workers",
            SWEEP,
            args.workers,
            0.0,
            200_704,
        ),
    ]
    JUDGES.register("bench_vlm_digit_judge_side")(JudgeSideVlmDigit)
    model = tiny_qwen2_vl()
    judge_ms = []
    vlm_cases = [(f"{size}, processor in the {where}", in_workers, pixels)
                 for size, pixels in (("full size", None), ("max_pixels 200704", 200_704))
                 for where, in_workers in (("judge process", False), ("decode workers", True))]  # fmt: skip
    for name, in_workers, pixels in vlm_cases:
        measured = run_vlm(items, model, args.workers, in_workers, pixels)
        judge_ms.append(1000 * measured["judge_s"] / len(items))
        rows.append({"case": f"vlm_digit tiny Qwen2-VL, 8 frames, {args.workers} workers, {name}",
                     "items": len(items), "loop s": measured["loop_s"], "judge busy %": 100 * measured["busy"],
                     "clips/s": measured["clips_per_s"], "x ceiling (1 core, 8 frames)": measured["clips_per_s"] * single_s,
                     "decode+prepare ms/clip": measured["decode_ms"]})  # fmt: skip
        print(rows[-1], flush=True)
    for name, frames, workers, judge_cost, max_pixels in [(*c, None) for c in cases] + resized:
        measured = run(items, frames, workers, judge_cost, max_pixels)
        rows.append(
            {
                "case": name,
                "items": len(items),
                "loop s": measured["loop_s"],
                "judge busy %": 100 * measured["busy"],
                "clips/s": measured["clips_per_s"],
                "x ceiling (1 core, 8 frames)": measured["clips_per_s"] * single_s,
                "decode+prepare ms/clip": measured["decode_ms"],
            }
        )
        print(rows[-1], flush=True)
    vlm_rows, rows = rows[:4], rows[4:] + rows[:4]
    loop = [float(row["loop s"]) for row in rows]
    sweep_ratio, sweep_vs_48, sweep_ratio_inline = loop[3] / loop[2], loop[3] / loop[4], loop[6] / loop[5]
    resized_ratio = loop[8] / loop[7]
    notes = (
        f"Single-core decode ceiling (in-process, threads=1, 704x1280, 81 frames): 8 frames "
        f"{1000 * single_s:.0f} ms/clip = {1 / single_s:.2f} clips/s; union of the 5-count sweep "
        f"{1000 * sweep_s:.0f} ms/clip, 48 frames alone {1000 * most_s:.0f} ms/clip. Stub judge cost per "
        f"item = {1000 * cost:.0f} ms (sleep). Sweep / single-count loop time with a zero-cost judge: "
        f"{sweep_ratio:.2f}x against 8 frames and {sweep_vs_48:.2f}x against 48 frames with "
        f"{args.workers} workers, {sweep_ratio_inline:.2f}x against 8 frames without workers "
        f"(target < 1.5x); with max_pixels 200704 (VideoReward's frame budget) {resized_ratio:.2f}x. "
        "Target: judge busy >= 90% with workers. `decode+prepare` is the time a worker (or the runner "
        "without workers) spends per clip decoding and laying out every request's frames. "
        "The machine's cores are shared with other jobs; the loop time includes starting the pool. "
        "vlm_digit on a one-layer Qwen2-VL (8 frames as images), processor in the judging process -> in the "
        f"decode workers: full size, judge busy {float(vlm_rows[0]['judge busy %']):.1f}% -> "
        f"{float(vlm_rows[1]['judge busy %']):.1f}%, time inside judge_batch {judge_ms[0]:.0f} -> "
        f"{judge_ms[1]:.0f} ms/clip; max_pixels 200704, busy {float(vlm_rows[2]['judge busy %']):.1f}% -> "
        f"{float(vlm_rows[3]['judge busy %']):.1f}%, judge_batch {judge_ms[2]:.0f} -> {judge_ms[3]:.0f} ms/clip "
        "(decode+prepare includes the processor call when the workers make it; on 2 cores the workers and "
        "the judge share the cores, so the loop time is no measure of a GPU rank's gain)."
    )
    print(notes)
    if not args.no_append:
        write_results("Runner: decode pool and frame sweeps (bench_runner.py)", rows, notes)


if __name__ == "__main__":
    main()
