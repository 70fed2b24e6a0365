"""Loading diffusers video pipelines and rendering clips with every call recorded.

A :class:`GeneratorPool` keeps one generator's weights in memory at a time (a 14B Wan model and its
text encoder fill most of a GPU) and hands out a :class:`Renderer` per mode: ``t2v`` (text to video)
or ``i2v`` (first frame, optionally also last frame). Both modes of one generator share its modules.
Every render returns the frames as ``uint8 (T, H, W, 3)`` and the exact call: pipeline identity, the
keyword arguments given, the seed (a CPU ``torch.Generator``, so the noise is the same on any device)
and which anchor frames conditioned it.

First-last-frame mode refuses a pipeline with ``expand_timesteps`` (Wan2.2-TI2V-5B): diffusers'
``WanImageToVideoPipeline`` then conditions on the first frame only and silently drops ``last_image``.
"""

from __future__ import annotations

import gc
import inspect
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from mmjudge._deps import require
from mmjudge.benchmarks.isovrbench.generate._config import ClipSpec, GenerateConfig, GeneratorSpec
from mmjudge.errors import ConfigError, MediaError

__all__ = [
    "DiffusersLoader",
    "GeneratorPool",
    "PipelineLoader",
    "Rendered",
    "Renderer",
    "check_first_last_frame",
    "to_uint8",
]

logger = logging.getLogger(__name__)

MODES = ("t2v", "i2v")


class PipelineLoader(Protocol):
    """Makes pipelines from generator specs (the default reads diffusers folders or Hub repos)."""

    def load(self, spec: GeneratorSpec, mode: str, device: str) -> Any:
        """A pipeline for ``mode`` (``t2v`` or ``i2v``) on ``device``."""
        ...

    def pipeline_config(self, spec: GeneratorSpec) -> Mapping[str, Any] | None:
        """The pipeline's config (``model_index.json``) without loading weights, or ``None`` if unknown."""
        ...


class DiffusersLoader:
    """``<class>.from_pretrained(spec.path, torch_dtype=..., revision=..., local_files_only=...)``."""

    def load(self, spec: GeneratorSpec, mode: str, device: str) -> Any:
        diffusers = require("diffusers", "generate", purpose="rendering clips with diffusers pipelines")
        import torch

        cls = pipeline_class(diffusers, spec, mode)
        pipe = cls.from_pretrained(
            spec.path,
            dtype=getattr(torch, spec.dtype),
            revision=spec.revision,
            local_files_only=spec.local_files_only,
        )
        place(pipe, spec, device)
        return pipe

    def pipeline_config(self, spec: GeneratorSpec) -> Mapping[str, Any] | None:
        diffusers = require("diffusers", "generate", purpose="reading a pipeline config")
        try:
            return dict(
                diffusers.DiffusionPipeline.load_config(
                    spec.path, revision=spec.revision, local_files_only=spec.local_files_only
                )
            )
        except (OSError, ValueError):  # not reachable now: checked again once loaded
            return None


def pipeline_class(diffusers: Any, spec: GeneratorSpec, mode: str) -> Any:
    """The diffusers class ``spec`` names for ``mode``."""
    name = spec.t2v_class if mode == "t2v" else spec.i2v_class
    cls = getattr(diffusers, name, None)
    if cls is None:
        raise ConfigError(f"generator {spec.path!r}: diffusers has no pipeline class {name!r}")
    return cls


def place(pipe: Any, spec: GeneratorSpec, device: str) -> None:
    """Move ``pipe`` to ``device`` (or offload it there) and silence its progress bar."""
    if spec.offload and device.startswith("cuda"):
        pipe.enable_model_cpu_offload(device=device)
    else:
        pipe.to(device)
    pipe.set_progress_bar_config(disable=True)


def check_first_last_frame(config: Mapping[str, Any] | None, label: str) -> None:
    """Refuse first-last-frame rendering with a pipeline whose config sets ``expand_timesteps``.

    >>> check_first_last_frame({"expand_timesteps": False}, "Wan2.2-I2V-A14B")
    >>> check_first_last_frame({"expand_timesteps": True}, "Wan2.2-TI2V-5B")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: Wan2.2-TI2V-5B sets expand_timesteps (Wan2.2-TI2V-5B style): diffusers' WanImageToVideoPipeline then conditions on the first frame only and silently ignores last_image, so it cannot regenerate motion between two keyframes. Give motion_regen a first-last-frame generator without expand_timesteps (e.g. Wan2.2-I2V-A14B)
    """
    if config is not None and bool(config.get("expand_timesteps", False)):
        raise ConfigError(
            f"{label} sets expand_timesteps (Wan2.2-TI2V-5B style): diffusers' WanImageToVideoPipeline then "
            "conditions on the first frame only and silently ignores last_image, so it cannot regenerate "
            "motion between two keyframes. Give motion_regen a first-last-frame generator without "
            "expand_timesteps (e.g. Wan2.2-I2V-A14B)"
        )


def to_uint8(frames: Any) -> np.ndarray:
    """Pipeline output (``np`` floats in [0, 1], ``(T, H, W, 3)``) as ``uint8``, rounded to nearest.

    >>> to_uint8(np.array([[[[0.0, 0.5, 1.0]]]], dtype=np.float32)).tolist()
    [[[[0, 128, 255]]]]
    """
    array = np.asarray(frames, dtype=np.float32)
    return np.clip(np.rint(array * 255.0), 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class Rendered:
    """One render: frames and the recorded call."""

    frames: np.ndarray
    """``uint8 (T, H, W, 3)``."""
    call: dict[str, Any]
    """Pipeline identity, keyword arguments, seed and conditioning frames of the call."""


class Renderer:
    """A loaded pipeline in one mode, rendering with recorded calls."""

    def __init__(self, key: str, spec: GeneratorSpec, label: str, pipe: Any, mode: str) -> None:
        self.key, self.spec, self.label, self.pipe, self.mode = key, spec, label, pipe, mode

    @property
    def expand_timesteps(self) -> bool:
        """Whether the pipeline conditions by replacing the first latent frame (Wan2.2-TI2V-5B)."""
        return bool(self.pipe.config.get("expand_timesteps", False))

    def text_to_video(self, prompt: str, *, seed: int, steps: int, clip: ClipSpec) -> Rendered:
        """Render ``prompt`` (``clip.num_frames`` frames at ``clip``'s size)."""
        return self._render(prompt, seed, steps, clip, clip.num_frames, {}, {})

    def image_to_video(
        self,
        prompt: str,
        image: np.ndarray,
        *,
        seed: int,
        steps: int,
        clip: ClipSpec,
        num_frames: int,
        image_ref: Mapping[str, Any],
        last_image: np.ndarray | None = None,
        last_ref: Mapping[str, Any] | None = None,
    ) -> Rendered:
        """Render from a first frame (and a last frame: first-last-frame mode); refs name those frames."""
        from PIL import Image

        if self.mode != "i2v":
            raise ConfigError(
                f"{self.label}: image_to_video needs the i2v mode, this renderer is {self.mode}"
            )
        inputs: dict[str, Any] = {"image": Image.fromarray(np.ascontiguousarray(image))}
        refs: dict[str, Any] = {"image": dict(image_ref)}
        if last_image is not None:
            check_first_last_frame(self.pipe.config, self.label)
            inputs["last_image"] = Image.fromarray(np.ascontiguousarray(last_image))
            refs["last_image"] = dict(last_ref or {})
        return self._render(prompt, seed, steps, clip, num_frames, inputs, refs)

    def _render(
        self,
        prompt: str,
        seed: int,
        steps: int,
        clip: ClipSpec,
        num_frames: int,
        inputs: dict[str, Any],
        refs: dict[str, Any],
    ) -> Rendered:
        import torch

        kwargs = {
            "prompt": prompt,
            "height": clip.height,
            "width": clip.width,
            "num_frames": num_frames,
            "num_inference_steps": steps,
            **self.spec.call,
        }
        generator = torch.Generator(device="cpu").manual_seed(seed)
        output = self.pipe(**kwargs, **inputs, generator=generator, output_type="np")
        frames = to_uint8(output.frames[0])
        expected = (num_frames, clip.height, clip.width, 3)
        if frames.shape != expected:
            raise MediaError(
                f"{self.label} rendered frames of shape {frames.shape}, expected {expected} (frames, height, "
                "width, channels); Wan needs 4k + 1 frames and sizes divisible by the VAE factor times the "
                "patch size (16 for Wan2.1/2.2-A14B, 32 for Wan2.2-TI2V-5B)"
            )
        return Rendered(frames, self._call(kwargs, seed, refs))

    def _call(self, kwargs: dict[str, Any], seed: int, refs: dict[str, Any]) -> dict[str, Any]:
        config = self.pipe.config
        return {
            "generator": self.label,
            "generator_key": self.key,
            "path": self.spec.path,
            "revision": self.spec.revision,
            "dtype": self.spec.dtype,
            "pipeline": type(self.pipe).__name__,
            "mode": "first_last_frame" if "last_image" in refs else ("first_frame" if refs else "text"),
            "expand_timesteps": self.expand_timesteps,
            "boundary_ratio": config.get("boundary_ratio"),
            "scheduler": type(getattr(self.pipe, "scheduler", None)).__name__,
            **kwargs,
            "seed": seed,
            "seed_device": "cpu",
            **refs,
        }


class GeneratorPool:
    """Loads generators on demand, one at a time; :meth:`release` frees the loaded one."""

    def __init__(self, config: GenerateConfig, device: str, loader: PipelineLoader | None = None) -> None:
        self.config, self.device = config, device
        self.loader: PipelineLoader = loader or DiffusersLoader()
        self._key: str | None = None
        self._pipes: dict[str, Any] = {}
        self.loads = 0
        """Generators loaded so far (a switch of mode is not a load)."""

    def renderer(self, key: str, mode: str) -> Renderer:
        """The generator ``key`` in ``mode``, loading it (and releasing another) when needed."""
        if mode not in MODES:
            raise ConfigError(f"unknown render mode {mode!r}; expected one of {MODES}")
        spec = self.config.generators[key]
        if self._key != key:
            self.release()
            logger.info("loading generator %s (%s) for %s", key, spec.path, mode)
            self._pipes = {mode: self.loader.load(spec, mode, self.device)}
            self._key = key
            self.loads += 1
        if mode not in self._pipes:
            self._pipes[mode] = self._switch(next(iter(self._pipes.values())), spec, mode)
        return Renderer(key, spec, self.config.label(key), self._pipes[mode], mode)

    def _switch(self, pipe: Any, spec: GeneratorSpec, mode: str) -> Any:
        """The same modules under the other pipeline class (no copy, no dtype cast)."""
        import diffusers

        cls = pipeline_class(diffusers, spec, mode)
        accepted = inspect.signature(cls.__init__).parameters
        kwargs = {name: module for name, module in pipe.components.items() if name in accepted}
        kwargs.update(
            {
                k: pipe.config[k]
                for k in ("boundary_ratio", "expand_timesteps")
                if k in accepted and k in pipe.config
            }
        )
        other = cls(**kwargs)
        if spec.offload and self.device.startswith("cuda"):
            pipe.remove_all_hooks()
            other.enable_model_cpu_offload(device=self.device)
        other.set_progress_bar_config(disable=True)
        return other

    def release(self) -> None:
        """Drop the loaded generator and return its memory."""
        if not self._pipes:
            return
        self._pipes.clear()
        self._key = None
        gc.collect()
        try:
            import torch

            if torch.cuda.is_available():
                torch.cuda.empty_cache()
        except ImportError:  # pragma: no cover - torch comes with the generate extra
            pass
