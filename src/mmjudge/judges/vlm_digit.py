"""``vlm_digit``: a transformers image-text-to-text VLM scoring a clip by its **expected digit** (0-100).

The judge shows the model the clip's generation prompt and ``N`` uniformly sampled frames (``frames``,
default 8; ``torch.linspace(0, total - 1, N).round()``), as ``N`` images or as one video (``options.as_video``:
the sampled frames go in with ``video_metadata`` and ``do_sample_frames=False``, so the processor samples
nothing again and Qwen3-VL's timestamps are right), and asks for one digit from 0 to 9. The score is the
expected digit under the next-token distribution restricted to the ten digit tokens, rescaled to
0-100 (:mod:`mmjudge.judges._digits`); ``diagnostics.valid_mass`` is the total probability on digits.
Batches are left padded by default and read at each row's last real position, which is also right
under right padding (``options.padding_side``).

Preprocessing follows qwen-vl-utils 0.0.14 (:data:`mmjudge.judges.profiles.QWEN_VL_UTILS`), applied once
by the judge at the model's factor (``patch_size * merge_size``: 28 for Qwen2/2.5-VL, 32 for Qwen3-VL),
and the processor is called with ``do_resize=False``:

- images: ``fetch_image``'s size (``[4, 16384] * factor**2`` pixels, Pillow bicubic);
- a video: ``smart_nframes`` (a fixed ``frames`` count rounded to an even number: 5 -> 4; at ``fps``,
  clamped to ``[4, 768]`` and floored to an even number), ``fetch_video``'s size (floor
  ``128 * factor**2``, cap ``min(768 * factor**2, total_pixels / n * 2)``) and kernel (torchvision
  bicubic with antialias), and qwen-vl-utils' ``video_metadata`` (the clip's fps, the sampled indices,
  the clip's frame count).

``max_pixels`` (config) can only lower the cap, ``options.min_pixels`` sets the floor and
``options.total_pixels`` the whole-clip budget (qwen-vl-utils' element keys).
Works with Qwen2-VL, Qwen2.5-VL and Qwen3-VL checkpoints (tested on tiny random ones against
qwen-vl-utils + the processor, ``tests/judges/test_qwen_vl_parity.py``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any, ClassVar, cast

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError
from mmjudge.judges._chat import batches, pad_token_id
from mmjudge.judges._config import JudgeConfig
from mmjudge.judges._digits import digit_token_ids, expected_digit, next_token_logits
from mmjudge.judges._family import FamilyJudge, Media, processor_inputs
from mmjudge.judges._hf import to_device
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.judges.families import ModelFamily
from mmjudge.queries import Diagnostics, Query, ScoreQuery, Verdict

__all__ = ["DEFAULT_PROMPT", "VlmDigitJudge", "VlmDigitOptions"]

DEFAULT_PROMPT = (
    'These are frames of a video generated from the text prompt: "{prompt}"\n'
    "Rate the video from 0 (worst) to 9 (best), considering visual quality, motion quality and how well "
    "it matches the prompt. Answer with a single digit."
)
"""Default prompt; ``{prompt}`` is replaced by the clip's generation prompt."""


@config_dataclass
class VlmDigitOptions:
    """``options`` of a ``vlm_digit`` config."""

    as_video: bool = False
    """Feed the frames as one video (with ``video_metadata``) instead of as separate images."""
    padding_side: str = "left"
    """Batch padding side; the next-token logits are read at the last real position either way."""
    min_pixels: int | None = None
    """Per-frame area floor (``None``: qwen-vl-utils', 128 (video) or 4 (images) ``factor**2`` cells)."""
    total_pixels: int | None = None
    """Whole-clip pixel budget of a video (qwen-vl-utils' ``total_pixels``; ``None``: its default)."""
    model_class: str = "AutoModelForImageTextToText"
    """transformers class that loads the model."""

    def __post_init__(self) -> None:
        if self.padding_side not in ("left", "right"):
            raise ConfigError(
                f"vlm_digit options: padding_side must be 'left' or 'right', got {self.padding_side!r}"
            )


@register_judge("vlm_digit")
class VlmDigitJudge(FamilyJudge):
    """Expected-digit VLM judge for IsoVRBench clips."""

    answers: ClassVar[frozenset[type]] = frozenset({ScoreQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video"})
    version: ClassVar[str] = "2"
    Options: ClassVar[type] = VlmDigitOptions
    default_frames: ClassVar[int | None] = 8

    def __init__(self, config: JudgeConfig) -> None:
        super().__init__(config)
        self.template = config.prompt_template or DEFAULT_PROMPT
        if "{prompt}" not in self.template:
            raise ConfigError(
                f"vlm_digit prompt_template must contain '{{prompt}}' (the clip's prompt goes there), "
                f"got {self.template[:80]!r}"
            )
        self.model: Any = None
        self.processor: Any = None
        self.digit_ids: list[int] = []

    @property
    def loads_as(self) -> str:
        """``options.model_class``."""
        return str(self.options.model_class)

    def wants_video(self, family: ModelFamily) -> bool:
        """``options.as_video`` (refused before the run for a family whose processor takes no video)."""
        return bool(self.options.as_video)

    def media_request(self, query: Query) -> MediaRequest:
        """Full-size frames (the judge or the processor sizes them): ``frames`` uniform images, or a video
        sampled by the family's rule."""
        request = self.frames_request(as_video=self.options.as_video)
        return MediaRequest(
            num_frames=request.num_frames, target_fps=request.target_fps, profile=request.profile,
            policy=request.policy,
        )  # fmt: skip

    def load(self, device: str) -> None:
        """Load the model onto ``device`` and its processor; find the ten digit tokens."""

        self.model, self.processor = self.load_model(device)
        self.digit_ids = digit_token_ids(self.processor.tokenizer)

    def prompt_text(self, query: ScoreQuery, media: Media) -> str:
        """The chat-formatted text for ``query`` with its media (placeholders unexpanded)."""
        text = self.template.replace("{prompt}", query.prompt)
        messages = [{"role": "user", "content": media.content(text)}]
        rendered: str = self.processor.apply_chat_template(
            messages, tokenize=False, add_generation_prompt=True
        )
        return rendered

    def media(self, one: JudgeInput) -> Media:
        """The clip's frames as one video or as images."""
        if one.frames is None or len(one.frames) == 0:
            raise ConfigError(
                f"vlm_digit rates clips from their frames; {one.query.item_id!r} came without any"
            )
        if self.options.as_video:
            return Media(video=one.frames, frame_indices=one.frame_indices, fps=one.fps,
                         total_frames=one.total_frames)  # fmt: skip
        return Media(images=list(one.frames))

    def encode(self, inputs: Sequence[JudgeInput]) -> Any:
        """The processor batch for ``inputs``, as the model's family takes it
        (:func:`mmjudge.judges._family.processor_inputs`)."""
        media = [self.media(one) for one in inputs]
        texts = [
            self.prompt_text(cast(ScoreQuery, one.query), m) for one, m in zip(inputs, media, strict=True)
        ]
        return processor_inputs(
            self.processor,
            self.family,
            texts,
            media,
            max_pixels=self.config.max_pixels,
            min_pixels=self.options.min_pixels,
            total_pixels=self.options.total_pixels,
            padding_side=self.options.padding_side,
        )

    def model_inputs(self, x: JudgeInput) -> Any:
        """One clip's processor output (:meth:`encode` of ``[x]``), made in a decode worker; ``None`` without
        frames."""
        if x.frames is None or len(x.frames) == 0:
            return None
        return self.encode([x])

    def batches(self, inputs: Sequence[JudgeInput]) -> list[tuple[list[int], Any]]:
        """``(positions, batch)`` pairs covering ``inputs``: each clip's own processor output (made ahead or
        here), batched by :func:`mmjudge.judges._chat.batches` on the configured padding side."""

        made = [x.model_inputs if x.model_inputs is not None else self.encode([x]) for x in inputs]
        pad = pad_token_id(self.processor.tokenizer)
        return batches(made, pad, padding_side=self.options.padding_side)

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Expected-digit scores (0-100) of a batch of clips."""
        if self.model is None:
            raise RuntimeError("vlm_digit: call load(device) before judge_batch")
        started = time.perf_counter()
        verdicts: dict[int, Verdict] = {}
        for positions, batch in self.batches(inputs):
            for position, verdict in zip(
                positions, self._score([inputs[i] for i in positions], batch), strict=True
            ):
                verdicts[position] = verdict
        share = (time.perf_counter() - started) / len(inputs)
        return [dataclasses.replace(v, diagnostics=dataclasses.replace(v.diagnostics, latency_s=share))
                for _, v in sorted(verdicts.items())]  # fmt: skip

    def _score(self, inputs: Sequence[JudgeInput], encoded: Any) -> list[Verdict]:
        import torch

        batch = to_device(encoded, self.model.device)
        mask = batch["attention_mask"]
        left = bool(mask[:, -1].all())
        with torch.inference_mode():
            logits = self.model(**batch, logits_to_keep=1 if left else 0).logits
        last = logits[:, -1] if left else next_token_logits(logits, mask)
        digits = expected_digit(last, self.digit_ids)
        tokens = mask.sum(dim=-1).tolist()
        return [
            Verdict(
                item_id=one.query.item_id,
                value=float(digits.scores[i]),
                diagnostics=Diagnostics(
                    raw_text=str(digits.argmax[i]),
                    valid_mass=float(digits.valid_mass[i]),
                    extra={
                        "expected_digit": float(digits.expected[i]),
                        "digit_probs": [round(p, 6) for p in digits.probs[i]],
                        "frames": len(one.frames) if one.frames is not None else 0,
                        "tokens": int(tokens[i]),
                    },
                ),
            )
            for i, one in enumerate(inputs)
        ]
