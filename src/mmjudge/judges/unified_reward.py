"""``unified_reward``: UnifiedReward-2.0 pointwise (a generative Qwen-VL reward model) rating a clip 1-5 three ways.

Protocol (CodeGoat24/UnifiedReward@ff6f520: ``inference_qwen/UnifiedReward-2.0-inference/
point_score_APS_video_generation.py``, the "APS" script, sent through ``vllm_qwen/vllm_request.py`` to a
vLLM OpenAI server), as this module runs it:

1. **Frames**: ``[int(i * total / k) for i in range(k)]`` with ``total`` the container's frame count, read
   sequentially, so an index that repeats is taken once (sampling policy ``int_scaled``,
   :func:`mmjudge.media.video.int_scaled_indices`: 81 frames, k = 8
   -> ``[0, 10, ..., 70]``; 7 frames, k = 8 -> all 7). ``k`` is the config's ``frames`` (default 8, the
   frame count IsoVRBench's Table 6 gives; the APS script itself asks for 16).
2. **Images**: each frame is one image, JPEG-compressed as the official path does (``cv2.imwrite`` to a
   ``.jpg``, then the client's ``PIL`` re-encode at quality 95): ``options.jpeg_passes`` (default 2)
   round trips through Pillow at ``options.jpeg_quality`` (default 95; ``null``: no JPEG). The model's own
   image processor sizes each image (the server calls it with its released defaults), so mmjudge resizes
   nothing.
3. **Prompt**: one user turn, all images first, then :data:`APS_PROMPT` with the clip's caption in square
   brackets; no system message; the checkpoint's chat template with the generation prompt (Qwen3.5:
   ``enable_thinking=False``, as its vLLM server sets).
4. **Decoding**: greedy, at most ``options.max_new_tokens`` (default 256; the client asks 4096), special
   tokens dropped from the reply.
5. **Readout** (the repository ships no parser; this one is strict, :func:`parse_scores`): the reply must be
   exactly ``Alignment Score (1-5): X``, ``Physics Score (1-5): Y``, ``Style Score (1-5): Z`` on three
   lines, decimal numbers in ``[1, 5]``; anything else is a ``no_judgment`` verdict (never a 0), which the
   IsoVRBench scorer counts as a wrong pair, as the paper does.
6. **Verdict**: ``{"TA": alignment, "MQ": physics, "VQ": style, "overall": mean of the three}``;
   IsoVRBench reads the head of the pair's dimension (text -> TA, motion -> MQ, visual -> VQ).

Checkpoints: Qwen3-VL (``CodeGoat24/UnifiedReward-2.0-qwen3vl-*``; the paper's UnifiedReward-2.0-8B),
Qwen2.5-VL (``...-qwen-*``) and Qwen3.5 (``...-qwen35-*``). The card, ``judges/unified_reward/README.md``,
lists every deviation from the official vLLM path.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple, cast

import numpy as np

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError, MediaError
from mmjudge.judges._base import missing_media, with_media
from mmjudge.judges._chat import generate_texts, pad_token_id
from mmjudge.judges._config import JudgeConfig
from mmjudge.judges._family import FamilyJudge
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.judges.families import ModelFamily
from mmjudge.queries import ClipPairQuery, Diagnostics, Query, ScoreQuery, Verdict

__all__ = [
    "APS_PROMPT",
    "FAMILIES",
    "PointScores",
    "UnifiedRewardJudge",
    "UnifiedRewardOptions",
    "jpeg_round_trip",
    "parse_scores",
]

APS_PROMPT = (
    "You are presented with a generated video and its associated text caption. "
    "Your task is to analyze the video across multiple dimensions in relation to the caption. Specifically:\n"
    "Provide overall assessments for the video along the following axes (each rated from 1 to 5):\n"
    "- Alignment Score: How well the video matches the caption in terms of content.\n"
    "- Physics Score: How well the gravity, movements, collisions, and interactions make physical sense.\n"
    "- Style Score: How visually appealing the video looks, regardless of caption accuracy.\n\n"
    "Output your evaluation using the format below:\n\n"
    "Alignment Score (1-5): X\n"
    "Physics Score (1-5): Y\n"
    "Style Score (1-5): Z\n\n"
    "Your task is provided as follows:\n"
    "Text Caption: [{prompt}]"
)
"""The pointwise video prompt of UnifiedReward-2.0 (APS script, lines 60-73); ``{prompt}`` takes the caption."""

FAMILIES = ("qwen2_5_vl", "qwen3_vl", "qwen3_5")
"""Model families UnifiedReward-2.0 is released in."""

_NUMBER = r"(\d+(?:\.\d+)?)"
_REPLY = re.compile(
    rf"Alignment Score \(1-5\):[ \t]*{_NUMBER}[ \t]*\r?\n"
    rf"Physics Score \(1-5\):[ \t]*{_NUMBER}[ \t]*\r?\n"
    rf"Style Score \(1-5\):[ \t]*{_NUMBER}"
)


class PointScores(NamedTuple):
    """The three scores of a pointwise reply (1-5)."""

    alignment: float
    """How well the clip matches its caption (read as IsoVRBench's TA head)."""
    physics: float
    """Physical plausibility of the motion (MQ head)."""
    style: float
    """Visual appeal (VQ head)."""

    def heads(self) -> dict[str, float]:
        """The verdict value: the IsoVRBench heads and ``overall``, the mean of the three.

        >>> PointScores(2.0, 3.0, 4.0).heads()
        {'TA': 2.0, 'MQ': 3.0, 'VQ': 4.0, 'overall': 3.0}
        """
        return {"TA": self.alignment, "MQ": self.physics, "VQ": self.style, "overall": sum(self) / 3}


def parse_scores(text: str) -> PointScores | None:
    """The three scores of a reply that is exactly the APS output format, else ``None``.

    Strict: the three lines in the prompt's order and spelling (case included), one number each (digits with
    an optional decimal part, in ``[1, 5]``), nothing before or after but whitespace.

    >>> parse_scores("Alignment Score (1-5): 2.4036\\nPhysics Score (1-5): 3.0987\\nStyle Score (1-5): 3.3889")
    PointScores(alignment=2.4036, physics=3.0987, style=3.3889)
    >>> parse_scores("Alignment Score (1-5): 2.4\\nStyle Score (1-5): 3.3") is None
    True
    """
    found = _REPLY.fullmatch(text.strip())
    if found is None:
        return None
    scores = PointScores(*(float(v) for v in found.groups()))
    return scores if all(1.0 <= s <= 5.0 for s in scores) else None


def jpeg_round_trip(frame: np.ndarray, quality: int | None, passes: int) -> Any:
    """``frame`` (``uint8 (H, W, 3)`` RGB) as a PIL image after ``passes`` JPEG encodes at ``quality``.

    >>> image = jpeg_round_trip(np.full((8, 8, 3), 200, dtype=np.uint8), 95, 2)
    >>> image.mode, image.size
    ('RGB', (8, 8))
    """
    from PIL import Image

    image = Image.fromarray(np.asarray(frame, dtype=np.uint8)).convert("RGB")
    for _ in range(passes if quality is not None else 0):
        buffer = io.BytesIO()
        image.save(buffer, format="JPEG", quality=quality)
        buffer.seek(0)
        with Image.open(buffer) as decoded:
            image = decoded.convert("RGB")
    return image


@config_dataclass
class UnifiedRewardFlexOptions:
    """``options`` of a ``unified_reward_flex`` config, and the ones ``unified_reward`` shares."""

    judge_name: ClassVar[str] = "unified_reward_flex"
    max_new_tokens: int = 4096
    """Most tokens generated per query (the official client's ``max_tokens``; a reply cut short has no JSON)."""
    jpeg_quality: int | None = 95
    """JPEG quality of each frame's encodes (``null``: the decoded pixels go to the processor as they are)."""
    model_class: str = "AutoModelForImageTextToText"
    """transformers class that loads the model."""

    def __post_init__(self) -> None:
        name = self.judge_name
        if self.max_new_tokens < 1:
            raise ConfigError(f"{name} options: max_new_tokens must be >= 1, got {self.max_new_tokens}")
        if self.jpeg_quality is not None and not 1 <= self.jpeg_quality <= 100:
            raise ConfigError(f"{name} options: jpeg_quality must be in [1, 100], got {self.jpeg_quality}")


@config_dataclass
class UnifiedRewardOptions(UnifiedRewardFlexOptions):
    """``options`` of a ``unified_reward`` config."""

    judge_name: ClassVar[str] = "unified_reward"
    max_new_tokens: int = 256
    """Most tokens generated per clip (the official client asks 4096; a valid reply takes about 40)."""
    jpeg_passes: int = 2
    """JPEG round trips per frame: 2 as the official path (``cv2.imwrite``, then the client's re-encode)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.jpeg_passes < 0:
            raise ConfigError(f"{self.judge_name} options: jpeg_passes must be >= 0, got {self.jpeg_passes}")


class UnifiedRewardBase(FamilyJudge):
    """What UnifiedReward-2.0 and UnifiedReward-Flex share: the released families, frames at fixed indices
    (:attr:`frame_policy`, full size) sent as JPEG images, then the prompt, in one user turn of the checkpoint's chat template
    (thinking off for Qwen3.5), greedy generation, and a reply read by :meth:`verdict`."""

    reads: ClassVar[frozenset[str]] = frozenset({"video"})
    frame_policy: ClassVar[str]
    """The official frame rule (a sampling policy of :func:`mmjudge.media.video.sample_indices`)."""
    default_prompt: ClassVar[str]
    """The official prompt, with ``{prompt}`` where the caption goes."""
    released: ClassVar[tuple[str, ...]]
    """The model families the checkpoints are released in."""
    title: ClassVar[str]
    """The model's name in messages."""
    jpeg_passes: ClassVar[int] = 1
    """JPEG encodes per frame on the official path (the ``jpeg_passes`` option, where there is one, wins)."""

    def __init__(self, config: JudgeConfig) -> None:
        super().__init__(config)
        name = config.judge
        self.template = config.prompt_template or self.default_prompt
        if "{prompt}" not in self.template:
            raise ConfigError(
                f"{name} prompt_template must contain '{{prompt}}' (the caption goes there), got {self.template[:80]!r}"
            )
        if config.fps is not None:
            raise ConfigError(
                f"{name} samples a fixed number of frames per clip, as the official script does; got "
                f"fps={config.fps}: remove fps and set frames"
            )
        self.model: Any = None
        self.processor: Any = None

    @property
    def loads_as(self) -> str:
        """``options.model_class``."""
        return str(self.options.model_class)

    def check_family(self, family: ModelFamily) -> None:
        """Refuse a family the checkpoints are not released in, and ``max_pixels`` (the processor sizes)."""
        name = self.config.judge
        if family.name not in self.released:
            raise ConfigError(
                f"{name}: {self.title} checkpoints are {list(self.released)} models; {self.config.model!r} is "
                f"{family.title}"
            )
        if self.config.max_pixels is not None:
            raise ConfigError(
                f"{name}: the checkpoint's own image processor sizes each frame, as the official server does; "
                "remove max_pixels from the config"
            )

    def media_request(self, query: Query | None = None) -> MediaRequest:
        """``frames`` (default :attr:`default_frames`) full-size frames per clip at the official indices."""
        return MediaRequest(num_frames=self.config.frames or self.default_frames, policy=self.frame_policy)

    def load(self, device: str) -> None:
        """Load the model onto ``device`` and its processor."""
        self.model, self.processor = self.load_model(device)

    def messages(self, caption: str, images: int) -> list[dict[str, Any]]:
        """The official message: one user turn, ``images`` images first (clip by clip), then the prompt."""
        text = self.template.replace("{prompt}", caption)
        content: list[dict[str, Any]] = [{"type": "image"} for _ in range(images)]
        return [{"role": "user", "content": [*content, {"type": "text", "text": text}]}]

    def prompt_text(self, caption: str, images: int) -> str:
        """The chat-formatted text (placeholders unexpanded), with the generation prompt."""
        extra = {"enable_thinking": False} if self.family.name == "qwen3_5" else {}
        rendered: str = self.processor.apply_chat_template(
            self.messages(caption, images), tokenize=False, add_generation_prompt=True, **extra
        )
        return rendered

    def images(self, frames: np.ndarray) -> list[Any]:
        """One clip's frames as the model gets them (PIL images after the official JPEG encodes)."""
        passes = getattr(self.options, "jpeg_passes", self.jpeg_passes)
        return [jpeg_round_trip(frame, self.options.jpeg_quality, passes) for frame in frames]

    def clips(self, x: JudgeInput) -> list[np.ndarray]:
        """The frame stacks of ``x``'s clips, in the order the model sees them."""
        assert x.frames is not None
        return [x.frames]

    def encode(self, x: JudgeInput) -> dict[str, Any]:
        """One query's processor output (every clip's images, then the text; the processor's own resize)."""
        why = missing_media(x)
        if why is not None:
            raise MediaError(why)
        images = [image for frames in self.clips(x) for image in self.images(frames)]
        text = self.prompt_text(cast(ScoreQuery | ClipPairQuery, x.query).prompt, len(images))
        return dict(self.processor(text=[text], images=images, return_tensors="pt"))

    def model_inputs(self, x: JudgeInput) -> Any:
        """:meth:`encode` of one query, made in a decode worker (``None`` without its frames)."""
        return None if missing_media(x) is not None else self.encode(x)

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Generate each reply (greedy, one left-padded batch per media shape) and read it; a query without
        the frames it needs fails alone."""
        return with_media(self._judge, inputs)

    def _judge(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:

        if self.model is None:
            raise RuntimeError(f"{self.config.judge}: call load(device) before judge_batch")
        encodings = [x.model_inputs if x.model_inputs is not None else self.encode(x) for x in inputs]
        tokenizer = self.processor.tokenizer
        texts = generate_texts(
            self.model, tokenizer, encodings, self.options.max_new_tokens, pad_token_id(tokenizer)
        )
        return [self.verdict(x, text, enc) for x, text, enc in zip(inputs, texts, encodings, strict=True)]

    def verdict(self, x: JudgeInput, text: str, encoded: dict[str, Any]) -> Verdict:
        """The verdict of one reply."""
        raise NotImplementedError


@register_judge("unified_reward")
class UnifiedRewardJudge(UnifiedRewardBase):
    """UnifiedReward-2.0 pointwise judge for IsoVRBench clips (see the module docstring)."""

    answers: ClassVar[frozenset[type]] = frozenset({ScoreQuery})
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = UnifiedRewardOptions
    default_frames: ClassVar[int | None] = 8
    frame_policy = "int_scaled"
    default_prompt = APS_PROMPT
    released = FAMILIES
    title = "UnifiedReward-2.0"
    jpeg_passes = 2

    def verdict(self, x: JudgeInput, text: str, encoded: dict[str, Any]) -> Verdict:
        """The verdict of one reply: the heads, or ``no_judgment`` when the reply is not the APS format."""
        scores = parse_scores(text)
        extra: dict[str, Any] = {
            "scores": None if scores is None else scores._asdict(),
            "frames": 0 if x.frames is None else len(x.frames),
            "frame_indices": list(x.frame_indices),
            "tokens": int(encoded["input_ids"].shape[-1]),
        }
        diagnostics = Diagnostics(raw_text=text, extra=extra)
        if scores is None:
            error = f"no 'Alignment/Physics/Style Score (1-5): X' lines in the reply {text[:200]!r}"
            return Verdict(x.query.item_id, None, no_judgment=True, error=error, diagnostics=diagnostics)
        return Verdict(x.query.item_id, scores.heads(), diagnostics=diagnostics)
