"""``video_reward``: a VideoReward / VideoAlign-style reward model (Qwen2-VL backbone + linear reward head).

Protocol (VideoAlign's ``VideoVLMRewardInference``, Liu et al. 2025, as its code runs it; preprocessing
profile :data:`mmjudge.judges.profiles.VIDEOALIGN`):

1. **Frames** (through :meth:`VideoRewardJudge.media_request`; the runner decodes them and resizes them
   once while decoding): VideoAlign's vendored ``smart_nframes``: at 2 fps (or ``fps``),
   ``n = total / fps * 2`` clamped to ``[4, min(768, total)]`` (floored to even) and *rounded* to an even
   number, then capped at the clip length; ``frames: N`` takes ``N`` rounded to an even number (capped at
   the clip length); indices ``torch.linspace(0, total - 1, n).round()`` (81 frames at 16 fps ->
   ``[0, 9, 18, 27, 36, 44, 53, 62, 71, 80]``). A clip that gives fewer than 2 frames is refused, as there.
   Each frame is smart-resized with factor 28 to at most ``max_pixels`` (default 200,704, VideoReward's
   ``max_frame_pixels``; it *replaces* the computed cap, as in VideoAlign) and at least
   ``options.min_pixels`` (default 128 * 28 * 28) with torchvision's bicubic antialiased kernel. The
   processor is called with ``do_resize=False``.
2. **Prompt**: the clip as a video, then a rubric holding the three marker tokens ``<|VQ_reward|>``,
   ``<|MQ_reward|>``, ``<|TA_reward|>`` (the generation prompt in the text-alignment part), in the chat
   template with the generation prompt, right padded.
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

Weights: ``model`` names the base Qwen2-VL (e.g. ``Qwen/Qwen2-VL-2B-Instruct``) and
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
from mmjudge.judges._base import Judge
from mmjudge.judges._config import JudgeConfig
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.judges._videoalign_ckpt import DIMENSIONS, VideoAlignSettings
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
FACTOR = 28
"""Qwen2-VL's resize factor (patch 14, merge 2)."""
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
class VideoRewardJudge(Judge):
    """VideoAlign-style reward model for IsoVRBench clips."""

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

    def media_request(self, query: Query | None = None) -> MediaRequest:
        """VideoAlign's sampling (2 fps or ``frames``) and size (<= 200,704 px), resized while decoding (the
        same for every clip: ``query`` is not read)."""
        cfg = self.config
        return MediaRequest(
            num_frames=cfg.frames if cfg.fps is None else None,
            target_fps=None if cfg.frames is not None and cfg.fps is None else (cfg.fps or FPS),
            max_pixels=cfg.max_pixels or MAX_PIXELS,
            profile=self.profile,
            factor=FACTOR,
            min_pixels=self.options.min_pixels,
        )

    @property
    def positions(self) -> str:
        """The rotary position scheme the backbone is run with."""
        return self.options.positions or VIDEOALIGN.positions

    def build_model(self, device: str, settings: VideoAlignSettings) -> tuple[Any, Any]:
        """Base model + processor as VideoAlign builds them (markers added, embeddings resized, ``rm_head``)."""
        from mmjudge.judges._hf import load_model_and_processor
        from mmjudge.judges._videoalign_ckpt import attach_head

        model, processor = load_model_and_processor(self.config, device, self.options.model_class)
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
        from mmjudge.judges._videoalign_ckpt import find_checkpoint, load_weights, read_settings

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
        if rate_differs or data.get("max_frame_pixels") not in (None, ours.max_pixels):
            logger.warning(
                "video_reward: the checkpoint was trained with fps=%s, max_frame_pixels=%s; this config uses "
                "fps=%s, max_pixels=%s (set fps and max_pixels in the judge config to run it as VideoAlign does)",
                data.get("fps"),
                data.get("max_frame_pixels"),
                ours.target_fps,
                ours.max_pixels,
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

    def encode(self, inputs: Sequence[JudgeInput]) -> Any:
        """Right-padded processor batch of the clips (at the profile's size, ``do_resize=False``)."""
        from mmjudge.judges._vision_batch import processor_batch, video_metadata

        request = self.media_request()
        texts: list[str] = []
        videos: list[Any] = []
        metadata: list[dict[str, Any]] = []
        for one in inputs:
            if one.frames is None or len(one.frames) == 0:
                raise ConfigError(f"video_reward rates clips from their frames; {one.query.item_id!r} came without any")
            # frames from the runner are already at this size (a no-op); direct callers get the one resize
            videos.append(
                self.profile.fit_video(
                    one.frames,
                    FACTOR,
                    source_size=one.frame_size,
                    min_pixels=request.min_pixels,
                    max_pixels=request.max_pixels,
                )
            )
            metadata.append(video_metadata(one.frame_indices, one.fps, len(one.frames), one.total_frames))
            rubric = self.template.replace("{prompt}", cast(ScoreQuery, one.query).prompt)  # the kind it answers
            messages = [{"role": "user", "content": [{"type": "video"}, {"type": "text", "text": rubric}]}]
            texts.append(
                self.processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
            )
        return processor_batch(self.processor, texts, videos=videos, metadata=metadata, padding_side="right")

    def raw_rewards(self, batch: Mapping[str, Any]) -> Any:
        """Head outputs ``(B, 3)`` for VQ, MQ, TA (float32)."""
        import torch

        from mmjudge.judges._digits import last_positions

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
        from mmjudge.judges._hf import to_device

        if self.model is None:
            raise RuntimeError("video_reward: call load(device) before judge_batch")
        started = time.perf_counter()
        batch = to_device(self.encode(inputs), self.model.device)
        raw = self.raw_rewards(batch).double().cpu().tolist()
        means, stds = self.statistics()
        share = (time.perf_counter() - started) / len(inputs)
        tokens = batch["attention_mask"].sum(dim=-1).tolist()
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
