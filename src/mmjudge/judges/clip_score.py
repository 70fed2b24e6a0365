"""``clip_score``: PickScore-style CLIP score of a clip, averaged over uniformly sampled frames.

For the clip's prompt ``t`` and sampled frames ``x_1 .. x_N`` (``frames``, default 8;
``round(linspace(0, total - 1, N))``):

``score = mean_i( exp(logit_scale) * cos(E_text(t), E_image(x_i)) )``

with ``E_text`` and ``E_image`` the **projected** embeddings (``get_text_features`` /
``get_image_features``; in transformers 5 these return an output object whose ``pooler_output`` is the
projection) and ``logit_scale`` the model's learned temperature (PickScore: ``exp`` ~ 100). The text is
truncated to the model's context (77 tokens for CLIP). The processor resizes and centre-crops each frame
as the model was trained (CLIP preprocessing; this is model input normalisation, not the frame resize
of the video judges), with the PIL backend by default (``options.image_backend``): the slow
``CLIPImageProcessor`` PickScore's official code ran, not transformers 5's torchvision default. Works with any ``CLIPModel`` checkpoint (PickScore_v1, OpenAI CLIP, ...).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, ClassVar, cast

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError
from mmjudge.judges._base import Judge
from mmjudge.judges._config import check_option
from mmjudge.judges._hf import hub_options, load_pretrained, model_source, to_device
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput
from mmjudge.queries import Diagnostics, ScoreQuery, Verdict

__all__ = ["ClipScoreJudge", "ClipScoreOptions", "clip_scores"]

IMAGE_BACKENDS = ("pil", "torchvision")


@config_dataclass
class ClipScoreOptions:
    """``options`` of a ``clip_score`` config."""

    processor: str | None = None
    """Load the processor from this id or folder instead of ``model`` (PickScore uses the CLIP-H processor)."""
    processor_revision: str | None = None
    """Revision of ``processor`` (the config's ``revision`` pins ``model``, another repo)."""
    model_class: str = "AutoModel"
    """transformers class that loads the model."""
    image_backend: str = "pil"
    """CLIP image processor backend: ``pil`` (the slow ``CLIPImageProcessor`` that PickScore's official code ran
    under transformers 4) or ``torchvision`` (transformers 5's default; another resize kernel, so other pixels)."""

    def __post_init__(self) -> None:
        check_option("clip_score", "image_backend", self.image_backend, IMAGE_BACKENDS)


def clip_scores(text_embeds: Any, image_embeds: Any, logit_scale: Any, counts: Sequence[int]) -> list[float]:
    """Per clip, the mean over its frames of ``exp(logit_scale) * cos(text, frame)``.

    Args:
        text_embeds: ``(B, D)`` projected text embeddings, one per clip.
        image_embeds: ``(sum(counts), D)`` projected frame embeddings, clip after clip.
        logit_scale: the model's ``logit_scale`` (before ``exp``).
        counts: frames per clip.

    >>> import torch
    >>> clip_scores(torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 0.0], [0.0, 2.0]]), torch.tensor(0.0), [2])
    [0.5]
    """
    import torch

    text = torch.nn.functional.normalize(text_embeds.double(), dim=-1)
    images = torch.nn.functional.normalize(image_embeds.double(), dim=-1)
    owner = torch.repeat_interleave(torch.arange(len(counts), device=images.device), torch.as_tensor(counts))
    cosines = (images * text[owner]).sum(dim=-1) * torch.as_tensor(logit_scale).double().exp()
    return [float(chunk.mean()) for chunk in torch.split(cosines, list(counts))]


@register_judge("clip_score")
class ClipScoreJudge(Judge):
    """CLIP / PickScore judge for IsoVRBench clips."""

    answers: ClassVar[frozenset[type]] = frozenset({ScoreQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video"})
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = ClipScoreOptions
    default_frames: ClassVar[int | None] = 8

    model: Any = None
    processor: Any = None

    def load(self, device: str) -> None:
        """Load the CLIP model onto ``device`` and its processor."""

        source = model_source(self.config)
        common: dict[str, Any] = hub_options(self.config)
        backend = {"backend": self.options.image_backend}
        if self.options.processor:  # another repo: its own revision, and no remote code of it
            processor = {**common, "revision": self.options.processor_revision, "trust_remote_code": False}
            self.processor = load_pretrained("AutoProcessor", self.options.processor, **processor, **backend)
        else:
            self.processor = load_pretrained("AutoProcessor", source, **common, **backend)
        self.model = load_pretrained(
            self.options.model_class, source, dtype=self.config.dtype, device=device, **common
        )
        if not hasattr(self.model, "logit_scale"):
            raise ConfigError(f"clip_score needs a CLIP-like model with logit_scale; {source!r} has none")

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Mean frame CLIP score of each clip."""
        import torch

        if self.model is None:
            raise RuntimeError("clip_score: call load(device) before judge_batch")
        for one in inputs:
            if one.frames is None or len(one.frames) == 0:
                raise ConfigError(f"clip_score rates clips from their frames; {one.query.item_id!r} came without any")
        started = time.perf_counter()
        prompts = [cast(ScoreQuery, one.query).prompt for one in inputs]  # the kind it answers
        frames = [frame for one in inputs if one.frames is not None for frame in one.frames]
        counts = [len(one.frames) if one.frames is not None else 0 for one in inputs]
        text = self.processor(text=prompts, padding=True, truncation=True, return_tensors="pt")
        images = self.processor(images=frames, return_tensors="pt")
        device, dtype = self.model.device, self.model.dtype
        with torch.inference_mode():
            text_out = self.model.get_text_features(**to_device(text, device))
            image_out = self.model.get_image_features(**to_device(images, device, dtype))
        text_embeds = getattr(text_out, "pooler_output", text_out)
        image_embeds = getattr(image_out, "pooler_output", image_out)
        scores = clip_scores(text_embeds, image_embeds, self.model.logit_scale.detach(), counts)
        share = (time.perf_counter() - started) / len(inputs)
        return [
            Verdict(
                item_id=one.query.item_id,
                value=score,
                diagnostics=Diagnostics(latency_s=share, extra={"frames": count}),
            )
            for one, score, count in zip(inputs, scores, counts, strict=True)
        ]
