"""Model judges over a family (:mod:`mmjudge.judges.families`): resolving it, what to decode, one processor call.

:class:`FamilyJudge` is the base of the transformers VLM judges (``vlm_digit``, ``label_choice``,
``pairwise_describe``). It resolves the checkpoint's family from its ``config.json`` (``model_type``)
before the run (:meth:`FamilyJudge.check_model`, called by the runner's ``prepare_judge``), refuses a
config that cannot work with that family (frames as a video for a family whose processor takes no
video, ``max_pixels`` where the processor sizes the pixels itself), asks the runner for the frames the
family's reference picks, and encodes every input through :func:`processor_inputs`: the same rendered
chat text and the same ``processor(...)`` call the family's model card makes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from mmjudge.errors import ConfigError
from mmjudge.judges._base import Judge
from mmjudge.judges._hf import (
    hub_options,
    load_model_and_processor,
    load_pretrained,
    model_source,
    require_transformers,
)
from mmjudge.judges._types import MediaRequest
from mmjudge.judges._vision_batch import model_factor, processor_batch, video_metadata
from mmjudge.judges.families import ModelFamily, family_of
from mmjudge.judges.profiles import VisionProfile

__all__ = ["FamilyJudge", "Media", "processor_inputs", "resolve_family", "wants_video"]


def resolve_family(config: Any, model_class: str = "AutoModelForImageTextToText") -> ModelFamily:
    """The family of ``config.model`` (its ``config.json`` read with the config's revision and
    ``local_files_only``); a missing model, an unsupported family or a checkpoint ``model_class`` cannot
    load (a whole Qwen2.5-Omni model: its thinker loads) is a :class:`ConfigError`."""

    source = model_source(config)
    common = hub_options(config)
    model_config = load_pretrained("AutoConfig", source, **common)
    model_type = getattr(model_config, "model_type", None)
    family = family_of(model_type, source=repr(source))
    mapping = getattr(getattr(require_transformers(), model_class, None), "_model_mapping", None)
    if mapping is not None and type(model_config) not in mapping:
        raise ConfigError(
            f"{source!r} ({family.title}, model_type {model_type!r}) does not load as {model_class}"
            + (
                ": judge it with audio_visual, or save its thinker alone"
                if family.name == "qwen2_5_omni"
                else ": it hears and does not see; judge it with audio_language"
                if family.audio_only
                else ""
            )
        )
    return family


@dataclass
class Media:
    """One prompt's media, as decoded (``uint8`` arrays at the clip's or image's own size)."""

    images: Sequence[Any] = ()
    """Images (``uint8 (H, W, 3)`` arrays or PIL images), in placeholder order."""
    video: np.ndarray | None = None
    """``uint8 (T, H, W, 3)`` frames given as one video, or ``None``."""
    frame_indices: Sequence[int] = ()
    """Indices of the video's frames in the clip."""
    fps: float | None = None
    """The clip's frame rate."""
    total_frames: int | None = None
    """Frames in the whole clip."""
    frame_size: tuple[int, int] | None = None
    """The clip's own ``(height, width)`` (``None``: the frames' size)."""

    def content(self, text: str) -> list[dict[str, Any]]:
        """Chat content parts: the images, then the video, then the text (the order every family's card uses)."""
        parts: list[dict[str, Any]] = [{"type": "image"} for _ in self.images]
        if self.video is not None:
            parts.append({"type": "video"})
        return [*parts, {"type": "text", "text": text}]


def processor_inputs(
    processor: Any,
    family: ModelFamily,
    texts: Sequence[str],
    media: Sequence[Media],
    *,
    max_pixels: int | None = None,
    min_pixels: int | None = None,
    total_pixels: int | None = None,
    padding_side: str = "left",
    profile: VisionProfile | None = None,
) -> dict[str, Any]:
    """``processor(...)`` on rendered chat ``texts`` and their media, as ``family``'s reference calls it.

    Qwen families: images and frames resized once by the family's profile (or ``profile``, where the judge's own
    reference sizes them another way: VideoAlign), at the model's factor (:func:`~mmjudge.judges._vision_batch.model_factor`:
    the processor's ``patch_size * merge_size``), ``do_resize=False``, the video
    with qwen-vl-utils' metadata (:func:`mmjudge.judges._vision_batch.processor_batch`). Every other family:
    PIL images (one list per text) and ``uint8`` videos at their decoded size, the processor's own
    resize, ``do_sample_frames=False`` with the sampled indices as ``video_metadata`` (the frames are
    already the ones the processor's ``sample_frames`` picks).
    """
    from PIL import Image

    metadata = [
        video_metadata(m.frame_indices, m.fps, len(m.video), m.total_frames)
        for m in media
        if m.video is not None
    ]
    if family.profile is not None:
        profile, images, videos = profile or family.profile, [], []
        for m in media:
            if m.images:
                factor = model_factor(processor, video=False)
                images += [Image.fromarray(profile.fit_image(np.asarray(_rgb(i)), factor, min_pixels=min_pixels,
                                                             max_pixels=max_pixels)) for i in m.images]  # fmt: skip
            if m.video is not None:
                factor = model_factor(processor, video=True)
                videos.append(profile.fit_video(m.video, factor, source_size=m.frame_size, min_pixels=min_pixels,
                                                max_pixels=max_pixels, total_pixels=total_pixels))  # fmt: skip
        return dict(processor_batch(processor, texts, images=images or None, videos=videos or None,
                                    metadata=metadata or None, padding_side=padding_side))  # fmt: skip
    processor.tokenizer.padding_side = padding_side
    call: dict[str, Any] = {"text": list(texts), "padding": True, "return_tensors": "pt"}
    if any(m.images for m in media):
        call["images"] = [[_pil(i) for i in m.images] for m in media]
    videos = [m.video for m in media if m.video is not None]
    if videos:  # the clip's duration too: SmolVLM writes it into the prompt
        timed = [{**meta, "duration": meta["total_num_frames"] / meta["fps"]} for meta in metadata]
        call.update(videos=videos, video_metadata=timed, do_sample_frames=False)
    return dict(processor(**call))


def _rgb(image: Any) -> Any:
    return image.convert("RGB") if hasattr(image, "convert") else image


def _pil(image: Any) -> Any:
    from PIL import Image

    return _rgb(image) if hasattr(image, "convert") else Image.fromarray(np.asarray(image, dtype=np.uint8))


def wants_video(frames_as: str, family: ModelFamily) -> bool:
    """Whether ``frames_as`` (``video``, ``images`` or ``auto``) gives a clip to ``family`` as one video.

    >>> from mmjudge.judges.families import family_of
    >>> wants_video("auto", family_of("gemma3")), wants_video("auto", family_of("internvl"))
    (False, True)
    """
    return frames_as == "video" or (frames_as == "auto" and family.video)


class FamilyJudge(Judge):
    """Base of the transformers VLM judges: a family per checkpoint, resolved before the run."""

    model_class: ClassVar[str] = "AutoModelForImageTextToText"
    """transformers class that loads the model."""

    _family: ModelFamily | None = None

    @property
    def family(self) -> ModelFamily:
        """The checkpoint's family (read from its ``config.json`` on first use)."""
        if self._family is None:
            family = resolve_family(self.config, self.loads_as)
            self.check_family(family)
            self._family = family
        return self._family

    @property
    def loads_as(self) -> str:
        """The transformers class the model loads with (:attr:`model_class` unless an option says)."""
        return self.model_class

    def check_model(self) -> None:
        """Resolve the family and refuse a config that cannot work with it (before the run)."""
        _ = self.family

    def wants_video(self, family: ModelFamily) -> bool:
        """Whether a clip's frames go to the model as one video (the options say; see the judges)."""
        return False

    def check_family(self, family: ModelFamily) -> None:
        """Refuse options that cannot work with ``family`` (a video for an image-only processor, a pixel
        cap where the processor sizes the pixels itself)."""
        if self.wants_video(family) and not family.video:
            raise ConfigError(
                f"{self.config.judge}: {family.title}'s processor takes no video; give the frames as images "
                "(options.frames_as: images, or options.as_video: false for vlm_digit)"
            )
        if family.profile is None and self.config.max_pixels is not None:
            raise ConfigError(
                f"{self.config.judge}: max_pixels sizes frames for the Qwen families; {family.title}'s processor "
                f"sizes its input itself ({family.reference}): remove max_pixels from the config"
            )

    @property
    def frames_as_video(self) -> bool:
        return self.wants_video(self.family)

    def frames_request(self, *, as_video: bool = False) -> MediaRequest:
        """The family's frames: a Qwen profile's rule (full size; the judge resizes), the processor's own
        ``sample_frames`` rule for a video, else uniformly sampled images (``linspace``)."""
        family, cfg = self.family, self.config
        num = None if cfg.fps is not None else (cfg.frames or self.default_frames)
        if as_video and family.profile is not None:
            return MediaRequest(num_frames=num, target_fps=cfg.fps, profile=family.profile)
        if as_video:
            return MediaRequest(num_frames=num, target_fps=cfg.fps, policy=family.frame_policy)
        return MediaRequest(num_frames=num, target_fps=cfg.fps, max_pixels=cfg.max_pixels)

    def load_model(self, device: str, model_class: str | None = None) -> tuple[Any, Any]:
        """The model (``model_class``, default :attr:`loads_as`) on ``device`` and its processor; the family
        checked on the loaded model."""

        model, processor = load_model_and_processor(self.config, device, model_class or self.loads_as)
        loaded = family_of(getattr(model.config, "model_type", None), source=repr(self.config.model))
        if loaded != self.family:
            raise ConfigError(f"{self.config.model!r} loaded as {loaded.title}, expected {self.family.title}")
        return model, processor
