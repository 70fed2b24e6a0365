"""GPU check of issue 15: real-size Wan generators (random bf16 weights) rendering IsoVRBench pairs at 480x832x81.

Not yet run: no session so far was lent a GPU, so ``docs/performance.md`` has no section from this
script and the README states no measured generation cost. Run it when a task is lent a machine.

How to run the GPU check (one call of the device tool)
-----------------------------------------------------

The device machine has no network and its own ``python3`` (3.12, torch, transformers, accelerate,
safetensors, tokenizers, numpy, pillow, pyyaml, tqdm per ``/work/.library/device/KINDS.md``); the
``.venv`` does not travel, and mmjudge runs from the tree with ``PYTHONPATH=src``. Missing there:
diffusers (and its ``importlib_metadata`` / ``lazy-importer``), ``ftfy`` (and ``wcwidth``) and PyAV
(``av``). Carry them as wheels (``/.whl/`` is in ``.gitignore``); once, here, in the repo root::

    .venv/bin/python -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
        --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 --platform any -d .whl diffusers==0.42.1 importlib_metadata==10.2.0 \
        lazy-importer==0.1.0 zipp==4.1.2 ftfy==6.3.1 wcwidth==0.9.4 av==18.1.0

Then ``run`` with ``carry=[".whl"]`` and ``timeout_s=540``::

    python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site:src PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 && python3 -c "import torch, diffusers, transformers, av; print(torch.__version__, diffusers.__version__, transformers.__version__, av.__version__)" && nvidia-smi --query-gpu=name,memory.total --format=csv && python3 benchmarks/gpu_check_generators.py --prompts 1 --steps 2

The results come back as ``$OUT/gpu_check_generators.md`` and ``$OUT/gpu_check_generators.json``
(written after the build and on failure, with what was measured): write the markdown into
``docs/performance.md`` with ``python benchmarks/_results.py <files_at>/gpu_check_generators.md`` and commit it. If the call fails early (an import), fix it and rerun at once;
otherwise ``give_back``. Estimate of the work (not measured): four random-weight builds (2 x 14.3B +
5.7B text encoder for each A14B model, 5.0B, 1.4B) and nine clips at 2 denoising steps.

What it does
------------

1. Builds each generator of the paper's set-up (``mmjudge.benchmarks.isovrbench.generate.load_config("isovrbench")``) in
   memory with random weights at its released sizes (:data:`TRANSFORMERS`, :data:`VAES`,
   :data:`UMT5_XXL`; transformers and text encoder in bf16, the VAE in float32 as the Wan examples
   load it), one at a time on the device, through a :class:`~mmjudge.benchmarks.isovrbench.generate.PipelineLoader`; the
   tokenizer is the tiny local one of ``tests/benchmarks/isovrbench/generate/tiny_wan.py`` (no download; the text encoder
   keeps UMT5-XXL's 256,384-token embedding).
2. Runs :func:`mmjudge.benchmarks.isovrbench.generate.build_interventions` on ``--prompts`` prompts with all eight
   interventions at the paper's clip size (81 frames, 480x832, 16 fps) and keyframe counts, every
   denoising call cut to ``--steps`` steps (``reduced_steps`` one step fewer), so a handful of pairs
   fits the device budget.
3. Reports per clip kind: seconds per clip as run (generation and encoding), the denoiser's share
   (forward hooks on the transformers, CUDA-synchronised), and the estimate at the paper's steps
   (50; motion_regen 30 per interval; reduced_steps 8): ``clip_s + denoiser_s * (paper / run - 1)``;
   per generator: parameters, random-weight build seconds, peak GPU memory.

Caveats: random weights prove speed, memory and plumbing, not pictures. The first clip of each
generator includes kernel warm-up. The estimate assumes denoiser time linear in steps and the rest
(text encoding, VAE encoding/decoding, splicing, H.264) independent of steps.

Smoke mode (CPU, seconds; ``tests/benchmarks/isovrbench/generate/test_gpu_check_script.py`` runs it, in process, so the script
cannot rot)::

    .venv/bin/python benchmarks/gpu_check_generators.py --tiny --device cpu --no-append
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import _results

ROOT = Path(__file__).resolve().parents[1]
TINY_WAN = ROOT / "tests" / "benchmarks" / "isovrbench" / "generate" / "tiny_wan.py"
PAPER_STEPS = {"anchor": 50, "attribute_edit": 50, "reduced_steps": 8, "motion_regen": 30, "i2v_continuation": 50,
               "t2v_5b": 50, "t2v_1_3b": 50, "temporal_shuffle": 0, "frame_hold": 0}  # fmt: skip
"""Denoising steps of each clip kind in the paper (frame reuse renders nothing)."""

_WAN = {"patch_size": (1, 2, 2), "attention_head_dim": 128, "cross_attn_norm": True, "eps": 1e-6, "freq_dim": 256,
        "qk_norm": "rms_norm_across_heads", "text_dim": 4096, "rope_max_seq_len": 1024}  # fmt: skip
TRANSFORMERS: dict[str, dict[str, Any]] = {
    "wan2.2-t2v-a14b": {**_WAN, "num_attention_heads": 40, "num_layers": 40, "ffn_dim": 13824, "in_channels": 16, "out_channels": 16},
    "wan2.2-i2v-a14b": {**_WAN, "num_attention_heads": 40, "num_layers": 40, "ffn_dim": 13824, "in_channels": 36, "out_channels": 16},
    "wan2.2-ti2v-5b": {**_WAN, "num_attention_heads": 24, "num_layers": 30, "ffn_dim": 14336, "in_channels": 48, "out_channels": 48},
    "wan2.1-t2v-1.3b": {**_WAN, "num_attention_heads": 12, "num_layers": 30, "ffn_dim": 8960, "in_channels": 16, "out_channels": 16},
}  # fmt: skip
"""Transformer sizes (diffusers' Wan conversion configs: 14B = 5120 wide x 40 blocks; TI2V-5B = 3072 x 30
with 48 latent channels; 1.3B = 1536 x 30): 14.29B, 14.29B, 5.00B and 1.42B parameters."""
PIPELINES: dict[str, dict[str, Any]] = {
    "wan2.2-t2v-a14b": {"vae": "2.1", "boundary_ratio": 0.875, "expand_timesteps": False},
    "wan2.2-i2v-a14b": {"vae": "2.1", "boundary_ratio": 0.9, "expand_timesteps": False},
    "wan2.2-ti2v-5b": {"vae": "2.2", "boundary_ratio": None, "expand_timesteps": True},
    "wan2.1-t2v-1.3b": {"vae": "2.1", "boundary_ratio": None, "expand_timesteps": False},
}
"""Pipeline layout: VAE, two experts switched at ``boundary_ratio`` (Wan2.2 A14B), ``expand_timesteps``."""
VAES: dict[str, dict[str, Any]] = {
    "2.1": {},  # AutoencoderKLWan's defaults are the Wan2.1 VAE (127M parameters)
    "2.2": {
        "base_dim": 160,
        "decoder_base_dim": 256,
        "z_dim": 48,
        "is_residual": True,
        "in_channels": 12,
        "out_channels": 12,
        "patch_size": 2,
        "scale_factor_spatial": 16,
        "scale_factor_temporal": 4,
        "latents_mean": [0.0] * 48,
        "latents_std": [1.0] * 48,
    },
}
UMT5_XXL: dict[str, Any] = {"vocab_size": 256384, "d_model": 4096, "d_kv": 64, "d_ff": 10240, "num_layers": 24,
                            "num_heads": 64, "feed_forward_proj": "gated-gelu", "relative_attention_num_buckets": 32,
                            "relative_attention_max_distance": 128, "pad_token_id": 0, "eos_token_id": 1}  # fmt: skip
"""google/umt5-xxl's encoder (5.68B parameters)."""

log = logging.getLogger("gpu_check_generators")


def tiny_wan() -> Any:
    """``tests/benchmarks/isovrbench/generate/tiny_wan.py`` imported by path (a test helper, not a package module)."""
    spec = importlib.util.spec_from_file_location("mmjudge_tiny_wan", TINY_WAN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def build_modules(layout: str, device: str, layers: int | None = None) -> dict[str, Any]:
    """Random-weight modules of one generator at its released sizes (``layers`` cuts the depth)."""
    import torch
    from diffusers import AutoencoderKLWan, WanTransformer3DModel
    from transformers import UMT5Config, UMT5EncoderModel

    shape = PIPELINES[layout]
    blocks = {"num_layers": layers} if layers else {}
    torch.manual_seed(0)
    previous = torch.get_default_dtype()
    try:
        with torch.device(device):
            vae = AutoencoderKLWan(**VAES[shape["vae"]])
            torch.set_default_dtype(torch.bfloat16)
            modules = {"vae": vae, "text_encoder": UMT5EncoderModel(UMT5Config(**{**UMT5_XXL, **blocks}))}
            modules["transformer"] = WanTransformer3DModel(**{**TRANSFORMERS[layout], **blocks})
            if shape["boundary_ratio"] is not None:
                modules["transformer_2"] = WanTransformer3DModel(**{**TRANSFORMERS[layout], **blocks})
    finally:
        torch.set_default_dtype(previous)
    return modules


class Timing:
    """Denoiser seconds and forward passes per clip kind (forward hooks, synchronised on CUDA)."""

    def __init__(self, cuda: bool) -> None:
        self.cuda, self.role = cuda, "anchor"
        self.denoise_s: dict[str, float] = defaultdict(float)
        self.forwards: dict[str, int] = defaultdict(int)
        self._started = 0.0

    def _sync(self) -> None:
        if self.cuda:
            import torch

            torch.cuda.synchronize()

    def attach(self, pipe: Any) -> None:
        for name in ("transformer", "transformer_2"):
            module = getattr(pipe, name, None)
            if module is not None:
                module.register_forward_pre_hook(lambda *_: self._start())
                module.register_forward_hook(lambda *_: self._stop())

    def _start(self) -> None:
        self._sync()
        self._started = time.perf_counter()

    def _stop(self) -> None:
        self._sync()
        self.denoise_s[self.role] += time.perf_counter() - self._started
        self.forwards[self.role] += 1

    def track_roles(self) -> Any:
        """Tag every builder call with its clip kind, so hook time is booked to it; returns the undo."""
        from mmjudge.benchmarks.isovrbench.generate import _builders

        original = dict(_builders.BUILDERS)
        for role, builder in original.items():
            _builders.BUILDERS[role] = self._tagged(role, builder)
        return lambda: _builders.BUILDERS.update(original)

    def _tagged(self, role: str, builder: Any) -> Any:
        def run(job: Any, ctx: Any) -> Any:
            self.role = role
            return builder(job, ctx)

        return run


class CheckLoader:
    """Random real-size generators (``random:<layout>``) or tiny folders; timing hooks; peak memory."""

    def __init__(self, device: str, timing: Timing, layers: int | None = None) -> None:
        from mmjudge.benchmarks.isovrbench.generate import DiffusersLoader

        self.device, self.timing, self.layers = device, timing, layers
        self.files = DiffusersLoader()
        self.facts: dict[str, dict[str, Any]] = {}
        self._current: str | None = None

    def pipeline_config(self, spec: Any) -> Mapping[str, Any] | None:
        if spec.path.startswith("random:"):
            return dict(PIPELINES[spec.path.removeprefix("random:")])
        return self.files.pipeline_config(spec)

    def load(self, spec: Any, mode: str, device: str) -> Any:
        import torch

        self.finish()
        self._current = spec.label
        cuda = device.startswith("cuda")
        if cuda:
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats()
        started = time.perf_counter()
        pipe = (
            self._random(spec, mode, device)
            if spec.path.startswith("random:")
            else self.files.load(spec, mode, device)
        )
        params = sum(p.numel() for name in ("transformer", "transformer_2", "text_encoder", "vae")
                     if (m := getattr(pipe, name, None)) is not None for p in m.parameters())  # fmt: skip
        self.facts[spec.label] = {"parameters (B)": params / 1e9, "build s": time.perf_counter() - started}
        self.timing.attach(pipe)
        return pipe

    def _random(self, spec: Any, mode: str, device: str) -> Any:
        from diffusers import UniPCMultistepScheduler, WanImageToVideoPipeline, WanPipeline

        layout = spec.path.removeprefix("random:")
        shape = PIPELINES[layout]
        modules = build_modules(layout, device, self.layers)
        parts = {**modules, "tokenizer": tiny_wan().build_tokenizer(), "expand_timesteps": shape["expand_timesteps"],
                 "scheduler": UniPCMultistepScheduler(prediction_type="flow_prediction", use_flow_sigmas=True, flow_shift=3.0)}  # fmt: skip
        if shape["boundary_ratio"] is not None:
            parts["boundary_ratio"] = shape["boundary_ratio"]
        pipe: Any
        if mode == "i2v":
            pipe = WanImageToVideoPipeline(**parts, image_encoder=None, image_processor=None)
        else:
            pipe = WanPipeline(**parts)
        pipe.set_progress_bar_config(disable=True)
        return pipe

    def finish(self) -> None:
        """Record the peak GPU memory of the generator loaded last."""
        import torch

        if self._current is not None and self.device.startswith("cuda"):
            self.facts[self._current]["peak GPU GiB"] = torch.cuda.max_memory_allocated() / 2**30
        self._current = None


def check_config(args: argparse.Namespace, tiny_dirs: dict[str, Path] | None) -> Any:
    """The paper's config with random real-size (or tiny) generators and every call cut to ``--steps``."""
    from mmjudge.benchmarks.isovrbench.generate import config_from_mapping, load_config

    data = load_config("isovrbench").as_dict()
    data.pop("source")
    for key, spec in data["generators"].items():
        spec["path"] = f"random:{key}" if tiny_dirs is None else str(tiny_dirs[key])
        spec["local_files_only"] = True
        spec["dtype"] = "float32" if tiny_dirs is not None else "bfloat16"
        if tiny_dirs is not None:
            spec["call"] = {**spec["call"], "max_sequence_length": 16}
    data["anchor"]["steps"] = args.steps
    for name, options in data["interventions"].items():
        if "steps" in options:
            options["steps"] = args.steps - 1 if name == "reduced_steps" else args.steps
        if name == "attribute_edit":
            options.pop("editor")
    data["clip"].update(height=args.height, width=args.width, num_frames=args.frames)
    if tiny_dirs is not None:
        data["interventions"]["motion_regen"]["keyframes"] = [3]
        data["interventions"]["frame_hold"]["kept"] = [2, 3]
    return config_from_mapping(data, source="gpu_check_generators")


def write_prompts(path: Path, count: int) -> Path:
    subjects = [
        "a red fox trots",
        "a cyclist rides",
        "a paper boat drifts",
        "a street musician plays",
        "a kite rises",
    ]
    lines = []
    for i in range(count):
        subject = subjects[i % len(subjects)]
        lines.append({"prompt_id": f"g{i:02d}", "prompt": f"{subject} along a sunny river bank, handheld camera",
                      "edited_prompt": f"{subject} along a snowy river bank, handheld camera"})  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def rows_from(result: Any, config: Any, timing: Timing, prompts: int) -> list[dict[str, Any]]:
    """One row per clip kind: seconds as run, the denoiser's share and the estimate at the paper's steps."""
    rows = []
    for role in ("anchor", *config.interventions):
        clip_s = result.per_role_s.get(role, 0.0) / prompts
        denoise = timing.denoise_s.get(role, 0.0) / prompts
        steps = (
            config.anchor.steps
            if role in ("anchor", "attribute_edit")
            else getattr(config.interventions.get(role), "steps", 0)
        )
        factor = PAPER_STEPS[role] / steps if steps else 1.0
        generator = config.label(config.anchor.generator if role in ("anchor", "attribute_edit", "reduced_steps", "temporal_shuffle", "frame_hold")
                                 else config.interventions[role].generator)  # fmt: skip
        rows.append({"clip": role, "generator": generator, "steps run": steps, "paper steps": PAPER_STEPS[role],
                     "s/clip run": clip_s, "denoiser s/clip": denoise, "forwards/clip": timing.forwards.get(role, 0) / prompts,
                     "est. s/clip at paper steps": clip_s + denoise * (factor - 1.0)})  # fmt: skip
    return rows


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--prompts", type=int, default=1, help="prompts (each gives eight pairs)")
    parser.add_argument(
        "--steps", type=int, default=2, help="denoising steps of every call (reduced_steps: one fewer)"
    )
    parser.add_argument("--frames", type=int, default=None, help="frames per clip (default 81; --tiny: 9)")
    parser.add_argument("--height", type=int, default=None, help="frame height (default 480; --tiny: 32)")
    parser.add_argument("--width", type=int, default=None, help="frame width (default 832; --tiny: 32)")
    parser.add_argument("--device", default="cuda", help="cuda or cpu")
    parser.add_argument(
        "--tiny", action="store_true", help="tiny random generators from tests/benchmarks/isovrbench/generate/tiny_wan.py"
    )
    parser.add_argument(
        "--layers", type=int, default=None, help="cut every transformer and the text encoder to N blocks"
    )
    parser.add_argument("--out", default=os.environ.get("OUT"), help="copy the report here (default $OUT)")
    parser.add_argument("--no-append", action="store_true", help="do not write to docs/performance.md")
    args = parser.parse_args(argv)
    args.frames = args.frames or (9 if args.tiny else 81)
    args.height = args.height or (32 if args.tiny else 480)
    args.width = args.width or (32 if args.tiny else 832)
    if args.steps < 2:
        parser.error("--steps must be at least 2 (reduced_steps runs one step fewer)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    import torch

    from mmjudge.benchmarks.isovrbench.generate import SingleProcess, build_interventions

    if args.device.startswith("cuda") and not torch.cuda.is_available():
        raise SystemExit(
            "--device cuda but torch sees no CUDA device (use --tiny --device cpu for the smoke run)"
        )
    work = Path(tempfile.mkdtemp(prefix="gpu_check_generators_"))
    tiny_dirs = None
    if args.tiny:
        tiny = tiny_wan()
        tiny_dirs = {"wan2.2-t2v-a14b": tiny.build_t2v(work / "t2v", two_experts=True), "wan2.2-i2v-a14b": tiny.build_i2v(work / "i2v", two_experts=True),
                     "wan2.2-ti2v-5b": tiny.build_ti2v(work / "ti2v"), "wan2.1-t2v-1.3b": tiny.build_t2v(work / "small", seed=3)}  # fmt: skip
    config = check_config(args, tiny_dirs)
    timing = Timing(cuda=args.device.startswith("cuda"))
    undo = timing.track_roles()
    loader = CheckLoader(args.device, timing, args.layers)
    rows: list[dict[str, Any]] = []
    facts: dict[str, Any] = {"prompts": args.prompts}
    started = time.perf_counter()
    try:
        prompts = write_prompts(work / "prompts.jsonl", args.prompts)
        result = build_interventions(
            prompts, config, work / "out", ranks=SingleProcess(args.device), loader=loader, progress=False
        )
        loader.finish()
        rows = rows_from(result, config, timing, args.prompts)
        facts.update(pairs=result.pairs, clips=result.clips, build_s=result.seconds)
    finally:
        undo()
        facts["total s"] = time.perf_counter() - started
        report(args, rows, {**facts, "generators": loader.facts})
        shutil.rmtree(work, ignore_errors=True)
    return 0


def report(args: argparse.Namespace, rows: list[dict[str, Any]], facts: dict[str, Any]) -> None:
    """Print the tables; write them to docs/performance.md (unless --no-append) and write them to ``--out``."""
    import torch

    device = (
        torch.cuda.get_device_name()
        if args.device.startswith("cuda") and torch.cuda.is_available()
        else "cpu"
    )
    generators = [{"generator": name, **values} for name, values in facts.pop("generators").items()]
    sizes = (
        "tiny random Wan (tests/benchmarks/isovrbench/generate/tiny_wan.py)" if args.tiny else "real-size Wan, random bf16 weights"
    )
    title = f"GPU check (issue 15): IsoVRBench generation, {sizes}, {args.frames}x{args.height}x{args.width}"
    notes = (
        f"Device: {device}; torch {torch.__version__}. "
        + "; ".join(f"{k}: {_results._fmt(v)}" for k, v in facts.items())
        + f". Every call ran {args.steps} steps (reduced_steps {args.steps - 1}); the estimate scales the "
        "denoiser time to the paper's steps. Random weights: speed and memory, not pictures.\n\n"
        + _results.markdown_table(generators)
    )
    print(_results.markdown_table(rows) + "\n" + notes)
    if not args.no_append:
        _results.write_results(title, rows, notes)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        payload = {"args": vars(args), "facts": facts, "generators": generators, "rows": rows}
        (out / "gpu_check_generators.json").write_text(json.dumps(payload, indent=2, default=str))
        default = _results.RESULTS
        _results.RESULTS = out / "gpu_check_generators.md"
        try:
            _results.RESULTS.unlink(missing_ok=True)
            _results.write_results(title, rows, notes)
        finally:
            _results.RESULTS = default


if __name__ == "__main__":
    raise SystemExit(main())
