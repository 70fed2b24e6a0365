"""``video_reward`` against VideoAlign's own inference, on the same tiny random checkpoints and clips.

Usage::

    python benchmarks/parity_videoalign.py --videoalign PATH --python PY [--work DIR] [--no-record]

``PATH`` is a VideoAlign checkout (github.com/KwaiVGI/VideoAlign; its code is imported, never copied) and
``PY`` a Python with VideoAlign's pinned requirements (``environment.yaml``: transformers 4.45.2, peft
0.10.0, trl 0.8.6, accelerate 0.34.0, decord 0.6.0, numpy 1.26.4, datasets 2.19.2; any torch with
torchvision), e.g.::

    python3.11 -m venv /tmp/va && /tmp/va/bin/pip install torch==2.14.1 torchvision==0.29.1 \\
        transformers==4.45.2 tokenizers==0.20.0 peft==0.10.0 trl==0.8.6 accelerate==0.34.0 decord==0.6.0 \\
        numpy==1.26.4 datasets==2.19.2 "pyarrow<17" pandas safetensors av rich
    DS_BUILD_OPS=0 /tmp/va/bin/pip install --no-build-isolation "deepspeed>=0.17"

(VideoAlign pins torch 2.3.1, which this machine cannot install; its ``utils`` imports deepspeed, whose
pinned 0.14.0 does not import beside torch 2.14; pyarrow 17+ needs numpy 2; trl 0.8.6 imports rich.)

What it does:

1. writes four H.264 clips with mmjudge (IsoVRBench's 81 frames at 16 fps, a portrait clip with an odd
   frame count, a clip below VideoAlign's pixel floor, a 60 fps clip);
2. runs ``benchmarks/videoalign_driver.py`` under ``PY``: VideoAlign's own code builds a tiny random
   Qwen2-VL base, writes a full and a LoRA reward checkpoint the way its trainer saves them, and scores
   the clips with ``VideoVLMRewardInference.reward`` at 2 fps and at a fixed 8 frames;
3. scores the same clips with mmjudge's ``video_reward`` through the runner's decode step (PyAV frames,
   the VideoAlign profile), loading the same base and checkpoints and VideoAlign's ``detailed_special``
   template; also with ``positions: mrope`` to show what the position scheme is worth;
4. prints the largest difference of VQ, MQ, TA and Overall per layout and mode, and (unless
   ``--no-record``) writes the table to its section of ``docs/performance.md``. The goal is <= 1e-4 everywhere.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from _results import write_results  # noqa: E402

CLIPS = [  # (name, frames, height, width, fps, prompt)
    ("iso", 81, 224, 384, 16, "a red cat walks on the beach at sunset"),
    ("portrait", 37, 448, 256, 24, "a dog runs in the city at night"),
    ("small", 33, 64, 96, 16, "a blue light moves fast"),
    ("fast", 121, 160, 288, 60, "a person walks in the rain"),
]
MODES: dict[str, dict[str, Any]] = {"fps=2": {"fps": 2.0}, "frames=8": {"num_frames": 8}}
TOLERANCE = 1e-4


def write_clips(work: Path) -> dict:
    from mmjudge.media.encode import write_video
    from mmjudge.media.synthetic import moving_texture_clip

    videos = []
    for seed, (name, frames, height, width, fps, _) in enumerate(CLIPS):
        path = write_video(
            work / f"{name}.mp4", moving_texture_clip(frames, height, width, seed=seed), fps=fps
        )
        videos.append(str(path))
    spec = {"videos": videos, "prompts": [c[5] for c in CLIPS], "modes": MODES}
    (work / "clips.json").write_text(json.dumps(spec))
    return spec


def run_videoalign(python: str, videoalign: Path, work: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(videoalign.resolve()), "CUDA_VISIBLE_DEVICES": ""}
    command = [
        python,
        str(HERE / "videoalign_driver.py"),
        "--videoalign",
        str(videoalign),
        "--work",
        str(work),
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"VideoAlign's side failed (exit {done.returncode}):\n{done.stderr[-4000:]}")
    return json.loads((work / "videoalign.json").read_text())


def run_mmjudge(work: Path, layout: str, mode: dict, template: str, positions: str) -> list[dict]:
    from mmjudge.judges import JudgeConfig, ScoreQuery, make_judge
    from mmjudge.runner.decode import decode_query

    config = JudgeConfig(
        judge="video_reward",
        model=str(work / "base"),
        local_files_only=True,
        dtype="float32",
        fps=mode.get("fps"),
        frames=mode.get("num_frames"),
        max_pixels=200_704,
        prompt_template=template,
        options={"checkpoint": str(work / f"ckpt-{layout}"), "positions": positions},
    )
    judge = make_judge(config)
    judge.load("cpu")
    inputs = []
    for name, *_, prompt in CLIPS:
        item = ScoreQuery(name, work / f"{name}.mp4", prompt)
        decoded = decode_query(item, [judge.media_request(item)])
        if decoded.error:
            raise SystemExit(f"{name}: {decoded.error}")
        inputs.append(decoded.input(0))
    scores = [v.value for v in judge.judge_batch(inputs)]
    if not all(isinstance(value, dict) for value in scores):
        raise SystemExit(f"videoalign gave other than per-dimension scores: {scores}")
    return [dict(value) for value in scores if isinstance(value, dict)]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("--videoalign", required=True, type=Path, help="VideoAlign checkout (work tree)")
    parser.add_argument("--python", required=True, help="Python with VideoAlign's pinned requirements")
    parser.add_argument("--work", type=Path, help="working folder (default: a new temporary folder)")
    parser.add_argument("--no-record", action="store_true", help="print only; do not write to docs/performance.md")
    args = parser.parse_args()
    if not (args.videoalign / "inference.py").is_file():
        raise SystemExit(f"--videoalign {args.videoalign}: expected a VideoAlign checkout with inference.py")
    work = args.work or Path(tempfile.mkdtemp(prefix="parity-videoalign-"))
    work.mkdir(parents=True, exist_ok=True)
    write_clips(work)
    theirs = run_videoalign(args.python, args.videoalign, work)
    rows, worst = [], 0.0
    for layout in ("full", "lora"):
        for mode_name, mode in MODES.items():
            reference = theirs["rewards"][layout][mode_name]
            for positions in ("sequential", "mrope"):
                ours = run_mmjudge(work, layout, mode, theirs["template"], positions)
                diff = max(
                    abs(o[key] - r[ref_key])
                    for o, r in zip(ours, reference, strict=True)
                    for key, ref_key in (("VQ", "VQ"), ("MQ", "MQ"), ("TA", "TA"), ("overall", "Overall"))
                )
                if positions == "sequential":
                    worst = max(worst, diff)
                rows.append({"layout": layout, "mode": mode_name, "positions": positions,
                             "clips": len(ours), "max abs reward difference": f"{diff:.2e}",
                             "within 1e-4": "yes" if diff <= TOLERANCE else "no"})  # fmt: skip
    for row in rows:
        print(row)
    notes = (
        f"VideoAlign KwaiVGI/VideoAlign@219ab9d under {args.python} ({theirs['versions']}; float32, CPU, sdpa); "
        "mmjudge video_reward through the runner's decode step (PyAV) with VideoAlign's detailed_special template. "
        f"decord frames equal PyAV frames on these clips: {theirs['decord_equals_pyav']}. "
        "positions=sequential is the shipped default; the mrope rows show the difference the position scheme makes. "
        f"Largest difference with the default: {worst:.2e} (goal <= 1e-4)."
    )
    if not args.no_record:
        write_results("VideoReward parity with VideoAlign's inference (parity_videoalign.py)", rows, notes)
    if worst > TOLERANCE:
        raise SystemExit(f"largest difference {worst:.2e} exceeds {TOLERANCE}")


if __name__ == "__main__":
    main()
