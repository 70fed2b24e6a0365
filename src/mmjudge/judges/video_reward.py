"""``video_reward``: a VideoReward / VideoAlign-style reward model (Qwen2-VL backbone + linear reward head).

Protocol (VideoAlign's ``VideoVLMRewardInference``, Liu et al. 2025, as its code runs it; preprocessing
profile :data:`mmjudge.judges.profiles.VIDEOALIGN`):

1. **Frames** (through :meth:`VideoRewardJudge.media_request`; the runner decodes them at full size and the
   judge resizes them once when it encodes the clip, in a decode worker where there are some): VideoAlign's vendored ``smart_nframes``: at 2 fps (or ``fps``),
   ``n = total / fps * 2`` clamped to ``[4, min(768, total)]`` (floored to even) and *rounded* to an even
   number, then capped at the clip length; ``frames: N`` takes ``N`` rounded to an even number (capped at
   the clip length); indices ``torch.linspace(0, total - 1, n).round()`` (81 frames at 16 fps ->
   ``[0, 9, 18, 27, 36, 44, 53, 62, 71, 80]``). A clip that gives fewer than 2 frames is refused, as there.
   Each frame is smart-resized with the model's factor (its processor's ``patch_size * merge_size``: 28 for
   Qwen2-VL) to at most ``max_pixels`` (default 200,704, VideoReward's
   ``max_frame_pixels``; it *replaces* the computed cap, as in VideoAlign) and at least
   ``options.min_pixels`` (default 128 * 28 * 28) with torchvision's bicubic antialiased kernel. The
   processor is called with ``do_resize=False``.
2. **Prompt**: the clip as a video, then a rubric holding the three marker tokens ``<|VQ_reward|>``,
   ``<|MQ_reward|>``, ``<|TA_reward|>`` (the generation prompt in the text-alignment part), in the chat
   template with the generation prompt; each clip encoded on its own (the Qwen2-VL family's processor path,
   :func:`mmjudge.judges._family.processor_inputs`, with VideoAlign's profile), then right padded into batches.
3. **Positions**: ``0 .. L-1`` on all three rotary axes (``options.positions: sequential``), what the
   backbone got under transformers 4.45 when VideoAlign called it with ``position_ids=None``, and so what
   its checkpoints were trained with; ``mrope`` lets transformers compute Qwen2-VL's 3-D positions.
4. **Reward**: the backbone's last hidden states go through the bias-free linear head ``rm_head``
   (``output_dim`` 1 or 3). With markers, dimension ``d`` is read at its marker (output 0 for
   ``output_dim = 1``, output ``d`` for ``output_dim = 3``); a checkpoint trained with
   ``reward_token = "last"`` reads the three outputs at the last real token.
5. **Scores**: ``z_d = (r_d - mean_d) / std_d`` with the checkpoint's ``inference_config`` statistics
   (no statistics, or ``use_norm: false``: ``z_d = r_d``); ``overall = z_VQ + z_MQ + z_TA``
   (:func:`reward_scores`). The verdict value is ``{"VQ", "MQ", "TA", "overall"}``; IsoVRBench scores a
   pair with the head of its dimension (motion -> MQ, text -> TA, visual -> VQ, overall -> overall).

Weights: ``model`` names the base Qwen2-VL (e.g. ``Qwen/Qwen2-VL-2B-Instruct``; its family is checked before the
run, and a checkpoint of another family is refused) and
``options.checkpoint`` the VideoAlign folder (``model_config.json`` + ``checkpoint-<step>/`` with a full
``model.pth`` or a LoRA adapter + ``non_lora_state_dict.pth``; legacy parameter names are remapped, see
:mod:`mmjudge.judges._videoalign_ckpt`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, cast

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError
from mmjudge.judges._chat import batches, pad_token_id
from mmjudge.judges._config import JudgeConfig
from mmjudge.judges._digits import last_positions
from mmjudge.judges._family import FamilyJudge, Media, processor_inputs
from mmjudge.judges._hf import to_device
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.judges._videoalign_ckpt import (
    DIMENSIONS,
    VideoAlignSettings,
    attach_head,
    find_checkpoint,
    load_weights,
    read_settings,
)
from mmjudge.judges.families import ModelFamily
from mmjudge.judges.profiles import VIDEOALIGN
from mmjudge.queries import Diagnostics, Query, ScoreQuery, Verdict

__all__ = ["DEFAULT_RUBRIC", "MARKERS", "VideoRewardJudge", "VideoRewardOptions", "reward_scores"]

logger = logging.getLogger(__name__)

MARKERS = {"VQ": "<|VQ_reward|>", "MQ": "<|MQ_reward|>", "TA": "<|TA_reward|>"}
"""Reward marker token of each dimension."""
FPS = 2.0
"""VideoAlign's sampling rate."""
MAX_PIXELS = 200_704
"""VideoAlign's per-frame pixel cap (448 * 448)."""
POSITIONS = ("sequential", "mrope")

DEFAULT_RUBRIC = """
Evaluate this AI-generated video on three separate criteria, each rated from 0 (worst) to 10 (best), independently of the others.

**Visual Quality:**
Judge the static quality of the frames: plausible structures without biological or logical errors, clarity and sharpness, richness of detail in textures and lighting, and aesthetic composition and color.

Please provide the ratings of Visual Quality: <|VQ_reward|>
END

**Motion Quality:**
Judge the dynamics: stable and continuous frames without sudden jumps, physically natural movement, smooth transitions, moving elements that blend with the background, clear motion, and enough movement (a largely static video rates low).

Please provide the ratings of Motion Quality: <|MQ_reward|>
END

**Text Alignment:**
Judge how well the video matches the text prompt: the subjects, their actions, the environment, the style and the camera movement it describes.

Textual prompt - {prompt}
Please provide the ratings of Text Alignment: <|TA_reward|>
END
"""
"""Rubric with the three markers (mmjudge's wording of VideoAlign's ``detailed_special`` structure).

For numbers comparable with VideoAlign's, paste the ``detailed_special`` template from VideoAlign's
``prompt_template.py`` into the config's ``prompt_template`` (``{text_prompt}`` is accepted as well as
``{prompt}``)."""


@config_dataclass
class VideoRewardOptions:
    """``options`` of a ``video_reward`` config."""

    checkpoint: str | None = None
    """VideoAlign checkpoint folder (``model_config.json`` + ``checkpoint-<step>/``); required."""
    checkpoint_step: int = -1
    """Which ``checkpoint-<step>`` to load (-1: the highest)."""
    checkpoint_revision: str | None = None
    """Revision of a Hub ``checkpoint`` (a repo id such as ``KwaiVGI/VideoReward``, not a local folder)."""
    min_pixels: int | None = None
    """Per-frame area floor; smaller frames are enlarged (``None``: VideoAlign's ``VIDEO_MIN_PIXELS``,
    128 * 28 * 28)."""
    positions: str | None = None
    """Rotary positions: ``sequential`` (VideoAlign's training; the default) or ``mrope``."""
    use_norm: bool = True
    """Z-score each dimension with the checkpoint's means and standard deviations."""
    means: dict[str, float] | None = None
    """Override the checkpoint's per-dimension means (keys VQ, MQ, TA)."""
    stds: dict[str, float] | None = None
    """Override the checkpoint's per-dimension standard deviations."""
    model_class: str = "AutoModelForImageTextToText"
    """transformers class that loads the base model."""

    def __post_init__(self) -> None:
        for name, stats in (("means", self.means), ("stds", self.stds)):
            if stats is not None and set(stats) != set(DIMENSIONS):
                raise ConfigError(
                    f"video_reward options.{name}: expected keys {list(DIMENSIONS)}, got {sorted(stats)}"
                )
        if self.stds is not None and any(v <= 0 for v in self.stds.values()):
            raise ConfigError(f"video_reward options.stds must be positive, got {self.stds}")
        if self.positions not in (None, *POSITIONS):
            raise ConfigError(
                f"video_reward options.positions: expected one of {list(POSITIONS)}, got {self.positions!r}"
            )


def reward_scores(
    raw: Mapping[str, float],
    means: Mapping[str, float] | None = None,
    stds: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Per-dimension z-scores (``(r - mean) / std``; raw when no statistics) and their sum ``overall``.

    >>> reward_scores({"VQ": 1.0, "MQ": 2.0, "TA": 3.0}, {"VQ": 0.0, "MQ": 1.0, "TA": 1.0}, {"VQ": 1.0, "MQ": 2.0, "TA": 4.0})
    {'VQ': 1.0, 'MQ': 0.5, 'TA': 0.5, 'overall': 2.0}
    """
    scores = {d: (raw[d] - means[d]) / stds[d] if means and stds else float(raw[d]) for d in DIMENSIONS}
    scores["overall"] = scores["VQ"] + scores["MQ"] + scores["TA"]
    return scores


@register_judge("video_reward")
class VideoRewardJudge(FamilyJudge):
    """VideoAlign-style reward model for IsoVRBench clips (a Qwen2-VL backbone: the family is checked before the
    run; its frames follow VideoAlign's own profile, which :attr:`profile` names, not the family's)."""

    answers: ClassVar[frozenset[type]] = frozenset({ScoreQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video"})
    version: ClassVar[str] = "2"
    Options: ClassVar[type] = VideoRewardOptions
    default_frames: ClassVar[int | None] = None
    profile = VIDEOALIGN

    def __init__(self, config: JudgeConfig) -> None:
        super().__init__(config)
        template = (config.prompt_template or DEFAULT_RUBRIC).replace("{text_prompt}", "{prompt}")
        if "{prompt}" not in template:
            raise ConfigError("video_reward prompt_template must contain '{prompt}' (or '{text_prompt}')")
        self.template = template
        self.model: Any = None
        self.processor: Any = None
        self.settings = VideoAlignSettings()
        self.marker_ids: dict[str, int] = {}

    def check_family(self, family: ModelFamily) -> None:
        """Refuse a backbone that is not Qwen2-VL (VideoAlign builds its reward model on Qwen2-VL)."""
        if family.name != "qwen2_vl":
            raise ConfigError(
                f"video_reward builds VideoAlign's reward model on a Qwen2-VL backbone (Qwen/Qwen2-VL-2B-Instruct); "
                f"{self.config.model!r} is {family.title}: set model to the Qwen2-VL checkpoint the VideoAlign "
                "checkpoint was trained from"
            )
        super().check_family(family)

    @property
    def loads_as(self) -> str:
        """The transformers class of the base model (``options.model_class``)."""
        return str(self.options.model_class)

    @property
    def max_pixels(self) -> int:
        """The per-frame pixel cap (the config's ``max_pixels``, else VideoAlign's 200,704)."""
        return int(self.config.max_pixels or MAX_PIXELS)

    def media_request(self, query: Query | None = None) -> MediaRequest:
        """VideoAlign's sampling (2 fps or ``frames``), frames at full size (the judge resizes them to
        VideoAlign's size for the model's factor; the same for every clip: ``query`` is not read)."""
        cfg = self.config
        return MediaRequest(
            num_frames=cfg.frames if cfg.fps is None else None,
            target_fps=None if cfg.frames is not None and cfg.fps is None else (cfg.fps or FPS),
            profile=self.profile,
        )

    @property
    def positions(self) -> str:
        """The rotary position scheme the backbone is run with."""
        return self.options.positions or VIDEOALIGN.positions

    def build_model(self, device: str, settings: VideoAlignSettings) -> tuple[Any, Any]:
        """Base model + processor as VideoAlign builds them (markers added, embeddings resized, ``rm_head``)."""

        model, processor = self.load_model(device)
        tokenizer = processor.tokenizer
        if settings.reward_token == "special":
            missing = [m for m in MARKERS.values() if m not in tokenizer.get_vocab()]
            if missing:
                tokenizer.add_special_tokens(
                    {"additional_special_tokens": missing}, replace_extra_special_tokens=False
                )
            model.resize_token_embeddings(len(tokenizer))
        return attach_head(model, settings.output_dim), processor

    def load(self, device: str) -> None:
        """Read the checkpoint settings, build the model and load the VideoAlign weights."""

        folder = self.checkpoint_folder()
        self.settings = read_settings(folder)
        self._check_data_settings()
        model, self.processor = self.build_model(device, self.settings)
        self.model = load_weights(model, find_checkpoint(folder, self.options.checkpoint_step), self.settings)
        self.model.eval()
        tokenizer = self.processor.tokenizer
        self.marker_ids = {d: int(tokenizer.convert_tokens_to_ids(m)) for d, m in MARKERS.items()}
        if self.settings.reward_token == "special" and not all(m in self.template for m in MARKERS.values()):
            raise ConfigError(
                f"video_reward: the checkpoint reads the markers {list(MARKERS.values())}; the prompt lacks some"
            )

    def checkpoint_folder(self) -> str:
        """``options.checkpoint`` as a local folder; a Hub repo id is fetched (``local_files_only`` respected)."""
        folder = self.options.checkpoint
        if not folder:
            raise ConfigError(
                "video_reward needs options.checkpoint: the VideoAlign checkpoint folder or Hub repo"
            )
        if Path(folder).exists() or folder.count("/") != 1 or folder.startswith((".", "/", "~")):
            return str(folder)
        from huggingface_hub import snapshot_download

        try:
            return str(
                snapshot_download(
                    folder,
                    revision=self.options.checkpoint_revision,
                    local_files_only=self.config.local_files_only,
                )
            )
        except (OSError, ValueError) as exc:  # every hub lookup error is an OSError
            raise ConfigError(
                f"video_reward: could not fetch the checkpoint {folder!r} from the Hub ({type(exc).__name__}: {exc}); "
                "download it and set options.checkpoint to the local folder"
            ) from exc

    def _check_data_settings(self) -> None:
        data = self.settings.data
        ours = self.media_request()
        rate_differs = ours.target_fps is not None and data.get("fps") not in (None, ours.target_fps)
        if rate_differs or data.get("max_frame_pixels") not in (None, self.max_pixels):
            logger.warning(
                "video_reward: the checkpoint was trained with fps=%s, max_frame_pixels=%s; this config uses "
                "fps=%s, max_pixels=%s (set fps and max_pixels in the judge config to run it as VideoAlign does)",
                data.get("fps"),
                data.get("max_frame_pixels"),
                ours.target_fps,
                self.max_pixels,
            )

    def statistics(self) -> tuple[dict[str, float] | None, dict[str, float] | None]:
        """The (means, stds) used for z-scoring, or ``(None, None)`` when scores stay raw."""
        if not self.options.use_norm:
            return None, None
        means = self.options.means or self.settings.means or None
        stds = self.options.stds or self.settings.stds or None
        if not (means and stds):
            return None, None
        return dict(means), dict(stds)

    def model_inputs(self, x: JudgeInput) -> Any:
        """One clip's processor output (:meth:`encode_one`), made in a decode worker (``None`` without frames)."""
        return None if x.frames is None or len(x.frames) == 0 else self.encode_one(x)

    def encode_one(self, one: JudgeInput) -> dict[str, Any]:
        """One clip's processor output: its frames resized once to VideoAlign's size for the model's factor, the
        rubric in the chat template, the processor called with ``do_resize=False`` (the family's path)."""
        if one.frames is None or len(one.frames) == 0:
            raise ConfigError(f"video_reward rates clips from their frames; {one.query.item_id!r} came without any")
        rubric = self.template.replace("{prompt}", cast(ScoreQuery, one.query).prompt)  # the kind it answers
        media = Media(video=one.frames, frame_indices=one.frame_indices, fps=one.fps, total_frames=one.total_frames,
                      frame_size=one.frame_size)  # fmt: skip
        messages = [{"role": "user", "content": media.content(rubric)}]
        text = self.processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return processor_inputs(self.processor, self.family, [text], [media], max_pixels=self.max_pixels,
                                min_pixels=self.options.min_pixels, padding_side="right", profile=self.profile)  # fmt: skip

    def batches(self, inputs: Sequence[JudgeInput]) -> list[tuple[list[int], dict[str, Any]]]:
        """``(positions, right-padded batch)`` pairs covering ``inputs`` (:func:`mmjudge.judges._chat.batches`)."""

        made = [x.model_inputs if x.model_inputs is not None else self.encode_one(x) for x in inputs]
        return batches(made, pad_token_id(self.processor.tokenizer), padding_side="right")

    def encode(self, inputs: Sequence[JudgeInput]) -> dict[str, Any]:
        """The right-padded batch of ``inputs`` (clips whose media tensors share a shape, as Qwen2-VL's always do)."""
        [(_, batch)] = self.batches(inputs)
        return batch

    def raw_rewards(self, batch: Mapping[str, Any]) -> Any:
        """Head outputs ``(B, 3)`` for VQ, MQ, TA (float32)."""
        import torch

        with torch.inference_mode():
            extra: dict[str, Any] = {}
            if self.positions == "sequential":
                ids = batch["input_ids"]
                extra["position_ids"] = torch.arange(ids.shape[1], device=ids.device).expand(3, *ids.shape)
            hidden = self.model.model(**batch, **extra).last_hidden_state
            rows = torch.arange(hidden.shape[0], device=hidden.device)
            if self.settings.reward_token == "special":
                ids = batch["input_ids"]
                found = [(ids == self.marker_ids[d]).int() for d in DIMENSIONS]
                if any(bool((f.sum(dim=-1) != 1).any()) for f in found):
                    raise ValueError("expected each reward marker exactly once per sequence")
                positions = torch.stack([f.argmax(dim=-1) for f in found], dim=1)
                heads = self.model.rm_head(hidden[rows[:, None], positions].float())
                if self.settings.output_dim == 1:
                    return heads[..., 0]
                return heads.diagonal(dim1=1, dim2=2)
            last = last_positions(batch["attention_mask"]).to(hidden.device)
            return self.model.rm_head(hidden[rows, last].float())[:, :3]

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Per-dimension z-scored rewards and their sum for a batch of clips."""

        if self.model is None:
            raise RuntimeError("video_reward: call load(device) before judge_batch")
        started = time.perf_counter()
        raw: list[list[float]] = [[] for _ in inputs]
        tokens = [0] * len(inputs)
        for group, encoded in self.batches(inputs):
            batch = to_device(encoded, self.model.device)
            counts = batch["attention_mask"].sum(dim=-1).tolist()
            for i, values, count in zip(group, self.raw_rewards(batch).double().cpu().tolist(), counts, strict=True):
                raw[i], tokens[i] = values, int(count)
        means, stds = self.statistics()
        share = (time.perf_counter() - started) / len(inputs)
        verdicts = []
        for one, values, count in zip(inputs, raw, tokens, strict=True):
            dims = dict(zip(DIMENSIONS, values, strict=True))
            extra = {
                "raw": dims,
                "normalized": means is not None,
                "frames": 0 if one.frames is None else len(one.frames),
                "tokens": int(count),
            }
            verdicts.append(
                Verdict(
                    item_id=one.query.item_id,
                    value=reward_scores(dims, means, stds),
                    diagnostics=Diagnostics(latency_s=share, extra=extra),
                )
            )
        return verdicts
