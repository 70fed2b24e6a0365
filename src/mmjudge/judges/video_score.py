"""``video_score``: VideoScore v1 / v1.1 (He et al. 2024), Idefics2 with a 5-output regression head.

Protocol, as TIGER-AI-Lab/VideoScore@8e44973 ``examples/run_videoscore.py`` runs it (model class: Mantis'
``Idefics2ForSequenceClassification``, TIGER-AI-Lab/Mantis@f3a3192):

1. **Frames** (:meth:`VideoScoreJudge.media_request`; the runner decodes them): every frame of a clip of at
   most ``max_frames`` frames, else ``np.arange(0, total, total / max_frames).astype(int)``
   (:func:`mmjudge.media.video.float_arange_indices`; 48 for v1.1, 16 for v1). Not resized here: the
   checkpoint's Idefics2 image processor does it (PIL backend by default, the one the official code ran).
2. **Prompt**: no chat template. :data:`REGRESSION_QUERY_PROMPT` with ``{text_prompt}`` replaced by the
   clip's prompt as it is, then ``"<image> "`` once per frame (:func:`build_prompt`), given to
   ``processor(text=..., images=frames)`` with its default special tokens (so a BOS).
3. **Outputs**: the ``score`` head at the last real token (each clip encoded alone, by a decode worker when the
   runner has them (:meth:`VideoScoreJudge.model_inputs`), then right padded into batches): visual quality,
   temporal consistency, dynamic degree, text-to-video alignment, factual consistency (:data:`OUTPUTS`),
   rounded to ``options.round`` decimals as the official scripts do (3; ``null`` keeps them raw).
4. **Verdict**: ``{"VQ": out[0], "MQ": out[1], "TA": out[3], "overall": mean of the five}``
   (:func:`dimension_scores`); IsoVRBench reads a motion pair at MQ, a text pair at TA, a visual pair at VQ
   and an overall pair at ``overall``. The five outputs, unrounded, are in ``diagnostics.extra["outputs"]``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError, MediaError
from mmjudge.judges._base import with_media
from mmjudge.judges._chat import batches
from mmjudge.judges._config import JudgeConfig
from mmjudge.judges._family import FamilyJudge
from mmjudge.judges._hf import hub_options, load_pretrained, model_source, require_transformers, to_device
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.judges.families import ModelFamily
from mmjudge.queries import Diagnostics, Query, ScoreQuery, Verdict

__all__ = [
    "OUTPUTS",
    "REGRESSION_QUERY_PROMPT",
    "VideoScoreJudge",
    "VideoScoreOptions",
    "build_prompt",
    "dimension_scores",
]

logger = logging.getLogger(__name__)

REGRESSION_QUERY_PROMPT = """
Suppose you are an expert in judging and evaluating the quality of AI-generated videos,
please watch the following frames of a given video and see the text prompt for generating the video,
then give scores from 5 different dimensions:
(1) visual quality: the quality of the video in terms of clearness, resolution, brightness, and color
(2) temporal consistency, both the consistency of objects or humans and the smoothness of motion or movements
(3) dynamic degree, the degree of dynamic changes
(4) text-to-video alignment, the alignment between the text prompt and the video content
(5) factual consistency, the consistency of the video content with the common-sense and factual knowledge

for each dimension, output a float number from 1.0 to 4.0,
the higher the number is, the better the video performs in that sub-score, \n\
the lowest 1.0 means Bad, the highest 4.0 means Perfect/Real (the video is like a real video)
Here is an output example:
visual quality: 3.2
temporal consistency: 2.7
dynamic degree: 4.0
text-to-video alignment: 2.3
factual consistency: 1.8

For this video, the text prompt is "{text_prompt}",
all the frames of video are as follows:
"""
"""VideoScore's regression prompt (``REGRESSION_QUERY_PROMPT`` of ``examples/run_videoscore.py`` and
``benchmark/utils_tools.py``), character for character: it opens with a newline and one line ends with a
space (``sub-score, ``, kept by the ``\\n\\`` escape so editors cannot strip it)."""

OUTPUTS = (
    "visual_quality",
    "temporal_consistency",
    "dynamic_degree",
    "text_to_video_alignment",
    "factual_consistency",
)
"""The head's five outputs, in order."""
HEADS = {"VQ": 0, "MQ": 1, "TA": 3}
"""Verdict key -> output index: visual quality, temporal consistency (motion), text-to-video alignment."""
MAX_FRAMES = 48
"""VideoScore-v1.1's ``MAX_NUM_FRAMES`` (v1: 16)."""
IMAGE_BACKENDS = ("pil", "torchvision")


@config_dataclass
class VideoScoreOptions:
    """``options`` of a ``video_score`` config."""

    max_frames: int = MAX_FRAMES
    """The official ``MAX_NUM_FRAMES``: a longer clip gives this many frames (48 for v1.1, 16 for v1); the
    config's ``frames``, when set (a ``--frames`` sweep), takes its place."""
    round: int | None = 3
    """Round the five outputs to this many decimals, as the official scripts do (``null``: raw floats)."""
    image_backend: str = "pil"
    """Idefics2 image processor backend: ``pil`` (the slow processor the official code ran) or
    ``torchvision`` (transformers 5's default; resizes with another kernel)."""

    def __post_init__(self) -> None:
        if self.max_frames < 1:
            raise ConfigError(f"video_score options.max_frames must be at least 1, got {self.max_frames}")
        if self.round is not None and self.round < 0:
            raise ConfigError(f"video_score options.round must be >= 0 or null, got {self.round}")
        if self.image_backend not in IMAGE_BACKENDS:
            raise ConfigError(
                f"video_score options.image_backend: expected one of {list(IMAGE_BACKENDS)}, got {self.image_backend!r}"
            )


def build_prompt(text_prompt: str, num_frames: int, template: str = REGRESSION_QUERY_PROMPT) -> str:
    """The official prompt: ``template`` with ``{text_prompt}`` replaced as is, then ``"<image> "`` for each
    frame not already named by an ``<image>`` in the text (the official count rule).

    >>> build_prompt('a "red" {cat}', 2, 'Prompt "{text_prompt}":\\n')
    'Prompt "a "red" {cat}":\\n<image> <image> '
    """
    prompt = template.replace("{text_prompt}", text_prompt)
    return prompt + "<image> " * max(0, num_frames - prompt.count("<image>"))


def dimension_scores(outputs: Sequence[float], digits: int | None = None) -> dict[str, float]:
    """The verdict value of five outputs: ``VQ`` (0), ``MQ`` (1), ``TA`` (3) and ``overall`` (their mean of
    all five), after rounding the outputs to ``digits``; the mean of outputs with ``digits`` decimals has at
    most ``digits + 1`` (a multiple of ``2 * 10**-(digits + 1)``) and is rounded there, which drops only
    float noise, so equal sums tie.

    >>> dimension_scores([2.2974, 2.4691, 2.9063, 2.7656, 2.5161], 3)
    {'VQ': 2.297, 'MQ': 2.469, 'TA': 2.766, 'overall': 2.5908}
    """
    if len(outputs) != len(OUTPUTS):
        raise ValueError(f"expected {len(OUTPUTS)} outputs, got {len(outputs)}")
    values = [float(v) if digits is None else round(float(v), digits) for v in outputs]
    mean = sum(values) / len(values)
    scores = {key: values[index] for key, index in HEADS.items()}
    scores["overall"] = mean if digits is None else round(mean, digits + 1)
    return scores


@register_judge("video_score")
class VideoScoreJudge(FamilyJudge):
    """VideoScore v1 / v1.1 for IsoVRBench clips (Idefics2 checkpoints: the family is checked before the run)."""

    answers: ClassVar[frozenset[type]] = frozenset({ScoreQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video"})
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = VideoScoreOptions
    default_frames: ClassVar[int | None] = None

    def __init__(self, config: JudgeConfig) -> None:
        super().__init__(config)
        for key in ("fps", "max_pixels"):
            if getattr(config, key) is not None:
                raise ConfigError(
                    f"video_score takes no `{key}`: frames follow VideoScore's count rule (options.max_frames) "
                    "and the checkpoint's Idefics2 image processor sizes them; remove it from the config"
                )
        # a config's template may name the clip's prompt {prompt}, as every other judge's does
        template = (config.prompt_template or "").replace("{prompt}", "{text_prompt}") or REGRESSION_QUERY_PROMPT
        if "{text_prompt}" not in template:
            raise ConfigError("video_score prompt_template must contain '{text_prompt}' (or '{prompt}')")
        self.template = template
        self.model: Any = None
        self.processor: Any = None

    def check_family(self, family: ModelFamily) -> None:
        """Refuse a checkpoint that is not Idefics2 (VideoScore's backbone: Mantis' Idefics2 classifier)."""
        if family.name != "idefics2":
            raise ConfigError(
                f"video_score runs VideoScore checkpoints, Idefics2 with a regression head (TIGER-Lab/VideoScore-v1.1); "
                f"{self.config.model!r} is {family.title}: pick a VideoScore checkpoint"
            )
        super().check_family(family)

    @property
    def max_frames(self) -> int:
        """The frame cap: the config's ``frames`` when set, else ``options.max_frames``."""
        return int(self.config.frames or self.options.max_frames)

    def media_request(self, query: Query | None = None) -> MediaRequest:
        """VideoScore's frames at full size (the same for every clip: ``query`` is not read)."""
        return MediaRequest(num_frames=self.max_frames, policy="float_arange")

    def load(self, device: str) -> None:
        """The processor and the backbone + head from ``model`` (refusing a checkpoint with other keys)."""

        require_transformers("the video_score judge")
        from mmjudge.judges._videoscore_model import VideoScoreRegressor, check_loading_info

        source = model_source(self.config)
        common = hub_options(self.config)
        self.processor = load_pretrained("AutoProcessor", source, backend=self.options.image_backend, **common)
        model, info = load_pretrained(
            VideoScoreRegressor,
            source,
            **common,
            dtype=self.config.dtype,
            device=device,
            output_loading_info=True,
            ignore_mismatched_sizes=True,  # mis-shaped keys are reported in `info` and refused below
        )
        check_loading_info(info, repr(source))
        self.model = model.eval()
        if getattr(self.processor.image_processor, "do_image_splitting", False):
            logger.warning(
                "video_score: %s's processor splits images (do_image_splitting: true), so each frame becomes "
                "five image blocks; VideoScore was trained with do_image_splitting: false",
                source,
            )

    def model_inputs(self, x: JudgeInput) -> Any:
        """One clip's processor output (the official call), made in a decode worker (``None`` without frames)."""
        return None if x.frames is None or len(x.frames) == 0 else self.encode([x])

    def encode(self, inputs: Sequence[JudgeInput]) -> Any:
        """The official processor call for one clip (``inputs`` holds one): its prompt and its frames (PIL).
        Clips are batched afterwards, by :func:`mmjudge.judges._chat.batches`."""
        from PIL import Image

        if len(inputs) != 1:
            raise ValueError(f"video_score encodes one clip per processor call, got {len(inputs)}")
        [one] = inputs
        if one.frames is None or len(one.frames) == 0:
            raise MediaError(f"video_score rates clips from their frames; {one.query.item_id!r} came without any")
        prompt = build_prompt(cast(ScoreQuery, one.query).prompt, len(one.frames), self.template)  # the kind it answers
        return self.processor(text=prompt, images=[Image.fromarray(frame) for frame in one.frames], return_tensors="pt")

    def outputs(self, batch: Mapping[str, Any]) -> Any:
        """The head's five outputs ``(B, 5)`` as float64 on the CPU."""
        import torch

        with torch.inference_mode():
            return self.model(**batch).double().cpu()

    def batches(self, inputs: Sequence[JudgeInput]) -> list[tuple[list[int], Any]]:
        """``(positions, batch)`` pairs covering ``inputs``: each clip's official processor output (made ahead or
        here); clips whose frames have the same shape share a right-padded batch (the head reads each row's
        last real token), the others run apart (:func:`mmjudge.judges._chat.batches`)."""

        pad = self.processor.tokenizer.pad_token_id
        if len(inputs) > 1 and pad is None:
            raise ConfigError(
                "video_score: the checkpoint's tokenizer has no pad token, so clips cannot be batched; "
                "set batch_size: 1"
            )
        made = [self.encode([x]) if x.model_inputs is None else x.model_inputs for x in inputs]
        return batches(made, int(pad or 0), padding_side="right")

    def _outputs_of(self, inputs: Sequence[JudgeInput]) -> tuple[list[list[float]], list[int]]:
        """Five outputs and the token count of each clip, batch by batch (:meth:`batches`)."""

        rows: list[list[float]] = [[] for _ in inputs]
        tokens = [0] * len(inputs)
        for group, encoded in self.batches(inputs):
            batch = to_device(encoded, self.model.device, self.model.dtype)
            counts = batch["attention_mask"].sum(dim=-1).tolist()
            for i, values, count in zip(group, self.outputs(batch).tolist(), counts, strict=True):
                rows[i], tokens[i] = values, int(count)
        return rows, tokens

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Five outputs per clip; clips without frames fail alone (``MediaError``)."""
        return with_media(self._judge_ready, inputs)

    def _judge_ready(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        if self.model is None:
            raise RuntimeError("video_score: call load(device) before judge_batch")
        started = time.perf_counter()
        rows, tokens = self._outputs_of(inputs)
        share = (time.perf_counter() - started) / len(inputs)
        verdicts = []
        for one, values, count in zip(inputs, rows, tokens, strict=True):
            extra = {
                "outputs": dict(zip(OUTPUTS, values, strict=True)),
                "frames": len(one.frames) if one.frames is not None else 0,
                "tokens": int(count),
            }
            verdicts.append(
                Verdict(
                    item_id=one.query.item_id,
                    value=dimension_scores(values, self.options.round),
                    diagnostics=Diagnostics(latency_s=share, extra=extra),
                )
            )
        return verdicts
