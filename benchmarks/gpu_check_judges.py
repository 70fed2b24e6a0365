"""GPU check of issue 6: real-size Qwen2-VL-2B (random bf16 weights) judging 704x1280 clips through the runner.

How to run the GPU check (one call of the device tool, in a later session that is lent a machine)
---------------------------------------------------------------------------------------------------

The device machine has no network and its own ``python3`` (3.12, torch 2.11, transformers 5.17,
accelerate, peft, safetensors, tokenizers, pandas, pyarrow, pyyaml, huggingface-hub, nvidia-ml-py per
``/work/.library/device/KINDS.md``); the ``.venv`` does not travel. mmjudge runs from the tree with
``PYTHONPATH=src`` (no ``pip install -e .``: nothing needs the installed entry points). Missing there,
per KINDS.md's package list: PyAV (``av``: encoding and decoding), ``datasets`` (the runner reads the
built folder with it) and ``datasets``' own ``dill`` and ``multiprocess``. Carry them as wheels: once,
here, in the repo root (``/.whl/`` is already in ``.gitignore``)::

    .venv/bin/python -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
        --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 -d .whl av==18.1.0 datasets==5.2.0 dill==0.4.1 multiprocess==0.70.19

(measured 2026-11-30: 35 MiB of wheels, av-18.1.0-cp311-abi3-manylinux_2_28 being 34 MiB; the tracked
tree is under 2 MiB, so one call carries ~37 MiB of the 64 allowed). Risk: datasets 5.2 declares
``pyarrow>=24``; the device's pyarrow version is not recorded in KINDS.md, so the call prints it first.
Then the one call, ``run`` with ``carry=[".whl"]`` and ``timeout_s=540``::

    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site:src PYTHONUNBUFFERED=1 && python3 -c "import torch, transformers, pyarrow, datasets, av; print(torch.__version__, transformers.__version__, pyarrow.__version__, datasets.__version__, av.__version__)" && nvidia-smi --query-gpu=name,memory.total,utilization.gpu --format=csv && python3 benchmarks/gpu_check_judges.py --budget-s 420 --workers 12

The script stops itself after ``--budget-s`` (default 420 s = 7 minutes, all phases together, plus the
last run's model load and scoring) and reports what it measured; ``timeout_s=540`` leaves margin
inside the 10-minute command limit. If the call fails early (an import), fix it and rerun at once
(the machine stays warm 30 s); otherwise ``give_back``. The results come back as
``$OUT/gpu_check_judges.md`` (the same section it writes to the device copy of
``docs/performance.md``, which does not come back) and ``$OUT/gpu_check_judges.json`` (written after
each judge, so a killed run still returns the finished rows): write the section into the page here with
``python benchmarks/_results.py <files_at>/gpu_check_judges.md`` (it replaces the section of the same title)
and commit it.

What it does
------------

1. Writes ``--clips`` (default 100) distinct 704x1280, 81-frame, 16 fps clips
   (:func:`mmjudge.media.synthetic.moving_texture_clip`, one seed each; libx264 veryfast CRF 23) in
   ``--workers`` processes (for at most 35% of the budget: fewer clips if that runs out), a pair
   table of ``clips / 2`` pairs in the IsoVRBench raw format, and builds it with
   :func:`mmjudge.benchmarks.build_dataset` (``media="reference"``).
2. Builds Qwen2-VL-2B-Instruct's configuration with random weights (sizes: :data:`QWEN2_VL_2B`, as
   in the released ``config.json``), in bf16 directly on the device, with the tokenizer of
   ``tests/judges/tiny_models.py`` (Qwen special tokens, the three reward markers, single-token
   digits; imported by path) and Qwen2-VL's default image / video processors, and
   ``save_pretrained`` s it. ``--tiny`` uses ``tiny_models.build_qwen2_vl`` instead.
3. Writes a random reward head (``rm_head``, output_dim 3, with means / stds) as a VideoAlign
   checkpoint folder (``model_config.json`` + ``checkpoint-1/model.pth`` holding only the head: the
   loader keeps the base weights for the rest and logs that).
4. Runs ``video_reward`` and ``vlm_digit`` from their shipped configs (``judges/<name>/config.yaml``,
   model and checkpoint pointed at the local folders) through
   :func:`mmjudge.runner.evaluate_judge` with ``--workers`` decode workers: first a warm-up
   run on ``--warmup-pairs`` pairs (load, first kernels), then the rest of the pairs that fit the
   remaining budget (the verdict cache skips the warm-up clips; each run loads the model).
5. Reports per judge: clips judged, clips/s over the runner's decode-and-judge loop, judge busy
   (``judge_s / loop_s`` from the runner's stats), GPU busy (mean of ``torch.cuda.utilization()``,
   else ``nvidia-smi``, sampled every 0.2 s inside the loop), peak GPU memory, tokens per clip.

Caveats: random weights prove plumbing and speed, not scores. The tokenizer is the tiny test
tokenizer (512 tokens): rubric and prompt text tokenize into more tokens than with Qwen's real
tokenizer (the report gives the measured tokens per clip), and ``video_reward`` resizes the
embeddings to the tokenizer's length (VideoAlign resizes to its tokenizer too), which shrinks the
embedding table but not the compute of the transformer.

Smoke mode (CPU, seconds; ``tests/test_gpu_check_script.py`` runs it so the script cannot rot)::

    .venv/bin/python benchmarks/gpu_check_judges.py --tiny --device cpu --clips 2 --no-append

The real-size code path (default processors, bf16, 704x1280 frames) at the real widths but one text
and one vision block, on CPU (~3 minutes on 2 cores; not in the test suite)::

    .venv/bin/python benchmarks/gpu_check_judges.py --device cpu --layers 1 --clips 4 --warmup-pairs 1 --no-append
"""

from __future__ import annotations

import argparse
import concurrent.futures as futures
import csv
import dataclasses
import importlib.util
import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import _results

ROOT = Path(__file__).resolve().parents[1]
TINY_MODELS = ROOT / "tests" / "judges" / "tiny_models.py"
JUDGES = ("video_reward", "vlm_digit")
NUM_FRAMES, FPS = 81, 16

QWEN2_VL_2B: dict[str, Any] = {
    "text": {
        "vocab_size": 151936,
        "hidden_size": 1536,
        "intermediate_size": 8960,
        "num_hidden_layers": 28,
        "num_attention_heads": 12,
        "num_key_value_heads": 2,
        "max_position_embeddings": 32768,
        "rms_norm_eps": 1e-6,
        "hidden_act": "silu",
        "tie_word_embeddings": True,
        "rope_parameters": {"rope_type": "default", "rope_theta": 1_000_000.0, "mrope_section": [16, 24, 24]},
    },
    "vision": {
        "depth": 32,
        "embed_dim": 1280,
        "hidden_size": 1536,
        "num_heads": 16,
        "mlp_ratio": 4,
        "patch_size": 14,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
        "in_channels": 3,
    },
}
"""Qwen/Qwen2-VL-2B-Instruct's sizes (its config.json: text 1536 x 28 layers, 12 heads / 2 KV heads,
MLP 8960, vocab 151936, tied embeddings, M-RoPE sections 16/24/24; vision 32 blocks of 1280, 16 heads,
MLP ratio 4, 14-px patches, 2x2 merge into the text width 1536)."""

log = logging.getLogger("gpu_check")


def tiny_models() -> Any:
    """``tests/judges/tiny_models.py`` imported by path (it is a test helper, not a package module)."""
    spec = importlib.util.spec_from_file_location("mmjudge_tiny_models", TINY_MODELS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# --- clips and data -----------------------------------------------------------------------------------


def _write_clip(path: str, seed: int, height: int, width: int) -> float:
    from mmjudge.media.encode import write_video
    from mmjudge.media.synthetic import moving_texture_clip

    started = time.perf_counter()
    frames = moving_texture_clip(NUM_FRAMES, height, width, seed=seed)
    write_video(path, frames, FPS, crf=23, preset="veryfast")
    return time.perf_counter() - started


def write_clips(raw: Path, count: int, height: int, width: int, workers: int, deadline: float) -> int:
    """Write up to ``count`` clips (stops submitting at ``deadline``); returns how many were written."""
    (raw / "clips").mkdir(parents=True, exist_ok=True)
    paths = [raw / "clips" / f"clip_{i:03d}.mp4" for i in range(count)]
    done = 0
    with futures.ProcessPoolExecutor(max(1, workers)) as pool:
        jobs = [pool.submit(_write_clip, str(p), 1000 + i, height, width) for i, p in enumerate(paths)]
        for job in jobs:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            try:
                job.result(timeout=remaining)
                done += 1
            except futures.TimeoutError:
                break
        for job in jobs:
            job.cancel()
    return done - done % 2


def build_data(raw: Path, data: Path, clips: int) -> int:
    """The IsoVRBench pair table of ``clips`` clips (clip 2k chosen, 2k+1 rejected), built; returns pairs."""
    from mmjudge.benchmarks import build_dataset
    from mmjudge.benchmarks.isovrbench import DIMENSIONS, INTERVENTIONS

    dimension = {i: d for d, members in DIMENSIONS.items() for i in members}
    rows = []
    for k in range(clips // 2):
        intervention = INTERVENTIONS[k % len(INTERVENTIONS)]
        rows.append(
            {
                "pair_id": f"pair{k:03d}",
                "prompt": f"A camera pans across a textured surface while {k % 5 + 1} objects move around.",
                "intervention": intervention,
                "dimension": dimension[intervention],
                "video_chosen": f"clips/clip_{2 * k:03d}.mp4",
                "video_rejected": f"clips/clip_{2 * k + 1:03d}.mp4",
                "num_frames": NUM_FRAMES,
                "fps": FPS,
            }
        )
    with (raw / "test.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    build_dataset("isovrbench", raw, data, media="reference")
    return len(rows)


# --- model and checkpoint -------------------------------------------------------------------------------


def real_config(tokenizer: Any, tiny: Any, layers: int | None = None) -> Any:
    """``Qwen2VLConfig`` with :data:`QWEN2_VL_2B`'s sizes and the special-token ids of ``tokenizer``.

    ``layers`` cuts both the text decoder and the vision tower to that many blocks (widths unchanged),
    for a cheap CPU run of the real-size code path; ``None`` keeps the released depths.
    """
    from transformers import Qwen2VLConfig

    ids = {t: int(tokenizer.convert_tokens_to_ids(t)) for t in tiny.QWEN_TOKENS}
    text = {
        **QWEN2_VL_2B["text"],
        "bos_token_id": ids["<|endoftext|>"],
        "eos_token_id": ids["<|im_end|>"],
        "pad_token_id": ids["<|endoftext|>"],
    }
    vision = dict(QWEN2_VL_2B["vision"])
    if layers is not None:
        text["num_hidden_layers"], vision["depth"] = layers, layers
    return Qwen2VLConfig(
        text_config=text,
        vision_config=vision,
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
        tie_word_embeddings=True,
    )


def build_real_model(out: Path, device: str, tiny: Any, layers: int | None = None) -> int:
    """Qwen2-VL-2B-sized model with random bf16 weights built on ``device``; returns the parameter count."""
    import torch
    from transformers import Qwen2VLForConditionalGeneration, Qwen2VLImageProcessor, Qwen2VLProcessor
    from transformers.models.qwen2_vl.video_processing_qwen2_vl import Qwen2VLVideoProcessor

    tokenizer = tiny.build_tokenizer()
    config = real_config(tokenizer, tiny, layers)
    torch.manual_seed(0)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.bfloat16)
    try:
        with torch.device(device):
            model = Qwen2VLForConditionalGeneration(config)
    finally:
        torch.set_default_dtype(previous)
    processor = Qwen2VLProcessor(
        image_processor=Qwen2VLImageProcessor(),
        video_processor=Qwen2VLVideoProcessor(),
        tokenizer=tokenizer,
        chat_template=tiny.QWEN_CHAT_TEMPLATE,
    )
    out.mkdir(parents=True, exist_ok=True)
    model.eval()
    model.save_pretrained(out)
    processor.save_pretrained(out)
    params = sum(p.numel() for p in model.parameters())
    del model
    if device.startswith("cuda"):
        torch.cuda.empty_cache()
    return params


def write_reward_checkpoint(folder: Path, hidden: int) -> Path:
    """A VideoAlign folder whose ``model.pth`` holds a random 3-output ``rm_head`` only."""
    import torch

    from mmjudge.judges._videoalign_ckpt import VideoAlignSettings, save_checkpoint

    head = torch.nn.Module()
    head.rm_head = torch.nn.Linear(hidden, 3, bias=False)
    torch.manual_seed(1)
    torch.nn.init.normal_(head.rm_head.weight, std=hidden**-0.5)
    settings = VideoAlignSettings(
        output_dim=3,
        means={"VQ": 0.0, "MQ": 0.0, "TA": 0.0},
        stds={"VQ": 1.0, "MQ": 1.0, "TA": 1.0},
        data={"fps": 2.0, "max_frame_pixels": 200_704},
    )
    return save_checkpoint(head, folder, settings)


def judge_config(name: str, model: Path, checkpoint: Path, args: argparse.Namespace) -> Any:
    """The shipped ``judges/<name>/config.yaml`` pointed at the local model (tiny: small frames, float32)."""
    from mmjudge.judges import load_config

    config = load_config(ROOT / "judges" / name / "config.yaml")
    options = dict(config.options)
    if name == "video_reward":
        options["checkpoint"] = str(checkpoint)
    changes: dict[str, Any] = {"model": str(model), "local_files_only": True, "batch_size": args.batch_size}
    if args.tiny:
        changes.update(dtype="float32", max_pixels=4 * 3136)
        if name == "video_reward":
            options["min_pixels"] = 3136
    return dataclasses.replace(config, options=options, **changes)


# --- measuring ------------------------------------------------------------------------------------------


class GpuSampler:
    """Samples GPU utilisation (%) every ``period`` seconds in a thread: torch (NVML), else nvidia-smi."""

    def __init__(self, period: float = 0.2) -> None:
        self.period = period
        self.samples: list[tuple[float, float]] = []
        self.source = self._probe()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _probe(self) -> str:
        for source in ("torch.cuda.utilization", "nvidia-smi"):
            try:
                self._read(source)
                return source
            except Exception as exc:
                log.info("GPU utilisation via %s unavailable: %s", source, exc)
        return "none"

    @staticmethod
    def _read(source: str) -> float:
        if source == "torch.cuda.utilization":
            import torch

            if not torch.cuda.is_available():
                raise RuntimeError("no CUDA device")
            return float(torch.cuda.utilization())
        result = subprocess.run(
            ["nvidia-smi", "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
        return float(result.stdout.split()[0])

    def __enter__(self) -> GpuSampler:
        if self.source != "none":
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            try:
                self.samples.append((time.perf_counter(), self._read(self.source)))
            except Exception:  # a failed sample is skipped
                continue

    def mean_between(self, windows: list[tuple[float, float]]) -> float | None:
        inside = [u for t, u in self.samples if any(a <= t <= b for a, b in windows)]
        return statistics.fmean(inside) / 100 if inside else None


def loop_windows() -> tuple[list[tuple[float, float]], Callable[[], None]]:
    """Record the (start, end) of every runner decode-and-judge loop; returns the list and an undo."""
    import mmjudge.runner.runner as runner

    original = runner._judge_queries
    windows: list[tuple[float, float]] = []

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            windows.append((started, time.perf_counter()))

    runner._judge_queries = timed

    def undo() -> None:
        runner._judge_queries = original

    return windows, undo


def evaluate(config: Any, data: Path, out: Path, pairs: int, workers: int) -> dict[str, Any]:
    """One ``evaluate_judge`` run on the first ``pairs`` pairs (clips under ``data/../raw``); its run stats."""
    from mmjudge.runner import RunOptions, evaluate_judge

    started = time.perf_counter()
    options = RunOptions(decode_workers=workers, limit=pairs, progress=False, media_root=data.parent / "raw")
    evaluate_judge("isovrbench", config, data, out, options)
    wall = time.perf_counter() - started
    run = json.loads((out / "results.json").read_text(encoding="utf-8"))["run"]
    return {
        **{k: run[k] for k in ("judged", "failed", "loop_s", "judge_s", "decode_s", "wait_s")},
        "wall": wall,
    }


def verdict_facts(out: Path) -> dict[str, Any]:
    """Mean tokens and frames per clip from the verdict cache, and how many values are finite."""
    import math

    tokens, frames, errors, finite, total = [], [], [], 0, 0
    for path in (out / "cache").glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            verdict = record.get("verdict", record)
            if verdict.get("error"):
                errors.append(str(verdict["error"]))
            extra = (verdict.get("diagnostics") or {}).get("extra") or {}
            if "tokens" in extra:
                tokens.append(extra["tokens"])
            if "frames" in extra:
                frames.append(extra["frames"])
            value = verdict.get("value")
            values = list(value.values()) if isinstance(value, dict) else [value]
            total += 1
            finite += all(isinstance(v, (int, float)) and math.isfinite(v) for v in values)
    return {
        "tokens": statistics.fmean(tokens) if tokens else None,
        "frames": statistics.fmean(frames) if frames else None,
        "finite": f"{finite}/{total}",
        **({"first error": errors[0][:200]} if errors else {}),
    }


def run_judge_phase(
    name: str, config: Any, data: Path, work: Path, pairs: int, args: argparse.Namespace, deadline: float
) -> dict[str, Any]:
    """Warm-up on a few pairs, then as many of the rest as the budget allows; one report row."""
    import torch

    cuda = args.device.startswith("cuda")
    out = work / f"run_{name}"
    row: dict[str, Any] = {"judge": name}
    windows, undo = loop_windows()
    sampler = GpuSampler() if cuda else None
    try:
        if cuda:
            torch.cuda.reset_peak_memory_stats()
        warm_pairs = min(args.warmup_pairs, pairs - 1) if pairs > 1 else 0
        warm = evaluate(config, data, out, warm_pairs, args.workers) if warm_pairs > 0 else None
        main_pairs = pairs
        if warm is not None:
            per_clip = warm["loop_s"] / max(1, warm["judged"])
            overhead = warm["wall"] - warm["loop_s"]
            fit = int((deadline - time.perf_counter() - 1.2 * overhead) / max(per_clip, 1e-6) // 2)
            main_pairs = min(pairs, warm_pairs + max(0, fit))
            row["warm-up clips"] = warm["judged"]
            row["warm-up load+score s"] = overhead
        if warm is None or main_pairs > warm_pairs:
            with sampler or _null():
                first = len(windows)
                main = evaluate(config, data, out, main_pairs, args.workers)
            row.update(_main_row(main, args))
            if sampler is not None:
                busy = sampler.mean_between(windows[first:])
                row["GPU busy"] = "n/a" if busy is None else f"{busy:.0%}"
                row["GPU busy source"] = sampler.source
        else:
            row["clips judged"] = 0
            row["note"] = "budget spent after the warm-up"
        row.update(verdict_facts(out))
        if cuda:
            row["peak GPU GiB"] = torch.cuda.max_memory_allocated() / 2**30
    finally:
        undo()
    return row


def _main_row(main: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    judged = int(main["judged"])
    return {
        "clips judged": judged,
        "failed": int(main["failed"]),
        "workers": args.workers,
        "batch": args.batch_size,
        "loop s": main["loop_s"],
        "clips/s": judged / main["loop_s"] if main["loop_s"] else 0.0,
        "judge busy": f"{main['judge_s'] / main['loop_s']:.0%}" if main["loop_s"] else "n/a",
        "wait s": main["wait_s"],
        "load+score s": main["wall"] - main["loop_s"],
    }


class _null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


# --- main -----------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clips", type=int, default=100, help="clips to generate (pairs = clips / 2)")
    parser.add_argument("--height", type=int, default=None, help="clip height (default 704; --tiny: 128)")
    parser.add_argument("--width", type=int, default=None, help="clip width (default 1280; --tiny: 224)")
    parser.add_argument("--workers", type=int, default=12, help="decode workers (and clip writers)")
    parser.add_argument("--batch-size", type=int, default=4, help="items per judge call")
    parser.add_argument("--warmup-pairs", type=int, default=2, help="pairs judged before the measured run")
    parser.add_argument("--budget-s", type=float, default=420.0, help="total time budget in seconds")
    parser.add_argument("--device", default="cuda", help="cuda or cpu")
    parser.add_argument("--tiny", action="store_true", help="tiny random Qwen2-VL (smoke test)")
    parser.add_argument(
        "--layers", type=int, default=None, help="cut the real-size model to N text and N vision blocks"
    )
    parser.add_argument("--judges", default=",".join(JUDGES), help="comma-separated subset of the judges")
    parser.add_argument("--out", default=os.environ.get("OUT"), help="copy the report here (default $OUT)")
    parser.add_argument("--no-append", action="store_true", help="do not write to docs/performance.md")
    args = parser.parse_args(argv)
    args.height = args.height or (128 if args.tiny else 704)
    args.width = args.width or (224 if args.tiny else 1280)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    started = time.perf_counter()
    deadline = started + args.budget_s
    if args.device == "cpu":
        os.environ["CUDA_VISIBLE_DEVICES"] = ""  # the runner picks CUDA whenever it sees one
    work = Path(tempfile.mkdtemp(prefix="gpu_check_"))
    facts: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    try:
        t = time.perf_counter()  # clips first: the writer processes fork before CUDA is initialised
        clip_deadline = started + 0.35 * args.budget_s  # at most a third of the budget on clips
        clips = write_clips(work / "raw", args.clips, args.height, args.width, args.workers, clip_deadline)
        pairs = build_data(work / "raw", work / "data", clips) if clips else 0
        facts["clips written"], facts["clip writing s"] = clips, time.perf_counter() - t
        import torch

        if args.device.startswith("cuda") and not torch.cuda.is_available():
            raise SystemExit(
                "--device cuda but torch sees no CUDA device (use --tiny --device cpu for the smoke run)"
            )
        tiny = tiny_models()
        t = time.perf_counter()
        model_dir = work / "model"
        if args.tiny:
            tiny.build_qwen2_vl(model_dir)
            hidden = 32
        else:
            facts["parameters"] = build_real_model(model_dir, args.device, tiny, args.layers)
            hidden = QWEN2_VL_2B["text"]["hidden_size"]
        checkpoint = write_reward_checkpoint(work / "videoalign", hidden)
        facts["model build+save s"] = time.perf_counter() - t
        names = [n for n in args.judges.split(",") if n]
        for position, name in enumerate(names):
            share_deadline = time.perf_counter() + (deadline - time.perf_counter()) / (len(names) - position)
            if pairs == 0 or time.perf_counter() >= deadline - 5:
                rows.append({"judge": name, "clips judged": 0, "note": "skipped: budget spent"})
                continue
            config = judge_config(name, model_dir, checkpoint, args)
            rows.append(run_judge_phase(name, config, work / "data", work, pairs, args, share_deadline))
            _write_partial(args, rows, facts)
    finally:
        facts["total s"] = time.perf_counter() - started
        report(args, rows, facts)
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _write_partial(args: argparse.Namespace, rows: list[dict[str, Any]], facts: dict[str, Any]) -> None:
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        payload = {"args": vars(args), "facts": facts, "rows": rows}
        (Path(args.out) / "gpu_check_judges.json").write_text(json.dumps(payload, indent=2, default=str))


def report(args: argparse.Namespace, rows: list[dict[str, Any]], facts: dict[str, Any]) -> None:
    """Print the table; write it to docs/performance.md (unless --no-append) and copy it to ``--out``."""
    import torch

    device = (
        torch.cuda.get_device_name()
        if args.device.startswith("cuda") and torch.cuda.is_available()
        else "cpu"
    )
    model = (
        "tiny random Qwen2-VL (tests/judges/tiny_models.py)"
        if args.tiny
        else "Qwen2-VL-2B-sized, random bf16"
    )
    title = f"GPU check (issue 6): video_reward and vlm_digit, {model}, {args.height}x{args.width} clips"
    headers = sorted(
        {k for r in rows for k in r}, key=lambda k: min(list(r).index(k) for r in rows if k in r)
    )
    table = [{h: r.get(h, "") for h in headers} for r in rows]
    notes = (
        f"Device: {device}; torch {torch.__version__}. "
        + "; ".join(f"{k}: {_results._fmt(v)}" for k, v in facts.items())
        + ". clips/s over the runner's decode-and-judge loop (after a warm-up run, model load excluded); "
        "judge busy = judge_s / loop_s from the runner's stats; GPU busy = mean sampled utilisation inside "
        "the loop. Random weights: speed and plumbing only, not scores."
    )
    print(_results.markdown_table(table) + "\n" + notes)
    if not args.no_append:
        _results.write_results(title, table, notes)
    if args.out:
        _write_partial(args, rows, facts)
        default = _results.RESULTS
        _results.RESULTS = Path(args.out) / "gpu_check_judges.md"
        try:
            _results.RESULTS.unlink(missing_ok=True)
            _results.write_results(title, table, notes)
        finally:
            _results.RESULTS = default


if __name__ == "__main__":
    raise SystemExit(main())
